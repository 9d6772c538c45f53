# https://github.com/ankitajaiswal00/Try-First/issues/26
# The training script saved a checkpoint dictionary; the demo loads it as if it were the state dict.
import io

import torch
from torch import nn

torch.manual_seed(0)
generator = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))
optimizer = torch.optim.Adam(generator.parameters())

ckpt = io.BytesIO()
torch.save({"epoch": 12, "state_dict": generator.state_dict(), "optimizer": optimizer.state_dict()}, ckpt)
ckpt.seek(0)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))
model.load_state_dict(torch.load(ckpt))
print(model(torch.zeros(1, 4)))
