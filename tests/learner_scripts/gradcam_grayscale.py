# https://github.com/jacobgil/pytorch-grad-cam/issues/141
# An RGB classifier asked to explain greyscale X-ray crops: one channel where the first conv wants three.
import torch
from torch import nn

torch.manual_seed(0)


class SmallResNet(nn.Module):
    def __init__(self, classes=2):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, kernel_size=7, stride=2, padding=3)
        self.relu = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        return self.fc(self.pool(x).flatten(1))


model = SmallResNet()
xray = torch.rand(1, 1, 100, 100)
scores = model(xray)
print(scores.argmax(1))
