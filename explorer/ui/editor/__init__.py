"""The code pane: the editor widget and its behaviours, one small module each (see code_editor_widget)."""
