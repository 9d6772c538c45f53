# title: Creating tensors
# 标题: 创建张量
# en: Step through one cell at a time and watch the variable list.
# zh: 逐个单元格运行，观察变量列表的变化。

# %%
# en: Two imports are all we need today. first is a tensor to find in the variable list.
# zh: 今天只需要这两个库。first 是一个张量，可以在变量列表里找到它。
import numpy as np
import torch

torch.manual_seed(0)
first = torch.tensor([1.0, 2.0, 3.0])

# %%
# en: torch.tensor() copies your data and guesses the dtype.
# zh: torch.tensor() 复制数据，并自动推断 dtype。
ints = torch.tensor([1, 2, 3])
floats = torch.tensor([1, 2, 3], dtype=torch.float32)

# %%
# en: torch.Tensor (capital T) is the class: it gives the default dtype,
# zh: 大写的 torch.Tensor 是类本身：结果是默认的 dtype，
# en: float32 unless torch.set_default_dtype() changed it.
# zh: 除非用 torch.set_default_dtype() 改过，否则就是 float32。
from_class = torch.Tensor([1, 2, 3])

# %%
# en: torch.Tensor(2, 3) reads 2 and 3 as a SHAPE, not as data.
# zh: torch.Tensor(2, 3) 把 2 和 3 当作形状，而不是数据。
# en: The memory is not cleared: the values are leftovers. Use zeros().
# zh: 内存没有清零，里面是残留值。要全零请用 zeros()。
garbage = torch.Tensor(2, 3)

# %%
# en: Ready-made fillers: all zeros, all ones.
# zh: 现成的填充函数：全零、全一。
zeros = torch.zeros(2, 3)
ones = torch.ones(2, 3)

# %%
# en: Random fillers: randn is normal (mean 0, std 1), rand is uniform in [0, 1).
# zh: 随机填充：randn 服从标准正态分布，rand 在 [0, 1) 上均匀分布。
normal = torch.randn(2, 3)
uniform = torch.rand(2, 3)

# %%
# en: Scale and shift a normal sample: std 0.1, mean 5.
# zh: 对正态样本缩放和平移：标准差 0.1，均值 5。
shifted = 0.1 * torch.randn(2, 3) + 5

# %%
# en: from_numpy() does NOT copy: the tensor uses the array's memory.
# zh: from_numpy() 不复制：张量直接使用数组的内存。
arr = np.array([[1, 2], [3, 4]])
shared = torch.from_numpy(arr)
# en: Same address: look at data_ptr and the shared-memory column.
# zh: 地址相同：看 data_ptr 和共享内存一栏。

# %%
# en: An in-place change on the tensor shows up in the array too.
# zh: 对张量原地修改，数组也随之改变。
shared.add_(10)
arr_now = arr.copy()

# %%
# en: Want an independent copy? torch.tensor(arr) or .clone() copies.
# zh: 需要独立副本？用 torch.tensor(arr) 或 .clone()。
copied = torch.tensor(arr)
cloned = shared.clone()
cloned[0, 0] = -1
