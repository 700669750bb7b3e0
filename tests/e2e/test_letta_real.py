"""Letta Code, the real program (@letta-ai/letta-code 0.32.18), headless (``letta -p``) on its local
backend offline against the mock's Chat Completions, posing as LM Studio (``LMSTUDIO_BASE_URL``).

A headless run runs the tool hooks only (SessionStart, UserPromptSubmit and Stop run in Letta's
interactive session), so the probes here are PreToolUse and PostToolUse. Offline: no update check
(``DISABLE_AUTOUPDATER``) and no telemetry (``LETTA_CODE_TELEM=0``); ``run_agent``'s strace then
sees no connect() but to 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mock_model import MockModel, _Handler
from realhosts import HERE, REPO, run_agent
from test_chain_real import calls, first_blocks_chain
from test_check_real import _to_model

BINARY = REPO / ".cache" / "hosts" / "letta" / "node_modules" / ".bin" / "letta"
MODES = ("none", "exit2", "exit1", "plain", "deny", "block")


class _LMStudio(_Handler):
    """The mock, listing its one model where Letta's LM Studio provider looks for models."""

    def do_GET(self) -> None:
        if "models" in self.path or "tags" in self.path:
            self._json({"object": "list", "data": [{"id": "mock", "object": "model", "owned_by": "mock"}]})
        else:
            self._json({"error": "not found"}, 404)


class LettaMock(MockModel):
    @staticmethod
    def _handler() -> type:
        return _LMStudio


@pytest.fixture
def mock():
    with LettaMock() as server:
        yield server


@pytest.fixture
def letta(mock, home: Path, project: Path):
    if not BINARY.is_file():
        pytest.skip("letta is not installed: run scripts/install-hosts letta (needs node and npm)")
    env = {"HOME": str(home), "LMSTUDIO_BASE_URL": f"{mock.url}/v1", "DISABLE_AUTOUPDATER": "1",
           "LETTA_CODE_TELEM": "0", "SHELL": "/bin/bash"}
    return lambda: run_agent([str(BINARY), "--backend", "local", "-m", "lmstudio/mock", "-p", "run the echo"],
                             project, env)


def probe_bundle(folder: Path, log: Path, *, ids=("pre", "post"), sleep: float = 0) -> str:
    folder.mkdir()
    (folder / "probe.py").write_text((HERE / "probe.py").read_text())
    hooks = "".join(
        f'[[hooks]]\nid = "{i}"\nevent = "{"post_tool_use" if i == "post" else "pre_tool_use"}"\nmatcher = ["shell"]\n'
        f'command = ["python3", "{{bundle_dir}}/probe.py", "probe-{i}", "{log}", "{sleep}"]\n' for i in ids)
    (folder / "hookweave.toml").write_text('[bundle]\nname = "probe"\nversion = "1.0.0"\n' + hooks
                                           + '[env.PROBE_VAR]\nvalue = "from-bundle"\n')
    return str(folder)


def operator_file(path: Path, log: Path, hook_id: str) -> str:
    command = f"python3 {HERE / 'probe.py'} {hook_id} {log}"
    text = json.dumps({"permissions": {"allow": ["Bash(*)"]}, "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}, indent=2) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """Letta runs shared by the tests of this module whose scenarios sit side by side in one project,
    by name: built by whichever test needs one first, inside that test's own HOME and project (its
    fixtures, so nothing_left_running covers the runs); the others read the same record. Each test
    asserts only its own facts (a Letta start is about 3 s of CPU)."""
    return {}


def _shared(cache: dict, name: str, build) -> dict:
    if name not in cache:
        cache[name] = build()
    return cache[name]


def test_hooks_fire_once_with_env_next_to_the_operators_and_none_after_uninstall(run, letta, mock, project, home,
                                                                                 tmp_path, shared_runs) -> None:
    """Measured on the shared run's call of the answers' ``none`` command (its tool ran)."""
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, letta, mock, project, home, tmp_path))
    got = shared["probe"]
    assert sorted(c["id"] for c in got) == ["op-local", "op-user", "probe-post", "probe-pre"], got
    pre = sorted((c for c in got if c["event"] == "PreToolUse"), key=lambda c: c["start"])
    assert [c["id"] for c in pre] == ["op-local", "probe-pre", "op-user"]  # local, project, user: one at a time
    assert all(a["end"] <= b["start"] for a, b in zip(pre, pre[1:]))
    ours = {c["id"]: c for c in got if c["id"].startswith("probe-")}
    assert ours["probe-pre"]["tool"] == "Bash" and ours["probe-post"]["event"] == "PostToolUse"
    for call in ours.values():
        assert call["env"]["LETTA_WORKING_DIR"] == str(project)  # the project variable; Letta has no env key
    assert shared["probe_verify"] == 0 and shared["uninstalled"] == [0, 0, 0]
    # Letta writes its own keys (sessionsByServer, ...) into the local file: the operator's hooks stay as written
    assert json.loads(shared["local_after_uninstall"])["hooks"] == json.loads(shared["local_original"])["hooks"]
    assert "hookweave" not in shared["ours_after_uninstall"]
    assert sorted(c["id"] for c in shared["probe_after_uninstall"]) == ["op-local", "op-user"]


def _two_scopes_and_a_timeout(run, letta, project, tmp_path) -> dict:
    """One run for two scenarios side by side: the bundle ``slow`` at project scope (a hook sleeping
    4 s under a 1 s timeout, its own log), and the bundle ``probe`` at user and project scope."""
    slow_log = tmp_path / "slow.log"
    slow = Path(probe_bundle(tmp_path / "slow", slow_log, ids=("pre",), sleep=4))
    manifest = slow / "hookweave.toml"
    manifest.write_text(manifest.read_text().replace('name = "probe"', 'name = "slow"')
                        .replace("command = [", "timeout = 1\ncommand = ["))
    assert run("install", str(slow), "--host", "letta").exit_code == 0
    slow_written = json.loads((project / ".letta" / "settings.json").read_text())
    log = tmp_path / "probe.log"
    bundle = probe_bundle(tmp_path / "bundle", log, ids=("pre",))
    assert run("install", bundle, "--host", "letta", "--scope", "user").exit_code == 0
    assert run("install", bundle, "--host", "letta", "--scope", "project").exit_code == 0
    verify = run("verify", "--verbose", "--host", "letta")
    letta()
    return {"slow_written": slow_written, "slow": calls(slow_log), "verify": verify.stdout, "probe": calls(log)}


def test_the_same_bundle_at_user_and_project_scope_runs_twice_as_verify_says(run, letta, project, tmp_path,
                                                                             shared_runs) -> None:
    found = _shared(shared_runs, "scopes+timeout", lambda: _two_scopes_and_a_timeout(run, letta, project, tmp_path))
    verify = found["verify"]
    assert "installed at user and project scope" in verify and "runs" in verify, verify
    assert [c["id"] for c in found["probe"]] == ["probe-pre", "probe-pre"]  # Letta runs identical commands twice


def test_hooks_disabled_is_reported_and_real(run, letta, project, home, tmp_path) -> None:
    log = tmp_path / "probe.log"
    assert run("install", probe_bundle(tmp_path / "bundle", log), "--host", "letta").exit_code == 0
    local = project / ".letta" / "settings.local.json"
    local.write_text('{"hooks": {"disabled": true}}\n')
    verify = run("verify", "--verbose", "--host", "letta")
    assert verify.exit_code == 1 and "hooks.disabled: true, so Letta Code runs no hooks" in verify.stdout
    letta()
    assert calls(log) == []
    user = home / ".letta" / "settings.json"
    user.write_text(json.dumps({**json.loads(user.read_text()), "hooks": {"disabled": False}}) + "\n")
    assert run("verify", "--verbose", "--host", "letta").exit_code == 1  # measured: the user's false did not turn them on
    letta()
    assert calls(log) == []


def test_a_timeout_is_seconds_in_the_manifest_and_milliseconds_in_the_file(run, letta, project, tmp_path,
                                                                           shared_runs) -> None:
    found = _shared(shared_runs, "scopes+timeout", lambda: _two_scopes_and_a_timeout(run, letta, project, tmp_path))
    data = found["slow_written"]
    assert [h["timeout"] for g in data["hooks"]["PreToolUse"] for h in g["hooks"]] == [1000]
    assert found["slow"] == []  # killed after one second, before it logs; the call went ahead


def _answers_and_chain(run, letta, mock, project, home, tmp_path) -> dict:
    """One run for three scenarios side by side under the operator's own hooks (local and user
    files): the probe bundle (logging apart), the answers bundle (one shell call per answer) and the
    chain whose first member blocks ``mode-stop`` (two more calls); then all three uninstalled and a
    run without them. Each hook only acts on its own calls: the answer hook does nothing on ``pass``
    and ``stop``, the chain blocks nothing but ``stop``, the probes block nothing."""
    probe_log = tmp_path / "probe.log"
    local = project / ".letta" / "settings.local.json"
    local_original = operator_file(local, probe_log, "op-local")
    operator_file(home / ".letta" / "settings.json", probe_log, "op-user")
    assert run("install", probe_bundle(tmp_path / "probes", probe_log), "--host", "letta").exit_code == 0
    probe_verify = run("verify", "--verbose", "--host", "letta").exit_code
    log = tmp_path / "answers.log"
    folder = tmp_path / "bundle"
    folder.mkdir()
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "answers"\nversion = "1.0.0"\n[[hooks]]\nid = "answer"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{HERE / "blocker.py"}", "{log}", "letta"]\n')
    commands = {m: f"touch ran-mode-{m}" for m in MODES}
    files = []
    for mode, command in commands.items():
        path = tmp_path / f"payload-{mode}.json"
        path.write_text(json.dumps({"hook_event_name": "PreToolUse", "event_type": "PreToolUse", "working_directory": str(project), "tool_name": "Bash",
                                    "tool_input": {"command": command, "description": "d"}, "tool_call_id": "c",
                                    "agent_id": "agent-local-x"}))
        files += ["--payload", str(path)]
    check = run("check", str(folder), "--host", "letta", *files, "--json")
    [report] = json.loads(check.stdout)["hooks"]
    runs = {r["payload"][len("your payload payload-"):-len(".json")]: r for r in report["runs"]}
    log.unlink(missing_ok=True)
    (tmp_path / "chain").mkdir()
    chain_folder, chain_log = first_blocks_chain(tmp_path / "chain")
    assert run("install", str(folder), "--host", "letta").exit_code == 0
    assert run("install", chain_folder, "--host", "letta").exit_code == 0
    mock.commands = [*commands.values(), "touch ran-mode-pass", "touch ran-mode-stop"]
    letta()
    ran = {m: (project / f"ran-mode-{m}").exists() for m in (*MODES, "pass", "stop")}
    # the probe test's hooks on the one call of the run whose tool ran untouched by any answer
    probed = [c for c in calls(probe_log) if c["command"] == commands["none"]]
    shared = {"runs": runs, "ran": ran, "seen": json.dumps([r["body"] for r in mock.requests]),
              "chain": calls(chain_log), "probe": probed, "probe_verify": probe_verify, "local_original": local_original}
    uninstalled = [run("uninstall", name, "--host", "letta").exit_code for name in ("chained", "answers", "probe")]
    ours = project / ".letta" / "settings.json"
    mock.commands = ["touch ran-mode-stop"]
    letta()
    return {**shared, "uninstalled": uninstalled, "local_after_uninstall": local.read_text(),
            "ours_after_uninstall": ours.read_text() if ours.exists() else "",
            "chain_after_uninstall": calls(chain_log), "stop_after_uninstall": (project / "ran-mode-stop").exists(),
            "probe_after_uninstall": calls(probe_log)}


def test_a_pre_tool_use_answer_does_what_hooks_check_says(run, letta, mock, project, home, tmp_path, shared_runs) -> None:
    """Only exit 2 blocks in Letta: Claude's deny and decision block let the command run."""
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, letta, mock, project, home, tmp_path))
    runs, seen = shared["runs"], shared["seen"]
    predicted = {m: r["action"] for m, r in runs.items()}
    did = {m: "ran" if shared["ran"][m] else "block" for m in MODES}
    table = "\n".join(f"{m}: check says {predicted[m]}, letta {did[m]}" for m in MODES)
    assert {m: predicted[m] == "block" for m in MODES} == {m: did[m] == "block" for m in MODES}, table
    assert did == {m: "block" if m == "exit2" else "ran" for m in MODES}, table
    assert "Tool execution blocked by hook" in seen and "reason-exit2 from the hook" in seen
    heard = {m: f"reason-{m} from the hook" in seen for m in MODES if did[m] == "ran"}
    assert {m: _to_model(runs[m]["notes"]) for m in heard} == heard, (heard, runs)


def test_a_chain_runs_its_members_in_order_and_the_first_block_ends_it(run, letta, mock, project, home, tmp_path,
                                                                        shared_runs) -> None:
    shared = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(run, letta, mock, project, home, tmp_path))
    by_call: dict[str, list[dict]] = {}
    for call in shared["chain"]:
        by_call.setdefault(call["call"], []).append(call)
    assert [c["id"] for c in sorted(by_call["pass"], key=lambda c: c["start"])] == ["first", "second"]
    assert [c["id"] for c in by_call["stop"]] == ["first"]
    assert shared["ran"]["pass"] and not shared["ran"]["stop"]
    assert shared["chain_after_uninstall"] == [] and shared["stop_after_uninstall"]


CANNOT_MERGE = (("local", "PostToolUse", {}), ("project", "Notification", 3), ("user", "Stop", True))


def _cannot_merge_runs(run, letta, project, home, tmp_path) -> dict:
    """One project for the three files: each bad value in turn (a run each, as only that file holds
    one: the others hold ``false`` by then), then every file with ``false`` (one run, whose hooks
    running proves ``false`` harmless in each of the three)."""
    log = tmp_path / "probe.log"
    assert run("install", probe_bundle(tmp_path / "bundle", log, ids=("pre",)), "--host", "letta").exit_code == 0
    paths = {"local": project / ".letta" / "settings.local.json", "project": project / ".letta" / "settings.json",
             "user": home / ".letta" / "settings.json"}

    def put(path: Path, event: str, v) -> None:
        doc = json.loads(path.read_text()) if path.exists() else {}
        doc.setdefault("hooks", {})[event] = v
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=2) + "\n")

    found = {}
    for scope, event, value in CANNOT_MERGE:
        put(paths[scope], event, value)
        verify = run("verify", "--host", "letta")
        letta()
        found[scope] = {"verify": (verify.exit_code, verify.stdout), "ran": [c["id"] for c in calls(log)]}
        put(paths[scope], event, False)
    found["false"] = {"verify": run("verify", "--host", "letta").exit_code}
    letta()
    found["false"]["ran"] = [c["id"] for c in calls(log)]
    return found


@pytest.mark.parametrize(("scope", "event", "value"), CANNOT_MERGE)
def test_a_value_letta_cannot_merge_in_any_file_stops_every_hook_as_verify_says(scope, event, value, run, letta,
                                                                                project, home, tmp_path,
                                                                                shared_runs) -> None:
    """Issue 34: an object, a number or ``true`` where an event's list belongs, in any of the three files,
    even for an event no hook of ours uses: Letta runs no hook at all, and verify says so (exit 1). The
    same file with ``false`` there runs ours again, and verify exits 0."""
    found = _shared(shared_runs, "cannot-merge", lambda: _cannot_merge_runs(run, letta, project, home, tmp_path))
    code, said = found[scope]["verify"]
    print("letta ran", found[scope]["ran"], said)
    assert code == 1 and f"/hooks/{event} is" in said and "runs no hook at all" in said
    assert found[scope]["ran"] == []
    assert found["false"]["verify"] == 0
    assert found["false"]["ran"] == ["probe-pre"]
