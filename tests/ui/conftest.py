"""UI test set-up: private settings and recovery folders, so tests never touch the user's."""

from __future__ import annotations

import os
import tempfile

import pytest

_private = tempfile.mkdtemp(prefix="te-ui-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_private, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_private, "data")
os.environ["TENSOR_EXPLORER_DATA_DIR"] = os.path.join(_private, "recovery")


@pytest.fixture(autouse=True, scope="session")
def _english_interface(qapp):
    """English installed as the app installs it: its catalog holds the plural forms ("1 file", "2 files")."""
    from explorer.ui.i18n import install_language

    install_language("en")


@pytest.fixture(scope="module")
def shared(qapp, request):
    """One real window and kernel per test module, for the tests that neither kill nor restart it."""
    from pytestqt.qtbot import QtBot

    from tests.ui.window_helpers import open_window

    bot = QtBot(request)
    window, session = open_window(bot)
    yield bot, window
    window.editor.document().setModified(False)
    window.close()
    session.shutdown()
