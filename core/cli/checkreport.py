"""How ``hooks check`` shows what it found: a table per hook and host, or one JSON document."""

from __future__ import annotations

from hookweave.core.cli import console
from hookweave.core.files.paths import printable
from hookweave.core.runtime import checking

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
        runs = [{"payload": o.payload.name, "should_pass": o.payload.should_pass, "exit_code": o.run.exit_code,
                 "stdout": _text(o.run.stdout), "stderr": _text(o.run.stderr), "seconds": round(o.run.seconds, 3),
                 "timeout": o.timeout, "timed_out": o.run.timed_out, "action": o.verdict.action,
                 "reason": o.verdict.reason, "output": _output(o.verdict.output),
                 "notes": list(o.verdict.notes), "pitfalls": [p._asdict() for p in o.pitfalls]} for o in c.outcomes]
        hooks.append({"hook": t.label, "host": t.host, "event": t.event, "matcher": t.matcher, "command": t.command,
                      "runs": runs, "pitfalls": [p._asdict() for p in c.pitfalls], "skipped": c.skipped})
    together = [{"host": h, "event": e, "payload": n, "action": cv.verdict.action, "reason": cv.verdict.reason,
                 "decided_by": None if cv.decided_by is None else members[cv.decided_by], "hooks": members}
                for h, e, n, cv, members in checking.combined(done)]
    return {"hooks": hooks, "combined": together, "skipped": skipped, "problems": checking.problems(done)}


def _clip(text: str, width: int = 72) -> str:
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def show(done: list[checking.Checked], skipped: list[str], side_effects: bool) -> None:
    if side_effects:
        console.out("note: checking a hand-written hook runs it for real, with every payload: it may have side effects")
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
        for p in c.pitfalls:
            console.out(f"  {p.level}: {printable(p.message)}")
            console.out(f"    fix: {printable(p.fix)}")
    for host, event, name, cv, members in checking.combined(done):
        who = f" (decided by {members[cv.decided_by]})" if cv.decided_by is not None else ""
        console.out(f"together on {host} {event}, {name}: {WORDS[cv.verdict.action]}{who}")
    count = checking.problems(done)
    console.out(f"{count} problem{'' if count == 1 else 's'}" if count else "no problems")
