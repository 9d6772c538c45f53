"""The variable inspector: the table model of VARs, its columns, and the view with its filter."""
