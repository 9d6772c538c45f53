# https://runebook.dev/en/docs/pytorch/generated/torch.nn.functional.binary_cross_entropy_with_logits
# Spam or not spam: logits [N, 1] from the model, labels made of whole numbers in a list ([N], int64).
import torch
from torch import nn

torch.manual_seed(0)
word_counts = torch.rand(6, 20)
is_spam = torch.tensor([0, 1, 1, 0, 1, 0])

classifier = nn.Linear(20, 1)
loss_fn = nn.BCEWithLogitsLoss()
logits = classifier(word_counts)
loss = loss_fn(logits, is_spam)
loss.backward()
print(loss.item())
