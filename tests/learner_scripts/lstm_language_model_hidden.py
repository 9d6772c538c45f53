# https://github.com/quark0/darts/issues/56
# A word-level LSTM language model: the (h, c) state of one batch starts the next batch.
import torch
from torch import nn

torch.manual_seed(0)
vocab, emb, hid, bptt = 30, 8, 16, 5
corpus = torch.randint(0, vocab, (1, 26))

embedding = nn.Embedding(vocab, emb)
lstm = nn.LSTM(emb, hid, batch_first=True)
decoder = nn.Linear(hid, vocab)
params = list(embedding.parameters()) + list(lstm.parameters()) + list(decoder.parameters())
optimizer = torch.optim.SGD(params, lr=0.5)

hidden = (torch.zeros(1, 1, hid), torch.zeros(1, 1, hid))
for i in range(0, corpus.size(1) - 1 - bptt, bptt):
    data = corpus[:, i:i + bptt]
    targets = corpus[:, i + 1:i + 1 + bptt]
    output, hidden = lstm(embedding(data), hidden)
    loss = nn.functional.cross_entropy(decoder(output).reshape(-1, vocab), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.3f}")
