"""Pure: the JSON answers the sh fast path reads itself (``hw_answer`` in ``core/standalone/chainrun.sh``),
as a table of shapes per host and event, generated here by asking ``protocol.judge`` (the table the
Python runner reads answers by), so the two paths cannot drift.

A shape is an answer's keys, each a letter (``KEYS``), with the class of each value: a word the
protocols tell apart, as a letter (``WORDS``: ``deny`` is ``D``), ``@`` for the name of the event being
run, ``T`` for any other text with a visible character in it, ``1`` / ``0`` for ``true`` / ``false``,
``{`` for an object; ``?`` for anything else (the empty text, ``defer``: no shape holds it). sh writes
an answer's shape with its keys in ``KEYS``' order; a shape is in the table only when every text in
``TEXTS`` in its text slots, written compact and as ``json.dumps`` writes it, gets the same verdict:

- ``B``: a block (or a stop): the chain ends with that member's own stdout, stderr and exit code;
- ``A``: an answer the chain keeps (``chainrun.run_chain``: the object as parsed, no note of ours), which
  the chain prints as ``chainanswer.answer`` does when no other member answers.

Any other answer (another shape, an escape, a number, a second answer to combine) is the Python
runner's to read, as before.
"""

from __future__ import annotations

import functools
import itertools
import json

DECISIONS = ("block", "approve", "allow", "deny", "ask")
PERMISSIONS = ("allow", "deny", "ask")
TEXT, EVENT, BOOL = "text", "event", "bool"
# The common answers of the hosts' documentation (HOSTS.md).
SHAPES = (
    {"decision": DECISIONS},
    {"decision": DECISIONS, "reason": TEXT},
    {"continue": BOOL},
    {"continue": BOOL, "stopReason": TEXT},
    {"systemMessage": TEXT},
    {"suppressOutput": BOOL},
    {"hookSpecificOutput": {"hookEventName": EVENT, "permissionDecision": PERMISSIONS}},
    {"hookSpecificOutput": {"hookEventName": EVENT, "permissionDecision": PERMISSIONS, "permissionDecisionReason": TEXT}},
    {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}},
    {"permission": PERMISSIONS},
    {"permission": PERMISSIONS, "user_message": TEXT},
    {"permission": PERMISSIONS, "agent_message": TEXT},
    {"permission": PERMISSIONS, "user_message": TEXT, "agent_message": TEXT},
)
# Texts judged in a text slot: none is a word sh writes as a letter; an event's name is one (on
# that event sh writes it ``@``, which no text slot holds).
TEXTS = ("x", "Blocked by policy", " padded ", "{}", "0", "No.", "it's done", "[1]", "Stop", "PostToolUse",
         "SessionStart", "Allow", "DENY")
WORDS = {"block": "B", "approve": "P", "allow": "A", "deny": "D", "ask": "K"}
OTHER = ("defer", "true", "false", "null")  # words a protocol may read too: sh writes them "?", in no shape


def _keys() -> tuple[str, ...]:
    seen: list[str] = []
    for shape in SHAPES:
        for key, value in shape.items():
            seen += [key] if key not in seen else []
            if isinstance(value, dict):
                seen += [f"{key}.{inner}" for inner in value if f"{key}.{inner}" not in seen]
    return tuple(seen)


KEYS = dict(zip(_keys(), "abcdefghijklmnopqrstuvwxyz"))  # each key (a nested one as outer.inner) -> its letter


def _marks(domain) -> tuple[str, ...]:
    if domain == TEXT:
        return ("T",)
    if domain == BOOL:
        return ("1", "0")
    if domain == EVENT:
        return ("@",)
    return tuple(WORDS[w] for w in domain)


def _fills(shape: dict, event: str):
    """(shape written as sh writes it, [objects]) for every way of filling ``shape``'s slots: one
    object per text in ``TEXTS``."""
    slots = list(_flat(shape))
    for picked in itertools.product(*(_marks(domain) for _, domain in slots)):
        marks = dict(zip((path for path, _ in slots), picked)) | {path: "{" for path in _objects(shape)}
        signature = "".join(KEYS[path] + marks[path] for path in KEYS if path in marks)
        yield signature, [_object(shape, marks, event, text) for text in TEXTS]


def _flat(shape: dict, prefix: str = ""):
    for key, value in shape.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _objects(shape: dict) -> list[str]:
    return [key for key, value in shape.items() if isinstance(value, dict)]


def _object(shape: dict, marks: dict, event: str, text: str, prefix: str = "") -> dict:
    values = {"T": text, "1": True, "0": False, "@": event} | {letter: word for word, letter in WORDS.items()}
    return {key: _object(value, marks, event, text, f"{prefix}{key}.") if isinstance(value, dict)
            else values[marks[prefix + key]] for key, value in shape.items()}


def _verdict(host: str, event: str, obj: dict) -> str:
    """``B``, ``A`` or ``h`` for one answer, judged as ``chainrun.run_chain`` judges a member that
    exits 0 with it on stdout and nothing on stderr, written compact and as ``json.dumps`` writes it."""
    from hookweave.core.standalone.protocol import judge

    seen = set()
    for text in (json.dumps(obj), json.dumps(obj, separators=(",", ":")), json.dumps(obj) + "\n"):
        verdict = judge(host, event, 0, text, "", False)
        if verdict.action in ("block", "stop"):
            seen.add("B")
        elif (verdict.action != "error" and not (verdict.action == "ignored" and verdict.notes)
              and isinstance(verdict.output, dict) and verdict.output == obj):
            seen.add("A")
        else:
            seen.add("h")
    return seen.pop() if len(seen) == 1 else "h"


@functools.lru_cache(maxsize=256)
def table(host: str, event: str) -> tuple[str, str]:
    """(`` <shape> ...``: the answers sh keeps, the same for the blocks) for ``host`` and ``event``."""
    kept, blocks = "", ""
    for shape in SHAPES:
        for signature, objects in _fills(shape, event):
            verdicts = {_verdict(host, event, obj) for obj in objects}
            if verdicts == {"A"}:
                kept += " " + signature
            elif verdicts == {"B"}:
                blocks += " " + signature
    return (kept + " " if kept else ""), (blocks + " " if blocks else "")


def sh_text(keys: list[tuple[str, str]]) -> str:
    """``hw_shapes <host> <event>``: sets hw_A and hw_B (the shapes sh keeps, and blocks on), for
    each of ``keys`` (host, event); hw_word, a text's letter; hw_keys, each key's letter, and hw_order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for host, event in keys:
        groups.setdefault(table(host, event), []).append(f"{host}:{event}")
    lines = ["hw_shapes() {", "  case $1:$2 in"]
    for (kept, blocks), names in groups.items():
        if kept or blocks:
            lines += [f"    {'|'.join(names)})", f"      hw_A='{kept}' hw_B='{blocks}' ;;"]
    lines += ["    *) hw_A= hw_B= ;;", "  esac", "}", "hw_word() {  # $1 a text -> hw_m: its letter, ? for a word in no shape, T for other text", "  case $1 in"]
    lines += [f"    {word}) hw_m={letter} ;;" for word, letter in WORDS.items()]
    lines += [f"    {'|'.join(OTHER)}) hw_m='?' ;;", "    *[!\\ ]*) hw_m=T ;;", "    *) hw_m='?' ;;  # empty, or blanks only", "  esac", "}",
              "hw_keys=' " + " ".join(f"{path}={letter}" for path, letter in KEYS.items()) + " '",
              "hw_order='" + " ".join(KEYS.values()) + "'", ""]
    return "\n".join(lines)


def generated() -> str:
    """``core/standalone/chainshapes.sh``'s text: the shapes of every event of every sh host (judging
    them all takes seconds, too long for every install: ``test_chainrun_sh_answers`` holds the file to it)."""
    from hookweave.core.model.shfacts import SH_HOSTS, events

    head = ("# Generated by `python -m hookweave.core.model.shanswers > core/standalone/chainshapes.sh` from the\n"
            "# protocol table (core/model/shanswers.py); do not edit: tests/runner/test_chainrun_sh_answers.py checks it.\n")
    return head + sh_text([(host, event) for host in SH_HOSTS if host != "cline" for event in events(host)])


if __name__ == "__main__":
    print(generated(), end="")
