# https://github.com/LZGMatrix/BOP19_CDPN_2019ICCV/issues/4
# The loss compares the predicted class numbers (argmax) with the labels, instead of using the scores.
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(2):
    x = torch.randn(16, 10)
    y = torch.randint(0, 4, (16,))
    logits = model(x)
    pred = logits.argmax(dim=1).float()
    loss = criterion(pred, y.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
