# title: NumPy interop and shared memory
# 标题: 与 NumPy 互转及共享内存
# en: numpy() and from_numpy() share memory: a change on one side shows on the other.
# zh: numpy() 和 from_numpy() 共享内存：一边改动，另一边立刻可见。

# %%
# en: Tensor to NumPy: n is a view of t's memory (same data_ptr).
# zh: 张量转 NumPy：n 是 t 内存上的视图（data_ptr 相同）。
import numpy as np
import torch

t = torch.tensor([1.0, 2.0])
n = t.numpy()

# %%
# en: Change the array ... and the tensor changes too.
# zh: 修改数组……张量也跟着变了。
n[0] = 100.0
t_now = t.clone()

# %%
# en: NumPy to tensor: from_numpy and as_tensor share, torch.tensor copies.
# zh: NumPy 转张量：from_numpy 和 as_tensor 共享，torch.tensor 复制。
a = np.arange(6.0)
from_np = torch.from_numpy(a)
as_t = torch.as_tensor(a)
copied = torch.tensor(a)
# en: NumPy's default float64 stays float64.
# zh: NumPy 默认的 float64 仍然是 float64。

# %%
# en: A reversed NumPy view has a negative stride.
# zh: 反转的 NumPy 视图步长为负。
rev = a[::-1]

# %%
# this cell fails on purpose: ValueError
# en: from_numpy shares memory, but a tensor cannot have a negative stride.
# zh: from_numpy 要共享内存，但张量不能有负的步长。
rev_tensor = torch.from_numpy(rev)

# %%
# en: Copy first: rev.copy() has ordinary positive strides.
# zh: 先复制：rev.copy() 的步长是普通的正数。
rev_tensor = torch.from_numpy(rev.copy())

# %%
# en: A tensor that requires grad cannot go straight to NumPy.
# zh: 需要梯度的张量不能直接转成 NumPy。
p = torch.tensor([1.0, 2.0], requires_grad=True)

# %%
# this cell fails on purpose: RuntimeError
# en: numpy() on a tensor that requires grad.
# zh: 对需要梯度的张量调用 numpy()。
p_np = p.numpy()

# %%
# en: detach() works, but the array still shares p's memory.
# zh: detach() 可以，但数组仍与 p 共享内存。
p_view = p.detach().numpy()

# %%
# en: .cpu() of a tensor already on the CPU returns the very same tensor.
# zh: 对本来就在 CPU 上的张量调用 .cpu()，得到的就是它本身。
t_cpu = t.cpu()
cpu_is_t = t_cpu is t
# en: So t.cpu().numpy() copies nothing on a CPU: the array shares t's memory.
# zh: 所以在 CPU 上 t.cpu().numpy() 并没有复制：数组与 t 共享内存。
n_shared = t.cpu().numpy()
n_shared[1] = 7.0
t_after_cpu_numpy = t.clone()

# %%
# en: The safe export: clone, detach, move to CPU, then convert.
# zh: 安全的导出方式：复制、脱离计算图、搬到 CPU，再转换。
safe = p.clone().detach().cpu().numpy()
safe[0] = -5.0
p_after = p.detach().clone()
