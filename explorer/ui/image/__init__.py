"""The Image tab: the matplotlib canvas and its status line."""
