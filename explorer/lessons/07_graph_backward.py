# title: The computation graph and backward()
# 标题: 计算图与 backward()
# en: Every tracked operation is written down; backward() replays the list in reverse.
# zh: 每一步被追踪的运算都会被记录下来；反向传播时沿着记录倒着走一遍。

# %%
# en: x is a leaf; y and z are built from it.
# zh: x 是叶子节点；y 和 z 由它计算得到。
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x * 3
z = y * y

# %%
# en: The graph: z <- MulBackward <- y <- MulBackward <- x.
# zh: 计算图：z ← MulBackward ← y ← MulBackward ← x。
x_is_leaf = x.is_leaf
y_is_leaf = y.is_leaf
z_made_by = type(z.grad_fn).__name__

# %%
# en: Walk back from z: dz/dy = 2y, dy/dx = 3, so dz/dx = 2 * 6 * 3 = 36.
# zh: 从 z 往回推：dz/dy = 2y，dy/dx = 3，所以 dz/dx = 2 × 6 × 3 = 36。
z.backward()
x_grad = x.grad

# %%
# en: Check by hand with the chain rule.
# zh: 用链式法则手算验证。
by_hand = 2 * y.item() * 3

# %%
# en: Only leaves keep .grad: y.grad is None (and PyTorch warns).
# zh: 只有叶子节点保留 .grad：y.grad 为 None（PyTorch 会给出警告）。
y_grad = y.grad

# %%
# en: Now a vector output: out has 3 elements, not 1.
# zh: 现在输出是向量：out 有 3 个元素，而不是 1 个。
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = v * v

# %%
# this cell fails on purpose: RuntimeError
# en: backward() needs a scalar, or a gradient to start from.
# zh: backward() 需要标量输出，否则要给出起始梯度。
out.backward()

# %%
# en: Give a starting gradient with out's shape: all ones.
# zh: 传入与 out 形状相同的起始梯度：全一。
out.backward(torch.ones_like(out))
v_grad = v.grad.clone()

# %%
# en: Gradients ADD UP: a second backward adds 2v again.
# zh: 梯度会累加：再反向一次，又加上一个 2v。
(v * v).sum().backward()
v_grad_accumulated = v.grad.clone()

# %%
# en: That is why training loops zero the gradients every step.
# zh: 所以训练循环每一步都要把梯度清零。
v.grad.zero_()
# en: x.grad is untouched: still 36.
# zh: x.grad 没有受到影响，仍然是 36。
final_x_grad = x.grad.item()
