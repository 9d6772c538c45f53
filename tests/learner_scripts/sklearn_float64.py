# https://github.com/pytorch/pytorch/issues/15436
# Features made with NumPy (float64) go straight into a model whose weights are float32.
import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
X = rng.normal(size=(60, 10))
y = (X[:, 0] > 0).astype(np.int64)
X_train = torch.from_numpy(X)
y_train = torch.from_numpy(y)


class SingleLayeredNetwork(nn.Module):
    def __init__(self, input_dimension, output_dimension):
        super().__init__()
        self.linear = nn.Linear(input_dimension, output_dimension)

    def forward(self, x):
        return self.linear(x)


model = SingleLayeredNetwork(10, 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
outputs = model(X_train)
loss = criterion(outputs, y_train)
loss.backward()
optimizer.step()
print(loss.item())
