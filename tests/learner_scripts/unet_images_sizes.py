# https://github.com/milesial/Pytorch-UNet/issues/285
# A folder of photos of different sizes, loaded as they are: fine with batch_size=1, not with 4.
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class PhotoDataset(Dataset):
    def __init__(self, sizes):
        self.sizes = sizes

    def __len__(self):
        return len(self.sizes)

    def __getitem__(self, i):
        h, w = self.sizes[i]
        return torch.rand(3, h, w), torch.zeros(h, w, dtype=torch.long)


dataset = PhotoDataset([(54, 38), (79, 58), (54, 38), (60, 60)])
loader = DataLoader(dataset, batch_size=4)
for imgs, true_masks in loader:
    print(imgs.shape)
