# https://github.com/tkalayci71/embedding-inspector/issues/22
# Plotting one row of a trained embedding table: the row still belongs to the autograd graph.
import matplotlib
import torch
from torch import nn

matplotlib.use("Agg")
import matplotlib.pyplot as plt

torch.manual_seed(0)
embedding = nn.Embedding(50, 16)
emb_vec = embedding.weight
u = 7
x = torch.arange(16)
plt.plot(x.numpy(), emb_vec[u].numpy())
plt.close("all")
print("plotted")
