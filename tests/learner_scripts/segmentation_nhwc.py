# https://github.com/LeeJunHyun/Image_Segmentation/issues/29
# Images read with an image library come as [N, H, W, 3]; the U-Net's first conv reads [N, 3, H, W].
import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(0)
batch = rng.random((2, 64, 64, 3), dtype=np.float32)
masks = rng.integers(0, 2, (2, 64, 64))

unet_head = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
images = torch.from_numpy(batch)
targets = torch.from_numpy(masks)
logits = unet_head(images)
loss = nn.functional.cross_entropy(logits, targets)
print(loss.item())
