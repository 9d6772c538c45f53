"""The main window: actions and menus, file handling, data loading and crash recovery."""
