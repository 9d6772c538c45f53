# https://github.com/mikeizbicki/cmc-csci181-deeplearning/issues/7
# A CNN for a homework: the constructor is spelled _init_, so Python never calls it.
import torch
from torch import nn


class CNNModel(nn.Module):
    def _init_(self, num_classes=4):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        x = torch.relu(self.conv(x)).mean(dim=(2, 3))
        return self.fc(x)


model = CNNModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
scores = model(torch.rand(2, 3, 16, 16))
print(scores.shape)
