"""OpenHands, the real program (PyPI ``openhands`` 1.16.0, openhands-sdk 1.21.0), headless
(``openhands --headless --override-with-envs -t``) offline against the mock's Chat Completions
(``LLM_MODEL=openai/mock``, ``LLM_BASE_URL``), which calls OpenHands' shell tool ``terminal``.

Two runs serve every test of the module (10-15 s each on an idle machine, most of it importing;
twice that under load):

- **installed**: the operator's own hooks in ``.openhands/hooks.json`` (a logging probe per event),
  then, by ``hooks install``, the ``answers`` bundle (a hook per event that answers as the shell
  command or prompt asks, tests/e2e/answers.py) and the ``probe`` bundle (a logging hook per event);
  the model asks for one ``terminal`` call per mode of ``MODES``, all in one reply, each
  ``touch ran-mode-<mode>; echo mode-<mode>`` (the file says it ran); ``hooks check`` then judges the
  answers hook on the PreToolUse and UserPromptSubmit payloads OpenHands really sent, as it sent them;
- **uninstalled**: after ``hooks uninstall`` of both bundles, the same project, one call that the
  answers hook would have blocked; a third bundle, installed then, times two SessionStart hooks.

A user file ``~/.openhands/hooks.json`` holds one more operator hook, which never runs: OpenHands
loads the project's file when it exists, else the user's, never both.

Offline, measured with ``strace -f -e trace=connect`` around each run: OpenHands 1.16.0 otherwise
reaches three hosts on its own. ``git clone`` of github.com/OpenHands/extensions (the public
skills, four tries: ``GIT_ALLOW_PROTOCOL=file`` makes git refuse https before any lookup), litellm's
model price map on raw.githubusercontent.com (``LITELLM_LOCAL_MODEL_COST_MAP=True``) and the CLI's
update check on pypi.org (urllib, no switch: ``HTTPS_PROXY`` names the mock, which records and
refuses the CONNECT; ``NO_PROXY`` keeps the model calls direct). git and litellm honour the proxy
too: without their switches the mock is asked for github.com:443 and raw.githubusercontent.com:443;
without the proxy strace sees the DNS server and pypi.org's address. The ``terminal`` tool starts a
tmux server when ``tmux -V`` succeeds; a ``tmux`` that fails, first on PATH, gives it a plain
``bash -i``, so no tmux server outlives a run, and the run's process group is killed once it ends.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mock_model import DONE, MockModel, _Handler
from realhosts import HERE, HOSTS, off_loopback
from typer.testing import CliRunner

from hookweave.core.cli.app import app

VENV = HOSTS / "openhands" / "venv"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd")
SNAKE = {"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "PreToolUse": "pre_tool_use",
         "PostToolUse": "post_tool_use", "Stop": "stop", "SessionEnd": "session_end"}
TOOL_EVENTS = ("PreToolUse", "PostToolUse")
# Every way a PreToolUse hook can answer that OpenHands may read differently (tests/e2e/answers.py).
MODES = ("none", "exit2", "exit1", "noreason", "plain", "block", "deny", "crossdeny", "stray", "badjson",
         "allowreason", "noise", "context", "exit1json", "cont")
ASK = "run the echo mode-context"  # the UserPromptSubmit answer: a top-level additionalContext
TO_MODEL = ("plain stdout is added to the model's context", "additionalContext is given to the model",
            "the text reaches the model")
AGENT_TIMEOUT = 150
# Every agent's own folder variable, as tests/conftest.py's isolated_home sets them: verify reads the other
# agents' files too, and a module-scoped fixture runs before that function-scoped one.
ISOLATED = {"CLAUDE_CONFIG_DIR": ".claude", "CODEX_HOME": ".codex", "GEMINI_CLI_HOME": ".",
            "GEMINI_CLI_TRUSTED_FOLDERS_PATH": ".gemini/trustedFolders.json", "COPILOT_HOME": ".copilot",
            "QWEN_HOME": ".qwen", "CLINE_DIR": ".cline", "KIMI_CODE_HOME": ".kimi-code"}
SYSTEM = {"HOOKWEAVE_CLAUDE_MANAGED_DIR": "managed", "HOOKWEAVE_CURSOR_MANAGED_DIR": "cursor-managed",
          "HOOKWEAVE_WINDSURF_SYSTEM_DIR": "windsurf-system", "HOOKWEAVE_CODEX_SYSTEM_DIR": "codex-system",
          "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": "gemini-system/system-defaults.json",
          "GEMINI_CLI_SYSTEM_SETTINGS_PATH": "gemini-system/settings.json"}
REPORT = os.environ.get("HOOKWEAVE_CHECK_REPORT")  # where to append the predictions table, if set
PYTHON = sys.executable  # a hook's interpreter by its path: a pyenv shim costs a bash and pyenv each call


class _Terminal(_Handler):
    """Chat Completions calling OpenHands' ``terminal`` (openhands-tools ``TerminalAction``: ``command``;
    ``security_risk`` and ``summary`` are asked of every call, the CLI's LLM security analyzer
    refusing a call without ``security_risk``); once a tool result is in the conversation, the final text."""

    def _chat(self, body: dict) -> None:
        names = {(t.get("function") or {}).get("name") for t in body.get("tools") or []}
        done = any(isinstance(m, dict) and m.get("role") == "tool" for m in body.get("messages") or [])
        if not done and "terminal" in names:
            arguments = [json.dumps({"command": c, "security_risk": "LOW", "summary": "run the echo"})
                         for c in self.mock.commands]
            calls = [{"index": i, "id": f"call_e2e{i}", "type": "function",
                      "function": {"name": "terminal", "arguments": a}} for i, a in enumerate(arguments)]
            message, finish = {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": DONE}, "stop"
        self._json({"id": "chatcmpl-e2e", "created": 0, "model": body.get("model", "mock"), "object": "chat.completion",
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}]})

    def do_CONNECT(self) -> None:
        """A tunnel asked of the mock as HTTPS_PROXY: recorded and refused."""
        self.mock.tunnels.append(self.path)
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.end_headers()


class OpenHandsMock(MockModel):
    def __init__(self) -> None:
        super().__init__()
        self.tunnels: list[str] = []  # the hosts OpenHands tried to reach through the proxy

    @staticmethod
    def _handler() -> type:
        return _Terminal


@dataclass
class Run:
    """One OpenHands run: the probe log, the payloads the answers hook saved, what the model was sent."""

    calls: list[dict]
    payloads: dict[str, list[dict]]
    requests: list[dict]
    commands: list[str]
    seconds: float
    connects: list[str] = field(default_factory=list)
    tunnels: list[str] = field(default_factory=list)
    ran: set[str] = field(default_factory=set)  # the modes whose command ran (it left ran-mode-<mode> behind)

    def told(self) -> dict[str, str]:
        """What the model was told of each terminal call, by mode."""
        by_id = {f"call_e2e{i}": c.split("mode-")[-1] for i, c in enumerate(self.commands)}
        bodies = [r["body"] for r in self.requests if isinstance(r["body"].get("messages"), list)]
        best = max(bodies, key=lambda b: sum(m.get("role") == "tool" for m in b["messages"]))
        return {by_id[m["tool_call_id"]]: m["content"] if isinstance(m["content"], str)
                else " ".join(x.get("text", "") for x in m["content"])
                for m in best["messages"] if m.get("role") == "tool" and m.get("tool_call_id") in by_id}


@dataclass
class Session:
    project: Path
    home: Path
    installed: Run
    uninstalled: Run
    check: dict[str, dict]  # mode -> check's run on the PreToolUse payload OpenHands sent
    prompt_check: dict
    operator_text: str
    after_uninstall_text: str
    install_output: str
    verify_exit: int
    timeouts: list  # the timeouts written for the timeouts bundle's two hooks


def _openhands(mock: MockModel, home: Path, project: Path, folder: Path) -> Run:
    """Run OpenHands once to its end, offline; kill what is left of its process group."""
    shutil.rmtree(folder / "agent-payloads", ignore_errors=True)  # hooks check runs the answers hook too
    shims = folder / "shims"
    shims.mkdir(exist_ok=True)
    (shims / "tmux").write_text("#!/bin/sh\nexit 1\n")  # no tmux: the terminal tool's subprocess shell
    (shims / "tmux").chmod(0o755)
    env = {"PATH": f"{shims}:{os.environ['PATH']}", "LANG": "C.UTF-8", "NO_COLOR": "1", "HOME": str(home),
           "LLM_API_KEY": "dummy", "LLM_MODEL": "openai/mock", "LLM_BASE_URL": f"{mock.url}/v1",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True", "GIT_ALLOW_PROTOCOL": "file",
           "HTTPS_PROXY": mock.url, "HTTP_PROXY": mock.url, "NO_PROXY": "127.0.0.1,localhost",
           "PROBE_VAR": "from-the-shell"}
    # The interpreter of this venv, not the entry point's #! line (a copied venv keeps its first path).
    argv = [str(VENV / "bin" / "python"), str(VENV / "bin" / "openhands"), "--headless", "--override-with-envs",
            "-t", ASK]
    trace = folder / f"connect-{time.time_ns()}.strace"
    if shutil.which("strace"):
        # --seccomp-bpf: stopped at connect() only, not at every syscall of every hook
        argv = ["strace", "--seccomp-bpf", "-f", "-qq", "-e", "trace=connect", "-o", str(trace), *argv]
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=AGENT_TIMEOUT)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever it started and left behind
        except ProcessLookupError:
            pass
        proc.wait()
    seconds = time.monotonic() - start
    assert proc.returncode == 0, f"openhands exited {proc.returncode}:\n{out}"
    connects = off_loopback(trace.read_text()) if trace.exists() else []
    log = folder / "probe.log"
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    log.unlink(missing_ok=True)
    saved: dict[str, list[dict]] = {}
    answers = folder / "agent-payloads"
    for path in sorted(answers.glob("payload-*.json"), key=lambda p: int(p.stem.rsplit("-", 1)[1])):
        saved.setdefault(path.stem.split("-")[1], []).append(json.loads(path.read_text()))
    shutil.rmtree(answers, ignore_errors=True)
    ran = {path.name[len("ran-mode-"):] for path in project.glob("ran-mode-*")}
    for mode in ran:
        (project / f"ran-mode-{mode}").unlink()
    run = Run(calls, saved, list(mock.requests), list(mock.commands), seconds, connects, list(mock.tunnels), ran)
    mock.requests.clear()
    mock.tunnels.clear()
    return run


def _bundles(folder: Path) -> tuple[Path, Path]:
    probe = folder / "probe"
    probe.mkdir()
    (probe / "probe.py").write_text((HERE / "probe.py").read_text())
    log = folder / "probe.log"
    hooks = "".join(_hook(e) + f'command = ["{PYTHON}", "{{bundle_dir}}/probe.py", "probe-{e}", "{log}", "0.05"]\n'
                    for e in EVENTS)
    (probe / "hookweave.toml").write_text('[bundle]\nname = "probe"\nversion = "1.0.0"\n' + hooks
                                          + '[env.PROBE_VAR]\nvalue = "from-bundle"\nhosts = ["openhands"]\n')
    answers = folder / "answers"
    answers.mkdir()
    command = f'command = ["{PYTHON}", "{HERE / "answers.py"}", "{folder / "agent-payloads"}", "openhands"]\n'
    (answers / "hookweave.toml").write_text('[bundle]\nname = "answers"\nversion = "1.0.0"\n'
                                            + "".join(_hook(e) + command for e in EVENTS))
    return probe, answers


def _command(mode: str) -> str:
    """The shell command of one call: it leaves a file behind when it runs, and names its mode for the hook."""
    return f"touch ran-mode-{mode}; echo mode-{mode}"


def _hook(event: str) -> str:
    """A manifest's [[hooks]] head for ``event``, the shell tool's calls only on tool events."""
    return (f'[[hooks]]\nid = "{SNAKE[event].replace("_", "-")}"\nevent = "{SNAKE[event]}"\n'
            + ('matcher = ["shell"]\n' if event in TOOL_EVENTS else ""))


def _operator_hooks(folder: Path, prefix: str) -> dict:
    probe = f"{PYTHON} {folder / 'probe' / 'probe.py'}"
    return {"hooks": {e: [{**({"matcher": "terminal"} if e in TOOL_EVENTS else {}), "hooks": [
        {"type": "command", "command": f"{probe} {prefix}-{e} {folder / 'probe.log'} 0.05"}]}] for e in EVENTS}}


def _timeouts(folder: Path) -> Path:
    """Three SessionStart hooks: one of 3 s that takes 0.5 s, one of 1 s that takes 3 s, one after them."""
    timed = folder / "timeouts"
    timed.mkdir()
    log = folder / "probe.log"
    (timed / "hookweave.toml").write_text('[bundle]\nname = "timeouts"\nversion = "1.0.0"\n' + "".join(
        f'[[hooks]]\nid = "{i}"\nevent = "session_start"\ntimeout = {limit}\n'
        f'command = ["{PYTHON}", "{folder / "probe" / "probe.py"}", "timeout-{i}", "{log}", "{sleep}"]\n'
        for i, limit, sleep in (("quick", 3, 0.5), ("slow", 1, 3), ("after", 60, 0))))
    return timed


def _check(cli, bundle: Path, folder: Path, sent: list[dict], modes: tuple[str, ...]) -> dict[str, dict]:
    """check's run of ``bundle``'s hook on each payload OpenHands sent (as it sent it), by mode."""
    files = []
    for mode, data in zip(modes, sent, strict=True):
        path = folder / f"sent-{mode}.json"
        path.write_text(json.dumps(data))
        files += ["--payload", str(path)]
    result = cli("check", str(bundle), "--host", "openhands", *files, "--json")
    report = json.loads(result.stdout)
    runs = [r for h in report["hooks"] for r in h["runs"]]
    return {r["payload"][len("your payload sent-"):-len(".json")]: r for r in runs}


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> Session:
    if not (VENV / "bin" / "openhands").is_file():
        pytest.skip("openhands is not installed: run scripts/install-hosts openhands (Python >= 3.12; ~22 s by uv)")
    folder = tmp_path_factory.mktemp("openhands")
    home, project = folder / "home", folder / "project"
    home.mkdir()
    project.mkdir()
    with pytest.MonkeyPatch.context() as mp:  # tests/conftest.py's isolation (function-scoped), for the module's home
        for name, value in {"HOME": home, "XDG_CACHE_HOME": home / ".cache", "NO_COLOR": "1", "COLUMNS": "200",
                            **{n: home / sub for n, sub in ISOLATED.items()},
                            **{n: folder / sub for n, sub in SYSTEM.items()}}.items():
            mp.setenv(name, str(value))
        for name in ("OPENHANDS_WORK_DIR", "HOOKWEAVE_CODEX_BIN", "HOOKWEAVE_DEBUG"):
            mp.delenv(name, raising=False)
        mp.chdir(project)
        runner = CliRunner()

        def cli(*args: str):
            return runner.invoke(app, list(args), catch_exceptions=False)

        probe, answers = _bundles(folder)
        operator_text = json.dumps(_operator_hooks(folder, "op"), indent=2) + "\n"
        (project / ".openhands").mkdir()
        (project / ".openhands" / "hooks.json").write_text(operator_text)
        (home / ".openhands").mkdir()
        (home / ".openhands" / "hooks.json").write_text(json.dumps(_operator_hooks(folder, "op-user")))
        installed = [cli("install", str(b), "--host", "openhands") for b in (answers, probe)]  # probe after answers
        assert [r.exit_code for r in installed] == [0, 0], [r.output for r in installed]
        verify = cli("verify", "--host", "openhands")
        with OpenHandsMock() as mock:
            mock.commands = [_command(m) for m in MODES]
            first = _openhands(mock, home, project, folder)
            sent = first.payloads.get("PreToolUse", [])
            modes = tuple(p["tool_input"]["command"].split("mode-")[-1] for p in sent)
            check = _check(cli, answers, folder, sent, modes)
            [prompt_check] = _check(cli, answers, folder, first.payloads["UserPromptSubmit"], ("prompt",)).values()
            assert [cli("uninstall", name, "--host", "openhands").exit_code for name in ("probe", "answers")] == [0, 0]
            after = (project / ".openhands" / "hooks.json").read_text()
            timed = _timeouts(folder)
            assert cli("install", str(timed), "--host", "openhands").exit_code == 0
            timeouts = [h.get("timeout") for g in json.loads((project / ".openhands" / "hooks.json").read_text())
                        ["hooks"]["SessionStart"] for h in g["hooks"] if "# hookweave:timeouts/" in h["command"]]
            mock.commands = [_command("exit2")]
            second = _openhands(mock, home, project, folder)
    return Session(project, home, first, second, check, prompt_check, operator_text, after,
                   "".join(r.output for r in installed), verify.exit_code, timeouts)


def _by_event(calls: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for call in sorted(calls, key=lambda c: c["start"]):
        found.setdefault(call["event"], []).append(call)
    return found


def test_our_hooks_fire_once_each_after_the_operators_one_at_a_time(session: Session) -> None:
    run = session.installed
    ran = [m for m in MODES if m in run.ran]
    events = _by_event(run.calls)
    assert set(events) == set(EVENTS), sorted(events)
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"):
        assert [c["id"] for c in events[event]] == [f"op-{event}", f"probe-{event}"], event  # file order
    # one PreToolUse round per terminal call, in file order: the operator's hook, the answers hook, the probe;
    # where the answers hook blocks, the probe after it does not run (the first block ends the event's hooks)
    assert [c["id"] for c in events["PreToolUse"]] == [i for m in MODES for i in ("op-PreToolUse", "probe-PreToolUse")
                                                       if m in ran or i.startswith("op-")]
    assert len(ran) == len(MODES) - 5
    assert [c["id"] for c in events["PostToolUse"]] == ["op-PostToolUse", "probe-PostToolUse"] * len(ran)
    stamps = sorted(run.calls, key=lambda c: c["start"])
    assert all(a["end"] <= b["start"] for a, b in zip(stamps, stamps[1:])), "two hooks ran at once"
    firsts = [events[e][0]["start"] for e in ("SessionStart", "UserPromptSubmit", "PreToolUse")]
    lasts = [events[e][-1]["start"] for e in ("PostToolUse", "Stop", "SessionEnd")]
    assert firsts == sorted(firsts) and lasts == sorted(lasts) and firsts[-1] < lasts[0]
    assert not [c for c in run.calls if c["id"].startswith("op-user")]  # the project's file only
    assert session.verify_exit == 0


def test_openhands_gives_each_hook_its_variables(session: Session) -> None:
    """OPENHANDS_PROJECT_DIR (the project variable), OPENHANDS_SESSION_ID, OPENHANDS_EVENT_TYPE and,
    on tool events, OPENHANDS_TOOL_NAME; the agent's own environment passes through, and a bundle's
    [env] cannot (no settings-level env: install says so)."""
    run = session.installed
    sessions = {c["env"]["OPENHANDS_SESSION_ID"] for c in run.calls}
    assert len(sessions) == 1 and sessions != {""} and sessions != {None}
    assert {run.payloads["SessionStart"][0]["session_id"]} == sessions
    for call in run.calls:
        env = call["env"]
        assert env["OPENHANDS_PROJECT_DIR"] == str(session.project), call
        assert env["OPENHANDS_EVENT_TYPE"] == call["event"], call
        assert env["OPENHANDS_TOOL_NAME"] == ("terminal" if call["event"] in TOOL_EVENTS else None), call
        assert env["PROBE_VAR"] == "from-the-shell", call
    assert "PROBE_VAR not set: OpenHands has no settings-level env" in session.install_output


def test_an_exit_2_stops_the_terminal_call_and_its_reason_reaches_the_model(session: Session) -> None:
    told = session.installed.told()
    assert set(told) == set(MODES), sorted(told)
    assert "exit2" not in session.installed.ran and "none" in session.installed.ran
    assert told["exit2"] == "Action rejected: reason-exit2 from the hook", told["exit2"]  # the whole tool result


def test_hooks_check_predicts_what_openhands_did(session: Session) -> None:
    """For each answer: check's block is OpenHands' (the call rejected, and the reason the model got
    is check's); for each call that ran, check's "reaches the model" is whether the hook's text did;
    the prompt hook's additionalContext reaches the model as check says."""
    told, check = session.installed.told(), session.check
    assert set(check) == set(MODES), sorted(check)
    did = {m: "ran" if m in session.installed.ran else "block" for m in MODES}
    assert {m for m in MODES if not told[m].startswith("Action rejected: ")} == session.installed.ran, told
    table = "\n".join(f"{m}: check says {check[m]['action']} ({check[m]['reason']!r}), openhands {did[m]} "
                      f"({told[m][:60]!r})" for m in MODES)
    if REPORT:  # scripts collecting check's predictions (tests/e2e/test_check_real.py writes there too)
        with open(REPORT, "a", encoding="utf-8") as out:
            out.write("".join(f"openhands {line}\n" for line in table.splitlines()) + "openhands runs took "
                      f"{session.installed.seconds:.1f} s and {session.uninstalled.seconds:.1f} s\n")
    assert {m: check[m]["action"] == "block" for m in MODES} == {m: did[m] == "block" for m in MODES}, table
    assert {m for m in MODES if did[m] == "block"} == {"exit2", "noreason", "crossdeny", "badjson", "cont"}, table
    for mode in (m for m in MODES if did[m] == "block"):
        assert told[mode] == f"Action rejected: {check[mode]['reason']}", table
    messages = [m for r in session.installed.requests for m in r["body"].get("messages") or []]
    prompt = [json.dumps(m) for m in messages if m.get("role") == "user" and ASK in json.dumps(m)]
    elsewhere = json.dumps([m for m in messages if json.dumps(m) not in prompt])  # not the prompt, which has its hook's
    heard = {m: f"reason-{m} from the hook" in elsewhere for m in MODES if did[m] == "ran"}
    assert {m: any(n.startswith(TO_MODEL) for n in check[m]["notes"]) for m in heard} == heard, (heard, table)
    prompt_notes = session.prompt_check["notes"]
    reached = all("reason-context from the hook" in m for m in prompt)
    assert prompt and reached == any(n.startswith(TO_MODEL) for n in prompt_notes), prompt_notes
    assert reached  # measured: a top-level additionalContext goes with the prompt


def test_the_payloads_check_ships_have_the_keys_openhands_sent(session: Session) -> None:
    from hookweave.core.runtime import payloads

    for event in EVENTS:
        [*_, real] = session.installed.payloads[event]
        ours = payloads.for_event("openhands", event, str(session.project), "t.jsonl")[0].data
        assert set(real) == set(ours), (event, sorted(real), sorted(ours))
        for key in ("tool_input", "tool_response", "metadata"):
            if isinstance(real[key], dict):
                assert set(real[key]) == set(ours[key]), (event, key, sorted(real[key]), sorted(ours[key]))


def test_after_uninstall_only_the_operators_hooks_fire(session: Session) -> None:
    run = session.uninstalled
    assert json.loads(session.after_uninstall_text) == json.loads(session.operator_text)
    ours = [c["id"] for c in run.calls if not c["id"].startswith("timeout-")]  # the next test's
    assert sorted(ours) == sorted(f"op-{e}" for e in EVENTS)  # once each, the user's file unread
    assert run.payloads == {}
    assert run.ran == {"exit2"} and "Action rejected" not in run.told()["exit2"]


def test_openhands_reached_nothing_but_loopback(session: Session) -> None:
    assert session.installed.connects == [] and session.uninstalled.connects == []
    # what is left to reach, through the proxy that refuses it: the CLI's update check (git and litellm, switched
    # off, would ask for github.com:443 and raw.githubusercontent.com:443 here)
    assert set(session.installed.tunnels) == set(session.uninstalled.tunnels) == {"pypi.org:443"}
    left = [p for p in Path("/proc").glob("[0-9]*") if _in(p, session.project.parent)]
    assert not left, "still running after the runs"


def _in(proc: Path, folder: Path) -> bool:
    try:
        argv = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        cwd = os.readlink(proc / "cwd")
    except OSError:
        return False
    return str(folder) in argv or cwd.startswith(str(folder))


def test_a_timeout_is_seconds_and_openhands_goes_on_without_ending_the_hook(session: Session) -> None:
    """Installed with the manifest's timeouts, in seconds. OpenHands waited out the 0.5 s hook of 3 s
    (milliseconds would not have), gave the 3 s hook of 1 s about a second before it ran the next one
    (not the 3 s: a timeout, and in seconds); that hook was not ended (``subprocess.run`` kills the
    ``/bin/sh`` of ``shell=True``, not the command it started), so it still logged, 3 s after it started."""
    assert session.timeouts == [3, 1, 60]
    calls = sorted(session.uninstalled.calls, key=lambda c: c["start"])
    timed = {c["id"]: c for c in calls if c["id"].startswith("timeout-")}
    assert [c["id"] for c in calls if c["event"] == "SessionStart"] == ["op-SessionStart", "timeout-quick",
                                                                        "timeout-slow", "timeout-after"], calls
    quick, slow, after = timed["timeout-quick"], timed["timeout-slow"], timed["timeout-after"]
    figures = (f"quick took {quick['end'] - quick['start']:.2f} s, slow started {slow['start'] - quick['start']:.2f} s "
               f"after it, the next hook {after['start'] - slow['start']:.2f} s after slow, which took "
               f"{slow['end'] - slow['start']:.2f} s")
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            out.write(f"openhands timeouts: {figures}\n")
    assert slow["start"] >= quick["end"], figures  # quick was waited for to its end
    assert 0.8 <= after["start"] - slow["start"] < 2.4, figures  # a one-second wait, not three
    assert slow["end"] - slow["start"] >= 2.9, figures  # it ran on
