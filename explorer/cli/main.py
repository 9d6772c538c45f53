"""``tensor-explorer``: no subcommand opens the window; ``inspect`` and ``render`` are scriptable.

Exit codes (docs/architecture.md): 0 ran/loaded, 1 the script raised, 2 bad arguments or a
file that cannot be loaded (one sentence on stderr, never a traceback); 130 / 143
after Ctrl+C / SIGTERM (one line; the kernel and the temp folder are gone); 141 when the
reader of stdout went away (``| head``), without a word.

Two entry points: ``tensor-explorer`` is a console script (the CLI needs stdout, and
without arguments it opens the window), ``tensor-explorer-gui`` is a GUI script that
only opens the window (on Windows it starts without a console window; the desktop
launcher uses it).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from explorer.cli.common import UsageError, fail
from explorer.cli.signals import SignalGuard, Stopped

COMMANDS = ("inspect", "render", "watch")
#: The languages ``--lang`` accepts: the ones the window offers.
LANGUAGES = ("en", "zh_CN")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tensor-explorer`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in COMMANDS:
        try:
            return _run_command(args)
        except BrokenPipeError:
            return _reader_left()
    return _run_gui(args)


def _reader_left() -> int:
    """The reader of stdout went away (``| head``): end quietly, as Unix filters do (status 141, SIGPIPE's)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
    os.close(devnull)
    return 128 + 13


def gui_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tensor-explorer-gui`` GUI script: the window only."""
    return _run_gui(list(sys.argv[1:] if argv is None else argv))


def _run_gui(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tensor-explorer", description="See what every tensor is.",
                                     epilog="Commands: tensor-explorer inspect --help, tensor-explorer render --help, "
                                            "tensor-explorer watch --help.")
    parser.add_argument("files", nargs="*", help="scripts to open in the editor, data files to load")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language")
    parser.add_argument("--presentation", action="store_true", help="start in presentation mode (big fonts)")
    parser.add_argument("--lesson", help="open a built-in lesson by name")
    parser.add_argument("--install-desktop", action="store_true",
                        help="add Tensor Explorer to the desktop's application menu (under $XDG_DATA_HOME) and exit")
    _add_attach(parser, "open the window on a running Jupyter kernel (a notebook's, jupyter console's); "
                        "default: the newest in Jupyter's runtime folder. The kernel is never shut down by the app")
    options = parser.parse_args(args)
    if options.install_desktop:
        from explorer.cli.desktop import install_desktop

        return install_desktop()
    options.connection = None
    if options.existing is not None or options.ssh:
        from explorer.client import budgets
        from explorer.client.connection import AttachError, check_listening, resolve
        from explorer.client.handshake import HandshakeError, check_answers

        try:  # a kernel that has ended, or a wrong key, is said before a window opens on it
            options.connection = resolve(options.existing, options.ssh, options.ssh_key)
            if not options.ssh:
                check_listening(options.connection, budgets.seconds(budgets.HANDSHAKE))
            check_answers(options.connection)
        except (AttachError, HandshakeError) as exc:
            return fail(f"{str(exc).rstrip('.')}.", False)
    from explorer.app import run_app

    return run_app(options)


class _Parser(argparse.ArgumentParser):
    """Reports wrong arguments as one sentence (exit 2 through :func:`fail`), not a usage dump."""

    command = ""  # the subcommand the user typed: the help to point at

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"Wrong arguments: {message} (see tensor-explorer {self.command} --help).")


def _command_parser(command: str) -> argparse.ArgumentParser:
    _Parser.command = command
    parser = _Parser(prog="tensor-explorer")
    sub = parser.add_subparsers(dest="command", required=True)
    inspect = sub.add_parser("inspect", help="run a script or load a data file and list its variables")
    inspect.add_argument("target", nargs="?", help="a .py script or a data file (not with --existing)")
    inspect.add_argument("--json", action="store_true", help="print one JSON object")
    inspect.add_argument("--no-proof", action="store_true",
                         help="do not prove the error card's fix (by default the script runs again with the fix, "
                              "in a second fresh kernel, within --timeout; the verdict is the error's fix_proof)")
    _add_attach(inspect, "list the variables of a running Jupyter kernel instead of a TARGET (default: the "
                         "newest in Jupyter's runtime folder); the kernel is left running")
    _add_common(inspect)
    render = sub.add_parser("render", help="draw a variable as the image canvas would, to a PNG")
    render.add_argument("target")
    render.add_argument("--var", help="variable to draw (optional when the target holds one array)")
    render.add_argument("--out", required=True, help="PNG file to write")
    render.add_argument("--layout", choices=("HW", "CHW", "HWC", "NCHW", "NHWC"), help="override the layout")
    render.add_argument("--json", action="store_true", help="print the layout facts as JSON")
    _add_common(render)
    watch = sub.add_parser("watch", help="run a script and print a sample of the watched variables while it runs")
    watch.add_argument("target", help="a .py script")
    watch.add_argument("--var", action="append", metavar="NAME",
                       help="a variable or name path to watch (model.fc.weight, history[-1], "
                            "opt.param_groups[0]['lr']); repeat it for more")
    watch.add_argument("--hist", action="append", metavar="NAME",
                       help="watch NAME (a tensor or array) with the histogram of its values too: \"hist\": "
                            "{lo, hi, counts} in each sample; repeat it for more")
    watch.add_argument("--every", type=_seconds, default=0.25,
                       help="seconds between samples (default 0.25; at least 0.05; the kernel takes fewer when a "
                            "sample would cost more than 5%% of the time between two)")
    watch.add_argument("--json", action="store_true", help="print one JSON object per sample, one per line")
    _add_common(watch)
    return parser



def _add_attach(parser: argparse.ArgumentParser, existing_help: str) -> None:
    parser.add_argument("--existing", nargs="?", const="", metavar="CONNECTION_FILE", help=existing_help)
    parser.add_argument("--ssh", metavar="USER@HOST[:PORT]",
                        help="reach the kernel on another machine through SSH tunnels (key authentication; "
                             "copy its connection file here first)")
    parser.add_argument("--ssh-key", metavar="FILE", help="the private key for --ssh (default: ssh's own)")


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en",
        help="write titles, explanations, notes and hints in this language, as the window does "
             "(en or zh_CN; default en). JSON keys, exit codes and the one-sentence errors on stderr stay English",
    )
    parser.add_argument(
        "--allow-pickle", action="store_true",
        help="allow loading pickled objects from a data file (this runs code from the file; a warning says so)",
    )
    parser.add_argument(
        "--timeout", type=_seconds, default=600.0,
        help="seconds the run and the inspection may take, counted once the kernel is up (default 600; the "
             "kernel's own start is bounded apart, 60 s times $TENSOR_EXPLORER_TIME_SCALE); a script still "
             "running then is interrupted (its kernel is killed if it ignores that for 3 s; an interrupted "
             "script's variables get 5 s more to be listed)",
    )


def _seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def _run_command(args: list[str]) -> int:
    as_json = "--json" in args
    guard = SignalGuard()
    guard.install()  # before the heavy imports: Ctrl+C at any point is one line
    try:
        options = _command_parser(args[0]).parse_args(args)
        from explorer.core import i18n

        i18n.set_language(options.lang)  # the CLI's own cards and labels; the kernel is told in its handshake
        if options.command == "inspect" and (options.existing is not None or options.ssh):
            from explorer.cli.attach import inspect_existing

            return inspect_existing(options)
        if options.command == "inspect" and options.target is None:
            raise UsageError("Wrong arguments: inspect needs a TARGET or --existing (see tensor-explorer inspect --help).")
        if options.command == "watch":
            from explorer.cli.watch import watch_target

            return watch_target(options)
        from explorer.cli.run import inspect_target, render_target

        return inspect_target(options) if options.command == "inspect" else render_target(options)
    except UsageError as exc:
        return fail(str(exc), as_json, exc.kind)
    except Stopped as stop:
        fail(f"stopped by {stop.name}; the kernel was shut down.", as_json, "Interrupted")
        return stop.status
    finally:
        with guard.shielded():
            _stop_kernels()
        guard.restore()


def _stop_kernels() -> None:
    """Shut down any kernel the command left (only when the kernel module was ever imported)."""
    headless = sys.modules.get("explorer.client.headless")
    if headless is not None:
        headless.shutdown_all()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
