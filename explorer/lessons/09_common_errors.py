# title: Common errors, on purpose
# 标题: 常见错误（故意触发）
# en: Each error cell fails on purpose; the cell after it shows the fix.
# zh: 每个出错的单元格都是故意的，紧随其后的单元格给出修正方法。

# %%
# en: Set-up: small tensors for every example.
# zh: 准备：每个例子都用小张量。
import torch

torch.manual_seed(0)
a = torch.randn(2, 3)
b = torch.randn(2, 3)

# %%
# this cell fails on purpose: RuntimeError
# en: (2 x 3) @ (2 x 3): the inner sizes 3 and 2 differ.
# zh: (2 × 3) @ (2 × 3)：中间的 3 和 2 对不上。
product = a @ b

# %%
# en: Fix: transpose b so the inner sizes match: (2 x 3) @ (3 x 2).
# zh: 修正：转置 b 让中间维度一致：(2 × 3) @ (3 × 2)。
product = a @ b.T

# %%
# en: A linear layer has float32 weights; arange gives int64.
# zh: 线性层的权重是 float32；arange 得到的是 int64。
layer = torch.nn.Linear(3, 2)
x_long = torch.arange(3)

# %%
# this cell fails on purpose: RuntimeError
# en: The layer's weights are float32, the input is int64 (Long).
# zh: 网络层的权重是 float32，输入却是 int64（Long）。
out = layer(x_long)

# %%
# en: Fix: convert the input with .float().
# zh: 修正：用 .float() 转换输入。
out = layer(x_long.float())

# %%
# this cell fails on purpose: RuntimeError
# en: a.T is not contiguous, and view() cannot flatten it.
# zh: a.T 在内存中不连续，view() 无法把它展平。
flat = a.T.view(-1)

# %%
# en: Fix: reshape() (or .contiguous().view()).
# zh: 修正：用 reshape()（或 .contiguous().view()）。
flat = a.T.reshape(-1)

# %%
# this cell fails on purpose: RuntimeError
# en: 10 elements cannot become 4 x 4 = 16.
# zh: 10 个元素变不成 4 × 4 = 16 个。
grid = torch.arange(10).view(4, 4)

# %%
# en: Fix: the shape's product must equal numel(): 2 x 5 = 10.
# zh: 修正：各维乘积必须等于元素总数：2 × 5 = 10。
grid = torch.arange(10).view(2, 5)

# %%
# this cell fails on purpose: IndexError
# en: grid has only 2 rows, so index 5 is out of range.
# zh: grid 只有 2 行，所以索引 5 越界了。
row = grid[5]

# %%
# en: Fix: an index from 0 to 1 (or -1 for the last row).
# zh: 修正：用 0 到 1 之间的索引（或用 -1 取最后一行）。
row = grid[1]

# %%
# en: One backward pass frees the graph's saved values.
# zh: 一次反向传播后，计算图保存的中间值就被释放了。
w = torch.tensor(2.0, requires_grad=True)
loss = w * w
loss.backward()

# %%
# this cell fails on purpose: RuntimeError
# en: A second backward() through the same graph.
# zh: 对同一张计算图第二次调用 backward()。
loss.backward()

# %%
# en: Fix: gradients add up, so clear w.grad first (else it would double);
# zh: 修正：梯度会累加，所以先清空 w.grad（否则梯度会翻倍）；
# en: then run the forward pass again to build a fresh graph.
# zh: 再重新做一次前向计算，建立新的计算图。
w.grad = None
loss = w * w
loss.backward()

# %%
# this cell fails on purpose: RuntimeError
# en: An in-place change of a leaf that requires grad.
# zh: 原地修改需要梯度的叶子节点。
w.add_(1)

# %%
# en: Fix: update parameters inside no_grad (that is what optimizers do).
# zh: 修正：在 no_grad 中更新参数（优化器就是这么做的）。
with torch.no_grad():
    w.add_(1)

# %%
# en: Class labels for a loss must be integers; these are floats.
# zh: 损失函数的类别标签必须是整数，这里却是浮点数。
logits = torch.randn(2, 3)
labels = torch.tensor([0.0, 2.0])

# %%
# this cell fails on purpose: RuntimeError
# en: The labels are Float; class indices must be Long (int64).
# zh: 标签是 Float 类型；类别索引必须是 Long（int64）。
ce = torch.nn.functional.cross_entropy(logits, labels)

# %%
# en: Fix: class indices as int64 with .long().
# zh: 修正：用 .long() 把类别索引转成 int64。
ce = torch.nn.functional.cross_entropy(logits, labels.long())

# %%
# en: Device mismatch ("expected all tensors to be on the same device") needs a GPU.
# zh: 设备不一致的报错需要 GPU 才能复现。
# en: The habit that prevents it: choose one device, move model and data there.
# zh: 预防的习惯：选定一个设备，把模型和数据都搬过去。
device = torch.device("cpu")
layer = layer.to(device)
inputs = x_long.float().to(device)
on_device = layer(inputs)

# %%
# en: A silent one: no error, but the gradient is None.
# zh: 一个不报错的坑：没有异常，但梯度是 None。
forgot = torch.tensor(3.0)
tracked = torch.tensor(1.0, requires_grad=True)
product_loss = forgot * tracked
product_loss.backward()
# en: forgot never had requires_grad=True, so forgot.grad stays None.
# zh: forgot 从来没有打开 requires_grad，所以 forgot.grad 一直是 None。
forgot_grad = forgot.grad
tracked_grad = tracked.grad
