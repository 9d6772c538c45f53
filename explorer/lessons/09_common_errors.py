# title: Common errors, on purpose
# 标题: 常见错误（故意触发）
# Each error cell fails on purpose; the cell after it shows the fix.
# 每个出错的格子都是故意的，紧随其后的格子给出修正方法。

# %%
# Set-up: small tensors for every example.
# 准备：每个例子都用小张量。
import torch

torch.manual_seed(0)
a = torch.randn(2, 3)
b = torch.randn(2, 3)

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：矩阵乘法形状不匹配。
# (2 x 3) @ (2 x 3): the inner sizes 3 and 2 differ.
# (2 × 3) @ (2 × 3)：中间的 3 和 2 对不上。
product = a @ b

# %%
# Fix: transpose b so the inner sizes match: (2 x 3) @ (3 x 2).
# 修正：转置 b 让中间维度一致：(2 × 3) @ (3 × 2)。
product = a @ b.T

# %%
# A linear layer has float32 weights; arange gives int64.
# 线性层的权重是 float32；arange 得到的是 int64。
layer = torch.nn.Linear(3, 2)
x_long = torch.arange(3)

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：Float 与 Long 类型不一致。
out = layer(x_long)

# %%
# Fix: convert the input with .float().
# 修正：用 .float() 转换输入。
out = layer(x_long.float())

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：对不连续的张量使用 view。
flat = a.T.view(-1)

# %%
# Fix: reshape() (or .contiguous().view()).
# 修正：用 reshape()（或 .contiguous().view()）。
flat = a.T.reshape(-1)

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：元素个数对不上，10 个元素变不成 4 × 4。
grid = torch.arange(10).view(4, 4)

# %%
# Fix: the shape's product must equal numel(): 2 x 5 = 10.
# 修正：各维乘积必须等于元素总数：2 × 5 = 10。
grid = torch.arange(10).view(2, 5)

# %%
# this cell fails on purpose: IndexError
# 本格故意出错：下标越界，grid 只有 2 行。
row = grid[5]

# %%
# One backward pass frees the graph's saved values.
# 一次反向传播后，计算图保存的中间值就被释放了。
w = torch.tensor(2.0, requires_grad=True)
loss = w * w
loss.backward()

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：对同一张图第二次 backward。
loss.backward()

# %%
# Fix: run the forward pass again to build a fresh graph.
# 修正：重新前向计算一次，建立新的计算图。
w.grad = None
loss = w * w
loss.backward()

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：原地修改需要梯度的叶子节点。
w.add_(1)

# %%
# Fix: update parameters inside no_grad (that is what optimizers do).
# 修正：在 no_grad 中更新参数（优化器就是这么做的）。
with torch.no_grad():
    w.add_(1)

# %%
# Class labels for a loss must be integers; these are floats.
# 损失函数的类别标签必须是整数，这里却是浮点数。
logits = torch.randn(2, 3)
labels = torch.tensor([0.0, 2.0])

# %%
# this cell fails on purpose: RuntimeError
# 本格故意出错：标签类型是 Float，应为 Long。
ce = torch.nn.functional.cross_entropy(logits, labels)

# %%
# Fix: class indices as int64 with .long().
# 修正：用 .long() 把类别下标转成 int64。
ce = torch.nn.functional.cross_entropy(logits, labels.long())

# %%
# Device mismatch ("expected all tensors to be on the same device") needs a GPU.
# 设备不一致的报错需要 GPU 才能复现。
# The habit that prevents it: choose one device, move model and data there.
# 预防的习惯：选定一个设备，把模型和数据都搬过去。
device = torch.device("cpu")
layer = layer.to(device)
inputs = x_long.float().to(device)
on_device = layer(inputs)

# %%
# A silent one: no error, but the gradient is None.
# 一个不报错的坑：没有异常，但梯度是 None。
forgot = torch.tensor(3.0)
tracked = torch.tensor(1.0, requires_grad=True)
product_loss = forgot * tracked
product_loss.backward()
# forgot never had requires_grad=True, so forgot.grad stays None.
# forgot 从来没有打开 requires_grad，所以 forgot.grad 一直是 None。
forgot_grad = forgot.grad
tracked_grad = tracked.grad
