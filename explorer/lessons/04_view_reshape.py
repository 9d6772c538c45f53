# title: view vs reshape, and contiguity
# 标题: view 与 reshape，以及内存连续性
# en: Strides tell how many elements to skip to move one step along each dim.
# zh: 步长表示沿某一维走一步要跳过多少个元素。

# %%
# en: A 2 x 3 tensor stored row by row: strides (3, 1), contiguous.
# zh: 按行存储的 2 × 3 张量：步长 (3, 1)，内存连续。
import torch

a = torch.arange(6).reshape(2, 3)

# %%
# en: view() reinterprets the same memory with a new shape.
# zh: view() 用新的形状解读同一块内存。
flat = a.view(6)
three_by_two = a.view(3, 2)
# en: -1 means "work this dimension out for me".
# zh: -1 表示“这一维让 PyTorch 自己算”。
auto = a.view(-1, 2)

# %%
# en: Transpose only swaps the strides: (1, 3). Nothing moves in memory.
# zh: 转置只交换步长，变成 (1, 3)；内存里的数据没有移动。
at = a.t()
at_contiguous = at.is_contiguous()

# %%
# this cell fails on purpose: RuntimeError
# en: view cannot flatten a non-contiguous tensor.
# zh: view 无法把不连续的张量展平。
at_flat = at.view(6)

# %%
# en: Fix 1: contiguous() copies into row order, then view works.
# zh: 办法一：contiguous() 按行复制一份，之后 view 就能用。
at_copy = at.contiguous()
at_flat = at_copy.view(6)

# %%
# en: Fix 2: reshape() views when it can and copies when it must.
# zh: 办法二：reshape() 能共享就共享，不能就复制。
at_reshaped = at.reshape(6)
a_reshaped = a.reshape(3, 2)
# en: a_reshaped shares memory with a; at_reshaped does not.
# zh: a_reshaped 与 a 共享内存；at_reshaped 则不共享。

# %%
# en: The element count must match: 6 elements cannot become 4 x 2.
# zh: 元素总数必须一致：6 个元素变不成 4 × 2。
numel = a.numel()
