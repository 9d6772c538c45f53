"""UI test set-up: private settings and recovery folders, so tests never touch the user's."""

from __future__ import annotations

import os
import tempfile

_private = tempfile.mkdtemp(prefix="te-ui-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_private, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_private, "data")
os.environ["TENSOR_EXPLORER_DATA_DIR"] = os.path.join(_private, "recovery")
