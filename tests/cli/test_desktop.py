"""``tensor-explorer --install-desktop``: a launcher and an icon under $XDG_DATA_HOME, and where they went."""

from __future__ import annotations

import configparser
import shlex
import subprocess
from pathlib import Path

from tests.cli.helpers import ROOT, cli, cli_env


def _entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in desktop files
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_install_desktop_puts_the_launcher_and_icon_in_xdg_data_home(tmp_path: Path) -> None:
    data = tmp_path / "with space" / "share"
    out = cli(tmp_path, "--install-desktop", env=cli_env(tmp_path, XDG_DATA_HOME=str(data)))
    assert out.returncode == 0, out.stderr
    desktop = data / "applications" / "tensor-explorer.desktop"
    icon = data / "icons" / "hicolor" / "scalable" / "apps" / "tensor-explorer.svg"
    assert desktop.is_file() and icon.is_file()
    assert str(desktop) in out.stdout and str(icon) in out.stdout
    assert icon.read_bytes() == (ROOT / "explorer" / "resources" / "icon.svg").read_bytes()
    entry = _entry(desktop)
    assert entry["Type"] == "Application" and entry["Icon"] == "tensor-explorer"
    assert entry["Name"] == "Tensor Explorer"
    argv = shlex.split(entry["Exec"])
    assert argv[-1] == "%F"
    # The launcher starts this very installation, whatever PATH the desktop session has.
    assert Path(argv[0]).is_absolute()
    shown = subprocess.run([*argv[:-1], "--help"], capture_output=True, text=True, timeout=120,
                           env=cli_env(tmp_path), check=False)
    assert shown.returncode == 0 and "--install-desktop" in shown.stdout


def test_install_desktop_defaults_to_local_share(tmp_path: Path) -> None:
    env = cli_env(tmp_path, HOME=str(tmp_path / "home"))
    env.pop("XDG_DATA_HOME", None)
    out = cli(tmp_path, "--install-desktop", env=env)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "home" / ".local" / "share" / "applications" / "tensor-explorer.desktop").is_file()


def test_the_packaged_desktop_file_is_valid(tmp_path: Path) -> None:
    entry = _entry(ROOT / "explorer" / "resources" / "tensor-explorer.desktop")
    assert entry["Exec"].split()[0] == "tensor-explorer-gui"
    assert {"Type", "Name", "Exec", "Icon", "Categories"} <= set(entry)
    assert "TryExec" not in entry  # a bare name would hide the installed launcher when the venv is not on PATH


def test_there_is_one_desktop_file_and_the_installed_one_is_it(tmp_path: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "*.desktop"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert tracked.stdout.split() == ["explorer/resources/tensor-explorer.desktop"]
    packaged = _entry(ROOT / "explorer" / "resources" / "tensor-explorer.desktop")
    env = cli_env(tmp_path, XDG_DATA_HOME=str(tmp_path / "data"))
    assert cli(tmp_path, "--install-desktop", env=env).returncode == 0
    installed = _entry(tmp_path / "data" / "applications" / "tensor-explorer.desktop")
    assert {k: v for k, v in installed.items() if k != "Exec"} == {k: v for k, v in packaged.items() if k != "Exec"}
    assert installed["Name[zh_CN]"] == "张量浏览器" and installed["Exec"].endswith(" %F")


def test_gui_script_entry_and_license_are_declared() -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        from pip._vendor import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["gui-scripts"]["tensor-explorer-gui"] == "explorer.cli:gui_main"
    assert project["scripts"]["tensor-explorer"] == "explorer.cli:main"
    assert project["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
