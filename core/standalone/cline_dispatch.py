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
    except (ValueError, RecursionError):
        return None


KEEP = 16 << 20  # bytes of a member's stdout read; the rest is dropped
RUNNING = []  # the member running now: a stop signal to the dispatcher ends it too


def _text(value):
    """A string as Python reads it from a JSON text: ``HOOKS`` holds ``\\ud83d\\ude00`` escapes,
    which a Python literal keeps as two lone surrogates, not the one character JSON means."""
    return value.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass") if isinstance(value, str) else value


def _scratch():
    """An unnamed file for a member's stdin or stdout: a child it leaves behind may write to it
    later, but nobody reads it then, and the dispatcher never waits for that child."""
    import os

    for folder in (os.environ.get("TMPDIR") or "/tmp", "/tmp", "/var/tmp", "/dev/shm"):
        path = f"{folder}/.hookweave-cline-{os.getpid()}-{os.urandom(6).hex()}"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:
            continue
        os.unlink(path)
        return fd
    raise OSError("no folder to keep a hook's output in")


def _end(pid, *_):
    import os

    for kill in (os.killpg, os.kill):
        try:
            kill(pid, 9)
        except OSError:
            pass


def _stopped(signum, frame):
    """Cline stops the dispatcher: the member, in a process group of its own, goes too."""
    import os

    for pid in RUNNING:
        _end(pid)
    os._exit(128 + signum)


def run(command, payload, timeout):
    """The member's stdout when it ends within ``timeout``, else None (Cline ignores a hook that
    cannot start or times out). It runs in a session of its own, killed whole at the timeout; its
    stdout and stderr are files read when it ends (its stderr then goes on to Cline's), so a child
    it leaves holding them never holds the dispatcher, nor Cline."""
    import os

    try:
        scratch = (_scratch(), _scratch(), _scratch())
    except OSError:
        return None
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(scratch[0], view):]
        os.lseek(scratch[0], 0, 0)
        try:
            child = subprocess.Popen([b"/bin/sh", b"-c", command.encode("utf-8", "surrogatepass")], stdin=scratch[0],
                                     stdout=scratch[1], stderr=scratch[2], start_new_session=True)
        except OSError:
            return None
        RUNNING.append(child.pid)
        timed_out = False
        try:
            child.wait(timeout if isinstance(timeout, (int, float)) and 0 < timeout < 1e9 else None)
        except subprocess.TimeoutExpired:
            timed_out = True
            _end(child.pid)
            child.wait()
        finally:
            RUNNING.remove(child.pid)
        out, err = (os.pread(fd, min(os.fstat(fd).st_size, KEEP), 0) for fd in scratch[1:])
        try:
            sys.stderr.buffer.write(err)
            sys.stderr.flush()
        except OSError:
            pass
        return None if timed_out else out
    finally:
        for fd in scratch:
            os.close(fd)


def main():
    import signal

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _stopped)
    payload = sys.stdin.buffer.read()
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        data = {}
    call = (data.get("preToolUse") or data.get("postToolUse")) if isinstance(data, dict) else None
    tool = call.get("toolName") if isinstance(call, dict) else None
    contexts, answer = [], {}
    for hook in HOOKS:
        matcher = _text(hook.get("matcher"))
        if matcher and tool is not None and tool not in matcher.split("|"):
            continue
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
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
        except OSError:  # Cline stopped reading
            pass


if __name__ == "__main__":
    main()
