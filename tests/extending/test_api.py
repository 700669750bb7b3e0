"""The Python API (core/usecases/api.py): what the Ansible collection calls instead of the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.errors import NotInstalled, Refused
from hookweave.core.usecases import api

OPERATOR = '{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}\n}\n'


def test_install_dry_run_then_install_then_nothing_to_do(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(OPERATOR, encoding="utf-8")
    dry = api.install("example-guard", ["claude"], project=str(project), dry_run=True)
    assert dry.changed and settings.read_text(encoding="utf-8") == OPERATOR
    [file] = dry.files
    assert file["path"] == str(settings) and file["changed"] and file["record_changed"]
    assert file["diff"].startswith("--- ") and "+" in file["diff"] and "# hookweave:example-guard/destructive-guard" in file["diff"]
    done = api.install("example-guard", ["claude"], project=str(project))
    assert done.changed and not done.problems and settings.read_text(encoding="utf-8") != OPERATOR
    assert not api.install("example-guard", ["claude"], project=str(project)).changed
    verified = api.verify(["claude"], project=str(project))
    assert verified.ok and verified.level("problem") == []
    assert api.uninstall("example-guard", ["claude"], project=str(project)).changed
    assert settings.read_text(encoding="utf-8") == OPERATOR
    with pytest.raises(NotInstalled, match="example-guard is not installed"):
        api.uninstall("example-guard", ["claude"], project=str(project))


def test_an_operator_edit_is_refused_and_verify_names_it(project: Path) -> None:
    api.install("example-guard", ["claude"], project=str(project))
    settings = project / ".claude" / "settings.json"
    edited = settings.read_text(encoding="utf-8").replace("guard.py #", "guard.py --strict #")
    settings.write_text(edited, encoding="utf-8")
    [problem] = api.verify(["claude"], project=str(project)).level("problem")
    assert (problem["host"], problem["scope"], problem["bundle"], problem["hook"], problem["status"]) == \
        ("claude", "project", "example-guard", "destructive-guard", "modified")
    with pytest.raises(Refused, match="nothing written.*--force"):
        api.install("example-guard", ["claude"], project=str(project))
    assert settings.read_text(encoding="utf-8") == edited
