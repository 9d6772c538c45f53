# title: A tiny linear regression
# 标题: 一个极小的线性回归
# en: The whole training loop: forward, loss, backward, optimizer step.
# zh: 完整的训练闭环：前向、损失、反向、优化器更新。
# watch: loss, w, b

# %%
# en: 20 noisy points on the line y = 3x + 0.5.
# zh: 直线 y = 3x + 0.5 附近的 20 个带噪声的点。
import time

import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.randn(20, 1)

# %%
# en: Two parameters to learn, starting at zero.
# zh: 两个待学习的参数，从 0 开始。
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.1)

# %%
# en: Forward: a prediction for every point, then the mean squared error.
# zh: 前向：对每个点做预测，再算均方误差。
pred = x * w + b
loss = ((pred - y) ** 2).mean()

# %%
# en: Backward: fills w.grad and b.grad.
# zh: 反向：计算出 w.grad 和 b.grad。
loss.backward()
w_grad = w.grad.clone()
b_grad = b.grad.clone()

# %%
# en: Step: move each parameter against its gradient, then clear the gradients.
# zh: 更新：参数沿梯度反方向走一步，然后清空梯度。
optimizer.step()
optimizer.zero_grad()
w_after_one_step = w.item()

# %%
# en: Repeat the same four moves 100 times; watch the loss fall in the Watch tab.
# zh: 把这四步重复 100 次；在“监视”页看损失一路下降。
# en: time.sleep only slows the loop down, so the class can see it move.
# zh: time.sleep 只是让循环慢下来，好让大家看清它的变化。
losses = []
for _ in range(100):
    pred = x * w + b
    loss = ((pred - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    time.sleep(0.04)

# %%
# en: The learned values should be close to 3 and 0.5.
# zh: 学到的参数应该接近 3 和 0.5。
learned_w = w.item()
learned_b = b.item()
final_loss = losses[-1]

# %%
# en: Use the model without recording a graph.
# zh: 用训练好的模型做预测，不记录计算图。
with torch.no_grad():
    new_x = torch.tensor([[2.0]])
    new_y = new_x * w + b

# %%
# en: The same model with nn.Linear: its weight and bias are Parameters.
# zh: 用 nn.Linear 写同一个模型：weight 和 bias 都是 Parameter。
model = torch.nn.Linear(1, 1)
model_optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(100):
    model_loss = torch.nn.functional.mse_loss(model(x), y)
    model_optimizer.zero_grad()
    model_loss.backward()
    model_optimizer.step()
