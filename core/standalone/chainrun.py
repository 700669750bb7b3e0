"""The chain runner: one host registration that runs a bundle's hooks of an event in declared order.

Run as ``python3 -S <runner file> <host> <event> [<id> <timeout> <matcher> <command>]...``. Install
writes the runner file (``chain.runner_text``: this source and ``core/standalone/protocol.py``'s, with a loader
that keeps their compiled code in the user's cache) beside the settings file, so a project's chain
runs for every teammate who clones it. Standard library only, and only
the cheap part of it: ``-S`` skips ``site`` and nothing here imports ``re``, ``json``, ``signal`` or
``subprocess`` unless a member needs a regex matcher, so the runner costs a few milliseconds.

Each member gets the host's payload on stdin, the host's environment and folder, and its own
timeout; its matcher is applied as the host applies matchers; the first member that blocks (per
``protocol.judge``) ends the chain with its own stdout, stderr and exit code; the answers of the
members that allow are combined into one (``combine``). Every message of ours names the member.
"""

import _signal  # what ``signal`` wraps, already loaded by the interpreter (``signal`` costs 4 ms)
import posix  # what ``os`` wraps, without loading ``os`` (a millisecond)
import sys

if "combine" not in globals():  # imported as a module of the package (tests, bench), not the runner file
    from hookweave.core.standalone.chainanswer import (  # noqa: F401
        DATA_MATCHERS,
        QUERY,
        answer,
        combine,
        dumps,
        loads,
        matches,
    )
    from hookweave.core.standalone.chainproc import (  # noqa: F401
        KEEP,
        SHELLS,
        _read_all,
        _seconds,
        _stop,
        _write,
        resume,
        run_member,
    )

PROTOCOL_SOURCE = globals().get("PROTOCOL_SOURCE")  # core/standalone/protocol.py's text, in the file install writes
CACHED = globals().get("CACHED")  # that file's compiled-code cache (``chain.runner_text``)
_judge = []  # the protocol table's namespace, once loaded


def judge(host, event, code, out, err, timed_out):
    """``protocol.judge``, loaded on first need: a member that exits 0 and prints nothing is
    allowed by every host (tests/runner/test_chainrun.py checks the table agrees), and loading the table
    costs a millisecond or two more."""
    if code == 0 and not timed_out and not out.strip() and not err.strip():
        return ALLOW
    return _protocol()["judge"](host, event, code, out, err, timed_out)


def _protocol():
    """The protocol table's namespace (``judge``, ``DATA``), loaded once."""
    if not _judge:
        if PROTOCOL_SOURCE is None:
            import hookweave.core.standalone.protocol as protocol

            space = vars(protocol)
        else:
            space = {"__name__": "hookweave_protocol"}
            compiled = CACHED("protocol", PROTOCOL_SOURCE) if CACHED else compile(PROTOCOL_SOURCE, "protocol", "exec")
            exec(compiled, space)
        _judge.append(space)
    return _judge[0]


def data_row(host):
    """The row of a host whose protocol is data (a plugin's, carried in this file), else None: read
    only for what ``QUERY`` and the sh path do not know, and without loading the table when this
    file holds no row for the host (OpenHarness' own rules)."""
    if host in QUERY or PROTOCOL_SOURCE is not None and f"\n\nDATA[{host!r}] = " not in PROTOCOL_SOURCE:
        return None
    space = _protocol()
    return space["DATA"].get(host) if host not in space["BUILTIN"] else None  # a built-in row: as before


def learn_matchers(host, members):
    """A data row says which payload field a matcher tests and how, so a member runs only for the
    tools its matcher names (the table is loaded only when a member has a matcher)."""
    if all(m.matcher in ("", "*") for m in members):
        return
    row = data_row(host)
    if row is not None:
        DATA_MATCHERS[host] = (row["tool_field"], row["matcher"])


def payload_variable(host):
    """The variable a data row says the payload arrives in (``env:NAME``), as bytes, else None."""
    row = data_row(host)
    where = row["payload"] if row is not None else "stdin"
    return where[4:].encode() if where.startswith("env:") else None


class _Allow(tuple):
    """What ``protocol.judge`` says of a silent exit 0: allow, no reason, no output, no notes."""

    action, reason, output, notes = "allow", "", None, ()


ALLOW = _Allow(("allow", "", None, ()))

class Member:
    __slots__ = ("id", "timeout", "matcher", "command")

    def __init__(self, hook_id, timeout, matcher, command):
        self.id, self.timeout, self.matcher, self.command = hook_id, timeout, matcher, command


def parse_argv(argv):
    """``(host, event, members)`` from the registration's words; ``ValueError`` when malformed."""
    if len(argv) < 2 or (len(argv) - 2) % 4:
        raise ValueError("expected <host> <event> and then <id> <timeout> <matcher> <command> per member")
    members = []
    for at in range(2, len(argv), 4):
        hook_id, timeout, matcher, command = argv[at:at + 4]
        members.append(Member(hook_id, _seconds(timeout), matcher, command))
    return argv[0], argv[1], members


def _word(text):
    return f"hookweave chain: {text}\n".encode("utf-8", "replace")


def run_chain(host, event, members, payload_bytes, start=0, first=None, before=(), kept=()):
    """Run the chain; returns ``(exit code, stdout bytes, stderr bytes)`` for the host. A block
    returns the blocking member's own three, unchanged (the model reads that stderr on Claude);
    otherwise stderr holds every member's, in order, and our word on each that failed. From the sh
    runner (``resume``): ``start`` members done there, their stderr ``before``, and ``first``, the
    result of member ``start`` when sh ran it (``run_member``'s five), and ``kept``, the stdout of each
    member before it whose answer sh read and kept (exit 0, stderr empty), judged again here."""
    payload = None
    if any(m.matcher not in ("", "*") for m in members):
        try:
            payload = loads(payload_bytes.decode("utf-8", "replace"))
        except ValueError:
            payload = None
    # in member order: each allowing member's JSON object, or its plain text
    answers = [judge(host, event, 0, out.decode("utf-8", "replace"), "", False).output for out in kept]
    stderr = list(before)
    for at in range(start, len(members)):
        member = members[at]
        if at == start and first is not None:
            code, out, err, timed_out, dropped = first
        elif not matches(host, event, member.matcher, payload):
            continue
        else:
            code, out, err, timed_out, dropped = run_member(host, member, payload_bytes)
        if not timed_out and not any(stderr) and not answers and _last(host, event, members, at, payload):
            return (code if code >= 0 else 128 - code), out, err  # the host reads it as if it ran alone (_last)
        text = out.decode("utf-8", "replace")
        verdict = judge(host, event, code, text, err.decode("utf-8", "replace"), timed_out)
        if verdict.action in ("block", "stop"):
            return (code if code >= 0 else 128 - code), out, err
        stderr.append(err)
        if dropped:
            stderr.append(_word(f"{member.id} printed more than {KEEP >> 20} MiB; the chain read that much"))
        if timed_out:
            stderr.append(_word(f"{member.id} timed out after {member.timeout:g} s; the chain went on, as {host} does"))
        elif verdict.action == "error":
            stderr.append(_word(f"{member.id}: exit {code}: {verdict.reason or 'a hook error'}; the chain went on, "
                                f"as {host} does"))
        elif verdict.action == "ignored" and verdict.notes:
            stderr.append(_word(f"{member.id}: {verdict.notes[-1]}"))  # invalid JSON, a block where none counts
            if isinstance(verdict.output, dict):
                answers.append(verdict.output)
        elif isinstance(verdict.output, dict):
            answers.append(verdict.output)
        elif verdict.action in ("allow", "ask") and text.strip():
            answers.append(text)
    return 0, answer(host, event, answers), b"".join(stderr)


def _last(host, event, members, at, payload):
    """Whether member ``at`` is the last to run (no later member's matcher takes this payload). Run
    after members that all allowed in silence, its exit code, stdout and stderr go to the host as
    they are: the host reads them as it reads that hook run alone, which is what it would have done
    with these hooks run one after another; and the sh fast path need not start Python to read an
    answer (issue 24). A timed-out member is still ours to report."""
    return not any(matches(host, event, m.matcher, payload) for m in members[at + 1:])


def _inject_arguments(members, payload):
    """OpenHarness replaces ``$ARGUMENTS`` in a hook's command with the payload, shell-quoted
    (``hooks/executor.py:_inject_arguments``: ``shlex.quote(json.dumps(payload))``, the text of its
    ``OPENHARNESS_HOOK_PAYLOAD``) before its shell sees it; in the chain's registration the words are
    quoted past its reach, so the runner does it for each member, as OpenHarness would have alone."""
    text = payload.decode("utf-8", "surrogateescape")
    safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"
    quoted = text if text and all(c in safe for c in text) else "'" + text.replace("'", "'\"'\"'") + "'"
    for member in members:
        member.command = member.command.replace("$ARGUMENTS", quoted)


def _read_stdin():
    chunks = []
    while True:
        chunk = posix.read(0, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def main(argv):
    handed = None
    if argv[:1] == ["--from-sh"] and len(argv) >= 6 and argv[5] == "--":
        handed, argv = argv[1:5], argv[6:]
    try:
        host, event, members = parse_argv(argv)
    except ValueError as exc:
        _write(2, _word(f"bad arguments ({exc}); reinstall the bundle"))
        return 1  # a non-blocking error on every host: the tool call goes on
    for signum in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
        _signal.signal(signum, _stop)
    learn_matchers(host, members)
    payload = _read_stdin()
    if not payload and host == "openharness":  # OpenHarness gives no stdin: the payload is in its env
        payload = posix.environ.get(b"OPENHARNESS_HOOK_PAYLOAD", b"")
    elif not payload and payload_variable(host):  # so does an agent whose data row says env:NAME
        payload = posix.environ.get(payload_variable(host), b"")
    if host == "openharness":
        _inject_arguments(members, payload)
    try:
        start, first, before, kept = resume(handed, len(members)) if handed else (0, None, (), ())
        code, out, err = run_chain(host, event, members, payload, start, first, before, kept)
    except OSError as exc:  # no scratch file anywhere, a full disk: say so, a hook error the host goes on after
        code, out, err = 1, b"", _word(f"cannot run the members: {exc}")
    try:
        _write(2, err)
        _write(1, out)
    except OSError:  # the host stopped reading: nothing left to tell it
        pass
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
