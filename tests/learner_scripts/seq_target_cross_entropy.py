# https://github.com/markhliu/DGAI/issues/7
# Next-word prediction: the LSTM gives [batch, seq_len, vocab] scores, cross_entropy wants the classes in dim 1.
import torch
from torch import nn

torch.manual_seed(0)
vocab, seq_len, batch = 20, 7, 3
embed = nn.Embedding(vocab, 8)
lstm = nn.LSTM(8, 16, batch_first=True)
head = nn.Linear(16, vocab)
loss_func = nn.CrossEntropyLoss()

inputs = torch.randint(0, vocab, (batch, seq_len))
targets = torch.randint(0, vocab, (batch, seq_len))
output, _ = lstm(embed(inputs))
logits = head(output)
loss = loss_func(logits, targets)
loss.backward()
print(loss.item())
