"""``tensor-explorer``: no subcommand opens the window; ``inspect`` and ``render`` are scriptable.

Exit codes (DESIGN.md): 0 ran/loaded, 1 the script raised, 2 bad arguments or a
file that cannot be loaded (one sentence on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from explorer.cli.common import UsageError, fail


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tensor-explorer`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("inspect", "render"):
        return _run_command(args)
    return _run_gui(args)


def _run_gui(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tensor-explorer", description="See what every tensor is.")
    parser.add_argument("files", nargs="*", help="scripts to open in the editor, data files to load")
    parser.add_argument("--lang", choices=("en", "zh_CN"), help="interface language")
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode (big fonts)")
    parser.add_argument("--lesson", help="open a built-in lesson by name")
    options = parser.parse_args(args)
    from explorer.app import run_app

    return run_app(options)


class _Parser(argparse.ArgumentParser):
    """Reports wrong arguments as one sentence (exit 2 through :func:`fail`), not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"Wrong arguments: {message} (see tensor-explorer {self.prog.split()[-1]} --help).")


def _command_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tensor-explorer")
    sub = parser.add_subparsers(dest="command", required=True)
    inspect = sub.add_parser("inspect", help="run a script or load a data file and list its variables")
    inspect.add_argument("target")
    inspect.add_argument("--json", action="store_true", help="print one JSON object")
    _add_common(inspect)
    render = sub.add_parser("render", help="draw a variable as the image canvas would, to a PNG")
    render.add_argument("target")
    render.add_argument("--var", help="variable to draw (optional when the target holds one array)")
    render.add_argument("--out", required=True, help="PNG file to write")
    render.add_argument("--layout", choices=("HW", "CHW", "HWC", "NCHW", "NHWC"), help="override the layout")
    render.add_argument("--json", action="store_true", help="print the layout facts as JSON")
    _add_common(render)
    return parser


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-pickle", action="store_true",
        help="allow loading pickled objects from a data file (this runs code from the file)",
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before a script is interrupted")


def _run_command(args: list[str]) -> int:
    parser = _command_parser()
    as_json = "--json" in args
    try:
        options = parser.parse_args(args)
        from explorer.cli.run import inspect_target, render_target

        if options.command == "inspect":
            return inspect_target(options)
        return render_target(options)
    except UsageError as exc:
        return fail(str(exc), as_json)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
