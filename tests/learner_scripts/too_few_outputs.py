# https://github.com/TencentGameMate/gnn_cross_lingual/issues/5
# The label set grew to 15 intents (0 to 14), the classifier was left at num_labels = 12.
import torch
from torch import nn

torch.manual_seed(0)
num_labels = 12
intent_ids = torch.arange(15).repeat(2)
utterances = torch.randn(len(intent_ids), 24)

head = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, num_labels))
logits = head(utterances)
loss = nn.functional.cross_entropy(logits, intent_ids)
loss.backward()
print(loss.item())
