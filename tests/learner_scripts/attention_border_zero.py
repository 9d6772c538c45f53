# https://github.com/AggMan96/RK-Net/issues/9
# An attention map whose border is set to zero in place, after the ReLU that made it.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Polish(nn.Module):
    def __init__(self):
        super().__init__()
        self.att_conv = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, feats):
        att = F.relu(self.att_conv(feats))
        att[:, :, 0, :] = 0
        att[:, :, -1, :] = 0
        return feats * att


polish = Polish()
feature_map = torch.rand(2, 8, 12, 12)
weighted = polish(feature_map)
weighted.sum().backward()
print(polish.att_conv.weight.grad.shape)
