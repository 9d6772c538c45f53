# title: Indexing, slicing and views
# 标题: 索引、切片与视图
# en: Slicing gives a window onto the same memory, not a copy.
# zh: 切片得到的是同一块内存上的“窗口”，而不是副本。

# %%
# en: Ten numbers arranged as 2 rows x 5 columns.
# zh: 十个数排成 2 行 × 5 列。
import torch

t = torch.arange(10).reshape(2, 5)

# %%
# en: One row: same storage, storage offset 0.
# zh: 取一行：同一块存储，偏移量为 0。
row = t[0]
second_row = t[1]
# en: The second row starts 5 elements in: storage offset 5.
# zh: 第二行从第 5 个元素开始：存储偏移量为 5。

# %%
# en: Columns 1 and 2 of every row: strides stay (5, 1), offset 1.
# zh: 每行的第 1、2 列：步长仍是 (5, 1)，偏移量为 1。
cols = t[:, 1:3]

# %%
# en: A slice that keeps the first row only.
# zh: 只保留第一行的切片。
sub = t[:1]

# %%
# en: Write through the view ... and t changes too!
# zh: 通过视图写入……原来的 t 也变了！
sub[0, 0] = 999
t_first = t[0, 0].item()

# %%
# en: clone() makes a private copy: new memory, new data_ptr.
# zh: clone() 复制一份独立的数据：新内存，新 data_ptr。
private = t[:1].clone()
private[0, 0] = -1
t_first_after_clone = t[0, 0].item()

# %%
# en: Stepping slices skip elements: the stride grows to 2.
# zh: 带步长的切片会跳过元素：步长变成 2。
every_other = t[0, ::2]

# %%
# en: Indexing with a list or a mask COPIES (advanced indexing).
# zh: 用列表或布尔掩码索引会复制数据（高级索引）。
picked = t[:, [0, 4]]
mask = t > 5
big = t[mask]
