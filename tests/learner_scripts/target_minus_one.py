# https://github.com/EricFillion/happy-transformer/issues/248
# Rows of the CSV without a label were read as -1; the loss gets them as class -1.
import torch
from torch import nn

torch.manual_seed(0)
values = torch.tensor([0, 2, -1, 1, 1, -1, 0, 2])
texts = torch.randn(8, 12)

model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 3))
loss_fn = nn.CrossEntropyLoss()
outputs = model(texts)
loss = loss_fn(outputs, values)
loss.backward()
print(loss.item())
