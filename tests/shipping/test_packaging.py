"""One version (issue 25): ``hookweave.core.__version__`` is what the metadata says (setuptools reads
it: pyproject's dynamic version) and what ``hooks --version`` prints. .ci/run builds the wheel and
checks that its file name and every installed ``hooks --version`` say the same."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import tomlkit

from hookweave.core import __version__

REPO = Path(__file__).parent.parent.parent


def test_the_version_has_one_source() -> None:
    project = tomlkit.parse((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hookweave.core.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+)?", __version__)
    assert importlib.metadata.version("hookweave") == __version__  # reinstall after changing it


def test_hooks_version_prints_it(run) -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"hookweave {__version__}\n"


def test_the_metadata_is_complete() -> None:
    meta = importlib.metadata.metadata("hookweave")
    assert meta["License-Expression"] == "MIT" and meta["Requires-Python"] == ">=3.10"
    assert any(c.startswith("Programming Language :: Python :: 3.1") for c in meta.get_all("Classifier"))
    assert {"docs", "release", "test"} <= set(meta.get_all("Provides-Extra"))


def test_the_licence_file_is_mit_and_the_wheel_carries_it() -> None:
    """pyproject names LICENSE in ``license-files`` (PEP 639): setuptools writes ``License-File``
    and puts the text into the wheel's ``.dist-info/licenses/`` (and the sdist)."""
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 hookweave contributors\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text
    project = tomlkit.parse((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert (project["license"], list(project["license-files"])) == ("MIT", ["LICENSE"])
    dist = importlib.metadata.distribution("hookweave")
    assert dist.metadata.get_all("License-File") == ["LICENSE"]  # reinstall after changing it
