"""What ``hooks check`` finds only across several checked hooks (``checking.Checked``): two that
write stderr on success, a hook one host blocks on and another lets through, and what the agent
does with several hooks of one event together."""

from __future__ import annotations

from hookweave.core.runtime import causes, payloads
from hookweave.core.runtime.blocking import how_to_block
from hookweave.core.runtime.pitfalls import Pitfall
from hookweave.core.standalone import protocol


def across(done: list) -> list:
    """Pitfalls only several hooks show together: two that both write stderr on success, and one
    hook that blocks a payload on some hosts and lets the same payload through on others."""
    done = _let_through(done)
    noisy: dict[tuple[str, str], list[int]] = {}
    for i, c in enumerate(done):
        if any(o.run.exit_code == 0 and o.run.stderr.strip() for o in c.outcomes):
            noisy.setdefault((c.target.shown, c.target.event), []).append(i)
    out = list(done)
    for (host, event), members in noisy.items():
        if len(members) < 2:
            continue
        names = ", ".join(done[i].target.label for i in members)
        for i in members:
            extra = Pitfall("note", "stderr-noise", f"{len(members)} hooks on {event} write to stderr on success "
                            f"({names}); {done[i].target.title} does not show stderr on exit 0 (read in its code), older versions "
                            "showed a hook error line per hook", "keep stderr empty on success, or log to a file")
            out[i] = out[i]._replace(pitfalls=out[i].pitfalls + (extra,))
    return out


def _let_through(done: list) -> list:
    """A hook that blocks a payload that should not pass on one host and lets it through on another
    most likely does not read the other host's payload (or answers in a way it ignores)."""
    stopped: dict[tuple[str, str], list[str]] = {}
    for c in done:
        for o in c.outcomes:
            if not o.payload.should_pass and o.verdict.action in ("block", "stop"):
                stopped.setdefault((c.target.label, o.payload.name), []).append(c.target.title)
    out = []
    for c in done:
        if any(p.name == "block-ignored" for p in c.pitfalls):
            out.append(c)  # the host ignores its block: that pitfall says so, with the fix
            continue
        missed = [o.payload.name for o in c.outcomes if not o.payload.should_pass and not _undecided(o)
                  and o.verdict.action in ("allow", "ignored") and stopped.get((c.target.label, o.payload.name))]
        if not missed:
            out.append(c)
            continue
        others = sorted({t for name in missed for t in stopped[(c.target.label, name)]})
        level = "warning" if c.target.host in protocol.UNMEASURED_NOTES else "problem"
        where = payloads.COMMAND_FIELD.get(protocol.shaped_like(c.target.host))
        extra = Pitfall(level, "let-through", f"{c.target.title} lets {', '.join(missed)} through, which "
                        f"{', '.join(others)} {'blocks' if len(others) == 1 else 'block'}: the hook may not read "
                        f"{c.target.title}'s payload or answer",
                        (f"read the command from {where}; " if where else "") +
                        f"to block on {c.target.title}: {how_to_block(c.target.host)}")
        out.append(c._replace(pitfalls=c.pitfalls + (extra,)))
    return out


def _undecided(outcome) -> bool:
    """A run that never got to decide (timed out, a missing program, a crash): its own pitfall
    says why, so it is no sign that the hook misreads the host's payload."""
    return outcome.run.timed_out or causes.of(outcome.run.exit_code, outcome.run.stderr, False) is not None


# Where an agent starts no other hook of a call once a managed hook has blocked it: Claude Code
# 2.1.332 on PreToolUse and UserPromptSubmit (measured: tests/e2e/test_managed_block_real.py; exit
# 2, a JSON deny and decision "block" did, ask, allow and continue: false did not). Other events: unmeasured.
MANAGED_BLOCK_ENDS_CALL = {("claude", "PreToolUse"), ("claude", "UserPromptSubmit")}


def combined(done: list) -> list[tuple[str, str, str, protocol.ChainVerdict, list[str], list[str]]]:
    """Per host, event and payload where several hooks ran: what the agent does with all of them
    together (the host's own combination), which hook decided, the hooks that took part and those
    the agent never starts for that call (another layer's, after a managed block)."""
    groups: dict[tuple[str, str, str], list[tuple[str, protocol.Verdict, str]]] = {}
    for c in done:
        for o in c.outcomes:
            groups.setdefault((c.target.shown, c.target.event, o.payload.name), []).append(
                (c.target.label, o.verdict, c.target.scope))
    out = []
    for (host, event, name), members in groups.items():
        if len(members) < 2:
            continue
        if (host, event) in MANAGED_BLOCK_ENDS_CALL and any(s == "managed" and v.action == "block" for _, v, s in members):
            ran, not_run = [m for m in members if m[2] == "managed"], [m[0] for m in members if m[2] != "managed"]
        else:
            ran, not_run = members, []
        out.append((host, event, name, protocol.chain_verdict(host, event, [v for _, v, _ in ran]),
                    [label for label, _, _ in ran], not_run))
    return out
