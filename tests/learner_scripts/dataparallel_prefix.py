# https://github.com/abeardear/pytorch-YOLO-v1/issues/4
# Trained with nn.DataParallel, evaluated without it: every saved key starts with "module.".
import io

import torch
from torch import nn

torch.manual_seed(0)


def make_net():
    return nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 2))


saved = io.BytesIO()
trained = nn.DataParallel(make_net())
torch.save(trained.state_dict(), saved)
saved.seek(0)

net = make_net()
state_dict = torch.load(saved)
net.load_state_dict(state_dict)
net.eval()
print(net(torch.rand(1, 3, 8, 8)))
