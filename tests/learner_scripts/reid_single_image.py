# https://github.com/michuanhaohao/reid-strong-baseline/issues/6
# Testing a re-identification network on one person crop: the transform gives [3, H, W], the net wants a batch.
import torch
from torch import nn

torch.manual_seed(0)


class ReIDNet(nn.Module):
    def __init__(self, num_features=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.embed = nn.Linear(16 * 16 * 8, num_features)

    def forward(self, x):
        x = self.backbone(x)
        x = x.view(x.size(0), -1)
        return self.embed(x)


model = ReIDNet()
model.eval()
crop = torch.rand(3, 64, 32)  # what transform(img) returns for one 64x32 crop
with torch.no_grad():
    feat = model(crop)
print(feat.shape)
