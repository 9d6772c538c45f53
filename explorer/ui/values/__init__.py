"""The Values tab: the slicer and the lazily fetched table of values."""
