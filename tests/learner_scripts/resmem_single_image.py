# https://github.com/Brain-Bridge-Lab/resmem/issues/1
# A small memorability regressor: one image straight from the transform, fed to the model without a batch.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 6, kernel_size=5, stride=2),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(4),
    nn.Flatten(),
    nn.Linear(6 * 4 * 4, 1),
    nn.Sigmoid(),
)
model.eval()
image_x = torch.rand(3, 57, 57)
prediction = model(image_x)
print(float(prediction))
