"""Cline's dispatcher: the program in each event's file that hookweave writes into
``.clinerules/hooks``, which Cline runs on that event. It runs the members listed in ``HOOKS``, in
order, and answers Cline once for all of them.

Install writes each dispatcher as a header (``hosts/cline/dispatcher.py``: the interpreter line,
``import sys`` and the ``HOOKS`` list of that event) followed by ``jsonfast.py``'s and
``chainproc.py``'s code and this file's code from the line below ``HOOKS`` on, byte for byte;
``hooks verify`` compares the file with that. Standard library only, and only its cheap part: Cline
starts the file as ``python3 -S`` (its shebang), and nothing here imports ``json``, ``subprocess``
or ``signal`` (30 ms together, on every tool call): the members run as the chain runner runs its own.
"""
import sys

if "run_member" not in globals():  # imported as a module of the package, not read into the dispatcher file
    from hookweave.core.standalone.chainproc import RUNNING, TIMEOUT_MAX, _stop, resume, run_member  # noqa: F401
    from hookweave.core.standalone.jsonfast import dumps, loads  # noqa: F401

HOOKS = []  # each dispatcher file lists its members here, one JSON object a line
# -- the dispatcher's code: install copies every line below this one ----------------------------

import _signal  # what ``signal`` wraps (``signal`` costs 7 ms)


def control(out):
    """Cline's reading of a hook's stdout: the last HOOK_CONTROL line, else all of it, as JSON."""
    out = out.strip()
    if not out:
        return {}
    lines = [line.strip()[13:] for line in out.split("\n") if line.strip().startswith("HOOK_CONTROL\t")]
    try:
        return loads(lines[-1] if lines else out)
    except (ValueError, RecursionError):
        return None


def _text(value):
    """A string as Python reads it from a JSON text: ``HOOKS`` holds ``\\ud83d\\ude00`` escapes,
    which a Python literal keeps as two lone surrogates, not the one character JSON means."""
    return value.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass") if isinstance(value, str) else value


class _Member:
    __slots__ = ("id", "timeout", "command")

    def __init__(self, command, timeout):
        self.id, self.command = "", command
        self.timeout = timeout if isinstance(timeout, (int, float)) and 0 < timeout < 1e9 else TIMEOUT_MAX


def run(command, payload, timeout):
    """The member's stdout when it ends within ``timeout``, else None (Cline ignores a hook that
    cannot start or times out). It runs with ``sh -c`` in a process group of its own, killed whole at
    the timeout (``chainproc.run_member``); its stdout and stderr are files read when it ends (its
    stderr then goes on to Cline's), so a child it leaves holding them never holds the dispatcher."""
    try:
        _, out, err, timed_out, _ = run_member("cline", _Member(command.encode("utf-8", "surrogatepass")
                                                               .decode("utf-8", "surrogateescape"), timeout), payload)
    except OSError:
        return None
    _said(err)
    return None if timed_out else out


def _said(err):
    try:
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
    except OSError:
        pass


def main(argv=()):
    """From the start, or from the sh part's hand-over (``--from-sh <done> <exit code or -> <timed
    out> <scratch base> -- <its words>``): the members it ran, which printed nothing on stdout, do not
    run again; their stderr comes first; member ``done``, when it ran it, is read from its files."""
    for signum in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
        _signal.signal(signum, _stop)
    start, first = 0, None
    if argv[:1] == ["--from-sh"] and len(argv) >= 6 and argv[5] == "--":
        start, first, before, _ = resume(argv[1:5], len(HOOKS))  # (sh keeps no answer on Cline)
        _said(b"".join(before))
    payload = sys.stdin.buffer.read()
    try:
        data = loads(payload.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        data = {}
    call = (data.get("preToolUse") or data.get("postToolUse")) if isinstance(data, dict) else None
    tool = call.get("toolName") if isinstance(call, dict) else None
    contexts, answer = [], {}
    for at, hook in enumerate(HOOKS):
        matcher = _text(hook.get("matcher"))
        if at < start or (matcher and tool is not None and tool not in matcher.split("|")):
            continue
        if at == start and first is not None:
            _, out, err, timed_out, _ = first
            _said(err)
            stdout = None if timed_out else out
        else:
            stdout = run(_text(hook["command"]), payload, hook.get("timeout"))
        if stdout is None:
            continue
        said = control(stdout.decode("utf-8", "replace"))
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
        try:
            sys.stdout.write(dumps(answer, ascii=True) + "\n")
            sys.stdout.flush()
        except OSError:  # Cline stopped reading
            pass


if __name__ == "__main__":
    main(sys.argv[1:])
