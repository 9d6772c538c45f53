# https://androidkt.com/fix-runtimeerror-mat1-and-mat2-shapes-cannot-be-multiplied/
# A two-block CNN for MNIST whose last layer was sized by guess (1050) instead of 32 * 7 * 7.
import torch
from torch import nn

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(1, 16, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.conv2 = nn.Sequential(nn.Conv2d(16, 32, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.out = nn.Linear(1050, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = x.view(x.size(0), -1)
        output = self.out(x)
        return output, x


cnn = CNN()
images = torch.rand(2, 1, 28, 28)
output, features = cnn(images)
print(output.shape, features.shape)
