"""The type checker follows a request from a view to the reply it reads (``protocol.RequestSource``).

A view's ``source`` is typed, so a callback reading a field its reply does not have, or a callback
for another request's reply, is a mypy error. The snippets below are checked by mypy itself.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from mypy import api

HEAD = textwrap.dedent("""
    from explorer import protocol

    def show(source: protocol.RequestSource) -> None:
""")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the module's checks: the first one reads explorer, PySide6 and the rest; later ones
    find them there and check only their snippet (mypy re-checks a module whose source changed)."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(snippet: Path, cache: Path) -> tuple[str, int]:
    """mypy's report on *snippet* and its exit status."""
    out, _err, status = api.run([str(snippet), "--cache-dir", str(cache), "--no-error-summary",
                                 "--follow-imports=silent", "--strict-optional"])
    return out, status


def _errors(tmp_path: Path, cache: Path, body: str) -> str:
    snippet = tmp_path / "view.py"
    snippet.write_text(HEAD + textwrap.indent(textwrap.dedent(body), "    "))
    out, status = _mypy(snippet, cache)
    return out if status else ""


def test_a_view_reading_its_reply_rightly_passes(tmp_path: Path, cache: Path) -> None:
    assert _errors(tmp_path, cache, """
        def drawn(reply: protocol.Reply[protocol.ImageReply]) -> None:
            if reply.result is not None:
                print(reply.result["layout"])
        source.ask(protocol.Image(name="img"), drawn)
    """) == ""


def test_a_wrong_field_name_in_a_view_is_an_error(tmp_path: Path, cache: Path) -> None:
    found = _errors(tmp_path, cache, """
        def drawn(reply: protocol.Reply[protocol.ImageReply]) -> None:
            if reply.result is not None:
                print(reply.result["layuot"])
        source.ask(protocol.Image(name="img"), drawn)
    """)
    assert '"layuot"' in found and "ImageReply" in found, found


def test_a_callback_for_another_reply_is_an_error(tmp_path: Path, cache: Path) -> None:
    found = _errors(tmp_path, cache, """
        def drawn(reply: protocol.Reply[protocol.GraphReply]) -> None:
            pass
        source.ask(protocol.Image(name="img"), drawn)
    """)
    assert "ask" in found and "GraphReply" in found, found


LINK_HEAD = textwrap.dedent("""
    from explorer.client.link import KernelLink
    from explorer.client.session import KernelSession

""")


def _link_errors(tmp_path: Path, cache: Path, body: str) -> str:
    snippet = tmp_path / "helper.py"
    snippet.write_text(LINK_HEAD + textwrap.dedent(body))
    out, status = _mypy(snippet, cache)
    return out if status else ""


def test_the_session_is_the_link_the_run_queue_and_stepper_are_typed_with(tmp_path: Path, cache: Path) -> None:
    assert _link_errors(tmp_path, cache, """
        def link(session: KernelSession) -> KernelLink:
            return session
    """) == ""


def test_a_helper_calling_what_the_link_does_not_have_is_an_error(tmp_path: Path, cache: Path) -> None:
    found = _link_errors(tmp_path, cache, """
        def run(link: KernelLink) -> None:
            if link.is_ready and link.status == "idle":
                link.execute("a = 1")
            link.stauts_changed.connect(print)
            if link.status == "sleeping":
                pass
    """)
    assert 'no attribute "stauts_changed"' in found, found  # a signal the session does not have
    assert "Non-overlapping equality check" in found and "'sleeping'" in found, found  # not a KernelStatus


def test_the_window_is_typed_with_its_link_and_both_sessions_are_one(tmp_path: Path, cache: Path) -> None:
    """``MainWindow(session: WindowLink)``: the real session and the tests' stand-in pass; a misspelt member does not."""
    snippet = tmp_path / "window.py"
    snippet.write_text(textwrap.dedent("""
        from explorer.client.session import KernelSession
        from explorer.ui.window.main_window import MainWindow
        from tests.ui.quiet_window import StandInSession

        def windows() -> list[MainWindow]:
            return [MainWindow(KernelSession()), MainWindow(StandInSession())]

        def stop(window: MainWindow) -> None:
            window.session.interupt()
    """))
    out, _status = _mypy(snippet, cache)
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 1, out  # both sessions are a WindowLink
    assert 'no attribute "interupt"' in errors[0] and "WindowLink" in errors[0], out
