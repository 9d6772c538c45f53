"""Tensor Explorer: see what every tensor and array is."""

__version__ = "0.1.0"
