"""An answer protocol given as data (a description's ``protocol = {...}``), and the one judge that reads it.

A plugin author states what the agent does with a hook's exit code and output instead of writing a
judge: which exit codes block, on which exit codes stdout is read as JSON, which JSON fields mean
block, ask or allow, where the reason and the context are, on which events a block counts, and
whether later hooks of the event still run after a block (docs/PLUGINS.md, "An answer protocol as
data"; ``core/contract/answers.py`` admits it). ``DATA`` holds the protocols the running command
knows by name: ``hooks check`` adds a plugin's (``protocol.learn``), and the chain runner file
install writes for that plugin's settings carries its row after this source (``chain.runner_text``).

Stdlib only and no hookweave imports: the chain runner reads this file into one namespace with the
other protocol parts (``protocol.PARTS``).
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import BLOCKS, UNMEASURED_NOTES, Verdict, loads_json

# Every field of a data protocol and its value when left out: a Claude-like agent's exit code rule.
DEFAULTS = {
    "block_exit_codes": [2],  # exit codes that block, stderr the reason; [] when no exit code blocks
    "json_exit_codes": [0],  # exit codes after which stdout is read as a JSON answer; "any": after every one
    "block": {},  # JSON field (dotted path) -> the value, or list of values, that blocks
    "ask": {},  # the same for "ask the user"
    "allow": {},  # the same for an explicit allow
    "reason": ["reason"],  # fields holding the reason of a block or ask, the first non-empty one wins
    "default_reason": "",  # the reason the agent gives when the hook gives none
    "context": [],  # fields whose text reaches the model on an allow
    "blocking_events": [],  # the agent's events where a block counts; elsewhere it is ignored
    "later_hooks": "run",  # after a block, the event's later hooks "run" or are "skipped"
    "payload": "stdin",  # where the hook reads the payload: "stdin", or "env:NAME" (a variable)
    "payloads_like": "claude",  # whose payload fields the agent sends (hooks check sends the same)
    "tool_field": "tool_name",  # the payload field a hook's matcher is tested against
    "matcher": "fullmatch",  # how: the whole name ("fullmatch", a regex), part of it ("search") or "exact" names a|b
    "block_elsewhere": "ignored",  # what a block on an event not in blocking_events is: "ignored" or "error"
    "title": "",  # the agent's name, as verdict notes say it ("" : "the agent")
    "notes": [],  # notes every verdict carries (where the facts come from: "unmeasured: ...")
    "said": {},  # the agent's own wording of a note (SAID), "" for none; {event} and {code} are filled in
}
# The notes a verdict may carry, by the situation that adds them; a row's ``said`` rewords them.
SAID = {
    "exit_block": "exit {code} blocks, stderr the reason",
    "elsewhere": "{event} cannot be blocked: the block is ignored",
    "later_run": "later hooks of the event still run",
    "later_skipped": "later hooks of the event do not run",
    "exit_ignored": "{who} ignores exit codes: exit {code} blocks nothing",
    "failed": "exit {code}: a failed hook does not block: {who} goes on",
    "unread": "stdout is not read on exit {code}",
}


# The built-in protocols that are rows of data (protocol.py says why the others stay code).
BUILTIN = {
    # Windsurf (Cascade hooks), from its documentation only [DOC docs.windsurf.com/windsurf/cascade/hooks]:
    # a pre-hook blocks its action by exiting 2, any other exit lets it go ahead, and a post-hook cannot
    # block (exit 2 there is a hook error). No JSON answer is documented: stdout is shown to the user when
    # the entry sets show_output and never reaches the model. No timeout is documented.
    "windsurf": {
        "block_exit_codes": [2], "json_exit_codes": [], "blocking_events": sorted(BLOCKS["windsurf"]),
        "block_elsewhere": "error", "payloads_like": "windsurf", "title": "Windsurf",
        "notes": [UNMEASURED_NOTES["windsurf"]],
        "said": {"exit_block": "exit 2 blocks a pre-hook's action",
                 "elsewhere": "exit 2 cannot block {event}: only pre-hooks block", "later_run": "",
                 "failed": "a failed hook does not block: Windsurf goes on",
                 "unread": "stdout is shown to the user with show_output, never to the model; only exit 2 blocks"},
    },
}


def filled(data) -> dict:
    """``data`` with every field the author left out at its default."""
    return {**DEFAULTS, **dict(data)}


def _at(obj, path: str):
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return _MISSING
        obj = obj[key]
    return obj


_MISSING = object()


def _matched(obj: dict, table) -> str:
    """The first ``field`` of ``table`` whose value in ``obj`` is one it lists, as ``field=value``, or ''."""
    for path, wanted in table.items():
        value = _at(obj, path)
        accepted = wanted if isinstance(wanted, list) else [wanted]
        if value is not _MISSING and any(value == w and type(value) is type(w) for w in accepted):
            return f"{path}={value!r}"
    return ""


def _reason(obj: dict, fields) -> str:
    for path in fields:
        value = _at(obj, path)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _say(data: dict, situation: str, **values) -> tuple:
    """The note of ``situation`` in the row's wording (none when it says ""), its blanks filled."""
    text = data["said"].get(situation, SAID[situation])
    return (text.format(who=data["title"] or "the agent", **values),) if text else ()


def _counted(data: dict, event: str, action: str, reason: str, output, notes: tuple, said: tuple) -> Verdict:
    """A block or ask where the agent heeds one (``blocking_events``), else what ``block_elsewhere`` says."""
    if event not in data["blocking_events"]:
        if data["block_elsewhere"] == "error":
            return Verdict("error", reason, output, notes + _say(data, "elsewhere", event=event))
        return Verdict("ignored", reason, output, notes + said + _say(data, "elsewhere", event=event))
    later = _say(data, "later_run" if data["later_hooks"] == "run" else "later_skipped") if action == "block" else ()
    return Verdict(action, reason, output, notes + said + later)


DATA = {name: filled(row) for name, row in BUILTIN.items()}  # protocol name -> its row, filled


def judge_data(data: dict, event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    """What an agent with the data protocol ``data`` (filled) does with one run of a hook; ``code``
    None when a signal ended it (``protocol.judge`` has noted that)."""
    notes += tuple(data["notes"])
    if code is not None and code in data["block_exit_codes"]:
        reason = err.strip() or data["default_reason"]
        return _counted(data, event, "block", reason, None, notes, _say(data, "exit_block", code=code))
    reads = code is not None and (data["json_exit_codes"] == "any" or code in data["json_exit_codes"])
    if code is not None and code != 0 and not data["block_exit_codes"]:
        notes += _say(data, "exit_ignored", code=code)
    failed = Verdict("error", err.strip(), None, notes + _say(data, "failed", code=code))
    body = out.strip()
    if not reads or not body:
        if code != 0 and not reads:
            return failed
        if body:
            return Verdict("ignored", body, None, notes + _say(data, "unread", code=code))
        return Verdict("allow", "", None, notes) if code == 0 or not data["block_exit_codes"] else failed
    who = data["title"] or "the agent"
    obj, problem = loads_json(body)
    if problem or not isinstance(obj, dict):
        why = problem or "JSON that is not an object"
        return Verdict("ignored" if code == 0 or not data["block_exit_codes"] else "error", body, None,
                       notes + (f"{why}: {who} reads only a JSON object and goes on",))
    reason = _reason(obj, data["reason"]) or data["default_reason"]
    for action in ("block", "ask"):
        said = _matched(obj, data[action])
        if said:
            return _counted(data, event, action, reason, obj, notes, (f"{said} means {action}",))
    said = _matched(obj, data["allow"])
    context = _reason(obj, data["context"])
    if context:
        return Verdict("allow", context, obj, notes + ((f"{said} means allow",) if said else ()) +
                       ("the text reaches the model",))
    if said:
        return Verdict("allow", "", obj, notes + (f"{said} means allow",))
    if code != 0 and data["block_exit_codes"]:
        return Verdict("error", err.strip(), obj, notes + (f"exit {code}: {who} goes on",))
    return Verdict("allow", "", obj, notes)


def judge_timeout(data: dict, notes: tuple) -> Verdict:
    """A hook the agent stopped waiting for: a hook error, and the call goes ahead."""
    return Verdict("error", "hook timed out", None, notes + ("timed out",) + (tuple(data["notes"]) or
                                                                              ("the call goes ahead",)))


def how_to_block(data: dict) -> str:
    """The way to block on such an agent, for a finding: the first JSON answer, else the exit code."""
    if data["block"]:
        path, value = next(iter(data["block"].items()))
        value = value[0] if isinstance(value, list) else value
        keys = path.split(".")
        shown = "{" + "".join(f'"{k}": {{' for k in keys[:-1]) + f'"{keys[-1]}": ' + \
            (f'"{value}"' if isinstance(value, str) else str(value).lower()) + "}" * len(keys)
        when = "" if data["json_exit_codes"] == "any" else \
            f" and exit {' or '.join(map(str, data['json_exit_codes']))}"
        return f"print {shown} on stdout{when}"
    return f"exit {data['block_exit_codes'][0]} with the reason on stderr"
