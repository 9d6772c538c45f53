"""Statistics of a tensor or array in one pass over its data: min, max, mean, std, counts, histogram."""
