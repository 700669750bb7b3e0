"""Qwen Code specifics (0.24.4's code): seconds with the millisecond carry-over, sequential,
names, one run per name and command across scopes, and its switches."""

from __future__ import annotations

import json
from pathlib import Path

from hookweave.core.formats import jsontext

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "qwen" / "operator.settings.json").read_text(encoding="utf-8")
SLOW = """[bundle]
name = "slow"
version = "1.0.0"
sequential = true
[[hooks]]
id = "long"
event = "stop"
command = "long-job"
timeout = 1200
[[hooks]]
id = "short"
event = "pre_tool_use"
matcher = ["edit", "write"]
command = "check"
timeout = 999
"""


def _data(path: Path) -> dict:
    return jsontext.parse(path.read_text(encoding="utf-8"), str(path), comments=True).value


def test_operator_file_round_trip_restores_every_byte(run, project: Path) -> None:
    path = project / ".qwen" / "settings.json"
    path.parent.mkdir()
    path.write_text(OPERATOR, encoding="utf-8")
    assert run("install", BUNDLE, "--host", "qwen").exit_code == 0
    assert path.read_text(encoding="utf-8") == (DATA / "qwen" / "operator.after-install.json").read_text(encoding="utf-8")
    assert run("verify", "--host", "qwen").exit_code == 0
    assert run("uninstall", "guard", "--host", "qwen").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_seconds_below_1000_milliseconds_from_there_and_sequential(run, project: Path, write_bundle) -> None:
    assert run("install", str(write_bundle(SLOW)), "--host", "qwen").exit_code == 0
    hooks = _data(project / ".qwen" / "settings.json")["hooks"]
    assert hooks == {
        "Stop": [{"sequential": True, "hooks": [
            {"type": "command", "name": "slow/long", "command": "long-job # hookweave:slow/long", "timeout": 1200000}]}],
        "PreToolUse": [{"matcher": "edit|write_file", "sequential": True, "hooks": [
            {"type": "command", "name": "slow/short", "command": "check # hookweave:slow/short", "timeout": 999}]}],
    }


def test_the_same_hook_at_both_scopes_runs_once_in_qwen(run) -> None:
    run("install", BUNDLE, "--host", "qwen", "--scope", "user")
    run("install", BUNDLE, "--host", "qwen", "--scope", "project")
    verify = run("verify", "--host", "qwen")
    assert verify.exit_code == 0
    assert "  note: guard: installed at user and project scope; Qwen Code runs identical commands once\n" in verify.stdout


def test_disable_all_hooks_and_an_untrusted_folder_are_problems(run, home: Path, project: Path) -> None:
    user = home / ".qwen" / "settings.json"
    user.parent.mkdir()
    user.write_text(json.dumps({"disableAllHooks": True, "security": {"folderTrust": {"enabled": True}}}))
    install = run("install", BUNDLE, "--host", "qwen")
    assert "user settings set disableAllHooks: Qwen runs no hooks; remove the key or set it to false" in install.stdout
    verify = run("verify", "--host", "qwen")
    assert verify.exit_code == 1
    assert ("  problem: user settings set disableAllHooks: Qwen runs no hooks; remove the key or set it to false\n"
            in verify.stdout)
    rules = home / ".qwen" / "trustedFolders.json"
    assert ("  problem: folder trust is on in user settings, and this project is not trusted in "
            f"{rules} (no rule covers it): Qwen ignores .qwen/settings.json here, hooks included; "
            "trust the folder when Qwen asks (or /permissions), or add a TRUST_FOLDER rule for it\n") in verify.stdout
    (home / ".qwen" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    user.write_text(json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    verify = run("verify", "--host", "qwen")
    assert verify.exit_code == 0, verify.stdout
    assert (f"  note: folder trust is on in user settings, and {rules} trusts this project "
            f"(TRUST_FOLDER on {project})\n") in verify.stdout
    (home / ".qwen" / "trustedFolders.json").write_text('{"/x": "TRUST_ALWAYS"}')
    verify = run("verify", "--host", "qwen")
    assert verify.exit_code == 1 and (f"  problem: {rules} holds the trust level \"TRUST_ALWAYS\", "
                                      "which is not one of TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST: Qwen stops at "
                                      "start; fix the file\n") in verify.stdout, verify.stdout


QUERY_END = """[bundle]
name = "later"
version = "1.0.0"
[[hooks]]
id = "done"
event = "stop"
command = "log-query"
hosts = ["qwen"]
[hooks.host.qwen]
event = "QueryEnd"
"""


def test_an_event_only_qwen_1x_documents_is_written_with_a_warning(run, project: Path, write_bundle) -> None:
    """Qwen Code 1.x documents 27 events, 11 of them unknown to 0.24.4's code (QueryEnd among them):
    a bundle may name one, and install says it is known from documents only."""
    result = run("install", str(write_bundle(QUERY_END)), "--host", "qwen")
    assert result.exit_code == 0, result.output
    assert ("  warning: later/done: QueryEnd is a Qwen Code 1.x event known from its documents only (unmeasured); "
            "older releases have no such event") in result.output
    assert (project / ".qwen" / "settings.json").read_text(encoding="utf-8") == (
        '{\n  "hooks": {\n    "QueryEnd": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n'
        '            "name": "later/done",\n            "command": "log-query # hookweave:later/done"\n'
        '          }\n        ]\n      }\n    ]\n  }\n}\n')
