# https://github.com/deepchem/deepchem/issues/2323
# Labels read from a table come as a column [N, 1]; cross_entropy wants one class index per sample, [N].
import torch
from torch import nn

torch.manual_seed(0)
table = torch.randn(10, 5)
labels = torch.randint(0, 3, (10, 1))

model = nn.Linear(5, 3)
criterion = nn.CrossEntropyLoss()
outputs = model(table)
loss = criterion(outputs, labels)
loss.backward()
print(loss.item())
