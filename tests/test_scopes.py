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


def test_only_a_scope_with_a_record_is_resolved(run, project: Path, monkeypatch) -> None:
    """``installed`` resolves (``realpath``) a scope's file only when the scope has a record, and
    then that scope and the ones before it, which it may be the same file as."""
    import os

    from hookweave.core.contract.registry import registry
    from hookweave.core.reading import scopes

    assert run("install", "example-guard", "--host", "claude", "--scope", "project").exit_code == 0
    claude = registry().get("claude")
    asked: list[str] = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p, *a, **k: asked.append(str(p)) or real(p, *a, **k))
    found = scopes.installed(claude, project)
    assert [scope for scope, _, _ in found] == ["project"]
    before = claude.verify_scopes[: claude.verify_scopes.index("project") + 1]
    assert sorted(asked) == sorted(str(claude.settings_path(s, project)) for s in before)
    asked.clear()
    assert scopes.installed(registry().get("gemini"), project) == [] and asked == []  # no record: nothing resolved


def test_a_scope_that_is_a_link_to_an_earlier_one_is_read_once(run, project: Path, home: Path) -> None:
    """A user settings file that is a symlink to the project's (their records apart): as before,
    the later scope is the earlier one's file, passed over even with a record of its own."""
    from hookweave.core.contract.registry import registry
    from hookweave.core.reading import scopes

    assert run("install", "example-guard", "--host", "claude", "--scope", "project").exit_code == 0
    assert run("install", "example-guard", "--host", "claude", "--scope", "user").exit_code == 0
    claude = registry().get("claude")
    user = claude.settings_path("user", project)
    user.unlink()
    user.symlink_to(claude.settings_path("project", project))
    aliases = scopes.same_file_scopes(claude, project)
    found = [scope for scope, _, _ in scopes.installed(claude, project)]
    assert found == [s for s in claude.verify_scopes if s in ("user", "project") and s not in aliases] == ["user"]
