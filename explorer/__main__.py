"""``python -m explorer`` opens the window, like ``tensor-explorer``."""

from explorer.cli.main import main

raise SystemExit(main())
