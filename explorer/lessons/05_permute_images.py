# title: permute, transpose and images
# 标题: permute、transpose 与图像
# en: PyTorch stores images as [C, H, W]; Matplotlib and PIL want [H, W, C].
# zh: PyTorch 图像按 [通道, 高, 宽] 存储；Matplotlib 和 PIL 要 [高, 宽, 通道]。

# %%
# en: Build a small RGB picture from scratch: 3 channels, 24 rows, 32 columns.
# zh: 从零合成一张小 RGB 图：3 个通道，24 行，32 列。
import torch

H, W = 24, 32
ys = torch.linspace(0, 1, H).unsqueeze(1).expand(H, W)
xs = torch.linspace(0, 1, W).unsqueeze(0).expand(H, W)
# en: ys and xs are expanded: stride 0 along one dimension, no extra memory.
# zh: ys 和 xs 是 expand 出来的：某一维步长为 0，不占额外内存。

# %%
# en: Red grows to the right, green grows downwards, blue is a checkerboard.
# zh: 红色向右渐强，绿色向下渐强，蓝色是棋盘格。
rows = torch.arange(H).unsqueeze(1) // 4
columns = torch.arange(W).unsqueeze(0) // 4
checker = ((rows + columns) % 2).float()
img = torch.stack([xs, ys, checker])

# %%
# en: img is [C, H, W] = [3, 24, 32]: the layout a conv layer expects.
# zh: img 是 [C, H, W] = [3, 24, 32]，正是卷积层需要的布局。
channels, height, width = img.shape
red = img[0]

# %%
# en: permute(1, 2, 0) reorders to [H, W, C] for plotting.
# zh: permute(1, 2, 0) 把维度换成 [H, W, C]，方便画图。
img_hwc = img.permute(1, 2, 0)
# en: Same memory, strides shuffled, no longer contiguous.
# zh: 内存不变，步长被打乱，不再连续。
hwc_contiguous = img_hwc.is_contiguous()

# %%
# en: transpose swaps exactly two dimensions: H and W here (a mirror on the diagonal).
# zh: transpose 只交换两个维度：这里是高和宽（沿对角线翻转）。
img_transposed = img.transpose(1, 2)

# %%
# en: A batch of two images: [N, C, H, W].
# zh: 两张图组成一个批次：[N, C, H, W]。
dark = img * 0.5
batch_nchw = torch.stack([img, dark])

# %%
# en: Data loaders often give [N, H, W, C]; permute(0, 3, 1, 2) fixes it.
# zh: 数据集常给出 [N, H, W, C]；用 permute(0, 3, 1, 2) 转回来。
batch_nhwc = batch_nchw.permute(0, 2, 3, 1).contiguous()
back_to_nchw = batch_nhwc.permute(0, 3, 1, 2)

# %%
# en: 8-bit pixels: values 0..255, dtype uint8.
# zh: 8 位像素：取值 0 到 255，类型为 uint8。
img_u8 = (img_hwc * 255).round().to(torch.uint8)
