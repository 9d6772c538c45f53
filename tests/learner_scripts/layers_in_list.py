# https://github.com/pytorch/pytorch/issues/715
# A depth chosen at run time: the hidden layers are kept in a plain Python list.
import torch
from torch import nn

torch.manual_seed(0)


class DeepMLP(nn.Module):
    def __init__(self, n_layers, width):
        super().__init__()
        self.hidden = [nn.Linear(width, width) for _ in range(n_layers)]

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return x


net = DeepMLP(n_layers=3, width=8)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
out = net(torch.randn(4, 8))
loss = out.pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
