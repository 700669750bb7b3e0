"""How ``hooks check`` shows what it found: a table per hook and host, or one JSON document."""

from __future__ import annotations

from hookweave.core.cli import console
from hookweave.core.files.paths import printable
from hookweave.core.runtime import checking, evidence, latency

WORDS = {"allow": "allows", "block": "BLOCKS", "ask": "asks the user", "error": "HOOK ERROR",
         "ignored": "ignores the output", "stop": "STOPS the session"}


def _text(data: bytes, limit: int = 2000) -> str:
    text = data.decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def _output(value) -> dict | None:
    """The parsed JSON output, when it can be written back (not nested deeper than json.dumps goes)."""
    if not isinstance(value, dict):
        return None
    try:
        import json

        json.dumps(value)
        return value
    except (RecursionError, ValueError):
        return None


def as_json(done: list[checking.Checked], skipped: list[str]) -> dict:
    hooks = []
    for c in done:
        t = c.target
        runs = [{"payload": o.payload.name, "input": _input(evidence.shown(o.payload.data)),
                 "should_pass": o.payload.should_pass, "should_block": o.payload.should_block, "exit_code": o.run.exit_code,
                 "stdout": _text(o.run.stdout), "stderr": _text(o.run.stderr), "seconds": round(o.run.seconds, 3),
                 "timeout": o.timeout, "timed_out": o.run.timed_out, "action": o.verdict.action,
                 "reason": o.verdict.reason, "output": _output(o.verdict.output),
                 "notes": list(o.verdict.notes), "pitfalls": [_pitfall(p) for p in o.pitfalls],
                 **_figures(latency.figures(o.times))} for o in c.outcomes]
        found = latency.of_hook(c)
        time = None if found is None else {**_figures(found), "budget_ms": c.budget_ms,
                                           "share_of_timeout": round(latency.share(c), 4)}
        hooks.append({"hook": t.label, "host": t.shown, "event": t.event, "matcher": t.matcher, "command": t.command,
                      "runs": runs, "latency": time, "pitfalls": [_pitfall(p) for p in c.pitfalls], "skipped": c.skipped})
    together = [{"host": h, "event": e, "payload": n, "action": cv.verdict.action, "reason": cv.verdict.reason,
                 "decided_by": None if cv.decided_by is None else members[cv.decided_by], "hooks": members,
                 "not_run": not_run}
                for h, e, n, cv, members, not_run in checking.combined(done)]
    events = [{"host": w.host, "event": w.event, "order": w.order, "hooks": list(w.hooks),
               "wait": {"parallel": "slowest", "managed-first": "slowest of each round"}.get(w.order, "sum"), "chain": w.chain,
               "wait_ms": {"min": round(w.min_ms, 1), "median": round(w.median_ms, 1), "max": round(w.max_ms, 1)},
               "share_of_timeout": round(w.share, 4), "budget_ms": w.budget_ms, "over_budget": latency.is_over(w)}
              for w in latency.waits(done)]
    return {"hooks": hooks, "combined": together, "events": events, "skipped": skipped,
            "problems": checking.problems(done)}


def _input(found: tuple[str, str] | None) -> dict | None:
    return None if found is None else {"field": found[0], "text": found[1]}


def _pitfall(p) -> dict:
    """A finding with the payloads it showed on, each with its input (evidence.shown)."""
    return {**p._asdict(), "on": [{"payload": name, "input": _input(found)} for name, found in p.on]}


def _evidence(p, payloads: int) -> list[str]:
    """A line per payload a finding showed on: its command (prompt, file) on one line; three at most,
    none where it showed on every payload (it is then about the hook, not what it was sent; --json has them)."""
    lines = []
    if len(p.on) == payloads > 1:
        return lines
    for name, found in p.on[:SHOWN]:
        if found is not None:
            label = found[0] if len(p.on) == 1 else f"{found[0]} ({name})"
            lines.append(f"    {label}: {found[1]}")
    if len(p.on) > SHOWN:
        lines.append(f"    ... and {len(p.on) - SHOWN} more payloads (--json lists each)")
    return lines


SHOWN = 3


def _figures(found: latency.Figures | None) -> dict:
    if found is None:
        return {"min_ms": None, "median_ms": None, "max_ms": None, "runs": 0}
    return {"min_ms": round(found.min_ms, 1), "median_ms": round(found.median_ms, 1), "max_ms": round(found.max_ms, 1),
            "runs": found.runs}


def _clip(text: str, width: int = 72) -> str:
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def show(done: list[checking.Checked], skipped: list[str], side_effects: bool, runs: int) -> None:
    if side_effects:
        times = "1 time" if runs == 1 else f"up to {runs} times"
        console.out(f"note: checking a hand-written hook runs it for real, {times} with every payload"
                    f"{' (--runs 1: once)' if runs > 1 else ''}: it may have side effects")
    for line in skipped:
        console.out(f"skipped: {printable(line)}")
    for c in done:
        t = c.target
        console.out(f"{printable(t.label)}  {t.title} {t.event}" + (f" [{printable(t.matcher)}]" if t.matcher else ""))
        if c.skipped:
            console.out(f"  not run: {printable(c.skipped)}")
        for o in c.outcomes:
            code = "timeout" if o.run.timed_out else f"exit {o.run.exit_code}"
            reason = f": {_clip(printable(' '.join(o.verdict.reason.split())))}" if o.verdict.reason else ""
            console.out(f"  {o.payload.name:<36} {WORDS[o.verdict.action]:<18} {code:<8} "
                        f"{o.run.seconds:5.2f}s/{o.timeout:g}s{reason}")
        found = latency.of_hook(c)
        if found is not None:
            console.out(f"  time: fastest {latency.ms(found.min_ms)}, median {latency.ms(found.median_ms)}, slowest {latency.ms(found.max_ms)} over "
                        f"{found.runs} runs ({latency.share(c):.0%} of its {c.outcomes[0].timeout:g}s timeout)")
        for p in c.pitfalls:
            console.out(f"  {p.level}: {printable(p.message)}")
            for line in _evidence(p, len(c.outcomes)):
                console.out(line)
            console.out(f"    fix: {printable(p.fix)}")
    for host, event, name, cv, members, not_run in checking.combined(done):
        who = f" (decided by {members[cv.decided_by]})" if cv.decided_by is not None else ""
        skipped = (f"; not run: {', '.join(not_run)}, as the agent starts no other hook of a call a managed hook "
                   "blocks" if not_run else "")
        console.out(printable(f"together on {host} {event}, {name}: {WORDS[cv.verdict.action]}{who}{skipped}"))
    for wait in latency.waits(done):
        console.out(latency.sentence(wait))
    count = checking.problems(done)
    console.out(f"{count} problem{'' if count == 1 else 's'}" if count else "no problems")
