"""Cline specifics: one dispatcher per event among the operator's scripts, whole files and modes
restored, an operator's own event file refused, hand edits reported and never overwritten, several
bundles in declared order, and the dispatcher answering the way Cline combines answers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
GOLDEN = DATA / "cline"
OPERATOR = {  # what an operator keeps in .clinerules: their own hooks for other events, rules, odd names
    ".clinerules/hooks/PostToolUse": ("#!/bin/sh\n# audit every tool\necho '{}' \n", 0o750),
    ".clinerules/hooks/pretooluse.sh": ("echo '{\"contextModification\": \"mine\"}'\r\n", 0o644),
    ".clinerules/hooks/UserPromptSubmit.py": ("import sys\nprint('{}')  # Größe ✓\n", 0o600),
    ".clinerules/hooks/README.md": ("# our hooks\n", 0o444),
    ".clinerules/style.md": ("Use tabs.\n", 0o644),
    ".cline/rules/notes.txt": ("keep me\n", 0o640),
}
SECOND = """[bundle]
name = "second"
version = "0.1.0"
[[hooks]]
id = "audit"
event = "pre_tool_use"
command = "audit-hook --all"
[[hooks]]
id = "bye"
event = "session_end"
command = ["bye", "it's done"]
"""


@pytest.fixture(autouse=True)
def umask():
    old = os.umask(0o022)  # modes of what we create are asserted
    yield
    os.umask(old)


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"", stat.S_IMODE(p.stat().st_mode))
            for p in sorted(root.rglob("*"))}


def operator_folder(project: Path) -> dict[str, tuple[bytes, int]]:
    for name, (text, mode) in OPERATOR.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        path.chmod(mode)
    return snapshot(project)


def golden(name: str, folders: int = 2) -> str:
    """A golden file; ``folders``: how many folders above it hookweave made (it removes them again),
    the file's key (the hash of the rest, the line after the count) made again for that count."""
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    text = (GOLDEN / name).read_text(encoding="utf-8")
    if folders == 2:
        return text
    rest, _ = cline_dispatcher._unkeyed(text)
    count = cline_dispatcher.FOLDERS
    return cline_dispatcher._keyed(rest.replace(f"{count}2\n", f"{count}{folders}\n"))


def test_dispatchers_beside_the_operators_scripts_then_every_byte_and_mode_back(run, project: Path) -> None:
    before = operator_folder(project)
    result = run("install", BUNDLE, "--host", "cline")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "cline project .cline/hookweave-hooks.json: installed guard 1.2.0 (3 hooks)\n"
        "cline project .clinerules/hooks/TaskStart: the event's hook file (hookweave's own)\n")
    hooks = project / ".clinerules" / "hooks"
    for event in ("PreToolUse", "TaskStart", "TaskComplete"):
        assert (hooks / event).read_text(encoding="utf-8") == golden(event, folders=0), event
        assert stat.S_IMODE((hooks / event).stat().st_mode) == 0o755
    assert (project / ".cline" / "hookweave-hooks.json").read_text(encoding="utf-8") == golden("hookweave-hooks.json")
    now = snapshot(project)
    assert {k: v for k, v in now.items() if k in before} == before  # no operator byte or mode changed
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 0, verify.output
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert snapshot(project) == before


def test_an_operators_own_event_file_is_refused_and_nothing_written(run, project: Path, home: Path) -> None:
    operator_folder(project)
    own = project / ".clinerules" / "hooks" / "TaskComplete"
    own.write_bytes(b"notify-send done\n")
    own.chmod(0o700)
    before, home_before = snapshot(project), snapshot(home)
    result = run("install", BUNDLE, "--host", "cline")
    assert result.exit_code == 1
    assert result.stderr == (
        "hooks: .clinerules/hooks/TaskComplete: is the operator's own Cline hook, and hookweave never replaces nor "
        "edits it; nothing written. Move its command into a bundle, or move the file away (Cline also runs "
        "TaskComplete.sh beside it), and install again\n")
    assert snapshot(project) == before and snapshot(home) == home_before


def test_uninstall_leaves_an_operators_script_that_replaced_ours(run, project: Path) -> None:
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    theirs = project / ".clinerules" / "hooks" / "TaskStart"
    theirs.write_text("echo mine\n")
    theirs.chmod(0o600)
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1
    assert "modified: .clinerules/hooks/TaskStart is no longer the file hookweave wrote" in verify.stdout
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert sorted(p.name for p in (project / ".clinerules" / "hooks").iterdir()) == ["TaskStart"]
    assert theirs.read_text() == "echo mine\n" and stat.S_IMODE(theirs.stat().st_mode) == 0o600
    assert not (project / ".cline").exists()


def test_an_earlier_hookweaves_unedited_dispatcher_is_ours_and_an_edit_to_its_code_is_not(run, project: Path) -> None:
    """Each dispatcher holds the key of its own text: a file an earlier hookweave wrote (here: today's
    with other runner code, keyed as it would have been) is hookweave's, whatever code it holds:
    verify says to update it, install writes today's. Before the key, every change to the runner's
    code made such a file read as edited by hand, which install refuses to touch. The same change
    without its key is an edit, reported and never overwritten. The operator's files beside it are
    untouched throughout, and given back byte for byte and mode for mode when the bundle goes."""
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    before = operator_folder(project)
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    path = project / ".clinerules" / "hooks" / "PreToolUse"
    today = path.read_text()
    rest, key = cline_dispatcher._unkeyed(today)
    assert key == cline_dispatcher._digest(rest)
    older = rest.replace("hw_fg=1\n", "hw_fg=\n", 1)
    assert older != rest
    path.write_text(cline_dispatcher._keyed(older))
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 0, verify.output
    assert ("PreToolUse runs the code of an earlier hookweave's dispatcher; install the bundle again to update "
            "it") in verify.stdout
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    assert path.read_text() == today == golden("PreToolUse", folders=0)  # (the operator made the folders)
    edited = today.replace("hw_fg=1\n", "hw_fg=\n", 1)
    path.write_text(edited)
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1 and "modified: .clinerules/hooks/PreToolUse was edited by hand" in verify.stdout
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0  # nothing of it to change: left alone
    assert path.read_text() == edited
    path.write_text(today)
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert snapshot(project) == before


def test_a_hand_edit_is_reported_and_never_overwritten(run, project: Path, write_bundle) -> None:
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    dispatcher = project / ".clinerules" / "hooks" / "PreToolUse"
    edited = dispatcher.read_text().replace("guard-hook --project .", "guard-hook --project . --loud")
    dispatcher.write_text(edited)
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1
    assert ("modified: .clinerules/hooks/PreToolUse was edited by hand and no longer runs exactly what hookweave "
            "wrote; undo the edit, or delete the file and install the bundle again") in verify.stdout
    for args in (("install", str(write_bundle(SECOND)), "--host", "cline"), ("uninstall", "guard", "--host", "cline")):
        result = run(*args)
        assert result.exit_code == 1 and result.stderr.startswith(
            "hooks: .clinerules/hooks/PreToolUse: was edited by hand since hookweave wrote it"), result.output
        assert dispatcher.read_text() == edited
    dispatcher.unlink()
    assert "missing: .clinerules/hooks/PreToolUse is gone" in run("verify", "--host", "cline").stdout
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    assert dispatcher.read_text() == golden("PreToolUse")
    assert run("verify", "--host", "cline").exit_code == 0


def test_several_bundles_run_in_declared_order_and_one_leaves(run, project: Path, write_bundle) -> None:
    (project / ".clinerules").mkdir()
    (project / ".clinerules" / "style.md").write_text("Use tabs.\n")
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    assert run("install", str(write_bundle(SECOND)), "--host", "cline").exit_code == 0
    hooks = project / ".clinerules" / "hooks"
    assert (hooks / "PreToolUse").read_text() == golden("PreToolUse.two", folders=1)
    assert (hooks / "SessionShutdown").read_text() == golden("SessionShutdown", folders=1)
    assert run("verify", "--host", "cline").exit_code == 0
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert (hooks / "PreToolUse").read_text() == golden("PreToolUse.second", folders=1)
    assert sorted(p.name for p in hooks.iterdir()) == ["PreToolUse", "SessionShutdown"]
    assert run("uninstall", "second", "--host", "cline").exit_code == 0
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*")) == [".clinerules", ".clinerules/style.md"]


def test_folders_made_by_an_earlier_dispatcher_go_with_the_last_one(run, project: Path, write_bundle) -> None:
    first = write_bundle('[bundle]\nname = "a"\nversion = "1.0.0"\n[[hooks]]\nid = "x"\nevent = "stop"\ncommand = "x"\n')
    later = write_bundle('[bundle]\nname = "b"\nversion = "1.0.0"\n[[hooks]]\nid = "y"\nevent = "post_tool_use"\n'
                         'command = "y"\n')
    assert run("install", str(first), "--host", "cline").exit_code == 0
    assert run("install", str(later), "--host", "cline").exit_code == 0
    assert "# hookweave-made-folders: 2\n" in (project / ".clinerules" / "hooks" / "PostToolUse").read_text()
    assert run("uninstall", "a", "--host", "cline").exit_code == 0
    assert run("uninstall", "b", "--host", "cline").exit_code == 0
    assert list(project.iterdir()) == []


def test_user_scope_writes_into_cline_dir(run, home: Path, project: Path) -> None:
    result = run("install", BUNDLE, "--host", "cline", "--scope", "user")
    assert result.exit_code == 0, result.output
    assert (home / ".cline" / "hooks" / "PreToolUse").read_text() == golden("PreToolUse")
    assert (home / ".cline" / "hookweave-hooks.json").read_text() == golden("hookweave-hooks.json")
    assert run("verify", "--host", "cline").exit_code == 0
    assert run("uninstall", "guard", "--host", "cline", "--scope", "user").exit_code == 0
    assert list(home.iterdir()) == [] and list(project.iterdir()) == []


def _answer(project: Path, hooks: list[dict], payload: dict) -> str:
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    path = project / "PreToolUse"
    path.write_text(cline_dispatcher.render("PreToolUse", hooks, 0))
    done = subprocess.run([sys.executable, str(path)], input=json.dumps(payload).encode(), capture_output=True,
                          cwd=project, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def test_the_dispatcher_answers_once_as_cline_combines_answers(project: Path) -> None:
    call = {"hookName": "tool_call", "preToolUse": {"toolName": "run_commands", "parameters": {}}}
    said = [
        {"command": "echo '{\"contextModification\": \"first\"}' # hookweave:a/one"},
        {"command": "printf 'noise\\nHOOK_CONTROL\\t{\"context\": \"second\"}\\n' # hookweave:a/two",
         "matcher": "run_commands|editor"},
        {"command": "echo 'not json' # hookweave:a/three"},
        {"command": "echo '{\"context\": \"other tool\"}' # hookweave:a/four", "matcher": "read_files"},
        {"command": "sleep 5; echo '{\"context\": \"late\"}' # hookweave:a/five", "timeout": 1},
        {"command": "exit 3 # hookweave:a/six"},
    ]
    assert _answer(project, said, call) == '{"contextModification": "first\\nsecond"}\n'
    refusing = said[:1] + [{"command": "echo '{\"cancel\": true, \"errorMessage\": \"no\"}' # hookweave:b/stop"},
                           {"command": "touch ran-after-cancel # hookweave:b/after"}]
    assert _answer(project, refusing, call) == '{"cancel": true, "errorMessage": "no"}\n'
    assert not (project / "ran-after-cancel").exists()
    assert _answer(project, [{"command": "true # hookweave:c/quiet"}], call) == ""


@pytest.mark.parametrize("tool, fires", [("run_commands", True), ("execute_command", True),
                                         ("write_to_file", False), ("read_file", False)])
def test_a_shell_hook_fires_on_the_cli_and_the_extension_tool_names(run, project: Path, tmp_path: Path,
                                                                  tool: str, fires: bool) -> None:
    """The Cline extension sends ``execute_command`` where the CLI sends ``run_commands``, to the same
    files and in the same payload shape: a ``shell`` hook must fire on both, and on no other tool."""
    manifest = tmp_path / "b" / "hookweave.toml"
    manifest.parent.mkdir()
    manifest.write_text('[bundle]\nname = "b"\nversion = "1.0.0"\n[[hooks]]\nid = "shell"\nevent = "pre_tool_use"\n'
                        'matcher = ["shell"]\ncommand = "echo \'{\\"context\\": \\"seen\\"}\'"\n')
    assert run("install", str(manifest.parent), "--host", "cline").exit_code == 0
    dispatcher = project / ".clinerules" / "hooks" / "PreToolUse"
    payload = {"clineVersion": "3.36.0", "hookName": "PreToolUse", "timestamp": "1", "taskId": "t",
               "workspaceRoots": [str(project)], "userId": "u", "preToolUse": {"toolName": tool, "parameters": {}}}
    done = subprocess.run([str(dispatcher)], input=json.dumps(payload).encode(), capture_output=True, cwd=project,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert (done.stdout.decode() == '{"contextModification": "seen"}\n') is fires, done.stdout


def test_an_operators_binary_file_at_another_event_is_never_read(run, project: Path) -> None:
    """Found by the attack: a non-UTF-8 file at an event we have no hook on stopped install (exit 2,
    "save it as UTF-8"); one at our event is the operator's, so it is refused, not re-saved."""
    hooks = project / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreCompact").write_bytes(b"\xff\xfe compiled\x00")
    before = snapshot(project)
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    assert run("verify", "--host", "cline").exit_code == 0
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert snapshot(project) == before
    (hooks / "TaskStart").write_bytes(b"\x7fELF\x00\xff")
    before = snapshot(project)
    result = run("install", BUNDLE, "--host", "cline")
    assert result.exit_code == 1 and result.stderr.startswith(
        "hooks: .clinerules/hooks/TaskStart: is the operator's own Cline hook"), result.output
    assert snapshot(project) == before


def test_verify_says_when_no_python3_would_run_the_dispatchers(run, project: Path, tmp_path: Path, monkeypatch) -> None:
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    assert run("verify", "--host", "cline").exit_code == 0
    empty = tmp_path / "no-python"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1
    assert ("  problem: python3 is not on PATH here, and hookweave's Cline hook files run with python3 "
            "(python3 -S): Cline runs none of them; install Python 3") in verify.stdout.splitlines()


def test_a_dispatcher_that_is_a_symlink_is_a_problem_a_linked_folder_is_not(run, project: Path, tmp_path: Path) -> None:
    """Cline 3.0.65 skips a hook file that is a symlink, even to an identical copy; a hooks folder
    that is one works (tests/e2e/test_cline_real.py)."""
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    hooks = project / ".clinerules" / "hooks"
    copy = tmp_path / "copy"
    copy.write_bytes((hooks / "PreToolUse").read_bytes())
    (hooks / "PreToolUse").unlink()
    (hooks / "PreToolUse").symlink_to(copy)
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1
    assert ("  problem: guard/one-strike: .clinerules/hooks/PreToolUse is a symlink, and Cline skips a hook file that "
            "is one, so it runs none of the project PreToolUse hooks; delete the link and install the bundle "
            "again\n") in verify.stdout, verify.stdout
    (hooks / "PreToolUse").unlink()
    (hooks / "PreToolUse").write_bytes(copy.read_bytes())
    hooks.rename(tmp_path / "folder")
    hooks.symlink_to(tmp_path / "folder")
    assert run("verify", "--host", "cline").exit_code == 0


def test_an_unmarked_entry_in_our_data_file_is_never_run_never_lost_and_reported(run, project: Path) -> None:
    """Issue 22 class 3: a foreign entry in hookweave's own data file. The dispatcher runs ours only;
    the entry stays in the file through install and uninstall (never lost), and verify names it."""
    data = project / ".cline" / "hookweave-hooks.json"
    data.parent.mkdir()
    text = '{\n  "hooks": {\n    "PreToolUse": [\n      {"command": "touch theirs-ran"}\n    ]\n  }\n}\n'
    data.write_text(text)
    assert run("install", BUNDLE, "--host", "cline").exit_code == 0
    dispatcher = project / ".clinerules" / "hooks" / "PreToolUse"
    assert "theirs-ran" not in dispatcher.read_text() and "# hookweave:guard/one-strike" in dispatcher.read_text()
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 1
    assert ("  problem: .cline/hookweave-hooks.json: /hooks/PreToolUse/1 has no hookweave marker; this file is "
            "hookweave's own and Cline never reads it, so that entry runs nowhere: put its command in a hook file of "
            "your own (.clinerules/hooks/PreToolUse.sh) and remove it here\n") in verify.stdout, verify.stdout
    assert run("uninstall", "guard", "--host", "cline").exit_code == 0
    assert data.read_text() == text
    assert not dispatcher.exists() and sorted(p.name for p in project.rglob("*") if p.is_file()) == [
        "hookweave-hooks.json"]
