"""PySide6 widgets. Never imports torch: tensors stay in the kernel."""
