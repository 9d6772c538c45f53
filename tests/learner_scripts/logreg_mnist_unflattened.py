# https://github.com/facebookresearch/CrypTen/issues/487
# Logistic regression on MNIST-sized images: the batches come straight from the loader, never flattened.
import torch
from torch import nn

torch.manual_seed(0)


class LogisticRegression(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(784, 10)

    def forward(self, x):
        return self.linear(x)


model = LogisticRegression()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(2):
    images = torch.rand(100, 1, 28, 28)
    labels = torch.randint(0, 10, (100,))
    out = model(images)
    loss = criterion(out, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("last loss", loss.item())
