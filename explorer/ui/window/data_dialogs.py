"""The questions and reports around data files: which files to open, whether to load a pickle, what failed.

:class:`~explorer.ui.window.data_loader.DataLoader` does the loading and asks
:meth:`DataDialogs.confirm_pickle` before it runs code from a file; the window
shows the loader's problems with :meth:`DataDialogs.report`, once per batch.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from explorer.ui.banner_widget import BannerWidget

DATA_PATTERNS = "*.npy *.npz *.pt *.pth *.safetensors *.png *.jpg *.jpeg *.bmp *.gif *.tif *.tiff *.webp"
# Problems listed in the banner; more are summed up as "…".
SHOWN_PROBLEMS = 12


class DataDialogs(QObject):
    """Dialogs parented to *window*; problems go to *banner*."""

    def __init__(self, window: QWidget, banner: BannerWidget) -> None:
        super().__init__(window)
        self._window = window
        self._banner = banner

    def ask_paths(self) -> list[str]:
        """File > Open Data: the files the user chose (none when cancelled)."""
        #: File dialog filters, separated by ;; — {patterns} is the list of file name patterns; keep (*) as is.
        filters = self.tr("Data files ({patterns});;All files (*)").format(patterns=DATA_PATTERNS)
        paths, _ = QFileDialog.getOpenFileNames(self._window, self.tr("Open Data"), "", filters)
        return list(paths)

    def confirm_pickle(self, path: str, message: str) -> bool:
        """The file holds pickled objects (*message* says which): load it anyway, running its code?"""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Load anyway?"),
                          self.tr("{message}\n\nLoad anyway — this runs code from the file. Only do this for files you trust.").format(message=message),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self._window)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Load anyway"))
        return box.exec() == QMessageBox.StandardButton.Yes

    def report(self, problems: list[str]) -> None:
        """One banner for a batch's failures, each file a line."""
        head = FileCountText().not_opened(len(problems))
        lines = "<br>".join(_escape(p) for p in problems[:SHOWN_PROBLEMS])
        self._banner.show_message(head + "<br>" + lines + ("<br>…" if len(problems) > SHOWN_PROBLEMS else ""), "error", topic="files")


class FileCountText(QObject):
    """Sentences with a count of files: Qt looks plural forms up by the calling object's own class."""

    def not_opened(self, count: int) -> str:
        return self.tr("%n file(s) could not be opened:", "", count)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
