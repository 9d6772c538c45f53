"""Explaining errors and silent mistakes: the catalogue of known errors, the cards and the hints after a run."""
