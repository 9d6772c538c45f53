"""The code editor: line numbers, cells, highlighting and the error marker."""
