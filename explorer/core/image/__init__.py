"""Image tensors: the layout decision (HW/CHW/HWC/NCHW/NHWC), sampling, scaling and the pixels drawn."""
