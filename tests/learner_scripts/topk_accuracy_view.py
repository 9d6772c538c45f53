# https://github.com/ildoonet/pytorch-randaugment/issues/26
# The top-k accuracy helper of many training scripts: pred is transposed, so a slice of it is not contiguous.
import torch

torch.manual_seed(0)


def accuracy(output, target, topk=(1, 5)):
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    res = []
    for k in topk:
        correct_k = correct[:k].view(-1).float().sum(0)
        res.append(correct_k.mul_(100.0 / batch_size))
    return res


logits = torch.randn(16, 10)
labels = torch.randint(0, 10, (16,))
top1, top5 = accuracy(logits, labels)
print(top1.item(), top5.item())
