# https://github.com/timesler/facenet-pytorch/pull/103
# A Dataset that flips half of its faces horizontally with np.flip, then hands them to torch.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class FaceDataset(Dataset):
    def __init__(self, faces):
        self.faces = faces

    def __len__(self):
        return len(self.faces)

    def __getitem__(self, i):
        face = self.faces[i]
        if i % 2 == 1:
            face = np.flip(face, axis=1)
        return torch.as_tensor(face)


faces = np.random.default_rng(0).random((4, 16, 16), dtype=np.float32)
loader = DataLoader(FaceDataset(faces), batch_size=2)
for batch in loader:
    print(batch.shape)
