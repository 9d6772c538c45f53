"""Kernel process plumbing: the only layer that talks to the Jupyter client."""
