# https://github.com/BaiTheBest/SparseLLM/issues/13
# Gradient descent on a tensor by hand: the update is written in place on a leaf that requires grad.
import torch

torch.manual_seed(0)
target = torch.randn(4, 4)
s_batch = torch.zeros(4, 4, requires_grad=True)
s_learning_rate = 0.1
for it in range(3):
    loss_s = ((s_batch - target) ** 2).sum()
    loss_s.backward()
    s_batch -= s_learning_rate * s_batch.grad
    s_batch.grad.zero_()
print(loss_s.item())
