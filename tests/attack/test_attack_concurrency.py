"""Attack (issue 5): many `hooks install` processes and a host rewriting the same file at once.

N real processes each install a different bundle into one settings file while another process
plays the host: it re-reads the file and rewrites it as that host does (Claude re-serializes the
whole file; Gemini and Codex edit text in place), without our lock, adding entries of its own.
The host swaps its file in with RENAME_EXCHANGE, which leaves the file it displaced in its hands:
if that is not what it read, the host itself clobbered a write (the host's race, not ours), and it
logs which bundles it dropped. Everything else missing at the end is a lost update of ours.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookweave.core.formats import jsontext
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
HOOKS = str(Path(sys.executable).parent / "hooks")
DATA = Path(__file__).parent.parent / "data"
SETTINGS = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "codex": ".codex/hooks.json"}

HOST = r'''
import ctypes, json, os, random, re, sys, time
path, kind, stop, log = sys.argv[1:5]
libc = ctypes.CDLL(None, use_errno=True)
tmp = path + ".host-tmp"

def edit(text, k):
    if kind == "claude":  # Claude: re-read, merge, JSON.stringify(obj, null, 2) + "\n"
        obj = json.loads(text)
        obj["model"] = "sonnet" if k % 2 else "opus"
        obj["permissions"]["allow"].append(f"Bash(host-{k}:*)")
        obj["hooks"]["Notification"].append({"hooks": [{"type": "command", "command": f"host-{k}"}]})
        return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    if kind == "gemini":  # comment-json: a value changed and a list item added in place
        text = re.sub(r'"theme": "[^"]*"', f'"theme": "T{k}"', text, count=1)
        return text.replace('"disabled": [', f'"disabled": ["host-{k}", ', 1)
    text = re.sub(r'"description": "([^"#]*)[^"]*"', rf'"description": "\1#{k}"', text, count=1)
    return text.replace('"Stop": [', f'"Stop": [{{"hooks": [{{"type": "command", "command": "host-{k}"}}]}}, ', 1)

def markers(text):
    return set(re.findall(r"hookweave:(w\d+/\w+)", text))

k, out = 0, open(log, "a")
while not os.path.exists(stop):
    text = open(path, encoding="utf-8").read()
    k += 1
    try:
        new = edit(text, k)
    except ValueError:
        out.write(json.dumps({"corrupt": text}) + "\n")
        break
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(new)
    if libc.renameat2(-100, tmp.encode(), -100, path.encode(), 2):  # RENAME_EXCHANGE
        raise OSError(ctypes.get_errno(), "renameat2")
    displaced = open(tmp, encoding="utf-8").read()
    os.unlink(tmp)
    lost = sorted(markers(displaced) - markers(new)) if displaced != text else []
    out.write(json.dumps({"k": k, "clobbered": displaced != text, "lost": lost}) + "\n")
    out.flush()
    time.sleep(random.uniform(0.02, 0.2))
'''


def _bundle(folder: Path, i: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "hookweave.toml").write_text(
        f'[bundle]\nname = "w{i}"\nversion = "1.0.{i}"\n\n'
        f'[[hooks]]\nid = "guard"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
        f'command = ["w{i}-guard", "{{project_dir}}"]\nposition = "{"first" if i % 2 else "last"}"\n\n'
        f'[[hooks]]\nid = "log"\nevent = "session_start"\ncommand = "w{i}-log --start"\n\n'
        f'[env.W{i}_CAP]\nvalue = "{i}"\nhosts = ["claude"]\n',
        encoding="utf-8",
    )
    return folder


def _parse(host: str, text: str):
    return jsontext.parse(text, "settings", comments=host == "gemini").value


def _commands(doc) -> list[str]:
    if isinstance(doc, dict):
        return [v for k, v in doc.items() if k == "command" and isinstance(v, str)] + [
            c for v in doc.values() for c in _commands(v)]
    return [c for v in doc for c in _commands(v)] if isinstance(doc, list) else []


def _hooks(host: str, *args: str, env: dict) -> subprocess.CompletedProcess:
    extra = ["--trust"] if host == "codex" and args[0] == "install" else []
    return subprocess.run([HOOKS, *args, "--host", host, *extra], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("host", ["claude", "gemini", "codex"])
def test_concurrent_installs_and_a_rewriting_host_lose_nothing(host, tmp_path, project, home, attack_report) -> None:
    writers = attack_size(8, 32)
    env = {**os.environ, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    settings = project / SETTINGS[host]
    settings.parent.mkdir()
    operator = (DATA / host / "operator.settings.json").read_text(encoding="utf-8")
    settings.write_text(operator, encoding="utf-8")
    if host == "codex":  # a trusted project, so verify can say every hook is trusted and runs
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    bundles = [_bundle(tmp_path / "bundles" / f"w{i}", i) for i in range(writers)]
    stop, log = tmp_path / "stop", tmp_path / "host.log"
    simulator = subprocess.Popen([sys.executable, "-c", HOST, str(settings), host, str(stop), str(log)])
    try:
        procs = [subprocess.Popen([HOOKS, "install", str(b), "--host", host] + (["--trust"] if host == "codex" else []),
                                  env={**env, "HOOKWEAVE_TEST_SLOW_WRITE": str(0.03 * (i % 2))},
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i, b in enumerate(bundles)]
        outcomes = [(p.wait(120), p.stderr.read()) for p in procs]
        time.sleep(0.25)  # room for a host rewrite after the last writer
    finally:
        stop.touch()
        assert simulator.wait(30) == 0, "the host simulator crashed"
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    corrupt = [e["corrupt"] for e in events if "corrupt" in e]
    rewrites = [e for e in events if "k" in e]
    unexpected = [(i, code, err) for i, (code, err) in enumerate(outcomes)
                  if code not in (0, 1) or (code == 1 and "changed while hookweave was working" not in err)]
    corrupt += [err for _, code, err in unexpected if code == 2]  # a file it could not parse

    text = settings.read_text(encoding="utf-8")
    doc = _parse(host, text)
    host_dropped = {m.split("/")[0] for e in rewrites for m in e["lost"]}
    ours_gone = sorted(f"w{i}" for i, (code, _) in enumerate(outcomes)
                       if code == 0 and f"hookweave:w{i}/guard" not in text and f"w{i}" not in host_dropped)
    if host == "claude":
        theirs = set(doc["permissions"]["allow"])
        wanted = {f"Bash(host-{e['k']}:*)" for e in rewrites}
    elif host == "gemini":
        theirs = set(doc["hooksConfig"]["disabled"])
        wanted = {f"host-{e['k']}" for e in rewrites}
    else:
        theirs = set(_commands(doc["hooks"]["Stop"]))
        wanted = {f"host-{e['k']}" for e in rewrites}
    host_lost = sorted(wanted - theirs)
    operator_lost = sorted(set(_commands(_parse(host, operator))) - set(_commands(doc)))
    if host == "gemini":
        operator_lost += [c for c in re.findall(r"//[^\n]*|/\*.*?\*/", operator) if c not in text]

    # A user reruns what gave up, and what a host rewrite dropped (verify says "missing").
    failed = [i for i, (code, err) in enumerate(outcomes) if code == 1 and "changed while" in err]
    check = subprocess.run([HOOKS, "verify", "--host", host, "--json"], env=env, capture_output=True, text=True)
    missing = {b["name"] for h in json.loads(check.stdout)["hosts"] for f in h["files"] for b in f["bundles"]
               if any(x["status"] == "missing" for x in b["hooks"])}
    assert missing == {f"w{i}" for i, (code, _) in enumerate(outcomes) if code == 0} & host_dropped, missing
    for i in failed + sorted(int(name[1:]) for name in missing):
        rerun = _hooks(host, "install", str(bundles[i]), env=env)
        assert rerun.returncode == 0, rerun.stderr

    attack_report("concurrent writers", writers=writers, host_rewrites=len(rewrites),
                  lost_updates=len(ours_gone) + len(host_lost) + len(operator_lost), corrupt_files=len(corrupt),
                  retries=len(failed), host_clobbers=len(missing))
    assert not corrupt, corrupt[:1]
    assert not unexpected, unexpected
    assert not ours_gone, f"installs that exited 0 and vanished with no host rewrite to blame: {ours_gone}"
    assert not host_lost, f"the host's own entries were overwritten: {host_lost}"
    assert not operator_lost, operator_lost
    assert len(rewrites) >= 2, "the host never rewrote the file during the run"

    final = settings.read_text(encoding="utf-8")
    doc = _parse(host, final)
    for i in range(writers):
        for hook in ("guard", "log"):
            assert final.count(f"hookweave:w{i}/{hook}") == 1, (i, hook)
    record = json.loads(settings.with_name(settings.stem + ".hookweave.json").read_text(encoding="utf-8"))
    assert sorted(record["bundles"]) == sorted(f"w{i}" for i in range(writers))
    if host == "claude":
        assert {f"W{i}_CAP" for i in range(writers)} <= set(doc["env"])
    status = json.loads(_hooks(host, "status", "--json", env=env).stdout)
    assert sorted(row["bundle"] for row in status["installed"]) == sorted(f"w{i}" for i in range(writers))
    verified = _hooks(host, "verify", env=env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert not list(settings.parent.glob("*-tmp")), "a temp file was left behind"


WAIT_THEN_INSTALL = """
import contextlib, os, sys, time
from hookweave.core.cli import app as cli
from hookweave.core.files import fileio
from hookweave.core.plan import plan  # noqa: F401 - loaded before the race, not during it
from hookweave.core.usecases import installer  # noqa: F401
locked, log_path = fileio.locked, sys.argv[3]

@contextlib.contextmanager
def timed(paths):  # when this run held its locks, on the clock every process shares
    with locked(paths):
        start = time.monotonic()
        try:
            yield
        finally:
            with open(log_path, "a") as log:
                log.write(f"{start} {time.monotonic()}\\n")

fileio.locked = timed
while not os.path.exists(sys.argv[1]):
    time.sleep(0.001)
sys.argv = ["hooks", "install", sys.argv[2], "--host", "claude"]
cli.main()
"""


def test_first_installs_into_a_missing_folder_hold_one_lock(tmp_path, project, attack_report) -> None:
    """No host: half the runs start together while .claude/ does not exist, the other half the
    moment the first of them creates it. No two may hold their locks at the same time; they used
    to lock different folders (the project, .claude/) and write at once, which ended in spurious
    "changed while hookweave was working" errors."""
    writers = attack_size(8, 32)
    bundles = [_bundle(tmp_path / "bundles" / f"w{i}", i) for i in range(writers)]
    go, log = tmp_path / "go", tmp_path / "locks.log"
    env = {**os.environ, "HOOKWEAVE_TEST_SLOW_WRITE": "0.02"}
    procs = [subprocess.Popen([sys.executable, "-c", WAIT_THEN_INSTALL, str(go if i % 2 else project / ".claude"),
                               str(b), str(log)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i, b in enumerate(bundles)]
    time.sleep(0.5)  # their imports
    go.touch()
    failed = [(i, code, p.stderr.read()) for i, p in enumerate(procs) if (code := p.wait(120))]
    held = sorted(tuple(map(float, line.split())) for line in log.read_text().splitlines())
    overlaps = sum(1 for a, b in zip(held, held[1:]) if b[0] < a[1])
    attack_report("first writers, missing folder", writers=writers, lock_overlaps=overlaps, failed_runs=len(failed))
    assert (overlaps, failed) == (0, [])
    record = json.loads((project / ".claude" / "settings.hookweave.json").read_text(encoding="utf-8"))
    assert sorted(record["bundles"]) == sorted(f"w{i}" for i in range(writers))
    assert _hooks("claude", "verify", env=dict(os.environ)).returncode == 0
