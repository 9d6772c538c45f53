# https://github.com/udacity/deep-learning-v2-pytorch/issues/86
# A Fashion-MNIST MLP: the flattened batch went into a misspelled variable, the 4-D batch into the model.
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
train_images = torch.rand(128, 1, 28, 28)
train_labels = torch.randint(0, 10, (128,))
trainloader = DataLoader(TensorDataset(train_images, train_labels), batch_size=64)

model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(),
                      nn.Linear(256, 64), nn.ReLU(),
                      nn.Linear(64, 10), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

for e in range(2):
    running_loss = 0
    for images, labels in trainloader:
        imagees = images.view(1, -1)
        log_ps = model(images)
        loss = criterion(log_ps, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print("Training loss:", running_loss / len(trainloader))
