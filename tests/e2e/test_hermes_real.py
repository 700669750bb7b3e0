"""Hermes Agent, the real program (PyPI hermes-agent 0.19.0), headless (``hermes chat -q``) offline
against the mock's Chat Completions: ``provider: custom`` and ``base_url`` in its config.yaml, and
``context_length`` set there, without which it looks up the model's context length on openrouter.ai.
Two more things it fetches on a first start are settled as a previous start leaves them: the update
check (PyPI, cached 6 h in ``.update_check``) and the tirith scanner's download (GitHub; off with
``security.tirith_enabled: false``); and on its first start it pip-installs the TTS tool's packages
(edge-tts, aiohttp: seen from PyPI on a fresh install; off with ``security.allow_lazy_installs: false``).
``run_agent``'s strace then sees no connect() but to 127.0.0.1. ``--accept-hooks`` records each hook in
its consent list, as an operator's yes at its prompt does; ``--yolo`` lets its terminal tool run unasked.

One run (about 50 s here) proves the facts hookweave relies on: the operator's YAML with comments
takes the bundle and gives back every byte; the hooks run in file order, each with no shell (the
marker reaches no program); a JSON ``decision: block`` blocks the call, an exit 2 does not, and the
hook after a blocking one still runs.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from realhosts import HERE, HOSTS, run_agent

BINARY = Path(os.environ.get("HOOKWEAVE_TEST_HERMES") or HOSTS / "hermes" / "venv" / "bin" / "hermes")
USER = ("--scope", "user")
VERSION = "0.19.0"  # scripts/install-hosts' pin


# A hook that logs its id, the mode its tool call asks for (``echo mode-<name>``), when it ran and its
# arguments; the one with id ``answer`` then answers as blocker.py does (``block``: JSON, ``exit2``: exit 2).
HOOK = """import json, re, sys, time
hook_id, log = sys.argv[1], sys.argv[2]
found = re.search(r"mode-([a-z0-9]+)", sys.stdin.read())
mode = found.group(1) if found else ""
with open(log, "a") as out:
    out.write(json.dumps({"id": hook_id, "mode": mode, "start": time.time(), "argv": sys.argv[1:]}) + "\\n")
time.sleep(0.2)  # a hook that overlapped the next one would show
if hook_id == "answer" and mode == "block":
    print(json.dumps({"decision": "block", "reason": "reason-block from the hook"}))
if hook_id == "answer" and mode == "exit2":
    print("reason-exit2 from the hook", file=sys.stderr)
    sys.exit(2)
"""


def operator_text(mock_url: str, hook: Path, log: Path) -> str:
    return (f"# the operator's Hermes config\nmodel:\n  default: mock\n  provider: custom\n"
            f"  base_url: {mock_url}/v1   # the mock model\n  api_key: dummy\n  context_length: 128000\n"
            "security:\n  tirith_enabled: false   # no download of its scanner\n"
            "  allow_lazy_installs: false   # no pip install of a tool's packages (edge-tts) on a first start\n"
            f"hooks:\n  pre_tool_call:\n    - matcher: terminal\n"
            f"      command: python3 {hook} op-pre {log}   # the operator's own\n")


def answer_bundle(folder: Path, hook: Path, log: Path, *, chain: bool = False) -> str:
    folder.mkdir()
    order = 'order = "chain"\n' if chain else ""
    (folder / "hookweave.toml").write_text(
        f'[bundle]\nname = "answers"\nversion = "1.0.0"\n{order}'
        '[[hooks]]\nid = "answer"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{hook}", "answer", "{log}"]\n'
        '[[hooks]]\nid = "after"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{hook}", "after", "{log}"]\n')
    return str(folder)


@pytest.fixture
def hermes(mock, home: Path, project: Path):
    if not BINARY.is_file():
        pytest.skip("hermes is not installed: run scripts/install-hosts hermes (needs Python 3.11 to 3.13)")
    env = {"HOME": str(home), "HERMES_HOME": str(home / ".hermes")}
    return lambda: run_agent([str(BINARY), "chat", "-q", "run the echo", "-Q", "--accept-hooks", "--yolo"],
                             project, env, timeout=240)


def test_a_json_block_blocks_an_exit_2_does_not_every_hook_runs_in_order_and_uninstall_gives_back_every_byte(
        run, hermes, mock, home: Path, tmp_path: Path) -> None:
    log, hook = tmp_path / "hooks.log", tmp_path / "hook.py"
    hook.write_text(HOOK)
    config = home / ".hermes" / "config.yaml"
    config.parent.mkdir(parents=True)
    (config.parent / ".update_check").write_text(json.dumps({"ts": time.time(), "behind": 0, "rev": None,
                                                             "ver": VERSION}))  # checked: no look-up on PyPI
    original = operator_text(mock.url, hook, log)
    config.write_text(original)
    assert run("install", answer_bundle(tmp_path / "answers", hook, log), "--host", "hermes", *USER).exit_code == 0
    mock.commands = ["echo mode-block", "echo mode-exit2"]
    hermes()
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    for mode in ("block", "exit2"):  # per tool call: the operator's hook, ours, the one after it, in file order
        ran = sorted((c for c in calls if c["mode"] == mode), key=lambda c: c["start"])
        assert [c["id"] for c in ran] == ["op-pre", "answer", "after"], calls
        assert all(a["start"] + 0.2 <= b["start"] for a, b in zip(ran, ran[1:]))  # one after another
    assert all(c["argv"] == [c["id"], str(log)] for c in calls)  # no marker word reached a program's arguments
    told = json.dumps(mock.requests[-1])
    assert "reason-block from the hook" in told  # the JSON block: the model reads its reason, the echo never ran
    assert "reason-exit2" not in told and "mode-exit2" in told  # exit 2 blocks nothing: the echo ran
    approved = json.loads((home / ".hermes" / "shell-hooks-allowlist.json").read_text())["approvals"]
    assert len(approved) == 3 and run("verify", "--host", "hermes").exit_code == 0  # its consent list, read by verify
    assert run("uninstall", "answers", "--host", "hermes", *USER).exit_code == 0
    assert config.read_text() == original


def test_a_chain_runs_in_order_and_its_first_json_block_ends_it(run, hermes, mock, home: Path, tmp_path: Path) -> None:
    """The same two hooks as one chain: on the blocked call the member after the block does not run
    (a chain stops at its first block, where Hermes itself runs every hook); on the exit 2 call both run."""
    log, hook = tmp_path / "hooks.log", tmp_path / "hook.py"
    hook.write_text(HOOK)
    config = home / ".hermes" / "config.yaml"
    config.parent.mkdir(parents=True)
    (config.parent / ".update_check").write_text(json.dumps({"ts": time.time(), "behind": 0, "rev": None,
                                                             "ver": VERSION}))
    original = operator_text(mock.url, hook, log)
    config.write_text(original)
    installed = run("install", answer_bundle(tmp_path / "answers", hook, log, chain=True), "--host", "hermes", *USER)
    assert installed.exit_code == 0 and "(2 hooks, 1 chain)" in installed.stdout, installed.output
    mock.commands = ["echo mode-block", "echo mode-exit2"]
    hermes()
    assert run("verify", "--host", "hermes").exit_code == 0  # the chain's command is in the consent list now
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    for mode, ids in (("block", ["op-pre", "answer"]), ("exit2", ["op-pre", "answer", "after"])):
        assert [c["id"] for c in sorted((c for c in calls if c["mode"] == mode), key=lambda c: c["start"])] == ids
    told = json.dumps(mock.requests[-1])
    assert "reason-block from the hook" in told and "mode-exit2" in told
    assert run("uninstall", "answers", "--host", "hermes", *USER).exit_code == 0
    assert config.read_text() == original
