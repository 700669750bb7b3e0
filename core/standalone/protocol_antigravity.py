"""How Antigravity CLI (``agy``) reads a hook's exit code and output: from third-party write-ups
of agy 1.0.5 to 1.1.25 and Google's migration guide, never run (agy is a closed binary that does not
install here) [3P websentry-ai/setup#104, cisco-ai-defense defenseclaw, skillsaw; DOC gemini-cli
``docs/resources/migrating-to-antigravity-cli.md``].

A PreToolUse hook answers on stdout with ``{"decision": "allow" | "deny" | "ask", "reason": ...}``
(a deny overrides even ``--dangerously-skip-permissions``); the hooks came over from Gemini CLI,
where exit 2 blocks with stderr as the reason. PostToolUse output is reported ignored, and so is
what the other events print.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        UNMEASURED_NOTES,
        Verdict,
        block_verdict,
        loads_json,
        unknown_fields,
    )


ANTIGRAVITY_FIELDS = frozenset({"decision", "reason"})


def judge_antigravity(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    notes += (UNMEASURED_NOTES["antigravity"],)
    if code == 2:
        return block_verdict("antigravity", event, err.strip(), None, notes + ("exit 2 blocks, as in Gemini CLI",))
    if code != 0:
        return Verdict("error", err.strip(), None, notes + ("a failed hook does not block: agy goes on",))
    body = out.strip()
    if not body:
        return Verdict("allow", "", None, notes)
    obj, problem = loads_json(body)
    if problem or not isinstance(obj, dict):
        return Verdict("ignored", body, None, notes + ("agy reads only a JSON object with decision",))
    notes += unknown_fields(obj, ANTIGRAVITY_FIELDS)
    if event != "PreToolUse":
        return Verdict("ignored", body, obj, notes + (f"agy reads no answer on {event}",))
    reason = str(obj.get("reason") or "")
    decision = obj.get("decision")
    if decision is None:
        return Verdict("ignored", body, obj, notes + ("agy reads decision and reason only: the call goes ahead",))
    if decision == "deny":
        return block_verdict("antigravity", event, reason, obj, notes)
    if decision == "ask":
        return Verdict("ask", reason, obj, notes)
    if decision not in (None, "allow"):
        notes += (f"decision {decision!r} is not allow, deny or ask: agy goes on",)
    return Verdict("allow", "", obj, notes)
