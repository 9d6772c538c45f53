# https://github.com/jd730/OICR-pytorch/issues/26
# The number of boxes of a batch of two images, read as if the batch held one image.
import torch

num_boxes = torch.tensor([[2185.0, 480.0, 640.0], [1006.0, 1200.0, 1846.0]])
rois = torch.rand(2, 2185, 4)
nb = int(num_boxes[:, 0].item())
print(rois[:, :nb].shape)
