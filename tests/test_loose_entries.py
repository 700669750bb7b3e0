"""Issue 22 classes 6 and 7: verify, install and adopt say the same true thing about real files.

A handler written straight under an event where a ``{matcher, hooks}`` group belongs (two public
Gemini files): measured on the real agents (tests/e2e/test_flat_entries_real.py), Gemini, Qwen and
Codex skip that entry and run the rest; Claude and Factory refuse the whole file. A plain Windsurf
entry (``{"command", "show_output"}`` under ``pre_run_command``) adopts and installs back exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FLAT = {"type": "command", "command": "echo flat"}
GROUP = {"hooks": [{"type": "command", "command": "echo group"}]}
SKIPPING = {"gemini": (".gemini/settings.json", "BeforeTool"), "qwen": (".qwen/settings.json", "PreToolUse"),
            "codex": (".codex/hooks.json", "PreToolUse")}
REFUSING = {"claude": (".claude/settings.json", "PreToolUse", "/hooks/PreToolUse/0"),
            "factory": (".factory/hooks.json", "PreToolUse", "/PreToolUse/0")}


def _bundle(write_bundle) -> Path:
    return write_bundle('[bundle]\nname = "b"\nversion = "1.0.0"\n[[hooks]]\nid = "h"\nevent = "pre_tool_use"\n'
                        'command = "echo ours"\n')


def _write(project: Path, relative: str, doc: dict) -> tuple[Path, str]:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, indent=2) + "\n"
    path.write_text(text)
    return path, text


@pytest.mark.parametrize("host", sorted(SKIPPING))
def test_an_entry_the_host_skips_is_reported_kept_and_not_adopted(host, run, project, write_bundle, tmp_path) -> None:
    relative, event = SKIPPING[host]
    path, original = _write(project, relative, {"hooks": {event: [FLAT, GROUP]}})
    said = f"/hooks/{event}/0: a hook outside a {{matcher, hooks}} group, which"
    verify = run("verify", "--host", host)
    assert said in verify.stdout and "skips: it never runs" in verify.stdout
    install = run("install", str(_bundle(write_bundle)), "--host", host, "--yes")
    assert install.exit_code == 0 and said in install.stdout
    assert json.loads(path.read_text())["hooks"][event][0] == FLAT  # left as it is
    assert run("uninstall", "b", "--host", host, "--yes").exit_code == 0
    assert path.read_text() == original
    adopt = run("adopt", "--host", host, "--out", str(tmp_path / "out"))
    assert adopt.exit_code == 0 and "adopted 1 hook" in adopt.stdout and said in adopt.stdout
    assert json.loads(path.read_text())["hooks"][event][0] == FLAT  # not adopted: adopting would start it
    assert run("adopt", "--undo", "adopted", "--host", host).exit_code == 0
    assert path.read_text() == original


@pytest.mark.parametrize("host", sorted(REFUSING))
def test_a_file_the_host_refuses_is_reported_and_refused_in_the_same_words(host, run, project, write_bundle,
                                                                          tmp_path) -> None:
    relative, event, pointer = REFUSING[host]
    doc = {event: [FLAT, GROUP]} if host == "factory" else {"hooks": {event: [FLAT, GROUP]}}
    path, original = _write(project, relative, doc)
    verify = run("verify", "--host", host)
    said = next(line for line in verify.stdout.splitlines() if pointer in line).split(f"{pointer}: ", 1)[1]
    assert said.endswith("refuses the whole file for it and runs none of its hooks; "
                         'put it in a group ({"hooks": [it]}) or remove it')
    for args in (("install", str(_bundle(write_bundle)), "--yes"), ("adopt", "--out", str(tmp_path / "out"))):
        refused = run(*args, "--host", host)
        assert refused.exit_code == 2 and f"{pointer}: {said}" in refused.stderr
    assert path.read_text() == original and not (tmp_path / "out").exists()


def test_a_plain_windsurf_entry_adopts_and_gives_back_the_same_bytes(run, project, tmp_path) -> None:
    text = '{\n  "hooks": {\n    "pre_run_command": [\n      {"command": "echo hi", "show_output": true}\n    ]\n  }\n}\n'
    path, original = _write(project, ".windsurf/hooks.json", json.loads(text))
    adopt = run("adopt", "--host", "windsurf", "--out", str(tmp_path / "out"))
    assert adopt.exit_code == 0, adopt.stderr
    manifest = (tmp_path / "out" / "hookweave.toml").read_text()
    assert 'event = "pre_run_command"' in manifest
    assert "nothing written" in run("install", str(tmp_path / "out"), "--host", "windsurf").stdout
    assert run("verify", "--host", "windsurf").exit_code == 0
    assert run("adopt", "--undo", "adopted", "--host", "windsurf").exit_code == 0
    assert path.read_text() == original


@pytest.mark.parametrize("host", ["claude", "gemini", "qwen", "codex", "factory"])
def test_an_event_the_host_does_not_know_is_reported_as_skipped(host, run, project, write_bundle, tmp_path) -> None:
    relative, event = (SKIPPING.get(host) or REFUSING[host])[:2]
    unknown = "PostToolUse" if host == "gemini" else "BeforeTool"
    doc = {unknown: [GROUP], event: [GROUP]}
    path, original = _write(project, relative, doc if host == "factory" else {"hooks": doc})
    said = f"{'' if host == 'factory' else '/hooks'}/{unknown}: not an event "
    assert said in run("verify", "--host", host).stdout
    install = run("install", str(_bundle(write_bundle)), "--host", host, "--yes")
    assert install.exit_code == 0 and said in install.stdout
    assert run("uninstall", "b", "--host", host, "--yes").exit_code == 0 and path.read_text() == original


@pytest.mark.parametrize("host", ["claude", "gemini", "qwen", "factory"])
def test_a_handler_without_type_is_said_as_the_host_treats_it(host, run, project, write_bundle) -> None:
    relative, event = (SKIPPING.get(host) or REFUSING[host])[:2]
    doc = {event: [{"hooks": [{"command": "echo untyped"}]}, GROUP]}
    path, original = _write(project, relative, doc if host == "factory" else {"hooks": doc})
    pointer = f"{'' if host == 'factory' else '/hooks'}/{event}/0/hooks/0"
    said = next(line for line in run("verify", "--host", host).stdout.splitlines() if pointer in line)
    said = said.split(f"{pointer}: ", 1)[1]
    install = run("install", str(_bundle(write_bundle)), "--host", host, "--yes")
    if host in SKIPPING:
        assert "skips: it never runs" in said and install.exit_code == 0 and said in install.stdout
        assert run("uninstall", "b", "--host", host, "--yes").exit_code == 0
    else:
        assert "refuses the whole file" in said and install.exit_code == 2 and said in install.stderr
    assert path.read_text() == original
