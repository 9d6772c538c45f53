# https://github.com/osmr/imgclsmob/issues/13
# A residual block: the skip connection is added in place to the output of the ReLU.
import torch
from torch import nn

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        out += x
        return out


block = ResBlock(4)
images = torch.rand(2, 4, 8, 8)
loss = block(images).mean()
loss.backward()
print(block.conv1.weight.grad.abs().sum())
