# https://github.com/avishkarsaha/translating-images-into-maps/issues/12
# Per-image label maps collected in a list, then turned into one tensor with torch.tensor.
import torch

torch.manual_seed(0)
labels = []
for image_id in range(4):
    label_map = torch.randint(0, 5, (3, 8, 8))
    labels.append(label_map)

label = torch.tensor(labels, dtype=torch.long)
print(label.shape)
