"""Cline's dispatcher: the program in each event's file that hookweave writes into
``.clinerules/hooks``, which Cline runs on that event. It runs the members listed in ``HOOKS``, in
order, and answers Cline once for all of them.

Install writes each dispatcher as a header (``hosts/cline_dispatcher.py``: the interpreter line,
the imports and the ``HOOKS`` list of that event) followed by this file's code from the line below
``HOOKS`` on, byte for byte; ``hooks verify`` compares the file with that. Standard library only.
"""
import json
import subprocess
import sys

HOOKS = []  # each dispatcher file lists its members here, one JSON object a line
# -- the dispatcher's code: install copies every line below this one ----------------------------


def control(out):
    """Cline's reading of a hook's stdout: the last HOOK_CONTROL line, else all of it, as JSON."""
    out = out.strip()
    if not out:
        return {}
    lines = [line.strip()[13:] for line in out.split("\n") if line.strip().startswith("HOOK_CONTROL\t")]
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
        answer["contextModification"] = "\n".join(contexts)
    if answer:
        sys.stdout.write(json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()
