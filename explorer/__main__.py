"""``python -m explorer`` opens the window, like ``tensor-explorer``."""

from explorer.cli import main

raise SystemExit(main())
