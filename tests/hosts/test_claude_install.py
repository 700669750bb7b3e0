"""Claude Code, end to end through the CLI, on a settings file full of operator entries.

Every assertion on a settings file compares its whole text.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data" / "claude"
BUNDLE = str(DATA / "bundle")
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8")
AFTER = (DATA / "operator.after-install.json").read_text(encoding="utf-8")
RECORD = (DATA / "operator.record.json").read_text(encoding="utf-8")


@pytest.fixture
def settings(claude_settings: Path) -> Path:
    return claude_settings


def record_of(settings: Path) -> Path:
    return settings.with_name("settings.hookweave.json")


def test_install_writes_exactly_the_golden_text_and_record(run, settings: Path) -> None:
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 0, result.output
    assert settings.read_text(encoding="utf-8") == AFTER
    assert record_of(settings).read_text(encoding="utf-8") == RECORD
    assert result.stdout == (
        "claude project .claude/settings.json: installed guard 1.2.0 (3 hooks)\n"
        "  note: guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: set to '20' (was '12'; policy at-least)\n"
        "Restart running sessions of Claude Code: hooks load at session start.\n"
    )


def test_reinstall_writes_no_byte(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    before = (settings.stat().st_mtime_ns, record_of(settings).stat().st_mtime_ns)
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == "claude project .claude/settings.json: guard 1.2.0 already installed; nothing written\n"
    assert (settings.stat().st_mtime_ns, record_of(settings).stat().st_mtime_ns) == before
    assert settings.read_text(encoding="utf-8") == AFTER
    as_json = json.loads(run("install", BUNDLE, "--host", "claude", "--json").stdout)
    assert as_json["changed"] is False and as_json["files"][0]["operations"] == []


def test_uninstall_restores_the_original_bytes_and_removes_the_record(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    result = run("uninstall", "guard", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert not record_of(settings).exists()
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_verify_after_install_is_clean(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "claude (Claude Code)\n"
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one "
        "before the next, so file order is not execution order\n"
        "claude  project  guard 1.2.0  3 hooks ok  .claude/settings.json\n"
        "verify: ok (1 note)\n"
    )


def _edit(settings: Path, change) -> None:
    data = json.loads(settings.read_text(encoding="utf-8"))
    change(data)
    settings.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")  # as Claude saves


def test_operator_hook_above_a_first_registration_is_a_note_and_reinstall_repairs(run, settings: Path) -> None:
    """Claude starts an event's hooks at once (issue 10 case 7): file order is a note, not a failure."""
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"]["PreToolUse"].insert(0, d["hooks"]["PreToolUse"].pop(1)))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert (
        "      out-of-order one-strike   PreToolUse (first)  should come before every other hook of the event, "
        "but a foreign hook is above it; Claude Code starts PreToolUse's hooks at once, so this changes nothing "
        "when they run (reinstall to restore the file order)\n" in result.stdout
    )
    assert result.stdout.endswith("claude  project  guard 1.2.0  2 of 3 hooks ok  .claude/settings.json\n"
                                  "verify: ok (2 notes)\n")
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"].endswith("# hookweave:guard/one-strike")
    assert run("verify", "--host", "claude").exit_code == 0


def test_edited_command_is_reported_and_kept_by_uninstall(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"]["Stop"][1]["hooks"][0].update(command="nightly keepalive-hook --quiet # hookweave:guard/keepalive"))
    edited = settings.read_text(encoding="utf-8")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert "      modified     keepalive    Stop (last)  edited since it was installed; reinstall with --force to restore it\n" in result.stdout
    refused = run("uninstall", "guard", "--host", "claude")
    assert refused.exit_code == 1
    assert refused.stderr == (
        "hooks: .claude/settings.json: guard/keepalive was edited since it was installed; nothing written. "
        "Keep the operator's version, or rerun with --force to remove it anyway\n"
    )
    assert settings.read_text(encoding="utf-8") == edited
    assert run("install", BUNDLE, "--host", "claude").exit_code == 1  # reinstall would clobber it too
    assert settings.read_text(encoding="utf-8") == edited
    forced = run("uninstall", "guard", "--host", "claude", "--force")
    assert forced.exit_code == 0, forced.output
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data == json.loads(OPERATOR)


def test_force_uninstall_keeps_a_handler_the_operator_added_to_our_group(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    mine = {"type": "command", "command": "echo operator"}
    _edit(settings, lambda d: d["hooks"]["Stop"][1]["hooks"].append(mine))
    assert run("uninstall", "guard", "--host", "claude", "--force").exit_code == 0
    stop = json.loads(settings.read_text(encoding="utf-8"))["hooks"]["Stop"]
    assert stop == [{"hooks": [{"type": "command", "command": "say done"}]}, {"hooks": [mine]}]


def test_duplicate_of_our_registration_is_reported_and_left_alone(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"]["Stop"].append(d["hooks"]["Stop"][1]))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("      duplicated   keepalive    Stop (last)  appears 2 times under Stop (Claude Code runs it once, but "
            "hookweave neither updates nor removes the copies); remove the copies\n") in result.stdout
    result = run("uninstall", "guard", "--host", "claude")
    assert result.exit_code == 0
    assert "  note: guard/keepalive: a copy with our marker that the record does not list is not ours to remove; left in place\n" in result.stdout
    stop = json.loads(settings.read_text(encoding="utf-8"))["hooks"]["Stop"]
    assert [g["hooks"][0]["command"] for g in stop] == ["say done", "nightly keepalive-hook # hookweave:guard/keepalive"]


def test_missing_registration_is_reported(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"].pop("SessionStart"))
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    hooks = report["hosts"][0]["files"][0]["bundles"][0]["hooks"]
    assert [(h["id"], h["status"]) for h in hooks] == [("one-strike", "ok"), ("keepalive", "ok"), ("session-log", "missing")]
    assert report["ok"] is False and report["problems"] == 1


def test_upgrade_replaces_in_place_adds_and_drops(run, settings: Path, write_bundle) -> None:
    run("install", BUNDLE, "--host", "claude")
    v2 = (DATA / "bundle" / "hookweave.toml").read_text(encoding="utf-8")
    v2 = v2.replace('version = "1.2.0"', 'version = "2.0.0"').replace('"--project"', '"--strict", "--project"')
    v2 = v2.replace('[[hooks]]\nid = "session-log"\nevent = "session_start"\ncommand = ["session-log", "start"]\n', "")
    v2 += '\n[[hooks]]\nid = "post-audit"\nevent = "post_tool_use"\ncommand = "audit-post"\n'
    result = run("install", str(write_bundle(v2)), "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("claude project .claude/settings.json: upgraded guard 1.2.0 -> 2.0.0\n")
    expected = AFTER.replace(
        "guard-hook --project", "guard-hook --strict --project"
    ).replace(
        ',\n        "SessionStart": [\n            {\n                "hooks": [\n                    {\n                        "type": "command",\n'
        '                        "command": "session-log start # hookweave:guard/session-log"\n                    }\n                ]\n            }\n        ]',
        ',\n        "PostToolUse": [\n            {\n                "hooks": [\n                    {\n                        "type": "command",\n'
        '                        "command": "audit-post # hookweave:guard/post-audit"\n                    }\n                ]\n            }\n        ]',
    )
    assert settings.read_text(encoding="utf-8") == expected
    assert run("verify", "--host", "claude").exit_code == 0
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR


def test_two_bundles_share_a_file_and_leave_independently(run, settings: Path, write_bundle) -> None:
    other = write_bundle('[bundle]\nname = "other"\nversion = "1"\n[[hooks]]\nid = "x"\nevent = "pre_tool_use"\n'
                         'command = "other-hook"\nposition = "first"\n')
    run("install", str(other), "--host", "claude")
    only_other = settings.read_text(encoding="utf-8")
    run("install", BUNDLE, "--host", "claude")
    assert run("verify", "--host", "claude").exit_code == 0
    assert run("install", str(other), "--host", "claude").stdout.endswith("already installed; nothing written\n")
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == only_other
    assert run("uninstall", "other", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR


def test_new_file_and_folder_are_created_and_removed_again(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    settings = project / ".claude" / "settings.json"
    assert json.loads(settings.read_text(encoding="utf-8"))["env"] == {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "20"}
    assert settings.read_text(encoding="utf-8").startswith('{\n  "hooks": {\n    "PreToolUse": [\n')
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert not (project / ".claude").exists()


def test_existing_empty_folder_is_kept(run, project: Path) -> None:
    (project / ".claude").mkdir()
    run("install", BUNDLE, "--host", "claude")
    run("uninstall", "guard", "--host", "claude")
    assert (project / ".claude").is_dir() and not any((project / ".claude").iterdir())


def test_user_scope_honours_claude_config_dir(run, tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "elsewhere"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert run("install", BUNDLE, "--host", "claude", "--scope", "user").exit_code == 0
    assert (config / "settings.json").is_file() and (config / "settings.hookweave.json").is_file()
    assert run("status").stdout == f"claude  user  guard 1.2.0  (3 hooks, 1 env)  {config / 'settings.json'}\n"


def test_local_scope_writes_settings_local_json(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "claude", "--scope", "local").exit_code == 0
    assert (project / ".claude" / "settings.local.json").is_file()
    assert (project / ".claude" / "settings.local.hookweave.json").is_file()
    assert not (project / ".claude" / "settings.json").exists()


def test_symlinked_settings_stay_a_link_and_keep_their_mode(run, project: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(OPERATOR, encoding="utf-8")
    dotfiles.chmod(0o640)
    link = project / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(dotfiles)
    assert dotfiles.read_text(encoding="utf-8") == AFTER
    assert dotfiles.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in dotfiles.parent.iterdir()] == ["claude.json"]  # no temp file left
    run("uninstall", "guard", "--host", "claude")
    assert link.is_symlink() and dotfiles.read_text(encoding="utf-8") == OPERATOR


def test_a_container_made_again_is_recorded_once(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["hooks"].pop("SessionStart")  # the host dropped the event install had created
    settings.write_text(json.dumps(data, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    record = json.loads(record_of(settings).read_text(encoding="utf-8"))
    assert record["created"] == ["/hooks/SessionStart"]


# -- issue 8, case 1: a copy of our entry outside the place the record names is the operator's -----

def _ours(data: dict, event: str, index: int = 0) -> dict:
    import copy

    return copy.deepcopy(data["hooks"][event][index])


COPIES = {
    # our PreToolUse group copied, marker and all, into an event the record does not list for it
    "into-another-event": lambda d, o: d["hooks"].setdefault("PostToolUse", []).append(o["pre"]),
    # into an event no host knows
    "into-an-unknown-event": lambda d, o: d["hooks"].setdefault("FutureEvent", []).append(o["pre"]),
    # an edited copy in another event
    "edited-into-another-event": lambda d, o: d["hooks"].setdefault("UserPromptSubmit", []).append(
        {**o["pre"], "matcher": "Write"}),
    # a second, edited copy in the same event (a different hash from the recorded one)
    "edited-second-in-same-event": lambda d, o: d["hooks"]["PreToolUse"].append({**o["pre"], "matcher": "Edit"}),
    # our handler added to the operator's own group
    "our-handler-in-their-group": lambda d, o: d["hooks"]["Stop"][0]["hooks"].append(o["stop"]["hooks"][0]),
    # our handler added to a group of theirs in another event, before their own handler
    "our-handler-first-in-their-group": lambda d, o: d["hooks"]["Notification"][0]["hooks"].insert(
        0, o["session"]["hooks"][0]),
}


@pytest.mark.parametrize("case", sorted(COPIES))
def test_a_copy_of_our_entry_is_never_updated_or_removed(run, settings: Path, case: str) -> None:
    """Issue 8 case 1: the copy survived verify as ok, and install/uninstall deleted it."""
    assert run("install", BUNDLE, "--host", "claude").exit_code == 0
    after = json.loads(AFTER)
    ours = {"pre": _ours(after, "PreToolUse"), "stop": _ours(after, "Stop", 1), "session": _ours(after, "SessionStart")}
    _edit(settings, lambda d: COPIES[case](d, ours))
    edited = settings.read_text(encoding="utf-8")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1, result.output
    assert "that the record does not list" in result.stdout or "duplicated" in result.stdout or "copy" in result.stdout
    for args in (("install", BUNDLE), ("install", BUNDLE, "--force")):
        again = run(*args, "--host", "claude")
        assert again.exit_code == 0, again.output
        assert again.stdout.startswith("claude project .claude/settings.json: guard 1.2.0 already installed; nothing written\n")
        assert settings.read_text(encoding="utf-8") == edited
    gone = run("uninstall", "guard", "--host", "claude")
    assert gone.exit_code == 0, gone.output
    expected = json.loads(OPERATOR)
    COPIES[case](expected, ours)
    assert settings.read_text(encoding="utf-8") == json.dumps(expected, indent=2) + "\n"
    assert not record_of(settings).exists()


def test_verify_names_a_copy_in_another_event(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"].setdefault("PostToolUse", []).append(d["hooks"]["PreToolUse"][0]))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("  problem: guard/one-strike: a copy under PostToolUse that the record does not list: the host runs it "
            "too, and hookweave neither updates nor removes it; remove it by hand if you did not mean to keep it\n"
            ) in result.stdout, result.stdout
    assert "claude  project  guard 1.2.0  3 hooks in place, 1 problem above  .claude/settings.json\n" in result.stdout, result.stdout


def test_our_entry_moved_to_another_event_is_missing_and_the_moved_one_stays(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    _edit(settings, lambda d: d["hooks"].setdefault("PostToolUse", []).append(d["hooks"]["PreToolUse"].pop(0)))
    moved = settings.read_text(encoding="utf-8")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("missing      one-strike   PreToolUse (first)  not found under PreToolUse, where the record puts it "
            "(a copy under PostToolUse is the operator's, not ours); reinstall the bundle\n") in result.stdout, result.stdout
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    expected = json.loads(moved)
    expected["hooks"]["Stop"].pop(1)
    del expected["hooks"]["SessionStart"]
    expected["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] = "12"
    assert settings.read_text(encoding="utf-8") == json.dumps(expected, indent=2) + "\n"


def test_a_copy_in_another_scope_survives_uninstall_at_ours(run, settings: Path, home: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    user = home / ".claude" / "settings.json"
    user.parent.mkdir()
    copy = {"hooks": {"PreToolUse": [json.loads(AFTER)["hooks"]["PreToolUse"][0]]}}
    user.write_text(json.dumps(copy, indent=2) + "\n", encoding="utf-8")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert "carries hookweave's marker but no record lists it" in result.stdout
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert user.read_text(encoding="utf-8") == json.dumps(copy, indent=2) + "\n"


def test_a_copy_in_another_bundles_group_survives_both_uninstalls(run, settings: Path, write_bundle) -> None:
    other = write_bundle('[bundle]\nname = "other"\nversion = "1"\n[[hooks]]\nid = "x"\nevent = "stop"\ncommand = "other-x"\n')
    run("install", BUNDLE, "--host", "claude")
    run("install", str(other), "--host", "claude")
    theirs = json.loads(AFTER)["hooks"]["Stop"][1]["hooks"][0]
    _edit(settings, lambda d: d["hooks"]["Stop"][2]["hooks"].append(theirs))  # guard's handler into other's group
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    assert run("uninstall", "other", "--host", "claude", "--force").exit_code == 0  # other's group was edited
    expected = json.loads(OPERATOR)
    expected["hooks"]["Stop"].append({"hooks": [theirs]})
    assert settings.read_text(encoding="utf-8") == json.dumps(expected, indent=2) + "\n"


# -- issue 8, case 2: --force keeps a handler the operator added to our group -------------------------

def test_force_install_keeps_a_handler_the_operator_added_to_our_group(run, settings: Path) -> None:
    """Issue 8 case 2: install --force replaced the whole group, and the operator's handler with it."""
    run("install", BUNDLE, "--host", "claude")
    mine = {"type": "command", "command": "echo operator"}
    _edit(settings, lambda d: d["hooks"]["Stop"][1]["hooks"].append(mine))
    assert run("install", BUNDLE, "--host", "claude").exit_code == 1
    forced = run("install", BUNDLE, "--host", "claude", "--force")
    assert forced.exit_code == 0, forced.output
    expected = json.loads(AFTER)
    expected["hooks"]["Stop"].insert(1, {"hooks": [mine]})  # theirs keeps the place; ours stays last
    assert json.loads(settings.read_text(encoding="utf-8")) == expected
    assert run("verify", "--host", "claude").exit_code == 0
    assert run("uninstall", "guard", "--host", "claude").exit_code == 0
    data = json.loads(OPERATOR)
    data["hooks"]["Stop"].append({"hooks": [mine]})
    assert json.loads(settings.read_text(encoding="utf-8")) == data


def test_force_install_of_an_edited_first_entry_keeps_theirs_after_ours(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    mine = {"type": "command", "command": "echo operator"}
    _edit(settings, lambda d: d["hooks"]["PreToolUse"][0]["hooks"].insert(0, mine))
    edited = json.loads(settings.read_text(encoding="utf-8"))
    assert run("install", BUNDLE, "--host", "claude", "--force").exit_code == 0
    expected = json.loads(AFTER)
    expected["hooks"]["PreToolUse"].insert(1, {"matcher": "Bash", "hooks": [mine]})
    assert edited["hooks"]["PreToolUse"][0]["hooks"][0] == mine
    assert json.loads(settings.read_text(encoding="utf-8")) == expected
    assert run("verify", "--host", "claude").exit_code == 0


# -- issue 8, cases 6 and 7: lone surrogates and numbers past Python's digit limit ----------------------

SURROGATE_BUNDLE = '[bundle]\nname = "sur"\nversion = "1"\n[[hooks]]\nid = "k"\nevent = "stop"\ncommand = "k"\n' \
                   '[env.FOO]\nvalue = "1"\npolicy = "override"\n'


def test_a_lone_surrogate_in_the_operators_env_survives_override_and_uninstall(run, settings: Path, write_bundle) -> None:
    """Issue 8 case 6: the prior value "\\ud800" ended in UnicodeEncodeError writing the record."""
    text = OPERATOR.replace('"GREETING": "grüß dich ☕",', '"GREETING": "grüß dich ☕",\n        "FOO": "a\\ud800b",')
    settings.write_text(text, encoding="utf-8")
    bundle = str(write_bundle(SURROGATE_BUNDLE))
    result = run("install", bundle, "--host", "claude")
    assert result.exit_code == 0, result.output
    assert "  note: sur: FOO: set to '1' (was 'a\\ud800b'; policy override)\n" in result.stdout
    assert '"prior": "a\\ud800b"' in record_of(settings).read_text(encoding="utf-8")
    assert run("verify", "--host", "claude").exit_code == 0
    assert run("install", bundle, "--host", "claude").stdout.startswith(
        "claude project .claude/settings.json: sur 1 already installed; nothing written\n")
    for dry in (("--dry-run", "--patch"), ("--dry-run", "--json")):  # the restored value is printed as its escape
        preview = run("uninstall", "sur", "--host", "claude", *dry)
        assert preview.exit_code == 0, preview.output
        assert '"value": "a\\ud800b"' in preview.stdout
    result = run("uninstall", "sur", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert settings.read_text(encoding="utf-8") == text


def test_a_lone_surrogate_in_an_edit_of_our_entry_is_hashed_and_reported(run, settings: Path) -> None:
    run("install", BUNDLE, "--host", "claude")
    text = settings.read_text(encoding="utf-8")
    edited = text.replace('"nightly keepalive-hook # hookweave:guard/keepalive"',
                          '"nightly \\udc80 keepalive-hook # hookweave:guard/keepalive"')
    settings.write_text(edited, encoding="utf-8")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert "      modified     keepalive    Stop (last)  edited since it was installed" in result.stdout
    dry = run("install", BUNDLE, "--host", "claude", "--force", "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    assert run("uninstall", "guard", "--host", "claude").exit_code == 1
    assert settings.read_text(encoding="utf-8") == edited
    assert run("install", BUNDLE, "--host", "claude", "--force").exit_code == 0
    assert settings.read_text(encoding="utf-8") == text


def test_a_value_past_the_digit_limit_is_compared_as_digits(run, settings: Path, write_bundle) -> None:
    """Issue 8 case 7: at-least's int() raised on a 5000-digit value (operator's or the bundle's)."""
    huge = "9" * 5000
    settings.write_text(OPERATOR.replace('"12"', f'"{huge}"'), encoding="utf-8")
    result = run("install", BUNDLE, "--host", "claude")
    assert result.exit_code == 0, result.output
    assert (f"  note: guard: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: kept the operator's value '{huge[:27]}...{huge[:27]}' "
            "(5000 characters), already at least 20 (policy at-least)\n") in result.stdout
    assert json.loads(settings.read_text(encoding="utf-8"))["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] == huge
    settings.write_text(OPERATOR, encoding="utf-8")
    run("uninstall", "guard", "--host", "claude")
    bigger = '[bundle]\nname = "cap"\nversion = "1"\n[env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP]\n' \
             f'value = "{huge}"\npolicy = "at-least"\n'
    assert run("install", str(write_bundle(bigger)), "--host", "claude").exit_code == 0
    assert json.loads(settings.read_text(encoding="utf-8"))["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] == huge
    assert run("uninstall", "cap", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR


def test_a_toml_integer_past_the_digit_limit_is_a_manifest_error(run, settings: Path, write_bundle) -> None:
    folder = write_bundle('[bundle]\nname = "cap"\nversion = "1"\n[env.X]\nvalue = ' + "9" * 5000 + "\n")
    result = run("install", str(folder), "--host", "claude")
    assert result.exit_code == 2
    assert result.stderr == f"hooks: {folder / 'hookweave.toml'}:5:9: a number of 5000 digits; write it as a string, or shorten it\n"
    assert settings.read_text(encoding="utf-8") == OPERATOR
