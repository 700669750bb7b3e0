"""Issue 22 class 7: ``hooks adopt`` takes a group of several handlers (3 of 61 real files hold
one) as one group per handler, each with the group's matcher and other keys: hookweave owns one
handler per group, and every host here runs the copies as it ran the group (side by side, or in
file order under Gemini's ``sequential``, which each copy keeps). Codex trust follows each handler
to its new key. Nothing is written when one handler cannot be adopted. The record lists the hooks
that were one group (``joined``), so ``adopt --undo`` makes them one group again: the file's bytes back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GROUP = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo one", "timeout": 5},
                                      {"type": "command", "command": "echo two"},
                                      {"type": "command", "command": "echo three", "statusMessage": "3"}]}
FILES = {"claude": (".claude/settings.json", "PreToolUse"), "gemini": (".gemini/settings.json", "BeforeTool"),
         "qwen": (".qwen/settings.json", "PreToolUse"), "codex": (".codex/hooks.json", "PreToolUse"),
         "factory": (".factory/hooks.json", "PreToolUse")}


def _split(group: dict) -> list[dict]:
    return [{**group, "hooks": [handler]} for handler in group["hooks"]]


def _plain(doc: dict, host: str) -> dict:
    """The data without hookweave's markers."""
    text = json.dumps(doc)
    import re

    return json.loads(re.sub(r" # hookweave:[a-z0-9-]+/[a-z0-9-]+", "", text))


@pytest.mark.parametrize("host", sorted(FILES))
def test_a_group_of_three_is_adopted_as_three_groups(host, run, project, tmp_path) -> None:
    relative, event = FILES[host]
    group = {**GROUP, "matcher": "run_shell_command"} if host == "gemini" else GROUP
    if host == "gemini":
        group = {**group, "sequential": True}
    other = {"hooks": [{"type": "command", "command": "echo after"}]}
    doc = {event: [group, other]} if host == "factory" else {"hooks": {event: [group, other]}}
    path = project / relative
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")
    original = path.read_bytes()
    adopt = run("adopt", "--host", host, "--out", str(tmp_path / "out"))
    assert adopt.exit_code == 0, adopt.stderr
    assert "adopted 4 hooks" in adopt.stdout and "1 group of several hooks now one group per hook" in adopt.stdout
    now = json.loads(path.read_text())
    events = now if host == "factory" else now["hooks"]
    assert _plain(events[event], host) == [*_split(group), other]
    verify = run("verify", "--host", host)
    # every hook as recorded; the folder's trust (Codex, Gemini) is a problem of its own, said on the row
    rows = [line for line in verify.stdout.splitlines() if "  adopted 1.0.0  " in line]
    assert rows and rows[0].split("  adopted 1.0.0  ")[1].startswith(("4 hooks ok  ", "4 hooks in place, ")), verify.stdout
    assert "modified" not in verify.stdout, verify.stdout
    assert "nothing written" in run("install", str(tmp_path / "out"), "--host", host).stdout
    assert run("adopt", "--undo", "adopted", "--host", host).exit_code == 0
    assert path.read_bytes() == original  # issue 33 item 9: the group is one group again, every byte back


def test_codex_trust_follows_each_handler_of_a_split_group(run, project, codex_home, tmp_path) -> None:
    from hookweave.hosts.codex import trust_hash

    path = project / ".codex" / "hooks.json"
    path.parent.mkdir(parents=True)
    first = {"hooks": [{"type": "command", "command": "echo zero"}]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [first, GROUP]}}, indent=2) + "\n")
    real = path.resolve()
    state = "".join(f'[hooks.state."{real}:pre_tool_use:{g}:{h}"]\ntrusted_hash = "{trust_hash("PreToolUse", grp, hd)}"\n'
                    for g, grp in enumerate([first, GROUP]) for h, hd in enumerate(grp["hooks"]))
    config = codex_home / "config.toml"
    config.write_text(f'[projects."{project.resolve()}"]\ntrust_level = "trusted"\n\n' + state)
    assert run("adopt", "--host", "codex", "--out", str(tmp_path / "out")).exit_code == 0
    verify = run("verify", "--host", "codex")
    assert "not trusted" not in verify.stdout and "  adopted 1.0.0  4 hooks ok  " in verify.stdout, verify.stdout
    keys = sorted(line for line in config.read_text().splitlines() if line.startswith("[hooks.state"))
    assert [k.rsplit(":", 2)[1:] for k in keys] == [["0", "0\"]"], ["1", "0\"]"], ["2", "0\"]"], ["3", "0\"]"]]
    assert run("adopt", "--undo", "adopted", "--host", "codex").exit_code == 0
    assert "not trusted" not in run("verify", "--host", "codex").stdout


def test_one_handler_that_cannot_be_adopted_stops_the_whole_adopt(run, project, tmp_path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    group = {"hooks": [{"type": "command", "command": "echo one"}, {"type": "prompt", "prompt": "ok?"}]}
    text = json.dumps({"hooks": {"Stop": [group]}}) + "\n"
    path.write_text(text)
    result = run("adopt", "--host", "claude", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "/hooks/Stop/0/hooks/1: a hook of type" in result.stderr
    assert path.read_text() == text and not (tmp_path / "out").exists()


def test_the_record_lists_the_joined_hooks_and_undo_after_a_move_leaves_them_split(run, project, tmp_path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"model": "opus", "hooks": {"PreToolUse": [GROUP]}}, indent=2) + "\n")
    assert run("adopt", "--host", "claude", "--out", str(tmp_path / "out")).exit_code == 0
    record = json.loads((project / ".claude" / "settings.hookweave.json").read_text())
    assert record["bundles"]["adopted"]["joined"] == [["pre-tool-use-1", "pre-tool-use-2", "pre-tool-use-3"]]
    doc = json.loads(path.read_text())
    groups = doc["hooks"]["PreToolUse"]
    doc["hooks"]["PreToolUse"] = [groups[1], groups[0], groups[2]]  # the operator reorders two of them
    path.write_text(json.dumps(doc, indent=2) + "\n")
    assert run("adopt", "--undo", "adopted", "--host", "claude").exit_code == 0
    split = _split(GROUP)
    assert path.read_text() == json.dumps({"model": "opus", "hooks": {"PreToolUse": [split[1], split[0], split[2]]}},
                                          indent=2) + "\n"


def test_a_bad_joined_in_the_record_is_refused_naming_its_place(run, project, tmp_path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": {"PreToolUse": [GROUP]}}, indent=2) + "\n")
    assert run("adopt", "--host", "claude", "--out", str(tmp_path / "out")).exit_code == 0
    rec_path = project / ".claude" / "settings.hookweave.json"
    rec = json.loads(rec_path.read_text())
    rec["bundles"]["adopted"]["joined"] = [["pre-tool-use-1", "nope"]]
    rec_path.write_text(json.dumps(rec, indent=2) + "\n")
    before = path.read_bytes()
    result = run("adopt", "--undo", "adopted", "--host", "claude")
    assert result.exit_code == 2
    assert "bundles.adopted.joined: must list groups of ids of this bundle's hooks" in result.stderr
    assert path.read_bytes() == before
