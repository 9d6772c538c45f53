# https://github.com/abhishekkrthakur/captcha-recognition-pytorch/issues/1
# Captchas with 6 or 7 characters: each label is a tensor of character codes, so the labels differ in length.
import torch
from torch.utils.data import DataLoader, Dataset

CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"


class CaptchaDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, idx):
        text = self.texts[idx]
        image = torch.rand(1, 20, 60)
        target = torch.tensor([CHARS.index(c) + 1 for c in text])
        return image, target


train_ds = CaptchaDataset(["3bd8f1", "x7k2m9p", "aa0b1c", "pq4r5s6"])
train_loader = DataLoader(train_ds, batch_size=2, shuffle=False)
for images, targets in train_loader:
    print(images.shape, targets.shape)
