# https://github.com/fastai/fastai/issues/1352
# 33 training samples in batches of 4: the last batch holds one sample, which BatchNorm cannot normalise.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
features = torch.randn(33, 6)
targets = torch.randint(0, 2, (33,))
train_dl = DataLoader(TensorDataset(features, targets), batch_size=4, shuffle=True)

model = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
for xb, yb in train_dl:
    loss = nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("epoch done", loss.item())
