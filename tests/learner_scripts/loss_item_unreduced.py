# https://github.com/dillondavis/RecurrentAttentionConvolutionalNeuralNetwork/issues/4
# A per-sample loss (reduction="none") to weight hard examples, logged with .item() as if it were one number.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(6, 3)
criterion = nn.CrossEntropyLoss(reduction="none")
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
running_loss = 0.0
for step in range(3):
    x, y = torch.randn(5, 6), torch.randint(0, 3, (5,))
    per_sample = criterion(model(x), y)
    optimizer.zero_grad()
    per_sample.mean().backward()
    optimizer.step()
    running_loss += per_sample.item()
print(running_loss / 3)
