# title: The three essentials: shape, dtype, device
# 标题: 三件套：形状、数据类型、设备
# en: Most bugs come down to one of these three. Check them first.
# zh: 大多数错误都出在这三样上，先检查它们。

# %%
# en: A 4 x 5 matrix of random numbers.
# zh: 一个 4 × 5 的随机矩阵。
import torch

torch.manual_seed(0)
t = torch.randn(4, 5)
shape = t.shape
dtype = t.dtype
device = t.device

# %%
# en: The number of dimensions (dim()): a scalar has 0, a vector 1, a matrix 2.
# zh: 维数（dim()）就是维度的个数：标量 0 维，向量 1 维，矩阵 2 维。
scalar = torch.tensor(3.5)
vector = torch.arange(4)
matrix = torch.zeros(2, 3)
ranks = [scalar.dim(), vector.dim(), matrix.dim()]

# %%
# en: A batch of 4 RGB images, 16 x 16: [batch, channels, height, width].
# zh: 4 张 16 × 16 的 RGB 图片：[批次, 通道, 高, 宽]。
batch = torch.zeros(4, 3, 16, 16)
# en: A single image lacks the batch dimension; unsqueeze(0) adds it.
# zh: 单张图片缺少批次维度，用 unsqueeze(0) 补上。
single = torch.zeros(3, 16, 16)
single_as_batch = single.unsqueeze(0)

# %%
# en: Default dtypes: float32 for decimals, int64 for whole numbers.
# zh: 默认类型：小数是 float32，整数是 int64。
f = torch.tensor([1.0, 2.0])
i = torch.tensor([1, 2])
b = torch.tensor([True, False])

# %%
# en: Converting makes a new tensor; itemsize and nbytes change.
# zh: 类型转换会生成新张量，itemsize 和 nbytes 都会变。
as_float = i.float()
as_half = f.half()
as_double = f.to(torch.float64)

# %%
# en: Devices: everything here lives on the CPU.
# zh: 设备：这里所有张量都在 CPU 上。
on_cpu = torch.ones(3, device="cpu")
# en: On a GPU machine: x.to("cuda"); model and data must share one device.
# zh: 有 GPU 时用 x.to("cuda")；模型和数据必须在同一设备上。
moved = on_cpu.to("cpu")
# en: Already on the CPU: .to() hands back the very same tensor (same data_ptr).
# zh: 已经在 CPU 上：.to() 直接返回同一个张量（data_ptr 相同）。
