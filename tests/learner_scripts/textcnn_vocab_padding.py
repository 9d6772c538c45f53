# https://github.com/AnubhavGupta3377/Text-Classification-Models-Pytorch/issues/3
# Word indices start at 1 (0 is kept for padding), but the embedding was sized len(vocab).
import torch
from torch import nn

sentences = ["the movie was great", "the plot was thin", "great cast"]
vocab = {}
for sentence in sentences:
    for word in sentence.split():
        vocab.setdefault(word, len(vocab) + 1)


def encode(sentence, length=5):
    ids = [vocab[w] for w in sentence.split()]
    return ids + [0] * (length - len(ids))


class TextCNN(nn.Module):
    def __init__(self, vocab_size, dim=8, classes=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.conv = nn.Conv1d(dim, 4, kernel_size=2)
        self.fc = nn.Linear(4, classes)

    def forward(self, x):
        embedded_sent = self.embeddings(x).permute(0, 2, 1)
        return self.fc(torch.relu(self.conv(embedded_sent)).max(dim=2).values)


model = TextCNN(len(vocab))
batch = torch.tensor([encode(s) for s in sentences])
y_pred = model(batch)
print(y_pred.shape)
