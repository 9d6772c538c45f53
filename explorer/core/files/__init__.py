"""Data files dragged in: validation before loading, the loading code shown to the user, variable names."""
