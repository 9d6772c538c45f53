# title: Exploding gradients: a learning rate too high
# 标题: 梯度爆炸：学习率太大
# en: The same loop twice: a small learning rate settles, a large one blows up.
# zh: 同一个循环跑两次：学习率小就收敛，学习率太大就爆炸。
# watch: loss, w.grad

# %%
# en: 50 points on the line y = 2x, and one weight to learn.
# zh: 直线 y = 2x 上的 50 个点，只学一个权重。
import time

import torch

x = torch.linspace(-3, 3, 50)
y = 2 * x


def train(lr, steps=60):
    w = torch.zeros(1, requires_grad=True)
    losses, grad_norms = [], []
    for _ in range(steps):
        loss = ((w * x - y) ** 2).mean()
        if not torch.isfinite(loss):
            break
        w.grad = None
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        losses.append(loss.item())
        grad_norms.append(w.grad.norm().item())
        time.sleep(0.04)
    return w, losses, grad_norms


# %%
# en: lr = 0.05: each step moves w a little towards 2, and the loss falls.
# zh: lr = 0.05：每一步把 w 往 2 挪一点，损失不断下降。
w_small, small_losses, small_grads = train(lr=0.05)
w_small_value = w_small.item()

# %%
# en: lr = 0.5: each step jumps past 2, further every time; the gradient grows too.
# zh: lr = 0.5：每一步都跳过 2，而且越跳越远；梯度也越来越大。
# en: The Watch tab draws it on a log scale; tick "Compare with the previous run".
# zh: “监视”页用对数坐标画出来；勾选“与上一次运行对比”看两次的差别。
w_big, big_losses, big_grads = train(lr=0.5, steps=80)
blew_up_after = len(big_losses)
growth_per_step = big_grads[-1] / big_grads[-2]

# %%
# en: Why: the step multiplies the error by 1 - 2 * lr * mean(x**2) each time.
# zh: 原因：每一步都把误差乘以 1 - 2 * lr * mean(x**2)。
mean_square = (x**2).mean().item()
factor_small = abs(1 - 2 * 0.05 * mean_square)
factor_big = abs(1 - 2 * 0.5 * mean_square)
