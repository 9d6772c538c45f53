"""Correct training loops get no hint at all: every lesson (cell by cell, as Shift+Enter runs them, and whole),
loops of our own in the shapes real code uses, and loops written after public tutorials and examples."""

from __future__ import annotations

import pytest

from explorer.core.errors.explain import hints
from explorer.lessons import LESSONS, lesson_cells
from tests.core.errors.harness import run

DATA = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "x = torch.randn(64, 4)\nlabels = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()\n"
        "y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]])\n"
        "batches = list(zip(x.split(16), labels.split(16)))\nval_batches = batches[:2]\n")
NET = "model = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))\n"

CORRECT = {
    # A classifier trained and tested with functions, the shape of the official MNIST example
    # (github.com/pytorch/examples, mnist/main.py): train() sets train mode, test() eval + no_grad.
    "classifier_functions": DATA + NET + """optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)

def train(model, batches, optimizer):
    model.train()
    for data, target in batches:
        optimizer.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, target)
        loss.backward()
        optimizer.step()

def test(model, batches):
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in batches:
            output = model(data)
            test_loss += F.cross_entropy(output, target, reduction="sum").item()
            correct += (output.argmax(dim=1) == target).sum().item()
    return test_loss, correct

for epoch in range(3):
    train(model, batches, optimizer)
    result = test(model, val_batches)
""",
    # A regression with nn.Linear, zero_grad at the end of the step, the running loss as a number.
    "regression": DATA + """model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
losses = []
for epoch in range(40):
    prediction = model(x)
    loss = F.mse_loss(prediction, y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    losses.append(loss.item())
""",
    # Evaluating each epoch, train() again at the top of the next; a validation total made of numbers.
    "eval_each_epoch": DATA + NET + """optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
history = []
for epoch in range(3):
    model.train()
    running_loss = 0.0
    for xb, yb in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
        running_loss += loss.item() * xb.size(0)
    model.eval()
    val_loss = 0.0
    with torch.no_grad():
        for xb, yb in val_batches:
            logits = model(xb)
            val_loss += F.cross_entropy(logits, yb).item()
            probs = F.softmax(logits, dim=1)
    history.append((running_loss, val_loss))
""",
    # An lr scheduler stepped once per epoch, after the optimizer.
    "scheduler": DATA + NET + """optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(4):
    model.train()
    for xb, yb in batches:
        optimizer.zero_grad()
        F.cross_entropy(model(xb), yb).backward()
        optimizer.step()
    scheduler.step()
""",
    # Gradient accumulation done right: zero_grad (and step) every k batches.
    "accumulation": DATA + NET + """optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
accumulate = 2
model.train()
optimizer.zero_grad()
for i, (xb, yb) in enumerate(batches):
    loss = F.cross_entropy(model(xb), yb) / accumulate
    loss.backward()
    if (i + 1) % accumulate == 0:
        optimizer.step()
        optimizer.zero_grad()
""",
    # Accumulating over micro-batches, one step per epoch: the inner loop only runs backward.
    "accumulation_outer_step": DATA + NET + """optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    optimizer.zero_grad()
    for xb, yb in batches:
        (F.cross_entropy(model(xb), yb) / len(batches)).backward()
    optimizer.step()
""",
    # set_to_none, and clearing by hand.
    "set_to_none": DATA + """model = nn.Linear(4, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(20):
    optimizer.zero_grad(set_to_none=True)
    F.mse_loss(model(x), y).backward()
    optimizer.step()
for step in range(20):
    for p in model.parameters():
        p.grad = None
    F.mse_loss(model(x), y).backward()
    optimizer.step()
""",
    # Gradient descent by hand, as the tutorial's autograd chapter writes it.
    "manual_sgd": DATA + """w = torch.zeros(4, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(50):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        b -= 0.05 * b.grad
        w.grad.zero_()
        b.grad.zero_()
""",
    # Binary classification: logits into BCEWithLogitsLoss, sigmoid only to read probabilities.
    "bce_logits": DATA + """target = (y > 0).float()
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.BCEWithLogitsLoss()
for epoch in range(10):
    optimizer.zero_grad()
    logits = model(x)
    loss = criterion(logits, target)
    loss.backward()
    optimizer.step()
with torch.no_grad():
    probabilities = torch.sigmoid(model(x))
""",
    # log_softmax with NLLLoss, softmax over a 1-D vector, softmax over dim=1 for reading.
    "log_softmax_nll": DATA + """model = nn.Linear(4, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    optimizer.zero_grad()
    log_probs = F.log_softmax(model(x), dim=1)
    loss = F.nll_loss(log_probs, labels)
    loss.backward()
    optimizer.step()
scores = torch.tensor([1.0, 2.0, 0.5])
weights = F.softmax(scores, dim=0)
with torch.no_grad():
    confidence = model(x).softmax(dim=1).max(dim=1).values
""",
    # A loss summed over several parts, then one backward(): the total keeps its graph on purpose.
    "summed_losses": DATA + """model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(10):
    optimizer.zero_grad()
    total = 0
    for xb, yb in zip(x.split(16), y.split(16)):
        total += F.mse_loss(model(xb), yb)
    total.backward()
    optimizer.step()
""",
    # A module with F.dropout that follows self.training, and nn.Dropout; evaluated after eval().
    "functional_dropout": DATA + """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        x = F.dropout(F.relu(self.fc1(x)), p=0.2, training=self.training)
        return self.fc2(self.drop(x))

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    F.cross_entropy(model(x), labels).backward()
    optimizer.step()
model.eval()
with torch.no_grad():
    accuracy = (model(x).argmax(1) == labels).float().mean()
""",
    # A closure optimizer (LBFGS): backward() inside the closure, step(closure) in the loop.
    "lbfgs_closure": DATA + """model = nn.Linear(4, 1)
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5)

def closure():
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss

for step in range(5):
    optimizer.step(closure)
""",
    # The validation step of a tutorial (theneuralbase.com, "Training step and validation step"):
    # gradients accumulated over 4 batches, the validation losses kept as numbers under no_grad.
    "tutorial_validation_step": DATA + NET + """optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
accumulation_steps = 4
best_val_loss = float("inf")
for epoch in range(2):
    model.train()
    train_losses = []
    for batch_idx, (batch_x, batch_y) in enumerate(batches):
        loss = F.cross_entropy(model(batch_x), batch_y)
        (loss / accumulation_steps).backward()
        if (batch_idx + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
        train_losses.append(loss.item())
    model.eval()
    val_losses = []
    with torch.no_grad():
        for batch_x, batch_y in val_batches:
            val_losses.append(F.cross_entropy(model(batch_x), batch_y).item())
    avg_val_loss = sum(val_losses) / len(val_losses)
    best_val_loss = min(best_val_loss, avg_val_loss)
""",
    # Inference with torch.inference_mode() after eval() (theneuralbase.com, "model.eval(): inference mode").
    "inference_mode": DATA + NET + """model.eval()
with torch.inference_mode():
    first = model(x)
    second = model(x)
same = torch.equal(first, second)
""",
    # Two models, two optimizers (a GAN's shape): each optimizer holds one of the models the loop runs.
    "two_optimizers": DATA + """generator = nn.Linear(4, 4)
critic = nn.Linear(4, 1)
opt_g = torch.optim.Adam(generator.parameters(), lr=0.01)
opt_c = torch.optim.Adam(critic.parameters(), lr=0.01)
for step in range(5):
    opt_c.zero_grad()
    fake = generator(x).detach()
    critic_loss = critic(fake).mean() - critic(x).mean()
    critic_loss.backward()
    opt_c.step()
    opt_g.zero_grad()
    gen_loss = -critic(generator(x)).mean()
    gen_loss.backward()
    opt_g.step()
""",
    # Only the head is trained; the backbone runs in the loop too.
    "train_the_head": DATA + """backbone = nn.Linear(4, 8)
head = nn.Linear(8, 3)
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(5):
    optimizer.zero_grad()
    features = backbone(x)
    loss = F.cross_entropy(head(features), labels)
    loss.backward()
    optimizer.step()
""",
    # The losses of a batch kept in a list, then stacked for one backward().
    "stacked_losses": DATA + """model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(5):
    optimizer.zero_grad()
    parts = []
    for xb, yb in zip(x.split(16), y.split(16)):
        parts.append(F.mse_loss(model(xb), yb))
    loss = torch.stack(parts).mean()
    loss.backward()
    optimizer.step()
""",
    # A small trainer class: the step (zero_grad included) is a method the loop calls.
    "trainer_class": DATA + NET + """class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(self, xb, yb):
        self.model.train(mode=True)
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(xb), yb)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def evaluate(self, xb, yb):
        self.model.train(mode=False)
        with torch.no_grad():
            return (self.model(xb).argmax(1) == yb).float().mean().item()

trainer = Trainer(model)
for epoch in range(3):
    for xb, yb in batches:
        trainer.train_step(xb, yb)
    score = trainer.evaluate(x, labels)
""",
}


#: The hints on training loops (the other hints teach what some lessons show on purpose: torch.Tensor(2, 3)).
TRAINING_KEYS = {"grad_never_zeroed", "grad_zeroed_before_step", "step_without_backward", "optimizer_other_model",
                 "eval_mode_missing", "train_mode_not_restored", "validation_records_graph",
                 "running_total_keeps_graph", "softmax_over_batch", "loss_given_probabilities",
                 "functional_dropout_always_on"}


def _run(code: str) -> dict:
    exc, ns = run(code)
    assert exc is None, repr(exc)
    return ns


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_a_correct_loop_gets_no_hint(name: str) -> None:
    code = CORRECT[name]
    assert hints(code, _run(code)) == []


@pytest.mark.parametrize("lesson", [entry["id"] for entry in LESSONS])
def test_a_lesson_gets_no_training_hint_cell_by_cell(lesson: str) -> None:
    """As Shift+Enter runs a lesson: one namespace, each cell's hints after it ran (cells that fail on purpose fail)."""
    ns: dict = {"__name__": "__main__"}
    found = []
    for cell in lesson_cells(lesson):
        try:
            exec(compile(cell["source"], "<cell-1>", "exec"), ns)
        except Exception as exc:  # noqa: BLE001
            assert cell["expected_error"] == type(exc).__name__, (cell["line"], exc)
            continue
        found += [(cell["line"], h["key"]) for h in hints(cell["source"], ns) if h["key"] in TRAINING_KEYS]
    assert found == []


@pytest.mark.parametrize("lesson", [entry["id"] for entry in LESSONS
                                    if not any(c["expected_error"] for c in lesson_cells(entry["id"]))])
def test_a_whole_lesson_run_with_f5_gets_no_training_hint(lesson: str) -> None:
    code = "".join(cell["source"] for cell in lesson_cells(lesson))
    assert [h["key"] for h in hints(code, _run(code)) if h["key"] in TRAINING_KEYS] == []


def test_the_keys_are_the_hints_there_are() -> None:
    from tests.core.errors.test_hints_loops import LOOPS

    assert {case.key for case in LOOPS} == TRAINING_KEYS
