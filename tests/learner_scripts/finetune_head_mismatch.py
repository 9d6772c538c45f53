# https://github.com/pytorch/vision/issues/3547
# Fine-tuning: a network pre-trained for 5 classes, reused for 3; the whole state dict is loaded as it is.
import io

import torch
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x))


# The pre-training run saved its weights (a file on disk in real life).
checkpoint_file = io.BytesIO()
torch.save(Classifier(num_classes=5).state_dict(), checkpoint_file)
checkpoint_file.seek(0)

model = Classifier(num_classes=3)
pretrained = torch.load(checkpoint_file)
model.load_state_dict(pretrained)
print(model(torch.randn(2, 8)).shape)
