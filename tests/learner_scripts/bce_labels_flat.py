# https://www.iiask.com/34l57998.html
# A binary classifier: one sigmoid output per sample ([N, 1]) and the labels straight from the CSV ([N]).
import torch
from torch import nn

torch.manual_seed(0)
features = torch.randn(64, 5)
labels = (features[:, 0] > 0).float()

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(3):
    pred = model(features)
    loss = criterion(pred, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.3f}")
