# https://github.com/mrdbourke/pytorch-deep-learning/issues/626
# A binary classifier's accuracy: the comparison of all predictions is turned into one number directly.
import torch
from torch import nn

torch.manual_seed(0)
X_test = torch.randn(40, 2)
y_test = (X_test.sum(dim=1) > 0).float()
model = nn.Linear(2, 1)


def accuracy_fn(y_true, y_preds):
    correct = torch.eq(y_true, y_preds).item()
    return correct / len(y_preds) * 100


with torch.inference_mode():
    test_logits = model(X_test).squeeze()
    test_pred = torch.round(torch.sigmoid(test_logits))
test_acc = accuracy_fn(y_test, test_pred)
print(f"accuracy {test_acc:.1f}%")
