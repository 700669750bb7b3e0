"""The chain runner: one host registration that runs a bundle's hooks of an event in declared order.

Run as ``python3 -S <runner file> <host> <event> [<id> <timeout> <matcher> <command>]...``. Install
writes the runner file (``chain.runner_text``: this source and ``core/protocol.py``'s, with a loader
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
import _thread
import posix  # what ``os`` wraps, without loading ``os`` (a millisecond)
import sys
import time

PROTOCOL_SOURCE = globals().get("PROTOCOL_SOURCE")  # core/protocol.py's text, in the file install writes
CACHED = globals().get("CACHED")  # that file's compiled-code cache (``chain.runner_text``)
_judge = []  # the protocol's judge, once loaded


def judge(host, event, code, out, err, timed_out):
    """``protocol.judge``, loaded on first need: a member that exits 0 and prints nothing is
    allowed by every host (tests/test_chainrun.py checks the table agrees), and loading the table
    (it imports ``json``, ``re`` and ``typing``) would cost more than the rest of the run."""
    if code == 0 and not timed_out and not out.strip() and not err.strip():
        return ALLOW
    if not _judge:
        if PROTOCOL_SOURCE is None:
            from hookweave.core.protocol import judge as loaded
        else:
            space = {"__name__": "hookweave_protocol"}
            sys.modules["hookweave_protocol"] = type(sys)("hookweave_protocol")  # for NamedTuple's __module__
            compiled = CACHED("protocol", PROTOCOL_SOURCE) if CACHED else compile(PROTOCOL_SOURCE, "protocol", "exec")
            exec(compiled, space)
            loaded = space["judge"]
        _judge.append(loaded)
    return _judge[0](host, event, code, out, err, timed_out)


class _Allow(tuple):
    """What ``protocol.judge`` says of a silent exit 0: allow, no reason, no output, no notes."""

    action, reason, output, notes = "allow", "", None, ()


ALLOW = _Allow(("allow", "", None, ()))

SHELLS = {"claude": "bash", "gemini": "bash", "cursor": "sh"}  # how each host runs a command
# The payload field each host tests an event's matcher against (HOSTS.md); other events run every member.
TOOL = "tool_name"
QUERY = {
    "claude": {"PreToolUse": TOOL, "PostToolUse": TOOL, "PostToolUseFailure": TOOL, "PermissionRequest": TOOL,
               "PermissionDenied": TOOL, "UserPromptExpansion": "command_name", "SessionStart": "source",
               "ConfigChange": "source", "Setup": "trigger", "PreCompact": "trigger", "PostCompact": "trigger",
               "Notification": "notification_type", "SessionEnd": "reason", "StopFailure": "error",
               "SubagentStart": "agent_type", "SubagentStop": "agent_type", "Elicitation": "mcp_server_name",
               "ElicitationResult": "mcp_server_name", "InstructionsLoaded": "load_reason"},
    "codex": {"PreToolUse": TOOL, "PermissionRequest": TOOL, "PostToolUse": TOOL, "PreCompact": "trigger",
              "PostCompact": "trigger", "SessionStart": "source", "SubagentStart": "agent_type",
              "SubagentStop": "agent_type"},
    "gemini": {"BeforeTool": TOOL, "AfterTool": TOOL, "SessionStart": "source", "SessionEnd": "reason",
               "PreCompress": "trigger", "Notification": "notification_type"},
    "cursor": {"preToolUse": TOOL, "postToolUse": TOOL, "postToolUseFailure": TOOL},
}
GEMINI_TOOL_EVENTS = ("BeforeTool", "AfterTool")
SIMPLE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_|")
JOINED = ("additionalContext", "systemMessage", "user_message", "agent_message", "followup_message")
STRICT = {"permissionDecision": ("allow", "ask", "deny"), "permission": ("allow", "ask", "deny"),
          "decision": ("approve", "allow", "ask", "block", "deny")}
STRICT_REASONS = {"permissionDecision": "permissionDecisionReason", "decision": "reason"}


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
        members.append(Member(hook_id, float(timeout), matcher, command))
    return argv[0], argv[1], members


# -- JSON without ``import json`` (which costs 7 ms through ``re``): the C parts ``json`` uses itself

class _Context:
    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    memo = {}

    @staticmethod
    def parse_constant(name):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def loads(text):
    """The JSON value of ``text``; ``ValueError`` when it is not exactly one JSON value."""
    try:
        import _json
    except ImportError:  # an interpreter without the accelerator
        import json

        return json.loads(text)
    scan = _json.make_scanner(_Context())
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        value, end = scan(text, start)
    except (StopIteration, SystemError):  # SystemError: the C scanner's error path needs json.decoder loaded
        raise ValueError("not JSON") from None
    finally:
        _Context.memo.clear()
    if text[end:].strip(" \t\n\r"):
        raise ValueError("extra data after the JSON value")
    return value


def dumps(value):
    try:
        import _json
    except ImportError:
        import json

        return json.dumps(value, ensure_ascii=False)
    encode = _json.make_encoder(None, _unencodable, _json.encode_basestring, None, ": ", ", ", False, False, True)
    return "".join(encode(value, 0))


def _unencodable(value):
    raise TypeError(f"{type(value).__name__} is not JSON")


# -- matchers: each host's own rule (HOSTS.md)

def matches(host, event, matcher, payload):
    """Whether the host would run a hook with ``matcher`` for this payload (``payload`` a dict, or
    None when it is not JSON: then every member runs, as no field can be tested)."""
    field = QUERY.get(host, {}).get(event)
    if matcher in ("", "*") or field is None or not isinstance(payload, dict):
        return True
    query = payload.get(field)
    query = query if isinstance(query, str) else ""
    if host == "claude" or host == "cursor":
        simple = SIMPLE | (frozenset(" ,-") if field == TOOL else frozenset())
        if all(c in simple for c in matcher):
            seps = matcher.replace(",", "|") if field == TOOL else matcher
            return query in [t.strip() for t in seps.split("|")]
        return _search(matcher, query, invalid=False)
    if host == "codex":
        if matcher == ".*":
            return True
        queries = [query, "Write", "Edit"] if query == "apply_patch" else [query]
        return any(_search(matcher, q, invalid=False) for q in queries)
    if host == "gemini":
        if event not in GEMINI_TOOL_EVENTS:
            return query == matcher
        return _search(matcher, query, invalid=query == matcher)
    return _search(matcher, query, invalid=False)


def _search(pattern, text, *, invalid):
    import re

    try:
        return re.search(pattern, text) is not None
    except re.error:
        return invalid


# -- running one member

def _scratch():
    """An unnamed file for the members' stdin, stdout or stderr: a file, unlike a pipe, never fills
    up and stalls a member that writes much while we wait for it."""
    folder = (posix.environ.get(b"TMPDIR") or b"/tmp").decode("utf-8", "surrogateescape")
    for n in range(100):
        path = f"{folder}/.hookweave-chain-{posix.getpid()}-{time.monotonic_ns()}-{n}"
        try:
            fd = posix.open(path, posix.O_RDWR | posix.O_CREAT | posix.O_EXCL, 0o600)
        except FileExistsError:
            continue
        posix.unlink(path)
        return fd
    raise OSError("no scratch file in " + folder)


def _read_all(fd):
    posix.lseek(fd, 0, 0)
    chunks = []
    while True:
        chunk = posix.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _shell(host):
    if host == "codex":  # Codex runs `$SHELL -lc`; the chain itself ran in that login shell already
        return (posix.environ.get(b"SHELL") or b"/bin/sh").decode("utf-8", "surrogateescape")
    return SHELLS.get(host, "sh")


RUNNING = []  # the member running now: a stop signal to the chain stops it too


def _stop(signum, frame):
    """The host stops the chain (SIGTERM on its own timeout, ^C): the running member is in a process
    group of its own, which the host's signal does not reach, so end it, then the chain."""
    for pid in RUNNING:
        try:
            posix.killpg(pid, 9)
        except OSError:
            pass
    posix._exit(128 + signum)


def _kill_after(pid, seconds, done, fired):
    """The timeout: ``done`` is released when the member ends; until then, after ``seconds``, kill
    its process group (the member and what it started)."""
    if not done.acquire(True, seconds):
        fired.append(True)
        try:
            posix.killpg(pid, 9)  # SIGKILL, the number on every POSIX system
        except OSError:
            pass


def run_member(host, member, scratch):
    """``(exit code, stdout bytes, stderr bytes, timed out)``; ``scratch``: the stdin (the payload),
    stdout and stderr files. The member runs in a process group of its own, which a timeout kills
    whole. Its exit code is negative when a signal ended it."""
    stdin_fd, out_fd, err_fd = scratch
    for fd in (out_fd, err_fd):
        posix.ftruncate(fd, 0)
        posix.lseek(fd, 0, 0)
    posix.lseek(stdin_fd, 0, 0)
    dup2 = posix.POSIX_SPAWN_DUP2
    actions = [(dup2, stdin_fd, 0), (dup2, out_fd, 1), (dup2, err_fd, 2)]
    shell = _shell(host)
    try:
        pid = posix.posix_spawnp(shell, [shell, "-c", member.command], posix.environ, file_actions=actions, setpgroup=0)
    except OSError:
        pid = posix.posix_spawn("/bin/sh", ["sh", "-c", member.command], posix.environ, file_actions=actions,
                                setpgroup=0)
    RUNNING.append(pid)
    done, fired = _thread.allocate_lock(), []
    done.acquire()
    _thread.start_new_thread(_kill_after, (pid, member.timeout, done, fired))
    _, status = posix.waitpid(pid, 0)
    RUNNING.remove(pid)
    done.release()
    return posix.waitstatus_to_exitcode(status), _read_all(out_fd), _read_all(err_fd), bool(fired)


# -- combining the answers of the members that allow

def combine(answers):
    """One answer from several JSON objects, in member order: the texts hosts show or give the
    model joined, the strictest permission kept with its reason, and any other key as the first
    member that set it gave it."""
    out = {}
    for answer in answers:
        _merge(out, answer)
    return out


def _merge(into, new):
    for key, value in new.items():
        if key not in into:
            into[key] = dict(value) if isinstance(value, dict) else value
        elif isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        elif key in JOINED and isinstance(into[key], str) and isinstance(value, str):
            into[key] = into[key] + "\n" + value
        elif key in STRICT and _rank(key, value) > _rank(key, into[key]):
            into[key] = value
            reason = STRICT_REASONS.get(key)
            if reason and reason in new:
                into[reason] = new[reason]


def _rank(key, value):
    scale = STRICT[key]
    return scale.index(value) if value in scale else -1


def _word(text):
    return f"hookweave chain: {text}\n".encode("utf-8", "replace")


def run_chain(host, event, members, payload_bytes):
    """Run the chain; returns ``(exit code, stdout bytes, stderr bytes)`` for the host. A block
    returns the blocking member's own three, unchanged (the model reads that stderr on Claude);
    otherwise stderr holds every member's, in order, and our word on each that failed."""
    scratch = (_scratch(), _scratch(), _scratch())
    _write(scratch[0], payload_bytes)
    payload = None
    if any(m.matcher not in ("", "*") for m in members):
        try:
            payload = loads(payload_bytes.decode("utf-8", "replace"))
        except ValueError:
            payload = None
    answers = []  # in member order: each allowing member's JSON object, or its plain text
    stderr = []
    for member in members:
        if not matches(host, event, member.matcher, payload):
            continue
        code, out, err, timed_out = run_member(host, member, scratch)
        text = out.decode("utf-8", "replace")
        verdict = judge(host, event, code, text, err.decode("utf-8", "replace"), timed_out)
        if verdict.action in ("block", "stop"):
            _close(scratch)
            return (code if code >= 0 else 128 - code), out, err
        stderr.append(err)
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
    _close(scratch)
    return 0, _answer(host, event, answers), b"".join(stderr)


def _close(fds):
    for fd in fds:
        posix.close(fd)


def _answer(host, event, answers):
    """The chain's stdout: the plain texts as they came when no member answered in JSON, else one
    JSON object, the texts (context on the events that read plain text) folded in where they stood."""
    if not any(isinstance(a, dict) for a in answers):
        return "".join(answers).encode("utf-8")
    objects = [a if isinstance(a, dict) else
               {"hookSpecificOutput": {"hookEventName": event, "additionalContext": a.strip()}} if host != "gemini"
               else {"systemMessage": a.strip()} for a in answers]
    return dumps(combine(objects)).encode("utf-8")


def _write(fd, data):
    while data:
        data = data[posix.write(fd, data):]


def _read_stdin():
    chunks = []
    while True:
        chunk = posix.read(0, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def main(argv):
    try:
        host, event, members = parse_argv(argv)
    except ValueError as exc:
        _write(2, _word(f"bad arguments ({exc}); reinstall the bundle"))
        return 1  # a non-blocking error on every host: the tool call goes on
    for signum in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
        _signal.signal(signum, _stop)
    payload = _read_stdin()
    code, out, err = run_chain(host, event, members, payload)
    _write(2, err)
    _write(1, out)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
