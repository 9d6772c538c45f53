"""A script that fails three calls deep, shared by the kernel's and the window's frame tests."""

DEEP = """import numpy as np

def h(c):
    d = c * 2
    return d @ np.ones((4, 2))

def g(b):
    part = b[:2]
    return h(part)

def f(a):
    return g(a.T)

x = np.arange(12.0).reshape(3, 4)
f(x)
"""
