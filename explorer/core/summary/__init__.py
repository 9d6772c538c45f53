"""One VAR record per value (tensor, ndarray, container, other), read from metadata without running user code."""
