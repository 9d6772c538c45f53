# title: When a gradient is None: a checklist
# 标题: 梯度是 None 时：排查清单
# en: Four checks find most gradient problems: the weights, the inputs, detach(), the loss.
# zh: 四项检查能找出大多数梯度问题：参数、输入、detach()、损失。

# %%
# en: A tiny model; forward(cut=True) detaches the hidden layer, as a buggy model might.
# zh: 一个小模型；forward(cut=True) 会把隐藏层 detach，模拟一个有问题的模型。
import torch
from torch import nn

torch.manual_seed(0)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 4)
        self.out = nn.Linear(4, 1)

    def forward(self, x, cut=False):
        h = torch.relu(self.hidden(x))
        if cut:
            h = h.detach()
        return self.out(h)


model = Tiny()
x = torch.randn(5, 3)
y = torch.randn(5, 1)

# %%
# en: Check 1: do the weights have requires_grad=True? A frozen layer never learns.
# zh: 检查一：参数是否设置了 requires_grad=True？被冻结的层永远学不到东西。
weights_tracked = {name: p.requires_grad for name, p in model.named_parameters()}

# %%
# en: Check 2: the inputs. Data usually has requires_grad=False, and that is fine:
# zh: 检查二：输入。数据通常是 requires_grad=False，这没有问题：
# en: only the weights need gradients (the input only when you want d loss / d x).
# zh: 只有参数需要梯度（只有想求 d loss / d x 时，输入才需要）。
x_tracked = x.requires_grad

# %%
# en: Check 3: a detach() on the way cuts the graph: layers before it get no gradient.
# zh: 检查三：前向过程中的 detach() 会切断计算图：它之前的层拿不到梯度。
pred = model(x, cut=True)
loss = ((pred - y) ** 2).mean()
loss.backward()
hidden_grad = model.hidden.weight.grad
out_grad = model.out.weight.grad

# %%
# en: Without the cut, backward() reaches the first layer too.
# zh: 去掉切断之后，backward() 也能到达第一层。
model.zero_grad()
pred = model(x)
loss = ((pred - y) ** 2).mean()
loss.backward()
hidden_grad_fixed = model.hidden.weight.grad

# %%
# en: Check 4: the loss must be one number. A loss per sample is not.
# zh: 检查四：损失必须是一个数。每个样本各一个损失是不行的。
model.zero_grad()
per_sample = (model(x) - y) ** 2

# %%
# this cell fails on purpose: RuntimeError
# en: backward() on [5, 1] numbers: PyTorch does not know how to weigh them.
# zh: 对 [5, 1] 个数调用 backward()：PyTorch 不知道每个数该占多大分量。
per_sample.backward()

# %%
# en: Fix: reduce it to one number first, here the mean over the batch.
# zh: 修正：先把它归约成一个数，这里取整个批次的平均值。
scalar_loss = per_sample.mean()
scalar_loss.backward()
grad_after_mean = model.hidden.weight.grad
