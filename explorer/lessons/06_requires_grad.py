# title: requires_grad, no_grad and requires_grad_()
# 标题: requires_grad、no_grad 与 requires_grad_()
# en: requires_grad is the switch that makes a tensor remember how it was made.
# zh: requires_grad 是一个开关：打开后张量会记住自己是怎么算出来的。

# %%
# en: Plain tensors do not track anything.
# zh: 普通张量不记录任何运算。
import torch

torch.manual_seed(0)
plain = torch.tensor([1.0, 2.0, 3.0])
plain_doubled = plain * 2

# %%
# en: Before PyTorch 0.4 a tracked value was a Variable wrapped around a tensor.
# zh: PyTorch 0.4 之前，要追踪梯度得把张量包进 Variable。
# en: Since 0.4 they are one class: Variable(...) now just returns a Tensor.
# zh: 0.4 起二者合并成一个类：Variable(...) 现在直接返回 Tensor。
old_style = torch.autograd.Variable(torch.tensor(2.0), requires_grad=True)
old_style_is_tensor = type(old_style) is torch.Tensor
# en: Today's way: the switch is an argument of the tensor itself.
# zh: 现在的写法：开关就是张量自己的参数。
new_style = torch.tensor(2.0, requires_grad=True)

# %%
# en: Switch tracking on at creation: this is a leaf that wants a gradient.
# zh: 创建时打开追踪：这是一个需要梯度的叶子节点。
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# %%
# en: Results of w now carry a grad_fn: they are not leaves.
# zh: 由 w 算出的结果带有 grad_fn，不再是叶子节点。
w_doubled = w * 2
w_total = w_doubled.sum()

# %%
# en: Only floating point (and complex) tensors can require grad.
# zh: 只有浮点（和复数）张量才能设置 requires_grad。
counts = torch.tensor([1, 2, 3])
counts_can_track = counts.is_floating_point()

# %%
# en: requires_grad_() flips the switch in place on an existing tensor.
# zh: requires_grad_() 原地打开已有张量的开关。
bias = torch.zeros(3)
bias.requires_grad_()
with_bias = w + bias

# %%
# en: Inside no_grad nothing is recorded: use it for evaluation.
# zh: 在 no_grad 中不记录运算：评估和推理时使用。
with torch.no_grad():
    evaluated = w * 2 + bias
# en: Same numbers as before, but no grad_fn and requires_grad False.
# zh: 数值相同，但没有 grad_fn，requires_grad 为 False。

# %%
# en: detach() gives a view that shares memory but leaves the graph.
# zh: detach() 得到共享内存但脱离计算图的视图。
w_detached = w.detach()

# %%
# en: Turn tracking off again with requires_grad_(False).
# zh: 用 requires_grad_(False) 再把开关关掉。
bias.requires_grad_(False)
after_off = w_detached + bias
