# https://github.com/harshitbansal05/Image-Colorization/issues/1
# Colourisation: the L channel of a batch of images arrives as [N, H, W]; the first conv wants [N, 1, H, W].
import torch
from torch import nn

torch.manual_seed(0)


class ColorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU())
        self.to_ab = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, lightness):
        return torch.tanh(self.to_ab(self.encode(lightness)))


net = ColorNet()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(2):
    l_images = torch.rand(8, 32, 32)
    ab_images = torch.rand(8, 2, 32, 32) * 2 - 1
    ab_pred = net(l_images)
    loss = nn.functional.mse_loss(ab_pred, ab_images)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
