#!/usr/bin/env python3
"""Keep the translation catalogs in step with the code (the standard tools, no home-made format).

Kernel side (gettext): the English sentences of ``explorer/core`` (and the CLI's own, ``explorer/cli``) are extracted
with Babel into ``explorer/locale/tensor_explorer.pot``, merged into each
language's ``.po`` (new entries empty, removed ones dropped), and compiled to
the ``.mo`` that ``explorer.core.i18n`` reads.

UI side (Qt): ``pyside6-lupdate`` extracts ``tr()`` strings into
``explorer/ui/translations/<lang>.ts`` and ``pyside6-lrelease`` compiles the
``.qm`` that ``explorer.ui.i18n`` loads (both are committed, so a fresh clone
needs no build step). ``en.ts`` holds only the plural forms (``%n``).

usage: scripts/i18n.py [update | compile | check] [gettext | qt]
  update   extract, merge into the .po/.ts files, compile (what a developer runs after changing strings)
  compile  only compile .po -> .mo and .ts -> .qm (after a translator edited them)
  check    exit 1 when the catalogs are out of step with the code, a compiled file with its source,
           or a Qt entry is unfinished (what the tests run)
  gettext, qt  only that side (default: both)
"""

from __future__ import annotations

import datetime
import io
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explorer"
LOCALE = PACKAGE / "locale"
DOMAIN = "tensor_explorer"
LANGUAGES = ("zh_CN",)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
UI_DIR = PACKAGE / "ui"
#: The folders whose sentences go through gettext: the kernel's core, and the command line's own cards.
GETTEXT_FOLDERS = ("core", "cli")
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
TS_DIR = UI_DIR / "translations"


def _bin(name: str) -> str:
    """A tool next to this Python (the venv's pyside6-lupdate), else on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else (shutil.which(name) or name)


# -- gettext -------------------------------------------------------------------------
def extract_pot():
    """The template: every sentence the core writes through ``_``, ``ngettext``, ``pgettext`` or ``N_``."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(project="tensor-explorer", domain=DOMAIN, fuzzy=False)
    for folder in GETTEXT_FOLDERS:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE / folder), method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
        ):
            template.add(message, None, [(f"explorer/{folder}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def merged_po(lang: str, template):
    """The language's catalog updated to *template*: translations kept, new entries empty, obsolete dropped."""
    from babel.messages.pofile import read_po

    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
    else:
        from babel.messages.catalog import Catalog

        catalog = Catalog(locale=lang, domain=DOMAIN, project="tensor-explorer", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return path, catalog


def po_bytes(catalog) -> bytes:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, include_previous=False, include_lineno=False,
             ignore_obsolete=True)
    # The creation date changes on every write; keep the file stable.
    return b"\n".join(line for line in out.getvalue().split(b"\n")
                      if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:')))


def mo_bytes(po_path: Path) -> bytes:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as handle:
        catalog = read_po(handle, domain=DOMAIN)
    # The .po keeps no dates (po_bytes drops them), so Babel would stamp "now" into the .mo
    # header: pin them, so the same .po always compiles to the same bytes.
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def gettext_files(update: bool) -> dict[Path, bytes]:
    """Every gettext file as it should be: {path: bytes}."""
    files: dict[Path, bytes] = {}
    template = extract_pot()
    for lang in LANGUAGES:
        path, catalog = merged_po(lang, template)
        if update:
            files[path] = po_bytes(catalog)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[path])
        files[path.with_suffix(".mo")] = mo_bytes(path)
    return files


def gettext_stale() -> list[str]:
    """What is out of step on the gettext side: a .po that the code would change, a .mo not compiled from its .po."""
    stale = []
    template = extract_pot()
    for lang in LANGUAGES:
        path, catalog = merged_po(lang, template)
        if not path.exists() or path.read_bytes() != po_bytes(catalog):
            stale.append(_out_of_date(path))
        mo = path.with_suffix(".mo")
        if path.exists() and (not mo.exists() or mo.read_bytes() != mo_bytes(path)):
            stale.append(_out_of_date(mo))
    return stale


# -- Qt --------------------------------------------------------------------------------
#: Qt catalogs and their extra lupdate options. English holds only the plural forms:
#: Qt needs a translator to choose between "1 file" and "2 files".
QT_CATALOGS = {"zh_CN": (), "en": ("-pluralonly",)}
_LOCATION = re.compile(rb"^\s*<location [^>]*/>\s*$\n?", re.MULTILINE)


def qt_sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in UI_DIR.rglob("*.py"))


def qt_update(ts_dir: Path = TS_DIR) -> None:
    """Extract every ``tr()`` string into ``<ts_dir>/<lang>.ts``: new entries unfinished, vanished ones dropped."""
    ts_dir.mkdir(parents=True, exist_ok=True)
    for lang, options in QT_CATALOGS.items():
        ts = ts_dir / f"{lang}.ts"
        subprocess.run([_bin("pyside6-lupdate"), *qt_sources(), "-no-obsolete", "-locations", "none",
                        *options, "-target-language", lang, "-ts", str(ts)],
                       cwd=ROOT, check=True, capture_output=True)


def qt_compile(ts_dir: Path = TS_DIR, qm_dir: Path = TS_DIR) -> dict[Path, bytes]:
    """Compile each ``.ts`` of *ts_dir* into a ``.qm`` in *qm_dir*: {qm path: bytes}."""
    files = {}
    for lang in QT_CATALOGS:
        ts = ts_dir / f"{lang}.ts"
        if not ts.exists():
            continue
        qm = qm_dir / f"{lang}.qm"
        subprocess.run([_bin("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True)
        files[qm] = qm.read_bytes()
    return files


def qt_unfinished(ts: Path) -> list[str]:
    """The entries of *ts* that are not finished translations (unfinished, obsolete, vanished, empty)."""
    import xml.etree.ElementTree as ET

    bad = []
    for context in ET.parse(ts).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            forms = translation.findall("numerusform") or [translation]
            if translation.get("type") or not all((form.text or "").strip() for form in forms):
                bad.append(f"{context.findtext('name')}: {message.findtext('source')!r}")
    return bad


def qt_stale() -> list[str]:
    """What is out of step: a .ts that lupdate would change (locations aside), a .qm that is not lrelease's."""
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        for lang in QT_CATALOGS:
            ts = TS_DIR / f"{lang}.ts"
            if ts.exists():
                shutil.copy(ts, fresh / ts.name)
        qt_update(fresh)
        for lang in QT_CATALOGS:
            ts = TS_DIR / f"{lang}.ts"
            if not ts.exists() or _LOCATION.sub(b"", ts.read_bytes()) != _LOCATION.sub(b"", (fresh / ts.name).read_bytes()):
                stale.append(_out_of_date(ts))
            else:
                stale += [f"not translated in {_shown(ts)}: {entry}" for entry in qt_unfinished(ts)]
        for qm, data in qt_compile(TS_DIR, fresh).items():
            shipped = TS_DIR / qm.name
            if not shipped.exists() or shipped.read_bytes() != data:
                stale.append(_out_of_date(shipped))
    return stale


def _out_of_date(path: Path) -> str:
    return f"out of date: {_shown(path)} (run scripts/i18n.py update)"


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


# -- commands --------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    scope = argv[1] if len(argv) > 1 else "all"
    gettext, qt = scope in ("all", "gettext"), scope in ("all", "qt")
    if command == "update":
        if gettext:
            gettext_files(update=True)
            for path, data in gettext_files(update=False).items():
                path.write_bytes(data)
        if qt:
            qt_update()
            qt_compile()
        return 0
    if command == "compile":
        if gettext:
            for path, data in gettext_files(update=False).items():
                path.write_bytes(data)
        if qt:
            qt_compile()
        return 0
    if command == "check":
        stale = (gettext_stale() if gettext else []) + (qt_stale() if qt else [])
        for line in stale:
            print(line, file=sys.stderr)
        return 1 if stale else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
