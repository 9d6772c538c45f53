"""The namespace snapshot: every variable's VAR, memory groups, what changed since the last run, copy hints."""
