# https://github.com/DEEP-PolyU/KEQA_WSDM19/issues/26
# The test questions were tokenised with the full tokenizer's ids (up to 30000), the model with a 500-word table.
import torch
from torch import nn

torch.manual_seed(0)


class EntityDetector(nn.Module):
    def __init__(self, words, dim=16):
        super().__init__()
        self.embed = nn.Embedding(words, dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, text):
        x = self.embed(text)
        return self.out(x)


model = EntityDetector(words=500)
question = torch.tensor([[101, 2054, 2003, 29871, 102]])
scores = model(question)
print(scores.shape)
