# https://github.com/surrogate-gradient-learning/pytorch-lif-autograd/issues/1
# MNIST digits kept as [batch, 28, 28] (the channel axis dropped when the array was loaded) into a conv net.
import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
digits = rng.random((100, 28, 28), dtype=np.float32)
labels = rng.integers(0, 10, 100)

conv_net = nn.Sequential(nn.Conv2d(1, 16, 7), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(16, 10))
x = torch.from_numpy(digits)
y = torch.from_numpy(labels)
scores = conv_net(x)
loss = nn.functional.cross_entropy(scores, y)
print(loss.item())
