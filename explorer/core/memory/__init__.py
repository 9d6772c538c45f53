"""Memory sharing: allocations, memory groups, exact byte overlaps and the memory map of one variable."""
