# https://github.com/pytorch/pytorch/issues/41323
# Keeping the scores strictly between two thresholds, written as a school-maths inequality.
import torch

torch.manual_seed(0)
scores = torch.rand(10)
low, high = 0.25, 0.75
keep = low < scores < high
print(scores[keep])
