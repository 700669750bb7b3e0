"""Windsurf specifics (documented facts, file-level): flat snake_case events whose name carries the tool."""

from __future__ import annotations

import os
from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "windsurf" / "operator.settings.json").read_text(encoding="utf-8")
HEAD = '[bundle]\nname = "ws"\nversion = "1"\n'


def _hook(hook_id: str, event: str, matcher: str | None = None, extra: str = "") -> str:
    lines = f'[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\ncommand = "run-{hook_id}"\n'
    return lines + (f"matcher = {matcher}\n" if matcher else "") + extra


def _settings(project: Path) -> Path:
    return project / ".windsurf" / "hooks.json"


def test_operator_file_round_trip_restores_every_byte(run, project: Path) -> None:
    path = _settings(project)
    path.parent.mkdir()
    path.write_text(OPERATOR, encoding="utf-8")
    install = run("install", BUNDLE, "--host", "windsurf")
    assert install.exit_code == 0
    assert "  note: guard/session-log: skipped: Windsurf has no session_start event\n" in install.stdout
    after = (DATA / "windsurf" / "operator.after-install.json").read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8") == after  # no timeout key: the documentation names none
    assert "guard 1.2.0 already installed; nothing written\n" in run("install", BUNDLE, "--host", "windsurf").stdout
    assert run("verify", "--host", "windsurf").exit_code == 0
    assert run("uninstall", "guard", "--host", "windsurf").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_a_tool_hook_goes_under_the_event_its_tools_name(run, write_bundle, project: Path) -> None:
    bundle = write_bundle(HEAD + _hook("sh", "pre_tool_use", '["shell"]') + _hook("wr", "pre_tool_use", '["write", "edit"]')
                          + _hook("rd", "pre_tool_use", '["read"]') + _hook("after", "post_tool_use", '["shell"]')
                          + _hook("ask", "user_prompt_submit") + _hook("done", "stop"))
    assert run("install", str(bundle), "--host", "windsurf").exit_code == 0
    assert _settings(project).read_text(encoding="utf-8") == (
        '{\n  "hooks": {\n'
        '    "pre_run_command": [\n      {\n        "command": "run-sh # hookweave:ws/sh"\n      }\n    ],\n'
        '    "pre_write_code": [\n      {\n        "command": "run-wr # hookweave:ws/wr"\n      }\n    ],\n'
        '    "pre_read_code": [\n      {\n        "command": "run-rd # hookweave:ws/rd"\n      }\n    ],\n'
        '    "post_run_command": [\n      {\n        "command": "run-after # hookweave:ws/after"\n      }\n    ],\n'
        '    "pre_user_prompt": [\n      {\n        "command": "run-ask # hookweave:ws/ask"\n      }\n    ],\n'
        '    "post_cascade_response": [\n      {\n        "command": "run-done # hookweave:ws/done"\n      }\n    ]\n'
        "  }\n}\n"
    )
    assert run("verify", "--host", "windsurf").exit_code == 0
    assert run("uninstall", "ws", "--host", "windsurf").exit_code == 0
    assert not _settings(project).parent.exists()


def test_a_tool_hook_for_every_tool_or_several_events_is_skipped_with_the_fix(run, write_bundle, project: Path) -> None:
    bundle = write_bundle(HEAD + _hook("any", "pre_tool_use") + _hook("two", "post_tool_use", '["shell", "read"]')
                          + _hook("ok", "stop"))
    result = run("install", str(bundle), "--host", "windsurf")
    assert result.exit_code == 0
    why = ("Windsurf files {e} under one event per kind of tool ({s}_run_command, {s}_write_code, {s}_read_code, "
           "{s}_mcp_tool_use) and this hook has {what}; give it tools of one kind (shell, write/edit or read), or set "
           "[hooks.host.windsurf] event to one of those events\n")
    assert "  warning: ws/any: skipped: " + why.format(e="pre_tool_use", s="pre", what="no matcher") in result.stdout
    assert "  warning: ws/two: skipped: " + why.format(e="post_tool_use", s="post", what="tools of several of them") \
        in result.stdout
    assert _settings(project).read_text(encoding="utf-8") == (
        '{\n  "hooks": {\n    "post_cascade_response": [\n      {\n'
        '        "command": "run-ok # hookweave:ws/ok"\n      }\n    ]\n  }\n}\n')


def test_a_catch_all_tool_hook_that_names_windsurf_is_refused_and_nothing_written(run, write_bundle, project) -> None:
    bundle = write_bundle(HEAD + _hook("any", "pre_tool_use", extra='hosts = ["windsurf"]\n') + _hook("ok", "stop"))
    result = run("install", str(bundle), "--host", "windsurf")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "hookweave.toml: hooks (any): Windsurf files pre_tool_use under" in result.stderr
    assert not _settings(project).parent.exists()


def test_the_override_puts_a_catch_all_hook_under_the_event_the_operator_names(run, write_bundle, project) -> None:
    bundle = write_bundle(HEAD + _hook("mcp", "pre_tool_use", extra='[hooks.host.windsurf]\nevent = "pre_mcp_tool_use"\n'))
    assert run("install", str(bundle), "--host", "windsurf").exit_code == 0
    assert _settings(project).read_text(encoding="utf-8") == (
        '{\n  "hooks": {\n    "pre_mcp_tool_use": [\n      {\n'
        '        "command": "run-mcp # hookweave:ws/mcp"\n      }\n    ]\n  }\n}\n')


def test_an_entry_with_powershell_only_is_the_operators_and_one_with_neither_is_refused(run, project: Path) -> None:
    path = _settings(project)
    path.parent.mkdir()
    fine = '{"hooks": {"pre_run_command": [{"powershell": "& audit.ps1"}]}}'
    path.write_text(fine)
    assert run("install", BUNDLE, "--host", "windsurf").exit_code == 0
    assert run("uninstall", "guard", "--host", "windsurf").exit_code == 0
    assert path.read_text() == fine
    broken = '{"hooks": {"pre_run_command": [{"show_output": true}]}}'
    path.write_text(broken)
    result = run("install", BUNDLE, "--host", "windsurf")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ('hooks: .windsurf/hooks.json: /hooks/pre_run_command/0 has no "command" or "powershell" '
                             "string; fix the file by hand\n")
    assert path.read_text() == broken


def test_our_hook_in_the_system_file_too_is_a_double_fire_warning(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "windsurf").exit_code == 0
    system = Path(os.environ["HOOKWEAVE_WINDSURF_SYSTEM_DIR"]) / "hooks.json"
    system.parent.mkdir()
    system.write_text(_settings(project).read_text(encoding="utf-8"))
    result = run("verify", "--host", "windsurf")
    assert result.exit_code == 0
    assert (f"  warning: guard/keepalive, one-strike: also in the system hooks file {system}, which Windsurf runs first: "
            "it would fire twice\n") in result.stdout
