# https://github.com/649453932/Bert-Chinese-Text-Classification-Pytorch/issues/96
# Thirteen categories numbered 1 to 13 in the label file, a classifier with 13 outputs.
import torch
from torch import nn

torch.manual_seed(0)
label_file = [3, 13, 1, 7, 13, 2, 9, 5]
features = torch.randn(len(label_file), 32)
labels = torch.tensor(label_file)

classifier = nn.Linear(32, 13)
criterion = nn.CrossEntropyLoss()
logits = classifier(features)
loss = criterion(logits, labels)
loss.backward()
print(loss.item())
