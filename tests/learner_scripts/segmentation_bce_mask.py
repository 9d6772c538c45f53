# https://github.com/sunjesse/shape-attentive-unet/issues/8
# A one-class segmentation head predicts [N, 1, H, W]; the masks were loaded as [N, H, W].
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
scans = torch.rand(4, 1, 32, 32)
masks = (torch.rand(4, 32, 32) > 0.5).float()
loader = DataLoader(TensorDataset(scans, masks), batch_size=2)

net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 1), nn.Sigmoid())
crit = nn.BCELoss()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for scan, mask in loader:
    prob = net(scan)
    loss = crit(prob, mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("done", loss.item())
