"""The one executable per event that Cline runs, as hookweave writes it, and reading it back.

Cline (CLI 3.0.65) runs every file in a hooks folder whose name, less a known extension, is an
event's; a file without a shebang and without an extension it runs with ``bash``, a file with a
shebang with that interpreter (``env`` dropped), so the executable bit does not matter to it.
Each event's file here is a ``python3`` dispatcher that lists its members as data, one JSON
object a line between ``HOOKS = [`` and ``]``, each command ending in its
``# hookweave:<bundle>/<id>`` marker: what Cline runs is what verify reads.

The dispatcher answers Cline once for all its members, in the list's order, the way Cline
combines several files' answers (measured in its code): the last ``HOOK_CONTROL<TAB>`` line of
stdout, else the whole stdout, read as JSON; a member whose output does not parse, or that times
out, is ignored; contexts are joined with a newline. It differs on purpose in one point: the first
member that cancels ends the run, so a later member never sees a call already refused.
"""

from __future__ import annotations

import json
from typing import Any

HEADER = "#!/usr/bin/env python3\n# Cline {event} hook, written by hookweave"
FOLDERS = "# hookweave-made-folders: "  # how many folders above this file hookweave made (uninstall removes them)
OPEN, CLOSE = "HOOKS = [\n", "]\n"

RUNNER = '''

def control(out):
    """Cline's reading of a hook's stdout: the last HOOK_CONTROL line, else all of it, as JSON."""
    out = out.strip()
    if not out:
        return {}
    lines = [line.strip()[13:] for line in out.split("\\n") if line.strip().startswith("HOOK_CONTROL\\t")]
    try:
        return json.loads(lines[-1] if lines else out)
    except ValueError:
        return None


def main():
    payload = sys.stdin.buffer.read()
    try:
        data = json.loads(payload)
    except ValueError:
        data = {}
    call = (data.get("preToolUse") or data.get("postToolUse")) if isinstance(data, dict) else None
    tool = call.get("toolName") if isinstance(call, dict) else None
    contexts, answer = [], {}
    for hook in HOOKS:
        matcher = hook.get("matcher")
        if matcher and tool is not None and tool not in matcher.split("|"):
            continue
        try:
            done = subprocess.run(["/bin/sh", "-c", hook["command"]], input=payload,
                                  stdout=subprocess.PIPE, timeout=hook.get("timeout"))
        except (OSError, subprocess.TimeoutExpired):
            continue  # Cline ignores a hook that cannot start or times out
        said = control(done.stdout.decode("utf-8", "replace"))
        if not isinstance(said, dict):
            continue
        context = said.get("context", said.get("contextModification"))
        reason = said.get("errorMessage") if isinstance(said.get("errorMessage"), str) else None
        if "overrideInput" in said:
            answer["overrideInput"] = said["overrideInput"]
        if said.get("review") is True:
            answer["review"] = True
        if said.get("cancel") is True:
            answer["cancel"] = True
            answer["errorMessage"] = reason or (context if isinstance(context, str) else "")
            break
        text = context if isinstance(context, str) else reason
        if text and text.strip():
            contexts.append(text)
    if contexts and not answer.get("cancel"):
        answer["contextModification"] = "\\n".join(contexts)
    if answer:
        sys.stdout.write(json.dumps(answer) + "\\n")


if __name__ == "__main__":
    main()
'''


def render(event: str, hooks: list[dict[str, Any]], folders: int) -> str:
    """The dispatcher for ``event`` running ``hooks`` (``{command, matcher?, timeout?}``) in order."""
    lines = "".join("    " + json.dumps(h, ensure_ascii=True, sort_keys=False) + ",\n" for h in hooks)
    return (
        HEADER.format(event=event) + ": it runs the hooks listed below, in order, and answers Cline once.\n"
        "# hookweave deletes this file with the last of them; `hooks verify` reports any edit.\n"
        f"{FOLDERS}{folders}\n"
        "import json\nimport subprocess\nimport sys\n\n"
        f"{OPEN}{lines}{CLOSE}{RUNNER}"
    )


def read(event: str, text: str) -> dict[str, Any]:
    """What a file at ``event``'s place holds: ``{"foreign": True}`` when hookweave did not write it;
    else ``{"hooks": {event: [...]}, "folders": n, "exact": whether it is byte for byte what
    hookweave writes for those hooks}``. A member line that does not parse is kept as its text."""
    if not text.startswith(HEADER.format(event=event)):
        return {"foreign": True}
    folders = 0
    at = text.find("\n" + FOLDERS)
    if at >= 0:
        value = text[at + 1 + len(FOLDERS):].split("\n", 1)[0]
        folders = int(value) if value.isdigit() and len(value) < 3 else 0
    start = text.find("\n" + OPEN)
    end = text.find("\n" + CLOSE, start + 1) if start >= 0 else -1
    hooks: list[Any] = []
    if start >= 0 and end >= 0:
        for line in text[start + 1 + len(OPEN):end + 1].splitlines():
            body = line.strip().removesuffix(",")
            try:
                hooks.append(json.loads(body))
            except ValueError:
                hooks.append(line)
    clean = all(isinstance(h, dict) for h in hooks)
    exact = clean and text == render(event, hooks, folders)
    return {"hooks": {event: hooks}, "folders": folders, "exact": exact}
