"""The window of values the Values tab shows, read without copying the whole tensor."""
