# https://github.com/pytorch/examples/issues/277
# A custom layer keeps its weights as plain tensors taken from a pretrained dict: nothing is registered.
import torch
from torch import nn

torch.manual_seed(0)
pretrained = {"w": torch.randn(10, 25), "b": torch.zeros(10)}


class DecompNet(nn.Module):
    def __init__(self, params):
        super().__init__()
        self.weight = params["w"].clone().requires_grad_(True)
        self.bias = params["b"].clone().requires_grad_(True)

    def forward(self, x):
        return x @ self.weight.T + self.bias


model = DecompNet(pretrained)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(3, 25)).pow(2).mean()
loss.backward()
optimizer.step()
print(loss.item())
