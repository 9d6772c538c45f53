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
