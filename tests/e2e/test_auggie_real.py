"""Auggie CLI, the real binary (@augmentcode/auggie 0.36.0), offline against mock_augment.py, with
hookweave's ``auggie`` host from the description plugin tests/plugin/hookweave-auggie, installed by
pip and found by its entry point, as a user's plugin is. Each test installs a bundle with the real
``hooks`` command, runs ``auggie --print`` once or twice (a few seconds each), and compares what the
hooks logged, what the shell tool did and what the model was told with what hookweave said.

Offline: the mock is Auggie's tenant (``AUGMENT_SESSION_AUTH``). The one thing Auggie 0.36.0 reaches
for outside it is ripgrep, downloaded from github.com at every start unless
``$HOME/.augment/binaries/ripgrep/v14.1.1-<platform>/rg`` exists, so a stub sits there;
``run_agent``'s strace then sees no connect() but to 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mock_augment import MockAugment
from realhosts import HERE, HOSTS, REPO, run_agent
from test_check_real import _to_model

BINARY = HOSTS / "auggie" / "node_modules" / ".bin" / "auggie"
PLUGIN = REPO / "tests" / "plugin" / "hookweave-auggie"
RIPGREP = "v14.1.1-linux-x64" if platform.machine() in ("x86_64", "AMD64") else "v14.1.1-linux-arm64"
RUN_TIMEOUT = 60  # one auggie run takes 2-4 s here


def auggie_binary() -> Path:
    if not BINARY.is_file():
        pytest.skip("auggie is not installed: run scripts/install-hosts auggie (needs node and npm)")
    return BINARY


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory) -> Path:
    """The plugin as pip installs it (``--no-deps``: hookweave is this checkout) into a folder that the
    ``hooks`` commands get on their path: about 3 s, once per session."""
    auggie_binary()  # no pip run when the tests skip anyway
    root = tmp_path_factory.mktemp("auggie-plugin")
    source = shutil.copytree(PLUGIN, root / "source", ignore=shutil.ignore_patterns("build", "*.egg-info", "tests"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                           "--target", str(root / "site"), str(source)], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "site"


@pytest.fixture
def hooks(plugin_site: Path, home: Path, project: Path):
    """``hooks(*args, code=0)``: the ``hooks`` command of this environment, run in the project."""
    script = str(Path(sys.executable).parent / "hooks")  # the console script pip made for this checkout
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(plugin_site), "NO_COLOR": "1", "COLUMNS": "200"}

    def call(*args: str, code: int = 0) -> subprocess.CompletedProcess:
        done = subprocess.run([script, *args], cwd=project, env=env, capture_output=True, text=True, timeout=60)
        said = f"hooks {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        assert done.returncode == code, said
        return done

    return call


@pytest.fixture
def augment():
    with MockAugment() as server:
        yield server


@pytest.fixture
def auggie(augment: MockAugment, home: Path, project: Path, tmp_path: Path):
    """``auggie(prompt)``: one ``auggie --print`` run in the project, against the mock."""
    exe = str(auggie_binary())
    rg = home / ".augment" / "binaries" / "ripgrep" / RIPGREP / "rg"
    rg.parent.mkdir(parents=True)
    rg.write_text("#!/bin/sh\nexit 1\n")  # stops the download; no test searches
    rg.chmod(0o755)
    env = {"HOME": str(home), "AUGMENT_SESSION_AUTH": augment.session, "AUGMENT_DISABLE_AUTO_UPDATE": "1"}
    runs = {"n": 0}

    def ask(prompt: str = "run the command") -> subprocess.CompletedProcess:
        runs["n"] += 1
        log = tmp_path / f"auggie-{runs['n']}.log"
        return run_agent([exe, "--print", prompt, "--workspace-root", str(project), "--log-file", str(log)],
                         project, env, timeout=RUN_TIMEOUT)

    return ask


def read_log(log: Path) -> list[dict]:
    """The JSON lines a hook logged, emptied for the next run."""
    if not log.exists():
        return []
    lines = log.read_text().splitlines()
    log.unlink()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """Auggie runs shared by the tests of this module whose scenarios sit side by side in one project,
    by name: built by whichever test needs one first, inside that test's own HOME and project (its
    fixtures, so nothing_left_running covers the runs); the others read the same record. Each test
    asserts only its own facts (an ``auggie --print`` start is about 3 s of CPU)."""
    return {}


def _shared(cache: dict, name: str, build) -> dict:
    if name not in cache:
        cache[name] = build()
    return cache[name]


def probe_bundle(folder: Path, log: Path) -> Path:
    """SessionStart as a string command with no shell character (Auggie would split it into argv),
    PreToolUse on the shell and Stop as argv commands; each logs its arguments and
    ``AUGMENT_PROJECT_DIR``."""
    folder.mkdir()
    shutil.copy(HERE / "probe.py", folder / "probe.py")

    def argv(hook_id: str) -> str:
        return f'["python3", "{{bundle_dir}}/probe.py", "probe-{hook_id}", "{log}"]'

    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "probe"\nversion = "1.0.0"\n'
        f'[[hooks]]\nid = "start"\nevent = "session_start"\n'
        f'command = "python3 {{bundle_dir}}/probe.py probe-start {log}"\n'
        f'[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ncommand = {argv("pre")}\n'
        f'[[hooks]]\nid = "stop"\nevent = "stop"\ncommand = {argv("stop")}\n')
    return folder


def operator_file(path: Path, op_log: Path, log: Path) -> str:
    """The operator's Auggie settings: a comment (Auggie reads JSON5), their own PreToolUse hook, and a
    SessionStart hook with a note after ``#`` and no shell character in it."""
    echo = f"echo op >> {op_log}"
    noted = f"python3 {HERE / 'probe.py'} op-start {log} 0 # operator note"
    text = ('{\n  // the operator\'s own Auggie settings\n  "hooks": {\n    "PreToolUse": [\n'
            f'      {{"matcher": "launch-process", "hooks": [{{"type": "command", "command": "{echo}"}}]}}\n'
            '    ],\n    "SessionStart": [\n'
            f'      {{"hooks": [{{"type": "command", "command": "{noted}"}}]}}\n'
            '    ]\n  }\n}\n')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


def check_probes(calls: list[dict], log: Path, project: Path) -> None:
    """Each probe once, for its event, with the project variable and exactly the bundle's arguments:
    the ``# hookweave:`` marker never reached a hook as arguments."""
    by_id = {c["id"]: c for c in calls}
    assert sorted(c["id"] for c in calls) == ["probe-pre", "probe-start", "probe-stop"], calls
    assert {i: c["event"] for i, c in by_id.items()} == {"probe-start": "SessionStart", "probe-pre": "PreToolUse",
                                                         "probe-stop": "Stop"}
    assert by_id["probe-pre"]["tool"] == "launch-process"
    for hook_id, call in by_id.items():
        assert call["argv"] == [hook_id, str(log)], call
        assert call["augment_project_dir"] == str(project), call


# -- a. install at project and user scope; e. uninstall gives the operator's file back ----------------

def test_project_install_runs_each_hook_once_and_uninstall_restores_the_file(hooks, auggie, augment, project,
                                                                             tmp_path, shared_runs) -> None:
    """Measured on the shared answers+chain run's ``touch ran-mode-pass`` call (no hook answers it),
    its session start and its stop; the operator's PreToolUse hook, on every call, once each."""
    found = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(hooks, auggie, augment, project, tmp_path))
    assert "enable_hooks" in found["probe_verify"]  # the server's switch, which hookweave cannot see, is named
    calls, log = found["probe"], found["probe_log"]
    [operator] = [c for c in calls if c["id"] == "op-start"]
    assert operator["argv"] == ["op-start", str(log), "0", "#", "operator", "note"]  # Auggie's argv split (runs="argv")
    check_probes([c for c in calls if c is not operator], log, project)  # ours: no such split, thanks to " ;"
    assert found["ran"]["pass"]
    assert found["op_log"] == "op\n" * len(found["commands_sent"])  # the operator's PreToolUse: once a call
    assert found["file_after_uninstall"] == found["operator_file"]
    assert [c["id"] for c in found["probe_after_uninstall"]] == ["op-start"]
    assert found["op_log_after_uninstall"] == "op\n" and found["stop_after_uninstall"]


def _user_scope_beside_a_trailing_comma(hooks, auggie, augment, home, project, tmp_path) -> dict:
    """The first run for two scenarios side by side: the probe bundle at user scope, and in the
    project the operator's file with a trailing comma (install there refused, verify said); then,
    that file gone, the bundle at project scope too, run again, and uninstalled from both."""
    log, op_log = tmp_path / "probe.log", tmp_path / "op.log"
    bundle = probe_bundle(tmp_path / "bundle", log)
    hooks("install", str(bundle), "--host", "auggie", "--scope", "user")
    found = {"project": project, "log": log, "user_file": (home / ".augment" / "settings.json").is_file()}
    settings = project / ".augment" / "settings.json"
    settings.parent.mkdir()
    text = ('{\n  // with a trailing comma\n  "hooks": {"PreToolUse": [{"matcher": "launch-process", "hooks": '
            f'[{{"type": "command", "command": "echo op >> {op_log}"}}]}},],}},\n}}\n')
    settings.write_text(text)
    refused = hooks("install", str(probe_bundle(tmp_path / "refused", tmp_path / "refused.log")), "--host", "auggie",
                    code=2)
    found.update(refused=refused.stdout + refused.stderr, kept=settings.read_text() == text,
                 verified=hooks("verify", "--host", "auggie", code=1))
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    found.update(user_run=read_log(log), op_log=op_log.read_text() if op_log.exists() else None)
    settings.unlink()
    hooks("install", str(bundle), "--host", "auggie", "--scope", "project")
    found["both_verify"] = hooks("verify", "--host", "auggie").stdout
    auggie()
    found["both_run"] = read_log(log)
    hooks("uninstall", "probe", "--host", "auggie", "--scope", "user")
    hooks("uninstall", "probe", "--host", "auggie", "--scope", "project")
    return {**found, "project_file_gone": not settings.exists()}


def test_user_install_runs_and_both_scopes_run_once_as_verify_says(hooks, auggie, augment, home, project,
                                                                    tmp_path, shared_runs) -> None:
    found = _shared(shared_runs, "user+json5", lambda: _user_scope_beside_a_trailing_comma(
        hooks, auggie, augment, home, project, tmp_path))
    assert found["user_file"]
    check_probes(found["user_run"], found["log"], found["project"])  # the project's JSON5 file: the next test's
    assert "probe: installed at user and project scope; Auggie CLI runs identical commands once" in found["both_verify"]
    check_probes(found["both_run"], found["log"], found["project"])  # command + args + matcher key the copies: one run each
    assert found["project_file_gone"]


def test_no_hook_runs_when_the_server_leaves_hooks_off(hooks, auggie, augment, project, tmp_path) -> None:
    """The gate verify can only name: without ``enable_hooks`` the same install runs nothing, silently."""
    log = tmp_path / "probe.log"
    hooks("install", str(probe_bundle(tmp_path / "bundle", log)), "--host", "auggie")
    augment.flags = {"enable_hooks": False}
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    assert read_log(log) == [] and (project / "ran-mode-pass").exists()


def _timeout_and_payload(hooks, auggie, augment, project, tmp_path) -> dict:
    """One run for two scenarios side by side in the project: the bundle ``slow`` (two hooks under a
    2 s timeout, one sleeping 5 s) and the bundle ``keep`` (a hook that saves its payload); then
    ``hooks check`` on ``keep``, uninstalled, to save the payload hookweave ships."""
    log = tmp_path / "probe.log"
    folder = tmp_path / "bundle"
    folder.mkdir()
    (folder / "hookweave.toml").write_text('[bundle]\nname = "slow"\nversion = "1.0.0"\n' + "".join(
        f'[[hooks]]\nid = "{i}"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ntimeout = 2\n'
        f'command = ["python3", "{HERE / "probe.py"}", "{i}", "{log}", "{sleep}"]\n'
        for i, sleep in (("slow", 5), ("quick", 0))))
    hooks("install", str(folder), "--host", "auggie")
    settings = project / ".augment" / "settings.json"
    slow_written = json.loads(settings.read_text())
    keep = tmp_path / "keep"
    keep.mkdir()
    saved = tmp_path / "payloads"
    saved.mkdir()
    (keep / "keep.py").write_text("import sys\nopen(sys.argv[1] + '/' + sys.argv[2] + '.json', 'w')"
                                  ".write(sys.stdin.read())\n")
    (keep / "hookweave.toml").write_text(
        '[bundle]\nname = "keep"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{{bundle_dir}}/keep.py", "{saved}", "pre"]\n')
    hooks("install", str(keep), "--host", "auggie")
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    found = {"project": project, "slow_written": slow_written, "slow_log": read_log(log),
             "ran": (project / "ran-mode-pass").exists(), "real": json.loads((saved / "pre.json").read_text())}
    (saved / "pre.json").unlink()
    hooks("uninstall", "keep", "--host", "auggie")
    hooks("check", str(keep), "--host", "auggie")
    return {**found, "shipped": json.loads((saved / "pre.json").read_text())}


def test_a_timeout_is_seconds_in_the_manifest_and_milliseconds_in_the_file(hooks, auggie, augment, project,
                                                                           tmp_path, shared_runs) -> None:
    """``timeout = 2`` is written as 2000, which Auggie reads as two seconds: a hook that sleeps 5 s is
    killed and the call goes ahead (Auggie fails open); a quick hook under the same timeout finishes."""
    found = _shared(shared_runs, "timeout+payload", lambda: _timeout_and_payload(hooks, auggie, augment, project, tmp_path))
    data = found["slow_written"]
    assert [h["timeout"] for g in data["hooks"]["PreToolUse"] for h in g["hooks"]] == [2000, 2000]
    assert [c["id"] for c in found["slow_log"]] == ["quick"]
    assert found["ran"]


def test_a_trailing_comma_file_auggie_reads_is_one_hookweave_will_not_edit(hooks, auggie, augment, home, project,
                                                                          tmp_path, shared_runs) -> None:
    """Auggie reads its settings as JSON5: the operator's hook in a file with a trailing comma runs.
    hookweave reads the file as JSONC, which has none: install refuses and leaves it as it was, and
    verify says the agent runs it (not that the agent ignores it, as for a JSONC agent). Run beside
    the previous test's bundle at user scope."""
    found = _shared(shared_runs, "user+json5", lambda: _user_scope_beside_a_trailing_comma(
        hooks, auggie, augment, home, project, tmp_path))
    assert "trailing comma" in found["refused"]
    assert found["kept"]
    verified = found["verified"]  # exit 1, true to the agent: it runs the file (below)
    assert "Auggie CLI reads JSON5 and runs this file's hooks, but hookweave reads JSON with comments only" in (
        verified.stdout + verified.stderr)
    assert found["op_log"] == "op\n"


# -- b. and d. what a PreToolUse hook's answer does, as hooks check says ------------------------------

MODES = ("none", "exit2", "exit1", "plain", "deny", "block")


def blocker_bundle(folder: Path, log: Path) -> Path:
    folder.mkdir()
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "answers"\nversion = "1.0.0"\n[[hooks]]\nid = "answer"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{HERE / "blocker.py"}", "{log}", "auggie"]\n')
    return folder


def pre_payload(project: Path, command: str) -> dict:
    """A PreToolUse payload as Auggie 0.36.0 sends it (HOST-FACTS.md; compared below with a real one)."""
    return {"hook_event_name": "PreToolUse", "conversation_id": "c0ffee", "workspace_roots": [str(project)],
            "tool_name": "launch-process",
            "tool_input": {"command": command, "wait": True, "max_wait_seconds": 20, "cwd": str(project)},
            "tool_output": "[undefined]", "tool_error": None, "is_mcp_tool": False}


def _answers_and_chain(hooks, auggie, augment, project, tmp_path) -> dict:
    """One run for three scenarios side by side in the project, under the operator's own file: the
    probe bundle (logging apart), the answers bundle (one shell call per answer) and the chain whose
    first member blocks ``mode-stop`` (two more calls); then all three uninstalled and a run without
    them. The answer hook does nothing on ``pass`` and ``stop``, the chain blocks nothing but
    ``stop``, the probes block nothing."""
    probe_log, op_log = tmp_path / "probe.log", tmp_path / "op.log"
    settings = project / ".augment" / "settings.json"
    original = operator_file(settings, op_log, probe_log)
    hooks("install", str(probe_bundle(tmp_path / "probes", probe_log)), "--host", "auggie", "--scope", "project")
    probe_verify = hooks("verify", "--host", "auggie").stdout
    log = tmp_path / "answers.log"
    bundle = blocker_bundle(tmp_path / "bundle", log)
    commands = {m: f"touch ran-mode-{m}" for m in MODES}
    files = []
    for mode, command in commands.items():
        path = tmp_path / f"payload-{mode}.json"
        path.write_text(json.dumps(pre_payload(project, command)))
        files += ["--payload", str(path)]
    check = hooks("check", str(bundle), "--host", "auggie", *files, "--json", code=1)
    [report] = json.loads(check.stdout)["hooks"]
    read_log(log)  # check ran the hook for real: start the agent's run with an empty log
    chain_log = tmp_path / "chain.log"
    hooks("install", str(bundle), "--host", "auggie")
    hooks("install", str(chain_bundle(tmp_path / "chain", chain_log)), "--host", "auggie")
    uncommented = "".join(line for line in settings.read_text().splitlines(True) if not line.lstrip().startswith("//"))
    chain_written = json.loads(uncommented)["hooks"]["PreToolUse"]  # the operator's file: JSON5, a comment in it
    augment.commands = [*commands.values(), "touch ran-mode-pass", "touch ran-mode-stop"]
    auggie()
    # the probe test's hooks: those of the call no hook answers, and those of no call (start, stop)
    probed = [c for c in read_log(probe_log) if c["command"] in ("touch ran-mode-pass", None)]
    found = {"commands": commands, "report": report, "answers": read_log(log), "told": augment.tool_results(),
             "seen": json.dumps(augment.chats()), "ran": {m: (project / f"ran-mode-{m}").exists()
                                                          for m in (*MODES, "pass", "stop")},
             "chain_written": chain_written, "chain": read_log(chain_log), "probe": probed, "probe_log": probe_log,
             "probe_verify": probe_verify, "operator_file": original, "commands_sent": augment.commands,
             "op_log": op_log.read_text() if op_log.exists() else ""}
    op_log.unlink(missing_ok=True)
    for name in ("chained", "answers", "probe"):
        hooks("uninstall", name, "--host", "auggie")
    after = settings.read_text()
    augment.commands = ["touch ran-mode-stop"]
    auggie()
    return {**found, "chain_after_uninstall": read_log(chain_log), "file_after_uninstall": after,
            "stop_after_uninstall": (project / "ran-mode-stop").exists(), "probe_after_uninstall": read_log(probe_log),
            "op_log_after_uninstall": op_log.read_text() if op_log.exists() else ""}


def test_a_pre_tool_use_answer_does_what_hooks_check_says(hooks, auggie, augment, project, tmp_path,
                                                          shared_runs) -> None:
    """One run, one shell call per answer: exit 2 and a deny keep the command from running (its file
    never appears) and the model is told the hook's reason; exit 1, plain stdout and Claude's
    top-level ``decision: block`` (which Auggie does not read) let it run. ``hooks check`` on the
    bundle, given the same payloads, predicts each."""
    found = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(hooks, auggie, augment, project, tmp_path))
    report, commands = found["report"], found["commands"]
    runs = {r["payload"][len("your payload payload-"):-len(".json")]: r for r in report["runs"]}
    predicted, notes = {m: r["action"] for m, r in runs.items()}, {m: r["notes"] for m, r in runs.items()}
    assert set(predicted) == set(MODES), report
    seen_modes = [c["mode"] for c in found["answers"]]
    assert sorted(m for m in seen_modes if m not in ("pass", "stop")) == sorted(MODES)  # the hook saw every call
    did = {m: "ran" if found["ran"][m] else "block" for m in MODES}
    table = "\n".join(f"{m}: check says {predicted[m]}, auggie {did[m]}" for m in MODES)
    assert {m: predicted[m] == "block" for m in MODES} == {m: did[m] == "block" for m in MODES}, table
    assert did == {"none": "ran", "exit2": "block", "exit1": "ran", "plain": "ran", "deny": "block",
                   "block": "ran"}, table
    told = found["told"]
    for mode in ("exit2", "deny"):
        result = told[commands[mode]]
        assert result["is_error"] and f"reason-{mode} from the hook" in result["content"], result
    seen = found["seen"]  # the text of a hook that let the call run: to the model where check says
    heard = {m: f"reason-{m} from the hook" in seen for m in MODES if did[m] == "ran"}
    assert {m: _to_model(notes[m]) for m in heard} == heard, (heard, notes)


def test_the_shipped_payload_has_the_keys_auggie_sends(hooks, auggie, augment, project, tmp_path,
                                                      shared_runs) -> None:
    """What ``hooks check`` feeds a hook when given no payload has the keys of Auggie's own."""
    found = _shared(shared_runs, "timeout+payload", lambda: _timeout_and_payload(hooks, auggie, augment, project, tmp_path))
    real, shipped = found["real"], found["shipped"]
    assert set(shipped) == set(real), (sorted(shipped), sorted(real))
    assert set(real["tool_input"]) <= set(shipped["tool_input"]), (real["tool_input"], shipped["tool_input"])
    assert real == {**pre_payload(found["project"], "touch ran-mode-pass"), "conversation_id": real["conversation_id"],
                    "tool_input": real["tool_input"]}


# -- c. a chain of two PreToolUse members ------------------------------------------------------------

def chain_bundle(folder: Path, log: Path) -> Path:
    """``first`` blocks (exit 2) the call whose command holds ``mode-stop``; ``second`` only logs."""
    folder.mkdir()
    member = HERE / "chainmember.py"

    def hook(hook_id: str, how: str) -> str:
        return (f'[[hooks]]\nid = "{hook_id}"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ntimeout = 20\n'
                f'command = ["python3", "{member}", "{hook_id}", "{log}", "0.2", "{how}"]\n')

    (folder / "hookweave.toml").write_text('[bundle]\nname = "chained"\nversion = "1.0.0"\norder = "chain"\n'
                                           + hook("first", "block-stop") + hook("second", "quiet"))
    return folder


def test_a_chain_runs_its_members_in_order_and_the_first_block_ends_it(hooks, auggie, augment, project,
                                                                        tmp_path, shared_runs) -> None:
    found = _shared(shared_runs, "answers+chain", lambda: _answers_and_chain(hooks, auggie, augment, project, tmp_path))
    chained = [g for g in found["chain_written"] if "chained" in json.dumps(g)]
    [group] = chained
    assert len(group["hooks"]) == 1  # one registration runs both members
    by_call: dict[str, list[dict]] = {}
    for call in found["chain"]:
        by_call.setdefault(call["call"], []).append(call)
    passing = sorted(by_call["pass"], key=lambda c: c["start"])
    assert [c["id"] for c in passing] == ["first", "second"]
    assert passing[0]["end"] <= passing[1]["start"]  # one after the other, in manifest order
    assert [c["id"] for c in by_call["stop"]] == ["first"]  # the second member never started
    assert found["ran"]["pass"] and not found["ran"]["stop"]
    told = found["told"]["touch ran-mode-stop"]
    assert told["is_error"] and "stopped by first" in told["content"], told
    assert found["chain_after_uninstall"] == [] and found["stop_after_uninstall"]


FLAT_SAID = ("/hooks/PreToolUse/0: a hook outside a {matcher, hooks} group: Auggie CLI drops the file's whole "
             "PreToolUse list")
REGEX_SAID = '/hooks/PreToolUse/0/matcher: "*" is not a regex Auggie CLI takes (Nothing to repeat): it drops the file'


def _groups_and_a_regex_matcher(hooks, auggie, augment, project, tmp_path) -> dict:
    """One run for the two files Auggie runs whole, side by side in one: the probe bundle installed,
    then the operator's ``".*"`` group put first, and the operator's proper group (``op-group``, on
    PreToolUse) and Stop hook (``op-stop``) added after ours, each scenario's hooks logging to its
    own file."""
    log, op_log = tmp_path / "probe.log", tmp_path / "op.log"
    hooks("install", str(probe_bundle(tmp_path / "bundle", log)), "--host", "auggie")
    settings = project / ".augment" / "settings.json"
    data = json.loads(settings.read_text())
    probe = f"python3 {HERE / 'probe.py'}"
    data["hooks"]["PreToolUse"].insert(0, {"matcher": ".*", "hooks": [{"type": "command", "command": f"{probe} op-pre {log}"}]})
    data["hooks"]["PreToolUse"].append({"hooks": [{"type": "command", "command": f"{probe} op-group {op_log}"}]})
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": f"{probe} op-stop {op_log}"}]})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    verify = hooks("verify", "--host", "auggie")
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    return {"verify": verify.stdout, "ran": sorted(c["id"] for c in read_log(log)),
            "op_ran": sorted(c["id"] for c in read_log(op_log)), "pass": (project / "ran-mode-pass").exists()}


@pytest.mark.parametrize("flat", [True, False])
def test_a_flat_handler_where_a_group_belongs(flat, hooks, auggie, augment, project, tmp_path, shared_runs) -> None:
    """Issue 22 class 6 on Auggie 0.36.0: a handler straight under PreToolUse next to a proper group
    makes Auggie drop that event's whole list in the file (the Stop hook still runs; without the
    handler the group runs too); verify says so, and install refuses in the same words."""
    if not flat:  # the file without the handler: measured in the run shared with the ".*" matcher
        found = _shared(shared_runs, "groups+regex", lambda: _groups_and_a_regex_matcher(hooks, auggie, augment,
                                                                                         project, tmp_path))
        print("auggie ran", found["op_ran"], found["verify"])
        assert found["op_ran"] == ["op-group", "op-stop"]
        assert FLAT_SAID not in found["verify"]
        return
    log = tmp_path / "probe.log"
    probe = f"python3 {HERE / 'probe.py'}"
    group = {"hooks": [{"type": "command", "command": f"{probe} op-group {log}"}]}
    entries = [{"type": "command", "command": f"{probe} op-flat {log}"}, group]
    settings = project / ".augment" / "settings.json"
    settings.parent.mkdir(parents=True)
    stop = {"hooks": [{"type": "command", "command": f"{probe} op-stop {log}"}]}
    original = json.dumps({"hooks": {"PreToolUse": entries, "Stop": [stop]}}, indent=2) + "\n"
    settings.write_text(original)
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    ran = sorted(c["id"] for c in read_log(log))
    verify = hooks("verify", "--host", "auggie").stdout
    print("auggie ran", ran, verify)
    assert ran == ["op-stop"]  # the event's list is dropped, not the file
    assert FLAT_SAID in verify
    refused = hooks("install", str(probe_bundle(tmp_path / "bundle", log)), "--host", "auggie", "--scope", "project",
                    code=2)
    assert FLAT_SAID in refused.stderr and settings.read_text() == original


@pytest.mark.parametrize("matcher", ["*", ".*"])
def test_a_matcher_javascript_refuses_drops_the_events_list_ours_included(matcher, hooks, auggie, augment, project,
                                                                          tmp_path, shared_runs) -> None:
    """Issue 34: the operator's group with a ``"*"`` matcher, added beside ours after install, makes
    Auggie drop the file's whole PreToolUse list: neither runs (the Stop hook does); verify exits 1
    saying so. ``".*"`` in its place: both run, and verify exits 0."""
    if matcher == ".*":  # measured in the run shared with the file whose groups are all proper
        found = _shared(shared_runs, "groups+regex", lambda: _groups_and_a_regex_matcher(hooks, auggie, augment,
                                                                                         project, tmp_path))
        print("auggie ran", found["ran"], found["verify"])  # verify exited 0: hooks() asserts it
        assert found["ran"] == ["op-pre", "probe-pre", "probe-start", "probe-stop"] and "is not a regex" not in found["verify"]
        assert found["pass"]
        return
    log = tmp_path / "probe.log"
    hooks("install", str(probe_bundle(tmp_path / "bundle", log)), "--host", "auggie")
    settings = project / ".augment" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"].insert(0, {"matcher": matcher, "hooks": [
        {"type": "command", "command": f"python3 {HERE / 'probe.py'} op-pre {log}"}]})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    verify = hooks("verify", "--host", "auggie", code=1).stdout
    augment.commands = ["touch ran-mode-pass"]
    auggie()
    ran = sorted(c["id"] for c in read_log(log))
    print("auggie ran", ran, verify)
    assert ran == ["probe-start", "probe-stop"] and f"problem: .augment/settings.json: {REGEX_SAID}" in verify
    assert (project / "ran-mode-pass").exists()
