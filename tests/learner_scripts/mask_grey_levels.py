# https://github.com/milesial/Pytorch-UNet/issues/291
# Two-class segmentation whose masks were loaded as grey levels 0 and 255, not as class numbers.
import torch
from torch import nn

torch.manual_seed(0)
images = torch.rand(2, 3, 16, 16)
masks = (torch.rand(2, 16, 16) > 0.5).long() * 255

net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
criterion = nn.CrossEntropyLoss()
masks_pred = net(images)
loss = criterion(masks_pred, masks)
loss.backward()
print(loss.item())
