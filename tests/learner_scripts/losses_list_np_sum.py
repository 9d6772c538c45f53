# https://github.com/zhuangdizhu/FedGen/issues/15
# Federated evaluation: each client's loss is kept as a tensor, then weighted with NumPy.
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
test_samples = [10, 20, 30]
test_losses = []
for n in test_samples:
    x, y = torch.randn(n, 4), torch.randn(n, 1)
    test_losses.append(((model(x) - y) ** 2).mean())
glob_loss = np.sum(test_losses) / len(test_losses)
print(glob_loss)
