# https://github.com/MaitreChen/openvino-lenet-sample/issues/1
# LeNet-5 as the paper draws it (32x32 inputs), trained on 28x28 MNIST digits.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
digits = torch.rand(16, 1, 28, 28)
targets = torch.randint(0, 10, (16,))
loss = F.cross_entropy(net(digits), targets)
loss.backward()
print(loss.item())
