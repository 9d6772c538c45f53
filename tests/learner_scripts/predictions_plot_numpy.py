# https://github.com/ClownW/Reinforcement-learning-with-PyTorch/issues/3
# After training a small regressor, its predictions are plotted next to the data.
import matplotlib
import torch
from torch import nn

matplotlib.use("Agg")
import matplotlib.pyplot as plt

torch.manual_seed(0)
xs = torch.linspace(-1, 1, 20).unsqueeze(1)
ys = 3 * xs + 0.1 * torch.randn(20, 1)
net = nn.Linear(1, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(5):
    loss = ((net(xs) - ys) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
plt.scatter(xs.numpy(), ys.numpy())
plt.plot(xs.numpy(), net(xs).numpy())
plt.close("all")
