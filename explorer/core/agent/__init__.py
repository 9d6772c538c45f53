"""The kernel side: the IPython extension and the handlers that answer the GUI's and the CLI's requests."""
