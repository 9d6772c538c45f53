# https://github.com/jcjohnson/pytorch-examples/issues/7
# A two-layer net trained with autograd by hand: the gradients are zeroed before the first backward().
import torch

torch.manual_seed(0)
N, D_in, H, D_out = 8, 10, 6, 2
x = torch.randn(N, D_in)
y = torch.randn(N, D_out)
w1 = torch.randn(D_in, H, requires_grad=True)
w2 = torch.randn(H, D_out, requires_grad=True)
learning_rate = 1e-3
for t in range(3):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    w1.grad.data.zero_()
    w2.grad.data.zero_()
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
print(loss.item())
