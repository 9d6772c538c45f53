#!/usr/bin/env python3
"""Keep the translation catalogs in step with the code (the standard tools, no home-made format).

Kernel side (gettext): the English sentences of ``explorer/core`` are extracted
with Babel into ``explorer/locale/tensor_explorer.pot``, merged into each
language's ``.po`` (new entries empty, removed ones dropped), and compiled to
the ``.mo`` that ``explorer.core.i18n`` reads.

UI side (Qt): ``pyside6-lupdate`` extracts ``tr()`` strings into
``explorer/ui/translations/<lang>.ts`` and ``pyside6-lrelease`` compiles ``.qm``.

usage: scripts/i18n.py [update | compile | check]
  update   extract, merge into the .po/.ts files, compile (what a developer runs after changing strings)
  compile  only compile .po -> .mo and .ts -> .qm (after a translator edited them)
  check    exit 1 when the catalogs are out of step with the code (what the tests run)
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explorer"
LOCALE = PACKAGE / "locale"
DOMAIN = "tensor_explorer"
LANGUAGES = ("zh_CN",)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
UI_DIR = PACKAGE / "ui"
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
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE / "core"), method_map=[("**.py", "python")], keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
    ):
        template.add(message, None, [(f"explorer/core/{filename}", lineno)],
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
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, include_previous=False,
             ignore_obsolete=True)
    # The creation date changes on every write; keep the file stable.
    return b"\n".join(line for line in out.getvalue().split(b"\n")
                      if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:')))


def mo_bytes(po_path: Path) -> bytes:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as handle:
        catalog = read_po(handle, domain=DOMAIN)
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


# -- Qt --------------------------------------------------------------------------------
def qt_sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in UI_DIR.rglob("*.py"))


def qt_update() -> None:
    TS_DIR.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        ts = TS_DIR / f"{lang}.ts"
        subprocess.run([_bin("pyside6-lupdate"), *qt_sources(), "-no-obsolete", "-locations", "relative",
                        "-target-language", lang, "-ts", str(ts.relative_to(ROOT))],
                       cwd=ROOT, check=True, capture_output=True)


def qt_compile() -> dict[Path, bytes]:
    files = {}
    for lang in LANGUAGES:
        ts = TS_DIR / f"{lang}.ts"
        if not ts.exists():
            continue
        qm = ts.with_suffix(".qm")
        subprocess.run([_bin("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True, capture_output=True)
        files[qm] = qm.read_bytes()
    return files


# -- commands --------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    if command == "update":
        gettext_files(update=True)
        for path, data in gettext_files(update=False).items():
            path.write_bytes(data)
        if TS_DIR.exists():
            qt_update()
            qt_compile()
        return 0
    if command == "compile":
        for path, data in gettext_files(update=False).items():
            path.write_bytes(data)
        qt_compile()
        return 0
    if command == "check":
        stale = []
        template = extract_pot()
        for lang in LANGUAGES:
            path, catalog = merged_po(lang, template)
            if not path.exists() or path.read_bytes() != po_bytes(catalog):
                stale.append(str(path.relative_to(ROOT)))
            mo = path.with_suffix(".mo")
            if path.exists() and (not mo.exists() or mo.read_bytes() != mo_bytes(path)):
                stale.append(str(mo.relative_to(ROOT)))
        for name in stale:
            print(f"out of date: {name} (run scripts/i18n.py update)", file=sys.stderr)
        return 1 if stale else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
