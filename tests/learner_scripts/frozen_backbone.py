# https://github.com/lxztju/pytorch_classification/issues/13
# Freezing the pretrained backbone with a loop that also froze the new classifier.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential()
model.add_module("backbone", nn.Sequential(nn.Linear(12, 32), nn.ReLU()))
model.add_module("classifier", nn.Linear(32, 3))

for param in model.parameters():
    param.requires_grad = False

optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
x, y = torch.randn(8, 12), torch.randint(0, 3, (8,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
print(loss.item())
