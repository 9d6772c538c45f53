"""Pure inspection logic. Runs inside the kernel process; no Qt, no jupyter."""
