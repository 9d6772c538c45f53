# https://github.com/mrdbourke/pytorch-deep-learning/issues/763
# TinyVGG on 28x28 greyscale images: the classifier's in_features forgot the 7x7 left by two poolings.
import torch
from torch import nn

torch.manual_seed(0)


class TinyVGG(nn.Module):
    def __init__(self, input_shape, hidden_units, output_shape):
        super().__init__()
        self.block_1 = nn.Sequential(
            nn.Conv2d(input_shape, hidden_units, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.block_2 = nn.Sequential(
            nn.Conv2d(hidden_units, hidden_units, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(in_features=hidden_units, out_features=output_shape),
        )

    def forward(self, x):
        x = self.block_1(x)
        x = self.block_2(x)
        x = self.classifier(x)
        return x


model = TinyVGG(input_shape=1, hidden_units=10, output_shape=10)
batch = torch.rand(32, 1, 28, 28)
logits = model(batch)
print(logits.shape)
