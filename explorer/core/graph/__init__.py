"""The autograd graph of a tensor, as nodes and edges for the Graph tab."""
