"""The VAR record shared by every summary: its keys, a blank template and note helpers."""

from __future__ import annotations

from typing import Any

from explorer.core.i18n import _
from explorer.protocol.replies import VAR_KEYS

# Every VAR carries every one of these keys (None where a field does not apply),
# so consumers never need ``.get`` defaults: the keys the protocol's VAR declares,
# in the CLI contract's order.
_BLANK: dict[str, Any] = dict.fromkeys(VAR_KEYS)

NOTE_CHARS = 160
MAX_NOTE_CHARS = 600


def blank_var(name: str, kind: str, type_name: str) -> dict[str, Any]:
    """A VAR with every contract key present and all fields null."""
    var = _BLANK.copy()
    var["name"] = name
    var["kind"] = kind
    var["type"] = type_name
    return var


def add_note(var: dict[str, Any], text: str) -> None:
    """Append one reason to the VAR's note (several reasons are joined with '; ')."""
    old = var.get("note")
    if not old:
        var["note"] = text
    elif text not in old and len(old) < MAX_NOTE_CHARS:
        # A hostile object can make every field fail; keep the note readable.
        var["note"] = _("{first}; {second}").format(first=old, second=text)


def error_text(field: str, exc: BaseException) -> str:
    """One short line saying which field failed and why."""
    try:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    except Exception:  # an exception whose __str__ raises  # noqa: BLE001
        message = ""
    error = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    text = _("{field} unavailable ({error})").format(field=field, error=error)
    return text if len(text) <= NOTE_CHARS else text[: NOTE_CHARS - 1] + "…"
