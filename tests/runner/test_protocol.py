"""core/standalone/protocol.py, the one table of what each host does with a hook's exit code and output:
the measured facts (tests/e2e/test_check_real.py measures them again on the real agents), the
combination of several hooks' verdicts, and loading it on its own as the chain runner does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.plan import chain
from hookweave.core.standalone.protocol import Verdict, chain_verdict, judge

PRE = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "copilot": "preToolUse",
       "qwen": "PreToolUse", "factory": "PreToolUse", "cline": "PreToolUse"}


def _answer(host: str, mode: str) -> tuple[int, str, str]:
    """What tests/e2e/answers.py does in each mode (exit code, stdout, stderr)."""
    reason = f"reason-{mode} from the hook"

    def permission(decision: str) -> str:
        if host == "copilot":
            return json.dumps({"permissionDecision": decision, "permissionDecisionReason": reason})
        return json.dumps({"hookSpecificOutput": {"hookEventName": PRE[host], "permissionDecision": decision,
                                                  "permissionDecisionReason": reason}})

    deny = (json.dumps({"decision": "deny", "reason": reason}) if host == "gemini" else
            json.dumps({"cancel": True, "errorMessage": reason}) if host == "cline" else permission("deny"))
    context = ({"additionalContext": reason} if host == "copilot" else {"contextModification": reason} if host == "cline"
               else {"hookSpecificOutput": {"hookEventName": PRE[host], "additionalContext": reason}})
    return {
        "none": (0, "", ""), "exit2": (2, "", reason + "\n"), "exit1": (1, "", reason + "\n"),
        "exit3": (3, "", reason + "\n"), "noreason": (2, "", ""), "plain": (0, reason + "\n", ""),
        "block": (0, json.dumps({"decision": "block", "reason": reason}) + "\n", ""),
        "deny": (0, deny + "\n", ""),
        "crossdeny": (0, json.dumps({"decision": "deny", "reason": reason}) + "\n", ""),
        "stray": (0, json.dumps({"decision": "block", "reason": reason, "extra": 1}) + "\n", ""),
        "badjson": (2, "{not json\n", reason + "\n"), "allowreason": (0, permission("allow") + "\n", ""),
        "noise": (0, "", reason + " (diagnostics on stderr)\n"), "ask": (0, permission("ask") + "\n", ""),
        "context": (0, json.dumps(context) + "\n", ""),
        "exit1json": (1, json.dumps({"decision": "block", "reason": reason}) + "\n", ""),
        "cont": (0, json.dumps({"continue": False, "stopReason": reason}) + "\n", ""),
    }[mode]


# Measured on Claude Code 2.1.332, Codex 0.169.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code
# 0.24.4, Factory Droid 0.225.2 and Cline 3.0.65 (offline, one agent run per host, every mode a shell
# call of the same reply; tests/e2e/test_check_real.py): the modes after which the call did not run.
# The rest ran. Copilot and Qwen cannot ask in a -p run: an ask does not run the call there.
BLOCKED = {
    "claude": {"exit2", "noreason", "block", "deny", "stray", "badjson"},
    "codex": {"exit2", "block", "deny", "badjson"},
    "gemini": {"exit2", "exit3", "block", "deny", "crossdeny", "stray", "badjson"},
    "copilot": {"exit2", "exit1", "exit3", "noreason", "deny", "badjson", "ask", "exit1json"},
    "qwen": {"exit2", "block", "deny", "crossdeny", "stray", "badjson", "ask", "exit1json", "cont"},
    "factory": {"exit2", "noreason", "deny", "badjson"},
    "cline": {"deny"},
}
MODES = ("none", "exit2", "exit1", "exit3", "noreason", "plain", "block", "deny", "crossdeny", "stray", "badjson",
         "allowreason", "noise")
EXTRA = {"copilot": ("context", "ask", "exit1json"), "qwen": ("context", "ask", "exit1json", "cont"),
         "factory": ("context", "ask"), "cline": ("context",)}
# Measured the same way: the modes whose text reached the model (tests/e2e/test_check_real.py).
TOLD = {"copilot": {"context"}, "qwen": set(), "factory": {"exit1"}, "cline": {"context"}}
CASES = [(host, mode) for host in BLOCKED for mode in MODES + EXTRA.get(host, ()) if (host, mode) != ("factory", "exit3")]


@pytest.mark.parametrize(("host", "mode"), CASES)
def test_judge_blocks_exactly_what_the_agent_blocked(host: str, mode: str) -> None:
    verdict = judge(host, PRE[host], *_answer(host, mode))
    assert (verdict.action in ("block", "ask", "stop")) == (mode in BLOCKED[host]), verdict


@pytest.mark.parametrize("host", sorted(TOLD))
def test_judge_says_which_text_reaches_the_model(host: str) -> None:
    from hookweave.core.runtime.protocoltable import TO_MODEL

    told = {mode for mode in MODES + EXTRA[host] if (host, mode) != ("factory", "exit3")
            and any(n.startswith(TO_MODEL) or "the model reads it" in n for n in judge(host, PRE[host], *_answer(host, mode)).notes)}
    assert told == TOLD[host]


def test_what_stops_the_whole_run() -> None:
    """Measured: Droid's exit 3 on PreToolUse aborts the agent; Cline's cancel ends the run."""
    assert judge("factory", "PreToolUse", *_answer("factory", "exit3")).action == "stop"
    assert judge("cline", "PreToolUse", *_answer("cline", "deny")).action == "stop"


def test_the_reasons_the_model_was_told() -> None:
    """What each agent told the model (tests/e2e): Claude the stderr or the JSON reason, Codex the
    trimmed reason, Gemini the text even from exit 3 and from a stdout that is not JSON."""
    assert judge("claude", "PreToolUse", *_answer("claude", "exit2")).reason == "reason-exit2 from the hook\n"
    assert judge("claude", "PreToolUse", *_answer("claude", "noreason")).reason == "No stderr output"
    # Claude Code 2.1.332 prefixes every PreToolUse block it tells the model (tests/e2e/test_runtime_real.py)
    told = "the model is told: PreToolUse:<tool> hook error: "
    assert told + "[<the hook's command>]: <reason>" in judge("claude", "PreToolUse", *_answer("claude", "exit2")).notes
    for mode in ("block", "deny"):
        assert told + "<reason>" in judge("claude", "PreToolUse", *_answer("claude", mode)).notes
    assert not [n for n in judge("claude", "Stop", 0, '{"decision": "block", "reason": "r"}', "").notes if n.startswith(told)]
    assert judge("codex", "PreToolUse", *_answer("codex", "deny")).reason == "reason-deny from the hook"
    assert judge("gemini", "BeforeTool", *_answer("gemini", "exit3")).reason == "reason-exit3 from the hook"
    assert judge("gemini", "BeforeTool", *_answer("gemini", "badjson")).reason == "{not json"


@pytest.mark.parametrize(("host", "event", "action", "note"), [
    ("claude", "UserPromptSubmit", "allow", "plain stdout is added to the model's context"),
    ("codex", "UserPromptSubmit", "allow", "plain stdout is added to the model's context"),
    ("gemini", "BeforeAgent", "allow", "plain text is shown to the user as a system message"),
    ("codex", "Stop", "error", "invalid JSON output: Codex shows a failed hook and goes on"),
])
def test_plain_stdout_on_prompt_and_stop_events(host: str, event: str, action: str, note: str) -> None:
    verdict = judge(host, event, 0, "some text\n", "")
    assert (verdict.action, verdict.notes[-1]) == (action, note)


def test_what_cannot_block_is_said() -> None:
    assert judge("claude", "SessionStart", 2, "", "no") == Verdict(
        "error", "no", None, ("exit 2 cannot block SessionStart: stderr is shown to the user",))
    assert judge("claude", "Stop", 2, "", "/x/hook.sh: No such file or directory").action == "error"
    assert judge("gemini", "SessionStart", 0, '{"decision": "block"}', "").action == "ignored"
    assert judge("claude", "PreToolUse", 0, "", "", timed_out=True).action == "error"
    assert judge("gemini", "BeforeTool", -9, "text", "").notes[:2] == (
        "ended by signal 9", "Gemini counts a hook ended by a signal as exit 0")


def test_unknown_fields_named_and_codex_refuses_them() -> None:
    out = '{"decision": "block", "reason": "r", "hookSpecificOutput": {"hookEventName": "PreToolUse", "x": 1}, "y": 2}'
    assert judge("claude", "PreToolUse", 0, out, "").notes[:2] == ("unknown field y", "unknown field hookSpecificOutput.x")
    codex = judge("codex", "PreToolUse", 0, out, "")
    assert (codex.action, codex.notes[0]) == ("error", "unknown field y (Codex rejects the whole output)")


def _v(action: str, reason: str = "", output=None) -> Verdict:
    return Verdict(action, reason, output, ())


def test_chain_verdict_per_host() -> None:
    assert chain_verdict("claude", "PreToolUse", []) == (Verdict("allow", "", None, ("no hook ran",)), None)
    assert chain_verdict("claude", "PreToolUse", [_v("allow"), _v("block", "b"), _v("ask")]).decided_by == 1
    assert chain_verdict("claude", "PreToolUse", [_v("ask"), _v("allow")]) == (_v("ask"), 0)
    assert chain_verdict("claude", "PreToolUse", [_v("allow"), _v("error", "e")]) == (_v("error", "e"), 1)
    assert chain_verdict("claude", "Stop", [_v("block", "b"), _v("stop", "s")]) == (_v("stop", "s"), 1)
    assert chain_verdict("codex", "PreToolUse", [_v("block", "one"), _v("block", "two")]) == (_v("block", "one"), 0)
    joined = chain_verdict("codex", "Stop", [_v("block", "one"), _v("allow"), _v("block", "two")])
    assert (joined.verdict.reason, joined.decided_by) == ("one\ntwo", 0)
    assert chain_verdict("gemini", "BeforeTool", [_v("ask"), _v("block", "b")]).decided_by == 1
    later = chain_verdict("gemini", "BeforeModel", [_v("block", "b"), _v("allow", "", {"decision": "allow"})])
    assert later == (_v("allow", "", {"decision": "allow"}), 1)  # BeforeModel: the later hook's fields win
    assert chain_verdict("gemini", "BeforeModel", [_v("allow"), _v("ignored")]) == (_v("allow"), None)


def test_chain_of_real_outcomes_agrees_with_each_host() -> None:
    """The measured modes combined: one blocking member blocks the event wherever it blocks alone."""
    for host in BLOCKED:
        mode = "deny" if host == "cline" else "exit2"
        members = [judge(host, PRE[host], *_answer(host, m)) for m in ("none", "noise", mode, "plain")]
        together = chain_verdict(host, PRE[host], members)
        assert (together.verdict.action in ("block", "stop"), together.decided_by) == (True, 2)


def test_loads_on_its_own_without_site_or_hookweave(tmp_path: Path) -> None:
    """The chain runner loads the protocol's text (``protocol.PARTS``, one namespace) under
    ``python3 -S``: stdlib only, fast."""
    (tmp_path / "protocol.py").write_text(chain.protocol_text(), encoding="utf-8")
    script = ("import importlib.util, sys, time; t = time.perf_counter()\n"
              f"spec = importlib.util.spec_from_file_location('protocol', {str(tmp_path / 'protocol.py')!r})\n"
              "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
              "took = time.perf_counter() - t\n"
              "print(m.judge('codex', 'PreToolUse', 2, b'', b'no\\n').action, took < 0.2,\n"
              "      sorted(n for n in sys.modules if n.startswith(('hookweave', 'dataclasses'))))")
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "block True []\n"
    text = chain.protocol_text()
    imports = [line for line in text.splitlines() if line.lstrip().startswith(("from hookweave", "import hookweave"))]
    assert imports and all(line.startswith("    from hookweave.core.standalone.") for line in imports)  # guarded
    assert "dataclass" not in text


def test_the_runner_loads_the_table_without_json_re_or_typing(tmp_path: Path) -> None:
    """Loading the table and judging a member's JSON answer costs the chain runner no ``json``,
    ``re`` or ``typing`` import (10 ms under ``python3 -S``); only a text that is not JSON asks
    ``json`` for its exact reason."""
    (tmp_path / "protocol.py").write_text(chain.protocol_text(), encoding="utf-8")
    script = ("import sys\n"
              f"space = {{'__name__': 'protocol'}}; exec(compile(open({str(tmp_path / 'protocol.py')!r}).read(), 'protocol', 'exec'), space)\n"
              "v = space['judge']('claude', 'PreToolUse', 0, "
              "'{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"x\"}}', '')\n"
              "print(v.action, sorted({'json', 're', 'typing'} & set(sys.modules)))\n"
              "bad = space['judge']('codex', 'PreToolUse', 0, '{not json', '')\n"
              "print(bad.action, 'json' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "allow []\nerror True\n"
