"""Attack: other programs' answers. verify asks ``codex app-server``; here a fake codex answers
with everything a broken, hostile or slow program could send. Invariants, per case: verify ends
within its deadline (plus start-up), exits 0 or 1, prints no traceback and nothing on stderr, and
every finding is one printable line."""

from __future__ import annotations

import json
import random
import re
import sys
import time
import unicodedata

import pytest

from hookweave.hosts.codex import appserver as codex_appserver
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
DEADLINE = 0.6  # HOOKWEAVE_CODEX_TIMEOUT for the attack; the default (5 s) is tested in test_codex_cases

# One fake codex: it plays a script of actions read from the file named in its own name's sibling.
DRIVER = """
import json, os, sys, time
steps = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "steps.json")))
out = sys.stdout.buffer
for kind, arg in steps:
    if kind == "out":
        out.write(bytes.fromhex(arg)); out.flush()
    elif kind == "read":
        sys.stdin.buffer.readline()
    elif kind == "sleep":
        time.sleep(arg)
    elif kind == "exit":
        os._exit(arg)
    elif kind == "close":
        out.close(); os.close(1)
    elif kind == "fork":
        if os.fork() == 0:
            time.sleep(arg); os._exit(0)
time.sleep(30)
"""

OURS = "echo alpha # hookweave:alpha/h0"


def _message(r: random.Random, id_: int, result) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "result": result}).encode() + b"\n"


def _hostile_value(r: random.Random):
    return r.choice([None, 5, -1.5, True, "x", "line\nbreak\x1b[31m", "\ud800", [], [1, [2]], {}, {"a": {"b": []}},
                     "é☕" * r.randint(1, 50), "\u2028sep"])


def _hooks_answer(r: random.Random):
    """A hooks/list result: well-formed, or broken at one random place."""
    hook = {"key": "k", "command": OURS, "trustStatus": r.choice(["trusted", "untrusted", "modified", "managed"])}
    entry = {"hooks": [hook], "warnings": [], "errors": []}
    flaw = r.randrange(9)
    if flaw == 1:
        hook[r.choice(["key", "command", "trustStatus"])] = _hostile_value(r)
    elif flaw == 2:
        entry[r.choice(["hooks", "warnings", "errors"])] = _hostile_value(r)
    elif flaw == 3:
        entry["errors"] = [_hostile_value(r) for _ in range(r.randint(1, 3))]
    elif flaw == 4:
        entry["hooks"] = [_hostile_value(r), hook]
    elif flaw == 5:
        return _hostile_value(r)
    elif flaw == 6:
        return {"data": _hostile_value(r)}
    elif flaw == 7:
        return {"data": [_hostile_value(r)]}
    elif flaw == 8:
        return {"data": []}
    return {"data": [entry]}


def _noise(r: random.Random) -> bytes:
    return r.choice([
        b"Codex app-server starting\n", b"\xff\xfe\x00garbage\n", b"[1, 2, 3]\n", b"42\n", b"null\n", b"\n",
        b'"just a string"\n', b'{"jsonrpc": "2.0", "method": "note", "params": {}}\n', b'{"id": 99, "result": {}}\n',
        b"{" * r.randint(1, 3000) + b"\n", bytes(r.randrange(256) for _ in range(r.randint(1, 200))) + b"\n",
    ])


def program(r: random.Random, huge: int) -> tuple[str, list]:
    """``(kind, steps)``: one hostile codex app-server."""
    kind = r.choice(["noise-then-answer", "bad-answer", "error", "silent", "partial", "huge", "slow", "exits",
                     "closes", "forks", "no-newline", "wrong-id"])
    steps: list = [["read", None]]
    noise = [["out", _noise(r).hex()] for _ in range(r.randint(0, 3))]
    init = ["out", _message(r, 1, {}).hex()]
    answer = ["out", _message(r, 2, _hooks_answer(r)).hex()]
    if kind == "noise-then-answer":
        steps += noise + [init, ["read", None], ["read", None]] + noise + [answer]
    elif kind == "bad-answer":
        steps += [init, ["read", None], ["read", None], answer]
    elif kind == "error":
        steps += [["out", (json.dumps({"id": r.choice([1, 2]), "error": _hostile_value(r)}) + "\n").encode().hex()]]
        refusal = (json.dumps({"id": 2, "error": {"code": -1}}) + "\n").encode().hex()
        steps += [init, ["read", None], ["read", None], ["out", refusal]]
    elif kind == "silent":
        steps = [["sleep", 30]]
    elif kind == "partial":
        steps += [["out", _message(r, 1, {}).hex()[: r.randint(2, 20)]], ["sleep", 30]]
    elif kind == "huge":
        steps += [["out", (b'{"id": 1, "result": "' + b"x" * huge).hex()]]
    elif kind == "slow":
        steps += [["sleep", r.uniform(0, DEADLINE / 4)], init, ["read", None], ["read", None], answer]
    elif kind == "exits":
        steps += noise + [["exit", r.randint(0, 255)]]
    elif kind == "closes":
        steps += noise + [["close", None], ["sleep", 30]]
    elif kind == "forks":
        steps += [["fork", 30], ["exit", 0]]
    elif kind == "no-newline":
        steps += [["out", _message(r, 1, {})[:-1].hex()], ["sleep", 30]]
    else:
        steps += [["out", _message(r, 7, {}).hex()], ["read", None], ["read", None], ["out", _message(r, 1, {}).hex()],
                  ["sleep", 30]]
    return kind, steps


def test_verify_survives_every_codex_answer(run, write_bundle, home, project, tmp_path, monkeypatch,
                                            attack_report) -> None:
    codex_home = home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    bundle = write_bundle('[bundle]\nname = "alpha"\nversion = "1"\n'
                          '[[hooks]]\nid = "h0"\nevent = "stop"\ncommand = "echo alpha"\n')
    assert run("install", str(bundle), "--host", "codex", "--trust").exit_code == 0
    fake = tmp_path / "fake" / "codex"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\n{DRIVER}")
    fake.chmod(0o755)
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(fake))
    monkeypatch.setenv("HOOKWEAVE_CODEX_TIMEOUT", str(DEADLINE))
    monkeypatch.setattr(codex_appserver, "MAX_LINE", 64 * 1024)  # the same check, reached with less data
    r = random.Random(8)
    cases, failures, kinds = attack_size(40, 600), [], {}
    for case in range(cases):
        kind, steps = program(r, huge=r.randint(64 * 1024 + 1, 200 * 1024))
        kinds[kind] = kinds.get(kind, 0) + 1
        (fake.parent / "steps.json").write_text(json.dumps(steps))
        started = time.monotonic()
        result = run("verify", "--host", "codex")
        took = time.monotonic() - started
        findings = [line for line in result.stdout.splitlines() if line.startswith(("  problem:", "  warning:"))]
        bad = (result.exit_code not in (0, 1) or took > DEADLINE + 2 or result.stderr
               or "Traceback" in result.stdout or not re.search(r"\nverify: (ok|[0-9]+ problems?)[^\n]*\n\Z", result.stdout)
               or any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for line in findings for c in line))
        if bad:
            failures.append((case, kind, result.exit_code, round(took, 2), result.stdout[-300:], result.stderr[-300:]))
    attack_report("other programs' answers", cases=cases, failures=len(failures))
    assert not failures, failures[:3]
    assert len(kinds) == 12, kinds  # every kind of hostile program ran
