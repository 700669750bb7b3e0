"""Scopes that are one file: a user-folder variable pointing into the project."""

from __future__ import annotations

import json
from pathlib import Path


def test_a_user_layer_that_is_the_project_layer_is_checked_once(run, project: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(project / ".codex"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(project / ".claude"))
    assert run("install", "example-guard", "--host", "codex", "--scope", "project").exit_code == 0
    assert run("install", "example-guard", "--host", "claude", "--scope", "user").exit_code == 0
    result = run("verify", "--host", "codex", "--host", "claude", "--json")
    report = json.loads(result.stdout)
    assert report["hosts"][1]["problems"] == 0, result.stdout  # Claude; Codex also says the hooks are untrusted
    for host in report["hosts"]:
        assert [f["scope"] for f in host["files"]] == ["user"]
        assert any("project and user scope are the same file here" in f["message"] for f in host["findings"])
        assert not any("installed at" in f["message"] for f in host["findings"])
    rows = json.loads(run("status", "--json").stdout)["installed"]
    assert sorted((r["host"], r["scope"]) for r in rows) == [("claude", "user"), ("codex", "user")]
