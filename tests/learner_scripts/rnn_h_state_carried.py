# https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57
# An RNN regressor (sin -> cos) trained step by step, the hidden state handed from one step to the next.
import math

import torch
from torch import nn

torch.manual_seed(0)


class RNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(input_size=1, hidden_size=8, num_layers=1, batch_first=True)
        self.out = nn.Linear(8, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        return self.out(r_out), h_state


rnn = RNN()
optimizer = torch.optim.Adam(rnn.parameters(), lr=0.02)
loss_func = nn.MSELoss()
h_state = None
for step in range(3):
    start, end = step * math.pi, (step + 1) * math.pi
    steps = torch.linspace(start, end, 10)
    x = torch.sin(steps).view(1, 10, 1)
    y = torch.cos(steps).view(1, 10, 1)
    prediction, h_state = rnn(x, h_state)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
