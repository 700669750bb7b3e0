"""``hooks check``: fire each hook with its host's payloads and say what the agent will do.

Runs every target (checktargets) with every payload of its event that its matcher takes, judges
each outcome with the shared host table (protocol), and names the pitfalls the outcome and the
script's text show, each with its fix. ``problems`` counts what makes the command exit 1.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import NamedTuple

from hookweave.core.runtime import acrosshooks, causes, evidence, hookrun, latency, payloads, pitfalls, timing
from hookweave.core.runtime.blocking import how_to_block
from hookweave.core.runtime.checktargets import Target
from hookweave.core.runtime.pitfalls import Pitfall
from hookweave.core.standalone import protocol

CAP = 60.0  # seconds: the longest check waits for one run, whatever the hook's timeout says
SLOW = 0.5  # of the timeout: a run slower than this is flagged
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "BeforeTool", "AfterTool", "preToolUse", "postToolUse",
                         "beforeShellExecution", "pre_run_command", "post_run_command", "pre_write_code",
                         "pre_read_code", "pre_mcp_tool_use", "pre_tool_use", "post_tool_use"})
ORDINARY = "an ordinary shell command"  # the payload every host's tool events get first (payloads.py)
DOES = {"error": "shows a hook error", "block": "blocks the call", "allow": "goes on as if the hook allowed it",
        "ignored": "goes on as if the hook allowed it", "stop": "stops the session", "ask": "asks the user"}


class Outcome(NamedTuple):
    payload: payloads.Payload
    run: hookrun.Run
    timeout: float
    verdict: protocol.Verdict
    pitfalls: tuple
    times: tuple = ()  # seconds: every run of this hook and payload, pooled across hosts (timing.py)


class Checked(NamedTuple):
    target: Target
    outcomes: tuple
    pitfalls: tuple  # static ones, and those across outcomes
    skipped: str  # why no payload ran, or ""
    budget_ms: float = 0.0  # what its event may take per hook (latency.py)


def matches(matcher: str | None, tool: str | None) -> bool:
    """Whether a hook with ``matcher`` fires for ``tool`` (hosts read matchers as anchored regexes)."""
    if tool is None or not matcher or matcher == "*":
        return True
    try:
        return re.fullmatch(matcher, tool) is not None
    except re.error:
        return matcher == tool


def check(targets: list[Target], project: Path, own: list[payloads.Payload], runs: int = 1,
          budget_ms: float | None = None, progress=None) -> list[Checked]:
    """Check every target; ``runs``: timed runs per payload (one, the judged run, unless asked:
    ``hooks check`` asks for ``timing.RUNS``, and a caller counting a hook's side effects, as the
    contract kit does, gets exactly one); ``budget_ms``: every event's budget instead of its own;
    ``progress(text)``: told as runs go, for a terminal."""
    with tempfile.TemporaryDirectory(prefix="hookweave-check-") as scratch:
        transcript = Path(scratch) / "transcript.jsonl"
        transcript.write_text("")
        done = []
        for n, target in enumerate(targets, 1):
            if progress is not None:
                progress(f"running hook {n} of {len(targets)}: {target.label} on {target.title}")
            done.append(_check_one(target, project, own, str(transcript)))
        done = timing.pooled(done, runs, project, lambda t, o: _again(t, o, project), progress)
    return acrosshooks.across([_budgeted(c, budget_ms) for c in done])


def _again(target: Target, outcome: Outcome, project: Path) -> hookrun.Run:
    """One more run of a checked hook and payload, for its time alone."""
    env = hookrun.host_env(target.host, project, target.env, target.project_variable)
    return hookrun.run(target.host, target.command, _payload_bytes(outcome.payload.data), env, project,
                       min(outcome.timeout, CAP))


def _budgeted(checked: Checked, override: float | None) -> Checked:
    limit = latency.budget(checked.target, checked.target.event in TOOL_EVENTS, override)
    over = latency.over_budget(checked, limit)
    return checked._replace(budget_ms=limit, pitfalls=checked.pitfalls + ((over,) if over else ()))


def shipped_payloads(target: Target, project: Path, transcript: str) -> list[payloads.Payload]:
    """The shipped payloads of the event; for a protocol given as data, those of the built-in host whose
    payload fields the agent sends (``payloads_like``), under the agent's own event name."""
    like = protocol.shaped_like(target.host)
    if like == target.host:
        return payloads.for_event(target.host, target.event, str(project), transcript)
    from hookweave.core.model import names

    event = names.column(like, names.EVENTS).get(target.neutral or "") or target.event
    neutral = {native: n for n, natives in names.column(like, names.TOOLS).items() for native in (natives or "").split("|")}
    ours = protocol.DATA[target.host].get("agent_tools", {})  # neutral tool -> the agent's name (check.py)
    out = []
    for p in payloads.for_event(like, event, str(project), transcript):
        tool = (ours.get(neutral.get(p.tool or "")) or "").split("|")[0] or p.tool  # the agent's own tool name
        data = dict(p.data) if isinstance(p.data, dict) else p.data
        if isinstance(data, dict):
            data.update({k: v for k, v in (("hook_event_name", target.event), ("tool_name", tool)) if k in data})
        out.append(p._replace(event=target.event, data=data, tool=tool))
    return out


def _check_one(target: Target, project: Path, own: list[payloads.Payload], transcript: str) -> Checked:
    chosen = [p for p in own if p.event == target.event] if own else shipped_payloads(target, project, transcript)
    chosen = [p for p in chosen if matches(target.matcher, p.tool)]
    found: list[Pitfall] = []
    field = payloads.COMMAND_FIELD.get(protocol.shaped_like(target.host)) if target.event in TOOL_EVENTS else None
    inline = re.sub(r"\s*# hookweave:\S+\s*$", "", target.command)
    texts = [inline]  # what the hook is made of, to tell a guard (evidence.can_block)
    for path in pitfalls.candidates(target.command, project, {**target.env, "CLAUDE_PROJECT_DIR": str(project)}):
        text = _script(path)
        texts += [text] if text is not None else []
        if text is not None and pitfalls.is_shell(path, text):
            found += pitfalls.static(text, path.name, field)
    found += [p for p in pitfalls.static(inline, "the command", field) if p.name != "ends-on-a-test"]
    if not chosen:
        why = (f"no payload of {target.event} matches its matcher {target.matcher!r}; pass one with --payload"
               if not own or any(p.event == target.event for p in own) else
               f"none of your payloads is for {target.event} (their hook_event_name)")
        return Checked(target, (), tuple(found), why)
    timeout = target.timeout or hookrun.DEFAULT_TIMEOUT.get(target.host, 60.0)
    env = hookrun.host_env(target.host, project, target.env, target.project_variable)
    outcomes = []
    for payload in chosen:
        data = _payload_bytes(payload.data)
        run = hookrun.run(target.host, target.command, *hookrun.delivered(target.host, target.event, data, env),
                          project, min(timeout, CAP))
        verdict = protocol.judge(target.host, target.event, run.exit_code, run.stdout, run.stderr, run.timed_out)
        outcomes.append(Outcome(payload, run, timeout, verdict, tuple(_judge_outcome(target, payload, run, timeout, verdict))))
    everything = next((p for o in outcomes if o.payload.name == ORDINARY for p in o.pitfalls if p.name == "false-block"), None)
    if everything is not None:  # blocks whatever it is sent: one finding, not a heredoc story per payload
        outcomes = [o._replace(pitfalls=tuple(everything if p.name == "false-block" else p for p in o.pitfalls))
                    for o in outcomes]
    if target.event in protocol.blocking(target.host):
        guard = any(o.verdict.action in ("block", "stop", "ask") for o in outcomes) or evidence.can_block(texts)
        what = payloads.COMMAND_FIELD.get(protocol.shaped_like(target.host), "the tool's input")
        outcomes = [o._replace(pitfalls=o.pitfalls + tuple(evidence.let_through(target.title, [o], guard, what)))
                    for o in outcomes]
    return Checked(target, tuple(outcomes), tuple(found) + _merged(outcomes), "")


def _payload_bytes(data) -> bytes:
    """The payload as a host sends it: UTF-8 JSON; a string no UTF-8 can hold (a lone surrogate, from
    a ``\\ud800`` in a ``--payload`` file) stays escaped, as that file spelled it."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii")


def _merged(outcomes: list[Outcome]) -> tuple:
    """Each outcome pitfall once, saying on which payloads it showed."""
    seen: dict[Pitfall, list] = {}
    for o in outcomes:
        for p in o.pitfalls:
            seen.setdefault(p, []).append(o.payload)
    out = []
    for p, sent in seen.items():
        where = "every payload" if len(sent) == len(outcomes) > 1 else ", ".join(s.name for s in sent)
        out.append(p._replace(message=f"{p.message} (on {where})", on=tuple((s.name, evidence.shown(s.data)) for s in sent)))
    return tuple(out)


def _script(path: Path) -> str | None:
    """A script's text, or None where it is no readable UTF-8 file (then nothing to read for pitfalls)."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files import fileio

    try:
        return fileio.read_text(path) if path.is_file() else None
    except (BadInput, OSError):
        return None


def _judge_outcome(target: Target, payload, run: hookrun.Run, timeout: float, verdict) -> list[Pitfall]:
    host, event, v = target.title, target.event, verdict
    found = []
    cause = None if run.timed_out else causes.of(run.exit_code, run.stderr, run.timed_out)
    if run.timed_out:
        found.append(Pitfall("problem", "timeout", f"{host}: timed out after {run.seconds:.0f}s"
                             + (f" (check stops at {CAP:.0f}s; {host} waits {timeout:.0f}s)" if timeout > CAP else ""),
                             "make it finish well inside its timeout, or raise the hook's timeout"))
    elif cause is not None:  # the hook never decided: say why, whatever the host makes of the exit code
        found.append(Pitfall("problem", cause.name, f"{host} {DOES.get(v.action, v.action)}: {cause.what}", cause.fix))
    elif run.held:
        found.append(Pitfall("warning", "output-held", f"{host}: exited, but a process it started kept its stdout or "
                             f"stderr open; an agent that reads a hook's output to its end waits for that process, up to "
                             f"the {timeout:g}s timeout, on every call; check stopped reading after {run.seconds:.1f}s",
                             "send the background command's output elsewhere: cmd >/dev/null 2>&1 &"))
    elif v.action == "error":
        found.append(Pitfall("problem", "hook-error", f"{host} shows a hook error: "
                             f"{_short(v.reason) or f'exit {run.exit_code}'} ({'; '.join(v.notes)[:160]})", _fix(target, run, v)))
    elif v.action == "block" and payload.should_pass:
        found.append(evidence.false_block(target.title, payload, _short(v.reason),
                                          payloads.COMMAND_FIELD.get(protocol.shaped_like(target.host), "the tool's input")))
    elif v.action in ("allow", "ignored") and event in protocol.blocking(target.host) and _meant_to_block(run, v):
        why = [n for n in v.notes if not n.startswith(("unknown field", "unmeasured", "stderr never"))]
        found.append(Pitfall("problem", "block-ignored", f"{host} does not block on this answer: "
                             f"{why[-1] if why else 'it goes on'}",
                             f"to block on {host}: {how_to_block(target.host)}"))
    elif v.action == "ignored" and run.stdout.strip():
        found.append(Pitfall("note", "ignored-output", f"{host} does not read this output on {event}: "
                             f"{_short(run.stdout.decode('utf-8', 'replace'))}", "print nothing, or the JSON fields "
                             f"{host} reads on {event}"))
    if target.host in protocol.UNMEASURED_NOTES:  # never run: what its docs say is no ground for exit 1
        source = "documentation" if target.host != "antigravity" else "third-party write-ups"
        found = [p._replace(level="warning", message=p.message + f" (from {target.title}'s {source}, unmeasured)")
                 if p.level == "problem" and p.name != "false-block" else p for p in found]
    for note in v.notes:
        if note.startswith("unknown field") and target.host != "codex":
            found.append(Pitfall("warning", "unknown-field", f"{host} ignores the{note[7:]} in the output (unknown to it)",
                                 "drop it, or spell it as the host documents it"))
        elif "permissionDecisionReason on allow" in note:
            found.append(Pitfall("warning", "reason-on-allow", f"{host}: {note}",
                                 "drop permissionDecisionReason on allow; use systemMessage to tell the user"))
        elif note.startswith("plain") and "context" in note and event in ("UserPromptSubmit", "BeforeAgent"):
            source = {"claude": "measured; older Claude Code versions showed a hook error", "codex": "measured",
                      "qwen": "measured"}.get(target.host, "read in its code")
            found.append(Pitfall("note", "prompt-stdout", f"{host}: {note} ({source})",
                                 "hookSpecificOutput.additionalContext says the same in JSON"))
        elif note.startswith("plain text is shown to the user") and event == "BeforeAgent":
            found.append(Pitfall("warning", "prompt-stdout", f"{host}: plain stdout on BeforeAgent is shown to the user "
                                 "as a system message; the model never sees it",
                                 'print {"hookSpecificOutput": {"additionalContext": "..."}} to reach the model'))
        elif note.startswith("stdout is empty, so Gemini reads stderr") and run.exit_code == 0:
            found.append(Pitfall("warning", "stderr-noise", f"{host}: with stdout empty, Gemini shows the hook's stderr "
                                 "to the user as a message on every call", "keep stderr empty on success, or log to a file"))
    if not run.timed_out and run.seconds > SLOW * timeout:  # its cost per call: latency.over_budget
        found.append(Pitfall("warning", "slow", f"{host}: takes more than half of its {timeout:g}s timeout",
                             "make it faster, or raise its timeout"))
    return found


def _meant_to_block(run: hookrun.Run, verdict) -> bool:
    """Whether the hook answered with a block some host reads: exit 2, or a JSON deny, block or cancel."""
    if run.exit_code == 2:
        return True
    obj = verdict.output if isinstance(verdict.output, dict) else None
    if obj is None and run.stdout.strip().startswith(b"{"):
        try:
            obj = json.loads(run.stdout)
        except ValueError:
            obj = None
    if not isinstance(obj, dict):
        return False
    specific = obj.get("hookSpecificOutput") if isinstance(obj.get("hookSpecificOutput"), dict) else {}
    return (obj.get("decision") in ("block", "deny") or "deny" in (obj.get("permissionDecision"), obj.get("permission"),
                                                                   specific.get("permissionDecision"))
            or obj.get("cancel") is True)


def _fix(target: Target, run: hookrun.Run, verdict) -> str:
    blocks = target.event in protocol.blocking(target.host)
    if run.exit_code not in (0, 2, None) and not verdict.output:
        go_on = "exit 0 to let the call through" if target.event in TOOL_EVENTS else "exit 0 to let the agent go on"
        return go_on + (", or exit 2 with the reason on stderr to block it" if blocks else f" ({target.event} cannot be blocked)")
    if run.exit_code == 2 and not blocks:
        return f"{target.event} cannot be blocked: exit 0"
    if run.exit_code == 2:
        return "write the reason to stderr when you exit 2"
    return "print only the JSON fields the host reads, with their documented values (see the notes)"


def _short(text) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(str(text).split())
    return text if len(text) <= 120 else text[:117] + "..."


combined = acrosshooks.combined  # what the agent does with several hooks together (checkreport reads it)


def problems(done: list[Checked]) -> int:
    return sum(1 for c in done for p in c.pitfalls if p.level == "problem")
