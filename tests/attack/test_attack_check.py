"""Attack on ``hooks check`` and its host table (issue 12): generated hook outcomes on every host
against an independent model of what each host does; hostile output (binary, huge, not UTF-8,
deep JSON, JSON that only looks like JSON) never breaks the judge or the command."""

from __future__ import annotations

import json
import random

import pytest

from hookweave.core.standalone import protocol
from hookweave.core.standalone.protocol import ACTIONS, judge
from tests.conftest import attack_size

pytestmark = pytest.mark.attack

PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "cursor": "preToolUse",
       "copilot": "preToolUse", "qwen": "PreToolUse", "factory": "PreToolUse", "cline": "PreToolUse",
       "windsurf": "pre_run_command", "antigravity": "PreToolUse"}
DECISIONS = (None, "block", "deny", "approve", "allow", "ask", 7)
PERMISSIONS = (None, "allow", "deny", "ask", "maybe")
REASONS = (None, "why", "", "  ")


def _outcome(rng: random.Random, host: str) -> tuple[dict | str, int, str]:
    """A hook's answer: JSON from a random mix of the fields the hosts read, or plain text."""
    code = rng.choice((0, 0, 0, 1, 2, 2, 3, 127))
    stderr = rng.choice(("", "why\n", "  \n"))
    if rng.random() < 0.2:
        return rng.choice(("", "plain text\n", "{not json", "[1, 2]", '"quoted"', "42")), code, stderr
    out: dict = {}
    for key, values in (("decision", DECISIONS), ("reason", REASONS), ("continue", (None, False, True))):
        value = rng.choice(values)
        if value is not None:
            out[key] = value
    permission = rng.choice(PERMISSIONS)
    if permission is not None or rng.random() < 0.1:
        out["hookSpecificOutput"] = {"hookEventName": rng.choice((PRE[host], PRE[host], "Stop")),
                                     **({"permissionDecision": permission} if permission else {}),
                                     **({"permissionDecisionReason": "pr"} if rng.random() < 0.7 else {})}
    if host == "copilot" and rng.random() < 0.5:  # Copilot's own, top-level answer
        out["permissionDecision"] = rng.choice(PERMISSIONS[1:])
        if rng.random() < 0.5:
            out["additionalContext"] = rng.choice(("ctx", ""))
    if host == "cline" and rng.random() < 0.6:  # Cline's answer, its types sometimes wrong
        for key, values in (("cancel", (True, False, "yes")), ("contextModification", ("ctx", "", 3)),
                            ("errorMessage", ("why", " ", None)), ("context", ("c", None))):
            if rng.random() < 0.4:
                out[key] = rng.choice(values)
    if rng.random() < 0.15:
        out["extra"] = 1
    return out, code, stderr


def model(host: str, answer, code: int, stderr: str) -> str:
    """What each host does before a tool call, written from the measured facts as plain rules
    (HOSTS.md, tests/e2e/test_check_real.py), independently of core/standalone/protocol.py."""
    text = answer if isinstance(answer, str) else json.dumps(answer)
    obj = answer if isinstance(answer, dict) else None
    spec = (obj or {}).get("hookSpecificOutput") or {}
    if host == "claude":
        if obj is not None:
            if (obj.get("decision") not in (None, "approve", "block") or spec.get("hookEventName") != PRE[host] and spec
                    or spec.get("permissionDecision") not in (None, "allow", "deny", "ask", "defer")
                    or not isinstance(obj.get("reason", ""), str) or not isinstance(obj.get("continue", True), bool)):
                return "error"  # fails Claude's schema: a hook error whatever the exit code
            if obj.get("continue") is False:
                return "stop"
            if obj.get("decision") == "block" or spec.get("permissionDecision") == "deny" or code == 2:
                return "block"
            return "ask" if spec.get("permissionDecision") == "ask" else "allow"
        if code == 2:
            return "block"
        return ("ignored" if text.strip() else "allow") if code == 0 else "error"
    if host == "codex":
        if code == 2:
            return "block" if stderr.strip() else "error"
        if code != 0:
            return "error"
        if obj is None:
            return "error" if text.lstrip().startswith(("{", "[")) else ("ignored" if text.strip() else "allow")
        if set(obj) - {"decision", "reason", "continue", "hookSpecificOutput"} or obj.get("decision") not in (None, "approve", "block"):
            return "error"
        if spec and (spec.get("hookEventName") != PRE[host] or spec.get("permissionDecision") not in (None, "allow", "deny", "ask")):
            return "error"
        if not isinstance(obj.get("reason", ""), str) or not isinstance(obj.get("continue", True), bool):
            return "error"
        if obj.get("continue") is False:
            return "error"  # unsupported on PreToolUse
        uses_specific = bool(spec.get("permissionDecision") or "permissionDecisionReason" in spec)
        if uses_specific:
            if spec.get("permissionDecision") != "deny" or not spec.get("permissionDecisionReason", "").strip():
                return "error"
            return "block"
        if obj.get("decision") == "approve" or (obj.get("decision") is None and "reason" in obj):
            return "error"
        if obj.get("decision") == "block":
            return "block" if (obj.get("reason") or "").strip() else "error"
        return "allow"
    if host == "gemini":
        body = text.strip() or stderr.strip()
        if not body:
            return "allow" if code == 0 else "error"
        try:
            value = json.loads(body)
            if isinstance(value, str):
                value = json.loads(value)
        except ValueError:
            return {0: "allow", 1: "error"}.get(code, "block")
        if not isinstance(value, (dict, list)):
            return "ignored" if code == 0 else "error"
        value = value if isinstance(value, dict) else {}
        if value.get("continue") is False:
            return "stop"
        return {"block": "block", "deny": "block", "ask": "ask"}.get(value.get("decision"), "allow")
    return NEWER[host](answer, obj, spec, text, code, stderr) if host in NEWER else _cursor(obj, text, code)


def _cursor(obj, text: str, code: int) -> str:
    if code == 2:
        return "block"
    if code != 0:
        return "error"
    if obj is None:
        return "allow" if not text.strip() else "error"
    return "allow"  # Cursor reads "permission", never generated here


def _json_object(text: str):
    try:
        value = json.loads(text)
    except ValueError:
        return None, True
    return value, False


def _copilot(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Measured on 1.0.102: any non-zero exit denies; a top-level permissionDecision decides."""
    if code != 0:
        return "block"
    if not text.strip():
        return "allow"
    value, _ = _json_object(text.strip())
    if not isinstance(value, dict):
        return "ignored"
    decision = value.get("permissionDecision")
    if decision in ("deny", "ask", "allow"):
        return {"deny": "block", "ask": "ask", "allow": "allow"}[decision]
    if "additionalContext" not in value and any(k in value for k in ("decision", "hookSpecificOutput", "continue",
                                                                      "stopReason")):
        return "ignored"
    return "allow"


def _qwen(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Qwen 0.24.4's hookRunner: exit 2 reads stderr, any other exit stdout or else stderr."""
    body = stderr.strip() if code == 2 else (text.strip() or stderr.strip())
    if not body:
        return "allow" if code == 0 else "error"
    value, bad = _json_object(body)
    if isinstance(value, str):
        value, bad = _json_object(value)
    if isinstance(value, dict):
        inner = value.get("hookSpecificOutput") if isinstance(value.get("hookSpecificOutput"), dict) else {}
        decision = inner.get("permissionDecision")
        if decision not in ("allow", "deny", "ask"):
            decision = {"allow": "allow", "approve": "allow", "deny": "deny", "block": "deny",
                        "ask": "ask"}.get(value.get("decision"))
        if decision == "deny" or (decision != "ask" and value.get("continue") is False):
            return "block"
        return "ask" if decision == "ask" else "allow"
    if bad and code != 2 and body.startswith("{"):
        return "error"
    return {0: "allow", 2: "block"}.get(code, "error")


def _factory(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Droid 0.225.2's PreToolUse: stop, abort, permissionDecision, then exit 2."""
    value = None
    if text.strip().startswith("{"):
        value, _ = _json_object(text)
    value = value if isinstance(value, dict) else {}
    inner = value.get("hookSpecificOutput") if isinstance(value.get("hookSpecificOutput"), dict) else {}
    if value.get("continue") is False or code == 3:
        return "stop"
    if inner.get("permissionDecision") == "deny" or code == 2:
        return "block"
    if value.get("decision") in ("block", "deny") and code == 0 and inner.get("permissionDecision") is None:
        return "ignored"
    if inner.get("permissionDecision") == "allow":
        return "allow"
    if code != 0:
        return "error"
    return "ignored" if text.strip() and not value else "allow"


def _cline(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Cline 3.0.65: the exit code is ignored; stdout is one JSON object of typed fields."""
    if not text.strip():
        return "allow"
    value, bad = _json_object(text.strip())
    if bad:
        return "error"
    if not isinstance(value, dict):
        return "ignored"
    types = {"cancel": bool, "review": bool, "context": str, "contextModification": str, "errorMessage": str}
    if any(k in value and not isinstance(value[k], t) for k, t in types.items()):
        return "ignored"
    if not set(value) & {"cancel", "review", "context", "contextModification", "errorMessage", "overrideInput"}:
        return "ignored"
    return "stop" if value.get("cancel") is True else "allow"


def _windsurf(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Documented: exit 2 blocks a pre-hook; stdout reaches only the user."""
    if code == 2:
        return "block"
    if code != 0:
        return "error"
    return "ignored" if text.strip() else "allow"


def _antigravity(answer, obj, spec, text: str, code: int, stderr: str) -> str:
    """Third parties: decision allow, deny or ask on stdout; exit 2 blocks as in Gemini CLI."""
    if code == 2:
        return "block"
    if code != 0:
        return "error"
    if not text.strip():
        return "allow"
    value, _ = _json_object(text.strip())
    if not isinstance(value, dict) or value.get("decision") is None:
        return "ignored"
    return {"deny": "block", "ask": "ask"}.get(value["decision"], "allow")


NEWER = {"copilot": _copilot, "qwen": _qwen, "factory": _factory, "cline": _cline, "windsurf": _windsurf,
         "antigravity": _antigravity}


@pytest.mark.parametrize("host", protocol.HOSTS)
def test_judge_agrees_with_the_model(host: str, attack_report) -> None:
    rng = random.Random(f"check-{host}")
    cases = attack_size(1500, 40000)
    failures = []
    for _ in range(cases):
        answer, code, stderr = _outcome(rng, host)
        stdout = answer if isinstance(answer, str) else json.dumps(answer)
        got = judge(host, PRE[host], code, stdout, stderr).action
        want = model(host, answer, code, stderr)
        if got != want:
            failures.append((stdout, code, stderr, got, want))
    attack_report(f"check: judge against the model ({host})", cases=cases, failures=len(failures))
    assert not failures, failures[:5]


def _hostile(rng: random.Random) -> list[bytes]:
    deep = rng.randint(2000, 60000)
    return [
        bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4000))),
        b"\xff\xfe" + "héllo".encode("utf-16-le"),
        ("{" + '"a":' * 0 + "[" * deep + "]" * deep + "}").encode(),
        ('{"a":' * deep + "1" + "}" * deep).encode(),
        ("[" * 127 + "]" * 127).encode(), ("[" * 128 + "]" * 128).encode(),
        b'{"decision": "block", "reason": "\\ud800 lone"}', b'{"decision": NaN}', b'{"n": 1e999999}',
        b"\xef\xbb\xbf{\"decision\": \"block\", \"reason\": \"bom\"}", b'"{\\"decision\\": \\"deny\\"}"',
        b"\x00" * rng.randint(1, 5000), b"{" + b"x" * (3 << 20), ("\u2028{\"continue\": false}\u3000").encode(),
        json.dumps({"decision": "block", "reason": "r" * 200000}).encode(),
    ]


def test_hostile_output_never_breaks_the_judge(attack_report) -> None:
    rng = random.Random("hostile")
    rounds = attack_size(3, 40)
    events = {h: [PRE[h], *protocol.BLOCKS[h], "SessionStart", "NoSuchEvent"] for h in protocol.HOSTS}
    cases = 0
    for _ in range(rounds):
        for blob in _hostile(rng):
            for host in protocol.HOSTS:
                for event in rng.sample(events[host], 3):
                    for code in (0, 2, rng.choice((1, 3, None, -9))):
                        v = judge(host, event, code, blob if rng.random() < 0.5 else blob.decode("utf-8", "replace"), blob[:300])
                        assert v.action in ACTIONS and isinstance(v.reason, str) and isinstance(v.notes, tuple)
                        assert all(isinstance(n, str) for n in v.notes) and (v.output is None or isinstance(v.output, (dict, list)))
                        cases += 1
    attack_report("check: hostile output through the judge", cases=cases, failures=0)


def test_codex_reads_json_up_to_serde_s_depth_only() -> None:
    shallow = "[" * 127 + "]" * 127
    assert judge("codex", "PreToolUse", 0, shallow, "").reason == "hook returned invalid pre-tool-use JSON output"
    block = '{"decision": "block", "reason": "r", "hookSpecificOutput": null}'
    assert judge("codex", "PreToolUse", 0, block, "").action == "block"
    nested = '{"decision": "block", "reason": "r", "x": ' + "[" * 130 + "]" * 130 + "}"
    assert judge("codex", "PreToolUse", 0, nested, "").notes[0].startswith("JSON nested 128 levels")


HOSTILE_HOOKS = (
    "head -c 200000 /dev/urandom",
    "python3 -c \"print('{' + '\\\"a\\\":' * 50000 + '1' + '}' * 50000)\"",
    "yes 'flood of output' | head -c 5000000",
    "printf '\\377\\376 not utf-8 \\033[31m red \\n'; printf 'err\\377\\n' >&2; exit 2",
    "printf '{\"decision\":\"block\",\"reason\":\"line1\\\\nline2\\\\u0007\"}'",
)


@pytest.mark.parametrize("command", HOSTILE_HOOKS)
def test_hostile_hooks_through_the_command(run, command: str, attack_report) -> None:
    for host in ("claude", "codex", "gemini", "copilot", "qwen", "cline"):
        text = run("check", "--hand-written", command, "--event", "pre_tool_use", "--host", host)
        assert text.exit_code in (0, 1), text.output
        assert "Traceback" not in text.output and "\x1b" not in text.stdout and "\x07" not in text.stdout
        # the report above ran the timed runs too: the JSON's runs are the judged ones, one is enough
        doc = run("check", "--hand-written", command, "--event", "pre_tool_use", "--host", host, "--json", "--runs", "1")
        assert doc.exit_code in (0, 1)
        runs = json.loads(doc.stdout)["hooks"][0]["runs"]
        assert all(len(r["stdout"]) <= 2100 and r["action"] in ACTIONS for r in runs)
    attack_report(f"check: hostile hook {HOSTILE_HOOKS.index(command)} through the CLI", cases=12, failures=0)
