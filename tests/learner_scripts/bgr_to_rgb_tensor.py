# https://github.com/1adrianb/face-alignment/issues/259
# An OpenCV frame is BGR; the channels are reversed with a slice before it becomes a tensor.
import numpy as np
import torch

rng = np.random.default_rng(0)
frame = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)  # what cv2.imread / VideoCapture.read give
rgb = torch.from_numpy(frame[..., ::-1])
image = rgb.permute(2, 0, 1).float() / 255
print(image.shape)
