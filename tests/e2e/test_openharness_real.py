"""OpenHarness, the real program (PyPI openharness-ai 0.1.9, ``oh``), headless (``oh -p``) offline
against the mock's Chat Completions: ``--api-format openai --base-url <mock>/v1`` (the environment's
base URL loses to the active profile's, so the flags say it), ``--dangerously-skip-permissions``
so its bash tool runs unasked. ``run_agent``'s strace sees no connect() but to 127.0.0.1.

OpenHarness has one hooks file, ``~/.openharness/settings.json``, so hookweave installs at user
scope. Its hooks get no stdin: probe.py and blocker.py read ``$OPENHARNESS_HOOK_PAYLOAD``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realhosts import HERE, HOSTS, run_agent
from test_chain_real import calls, first_blocks_chain
from test_letta_real import probe_bundle

BINARY = HOSTS / "openharness" / "venv" / "bin" / "oh"
MODES = ("none", "exit2", "exit1", "plain", "deny", "block")
USER = ("--scope", "user")


@pytest.fixture
def oh(mock, home: Path, project: Path):
    if not BINARY.is_file():
        pytest.skip("oh is not installed: run scripts/install-hosts openharness (needs Python 3.10 or newer)")
    argv = [str(BINARY), "-p", "run the echo", "--dangerously-skip-permissions", "--api-format", "openai",
            "--base-url", f"{mock.url}/v1", "--model", "mock", "--api-key", "dummy"]
    return lambda: run_agent(argv, project, {"HOME": str(home)})


def settings_file(home: Path) -> Path:
    return home / ".openharness" / "settings.json"


def operator_file(home: Path, log: Path) -> str:
    """The operator's own hooks, as OpenHarness writes them: one before ours on pre_tool_use, one on stop."""
    def probe(hook_id: str, matcher: str | None = None) -> dict:
        return {"type": "command", "command": f"python3 {HERE / 'probe.py'} {hook_id} {log}", "timeout_seconds": 30,
                "matcher": matcher, "block_on_failure": False}

    text = json.dumps({"model": "mock", "theme": "default", "hooks": {
        "pre_tool_use": [probe("op-pre", "bash")], "stop": [probe("op-stop")]}}, indent=2) + "\n"
    settings_file(home).parent.mkdir(parents=True, exist_ok=True)
    settings_file(home).write_text(text)
    return text


def answer_bundle(folder: Path, log: Path, *, chain: bool = False) -> str:
    folder.mkdir()
    order = 'order = "chain"\n' if chain else ""
    (folder / "hookweave.toml").write_text(
        f'[bundle]\nname = "answers"\nversion = "1.0.0"\n{order}'
        '[[hooks]]\nid = "answer"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{HERE / "blocker.py"}", "{log}", "openharness"]\n'
        '[[hooks]]\nid = "after"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{HERE / "probe.py"}", "after", "{log}.after"]\n')
    return str(folder)


def test_hooks_fire_once_in_order_with_env_next_to_the_operators_and_none_after_uninstall(run, oh, mock, home, project,
                                                                                         tmp_path, shared_runs) -> None:
    """Measured on the shared run's call of the answers' ``none`` command (its tool ran) and the run's stop."""
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, oh, mock, home, project, tmp_path))
    got = shared["probe"]
    assert sorted(c["id"] for c in got) == ["op-pre", "op-stop", "probe-post", "probe-pre", "probe-pre-2"], got
    pre = sorted((c for c in got if c["event"] == "pre_tool_use"), key=lambda c: c["start"])
    assert [c["id"] for c in pre] == ["op-pre", "probe-pre", "probe-pre-2"]  # file order, one at a time
    assert all(a["end"] <= b["start"] for a, b in zip(pre, pre[1:]))
    for call in got:  # no stdin: the event and the payload come in the env
        assert call["env"]["OPENHARNESS_HOOK_EVENT"] == call["event"]
        assert json.loads(call["env"]["OPENHARNESS_HOOK_PAYLOAD"])["event"] == call["event"]
    assert {c["tool"] for c in pre} == {"bash"}
    sent = tmp_path / "sent.json"  # issue 34: the payload OpenHarness sent, as sent, is one hooks check takes
    sent.write_text(pre[1]["env"]["OPENHARNESS_HOOK_PAYLOAD"])
    check = run("check", shared["probe_bundle"], "--host", "openharness", "--payload", str(sent), "--json")
    assert check.exit_code == 0, check.output
    ran = {h["hook"]: [r["payload"] for r in h["runs"]] for h in json.loads(check.stdout)["hooks"]}
    assert ran["probe/pre"] == ["your payload sent.json"], ran
    assert shared["uninstalled"] == [0, 0, 0]
    assert shared["file_after_uninstall"] == shared["operator_file"]  # every byte of the operator's file back
    assert sorted(c["id"] for c in shared["probe_after_uninstall"]) == ["op-pre", "op-stop"]


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """OpenHarness runs shared by the tests of this module whose scenarios sit side by side in one
    settings file, by name: built by whichever test needs one first, inside that test's own HOME and
    project (its fixtures, so nothing_left_running covers the runs); the others read the same record.
    Each test asserts only its own facts (an ``oh`` start is about 6 s of CPU: its imports)."""
    return {}


def _shared(cache: dict, name: str, build) -> dict:
    if name not in cache:
        cache[name] = build()
    return cache[name]


def _answers_and_chain(run, oh, mock, home, project, tmp_path) -> dict:
    """One run for three scenarios side by side under the operator's own hooks: the probe bundle
    (three hooks, logging apart), the answers bundle (one shell call per answer, and a probe after
    the answering hook) and the chain whose first member blocks ``mode-stop`` (two more calls); then
    all three uninstalled and a run without them. The answer hook does nothing on ``pass`` and
    ``stop``, the chain blocks nothing but ``stop``, the probes block nothing."""
    probe_log = tmp_path / "probe.log"
    original = operator_file(home, probe_log)
    probes = probe_bundle(tmp_path / "probes", probe_log, ids=("pre", "pre-2", "post"))
    log = tmp_path / "answers.log"
    folder = answer_bundle(tmp_path / "bundle", log)
    commands = {m: f"touch ran-mode-{m}" for m in MODES}
    files = []
    for mode, command in commands.items():
        path = tmp_path / f"payload-{mode}.json"
        path.write_text(json.dumps({"tool_name": "bash", "tool_input": {"command": command},  # as OpenHarness sends it
                                    "event": "pre_tool_use"}))
        files += ["--payload", str(path)]
    check = run("check", folder, "--host", "openharness", *files, "--json")
    report = next(h for h in json.loads(check.stdout)["hooks"] if h["hook"].endswith("answer"))
    runs = {r["payload"][len("your payload payload-"):-len(".json")]: r for r in report["runs"]}
    log.unlink(missing_ok=True)
    Path(f"{log}.after").unlink(missing_ok=True)  # check ran the probe too
    (tmp_path / "chain").mkdir()
    chain_folder, chain_log = first_blocks_chain(tmp_path / "chain")
    for bundle in (probes, folder, chain_folder):
        assert run("install", bundle, "--host", "openharness", *USER).exit_code == 0
    chain_verify = run("verify", "--verbose", "--host", "openharness").exit_code
    mock.commands = [*commands.values(), "touch ran-mode-pass", "touch ran-mode-stop"]
    oh()
    ran = {m: (project / f"ran-mode-{m}").exists() for m in (*MODES, "pass", "stop")}
    # the probe test's hooks on the one call of the run whose tool ran untouched by any answer, and the stop
    probed = [c for c in calls(probe_log) if c["command"] in (commands["none"], None)]
    shared = {"commands": commands, "runs": runs, "ran": ran, "seen": json.dumps([r["body"] for r in mock.requests]),
              "after": calls(Path(f"{log}.after")), "chain": calls(chain_log), "chain_verify": chain_verify,
              "probe": probed, "probe_bundle": probes, "operator_file": original}
    uninstalled = [run("uninstall", name, "--host", "openharness", *USER).exit_code
                   for name in ("chained", "answers", "probe")]
    after = settings_file(home).read_text()
    mock.commands = ["touch ran-mode-stop"]
    oh()
    return {**shared, "uninstalled": uninstalled, "file_after_uninstall": after,
            "chain_after_uninstall": calls(chain_log), "stop_after_uninstall": (project / "ran-mode-stop").exists(),
            "probe_after_uninstall": calls(probe_log)}


def test_a_pre_tool_use_answer_does_what_hooks_check_says_and_a_block_stops_no_later_hook(run, oh, mock, home, project,
                                                                                         tmp_path, shared_runs) -> None:
    """block_on_failure (hookweave writes it on pre_tool_use): any exit but 0 blocks; stdout and JSON mean nothing."""
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, oh, mock, home, project, tmp_path))
    predicted = {m: r["action"] for m, r in shared["runs"].items()}
    did = {m: "ran" if shared["ran"][m] else "block" for m in MODES}
    table = "\n".join(f"{m}: check says {predicted[m]}, oh {did[m]}" for m in MODES)
    assert {m: predicted[m] == "block" for m in MODES} == {m: did[m] == "block" for m in MODES}, table
    assert did == {m: "block" if m in ("exit1", "exit2") else "ran" for m in MODES}, table
    mine = sorted(shared["commands"].values())  # the chain's two calls ran the probe too
    after = [c for c in shared["after"] if c["command"] in mine]
    assert sorted(c["command"] for c in after) == mine  # the hook after a blocking one ran on every call, the blocked ones too
    seen = shared["seen"]
    assert "reason-exit1 from the hook" in seen and "reason-exit2 from the hook" in seen  # stderr, as the tool's result


def test_a_chain_runs_its_members_in_order_and_the_first_block_ends_it(run, oh, mock, home, project, tmp_path,
                                                                        shared_runs) -> None:
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, oh, mock, home, project, tmp_path))
    assert shared["chain_verify"] == 0
    by_call: dict[str, list[dict]] = {}
    for call in shared["chain"]:
        by_call.setdefault(call["call"], []).append(call)
    assert [c["id"] for c in sorted(by_call["pass"], key=lambda c: c["start"])] == ["first", "second"]
    assert [c["id"] for c in by_call["stop"]] == ["first"]  # the chain ends at the first block
    assert shared["ran"]["pass"] and not shared["ran"]["stop"]
    assert "stopped by first" in shared["seen"]
    assert shared["chain_after_uninstall"] == [] and shared["stop_after_uninstall"]


def test_a_timeout_is_seconds_and_blocks_the_tool(run, oh, mock, home, project, tmp_path) -> None:
    log = tmp_path / "probe.log"
    folder = Path(probe_bundle(tmp_path / "bundle", log, ids=("pre",), sleep=4))
    manifest = folder / "hookweave.toml"
    manifest.write_text(manifest.read_text().replace("command = [", "timeout = 1\ncommand = ["))
    assert run("install", str(folder), "--host", "openharness", *USER).exit_code == 0
    data = json.loads(settings_file(home).read_text())
    assert [h["timeout_seconds"] for h in data["hooks"]["pre_tool_use"]] == [1]
    mock.commands = ["touch ran-mode-timeout"]
    oh()
    assert calls(log) == []  # killed after one second, before it logs
    assert not (project / "ran-mode-timeout").exists()  # and the call did not go ahead (block_on_failure)
    assert "command hook timed out after 1s" in json.dumps([r["body"] for r in mock.requests])
