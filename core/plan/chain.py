"""Pure: a bundle's chained hooks of one event as ONE host registration, and that registration read back.

A chain's registration runs ``sh <runner.sh> <host> <event>`` (``chainsh``: the sh fast path; Copilot, whose
entry runs on Windows too, and chains installed before issue 24: ``python3 -S <runner.py> <host> <event>``)
and then four words per member,
``<id> <timeout> <matcher> <command>``, in declared order (``chainrun`` reads them). So the settings
file alone says what runs and in which order, and verify can check each member against the record
(which holds one hash per member) without the manifest. The runner is a file install writes beside
the settings file (``runner_path``), referenced through the host's project variable in a project's
settings, so a teammate who clones the project runs the same chain.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookweave.core.errors import BadInput
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.patch import sha256
from hookweave.core.model.render import MARKER_RE, _quote, marker, unwrapped
from hookweave.core.model.runnable import guard, unguarded

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.bundle import Bundle, HookForHost

PREFIX = "chain-"
# Seconds, each host's own default for a hook without a timeout: Copilot's and Kimi Code's documented 30, Qwen's
# and Droid's 60 (their code); Windsurf and Antigravity document none, so 60 as for Cursor.
DEFAULT_TIMEOUT = {"claude": 600, "codex": 600, "gemini": 60, "cursor": 60, "copilot": 30, "qwen": 60, "factory": 60,
                   "windsurf": 60, "antigravity": 60, "auggie": 60, "letta": 60, "openhands": 60, "kimi": 30,
                   "openharness": 30, "hermes": 60}
SIMPLE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_|")
# The events whose registration can carry a matcher (the runner's QUERY tests the same fields).
TOOL_EVENTS = {"claude": {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"},
               "codex": {"PreToolUse", "PostToolUse", "PermissionRequest"}, "gemini": {"BeforeTool", "AfterTool"},
               "copilot": {"preToolUse", "postToolUse", "postToolUseFailure", "permissionRequest"},
               "qwen": {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"},
               "factory": {"PreToolUse", "PostToolUse"}, "antigravity": {"PreToolUse", "PostToolUse"},
               "auggie": {"PreToolUse", "PostToolUse"},
               "letta": {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"},
               "openhands": {"PreToolUse", "PostToolUse"},
               "kimi": {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionResult"},
               "openharness": {"pre_tool_use", "post_tool_use"}, "hermes": {"pre_tool_call", "post_tool_call"}}
# Hosts whose own hook file already is a chain: their hooks of an event stay separate entries there.
DISPATCHED = {"cline": "Cline runs hookweave's dispatcher file per event, which runs the event's hooks one after "
                       "another in declared order and ends at the first cancel (hosts/cline/__init__.py)"}


class Member(FieldTuple):
    """One hook of a chain as the registration's words hold it (matcher ``""``: every call)."""

    id: str
    timeout: str
    matcher: str
    command: str

    def digest(self) -> str:
        return sha256(list(self))


def chain_id(native_event: str) -> str:
    """``chain-pretooluse``; Windsurf's snake_case events give ``chain-pre-run-command`` (ids take no ``_``)."""
    return PREFIX + native_event.lower().replace("_", "-")


RUNNER_SUFFIX = ".hookweave-chain.py"


def runner_path(settings: Path) -> Path:
    """Beside the settings file, named after it like the record: one runner per settings file."""
    return settings.with_name(settings.stem + RUNNER_SUFFIX)


def runner_word(host: Host, runner: Path, project: Path | None) -> str:
    """The runner as a shell word: under the project, through the host's project variable; with
    ``project`` None (a user or managed file, which every project runs), its full path. A host
    without one (Codex: ``"$PWD"`` is the folder the session started in, a subfolder as often as
    not) finds the runner through its project-root form (git's top level) when the project is the
    top of a git repository, as ``portable`` writes ``{bundle_dir}``."""
    if project is not None:
        try:
            relative = runner.relative_to(project)
        except ValueError:
            relative = None
        if relative is not None:
            rest = _quote("/" + relative.as_posix())
            if host.project_lookup == "codex" and host.project_root_ref:
                from hookweave.core.files import paths

                if paths.git_root(project) == project:
                    return host.project_root_ref + rest
            return "{project_dir}" + rest
    return _quote(str(runner))


def runner_word_plain(runner: Path) -> str:
    """The runner at an absolute path, as a shell word (``hooks check`` before install)."""
    return _quote(str(runner))


def _key(runner: str, protocol: str) -> str:
    from hookweave.core.formats.patch import (
        sha256_text,  # the interpreter's SHA-256, not OpenSSL's (2.5 ms to load)
    )

    return sha256_text(runner + "\0" + protocol)[len("sha256:"):][:16]


def _fill(key: str, protocol: str, runner: str) -> str:
    return RUNNER_LOADER.replace("@KEY@", key).replace("@PROTOCOL@", repr(protocol)).replace("@RUNNER@", runner)


def pristine(text: str) -> bool:
    """Whether ``text`` is a runner file as some hookweave wrote it, unedited: this loader, and a
    key that is the hash of the runner and table it holds (another version's, after an upgrade)."""
    import ast

    try:
        key = text.split('KEY = "', 1)[1][:16]
        protocol_literal = text.split("\nPROTOCOL = ", 1)[1].split("\n\nRUNNER = r'\'\'", 1)[0]
        runner = text.split("\n\nRUNNER = r'\'\'", 1)[1].rsplit("\'\'\'\n\nexec(", 1)[0]
        protocol = ast.literal_eval(protocol_literal)
    except (IndexError, ValueError, SyntaxError, MemoryError, RecursionError):
        return False
    return isinstance(protocol, str) and _key(runner, protocol) == key and _fill(key, protocol, runner) == text


def runner_text(host: Host | None = None) -> str:
    """The runner file install writes: a small loader, then the runner's and the protocol table's
    source as text. Python compiles a script's own code on every run (3.5 ms of every event for
    the runner); the loader compiles the texts once per version and Python and keeps the code in
    ``~/.cache/hookweave`` (``RUNNER_LOADER``), so a run reads it back in a tenth of that. A host
    whose protocol is data (a plugin's description) gets its row in the table: the settings file's
    runner then judges its members without the plugin installed."""
    runner = _sources(("jsonfast.py", "chainanswer.py", "chainproc.py", "chainrun.py"))
    protocol = protocol_text(host)
    if "\'\'\'" in runner or runner.endswith("\\"):
        raise RuntimeError("internal error: the runner's source cannot be embedded in a raw triple-quoted string")
    return _fill(_key(runner, protocol), protocol, runner)


def protocol_text(host: Host | None = None) -> str:
    """The protocol judge as the runner file holds it: ``protocol.PARTS`` as one text, one namespace,
    and ``host``'s protocol row when it is data (``protocol_data.DATA``)."""
    from hookweave.core.standalone.protocol import PARTS

    data = getattr(host, "protocol_data", None)
    row = f"\n\nDATA[{host.name!r}] = {dict(data)!r}\n" if host is not None and data is not None else ""
    return _sources(PARTS) + row


def _sources(names: tuple[str, ...]) -> str:
    from hookweave.core import standalone

    here = Path(standalone.__file__).parent
    return "\n\n".join((here / name).read_text(encoding="utf-8") for name in names)


# Written into users' files and compared whole by ``pristine``: a change here makes every runner an
# older hookweave wrote look edited, so its text stays as first shipped (paths from before the layers).
RUNNER_LOADER = """#!/usr/bin/env python3
# Written by hookweave (`hooks install`): the chain runner of this settings file's chained events.
# Do not edit: `hooks verify` checks it is the runner hookweave ships. The runner's code is RUNNER
# below (hookweave's core/chainanswer.py and core/chainrun.py), its table of host protocols PROTOCOL
# (core/protocol.py).
import marshal
import posix
import sys

KEY = "@KEY@"  # names this runner's compiled code in the cache


def CACHED(name, source):
    \"\"\"The compiled code of ``source``: from the cache when it holds this version's, else compiled
    now and kept for the next run (best effort: without a writable cache a run only takes longer).\"\"\"
    env = posix.environ
    root = env.get(b"XDG_CACHE_HOME") or env.get(b"HOME", b"") + b"/.cache"
    tag = (sys.implementation.cache_tag or "python").encode()
    path = root + b"/hookweave/chain-" + KEY.encode() + b"-" + name.encode() + b"." + tag
    head = f"{KEY} {len(source)}\\n".encode()
    try:
        with open(path, "rb") as cached:
            data = cached.read()
        if data.startswith(head):
            return marshal.loads(data[len(head):])
    except (OSError, ValueError, EOFError, TypeError):
        pass
    code = compile(source, f"hookweave-chain-{name}", "exec")
    try:
        try:
            posix.mkdir(root + b"/hookweave", 0o700)
        except FileExistsError:
            pass
        part = path + b".%d" % posix.getpid()
        with open(part, "wb") as out:
            out.write(head + marshal.dumps(code))
        posix.rename(part, path)
    except OSError:
        pass
    return code


PROTOCOL = @PROTOCOL@

RUNNER = r'\'\'@RUNNER@\'\''

exec(CACHED("runner", RUNNER), {"__name__": __name__, "PROTOCOL_SOURCE": PROTOCOL, "CACHED": CACHED})
"""


def member(host: Host, hook: HookForHost, bundle: Bundle) -> Member:
    """The member's words: its command exactly as the host would get it alone, without the marker."""
    alone, tag = host.command(hook, bundle), marker(bundle.name, hook.id)
    if not alone.endswith(tag):
        raise RuntimeError(f"internal error: {host.name} renders {hook.id} without its marker")
    command = alone[: -len(tag) - 1]  # and the space or newline before it
    timeout = hook.timeout if hook.timeout is not None else DEFAULT_TIMEOUT.get(host.answer_protocol(), 60)
    return Member(hook.id, str(timeout), host.native_matcher(hook.matcher) or "", command)


def registration_hook(host: Host, event: str, members: list[Member], hooks: list[HookForHost], runner: str):
    """The ``HookForHost`` of the chain: its command runs the runner with every member's words,
    its timeout covers the whole chain, its matcher is the members' union when the host can
    express it (else the chain starts for every call and the runner applies each matcher)."""
    from hookweave.core.model.bundle import HookForHost

    from hookweave.core.plan import chainsh

    protocol = host.answer_protocol()
    if protocol in chainsh.SH_HOSTS:  # the sh fast path, which hands over to the Python runner beside it
        runner = runner.replace(RUNNER_SUFFIX, chainsh.SUFFIX)
        words = ["sh", runner, _quote(protocol), _quote(event)]
    else:
        words = ["python3", "-S", runner, _quote(protocol), _quote(event)]
    for m in members:
        words += [_quote(m.id), _quote(m.timeout), _quote(m.matcher) if m.matcher else "''", _quote(m.command)]
    total = chain_timeout([m.timeout for m in members])
    matcher = union_matcher(host.answer_protocol(), event, [m.matcher for m in members])
    return HookForHost(chain_id(event), hooks[0].event, guard(runner) + " ".join(words), matcher, total,
                       hooks[0].position)


def chain_timeout(timeouts: list[str]) -> int:
    """The registration's timeout: every member's, whole seconds rounded up, plus a margin for what
    the runner does between them (a killed member's process tree is looked up with ``ps``; the sh path
    may start the Python runner): 2 s and 1 more per 4 members, so the host never kills a chain whose
    members all time out, which would lose a later member's block (docs/chains.md)."""
    return sum(-int(-float(t) // 1) for t in timeouts) + 2 + len(timeouts) // 4


def union_matcher(host: str, event: str, matchers: list[str]) -> str | None:
    """A matcher that matches what any member's does, in the host's syntax (Copilot anchors it:
    ``^(?:(?:a)|(?:b))$``; Qwen reads a pattern that starts with ``(`` as a regex), else None."""
    if event not in TOOL_EVENTS.get(host, ()) or any(m in ("", "*") for m in matchers):
        return None
    if host == "openharness":  # globs: no union of two, so the runner applies each one
        return matchers[0] if len(set(matchers)) == 1 else None
    if host == "claude":
        if not all(set(m) <= SIMPLE for m in matchers):
            return None
        return "|".join(dict.fromkeys(t for m in matchers for t in m.split("|") if t))
    return "|".join(f"(?:{m})" for m in matchers) if len(matchers) > 1 else matchers[0]


def check_ids(bundle: Bundle, events: list[str], host: Host | None = None) -> None:
    """Refuse a chain the runner could not run: an id taken by the chain's registration, or a host
    whose way of reading a hook's answer is not in the protocol table (the runner must know it to
    tell a block from an allow: a plugin host)."""
    from hookweave.core.standalone.verdicts import HOSTS, JUDGED  # names only: no judge is loaded

    if events and host is not None and host.answer_protocol() not in JUDGED and host.protocol_data is None:
        chained = [h for h in HOSTS if h not in DISPATCHED]  # the built-in hosts, as the message names hosts
        raise BadInput(f"{bundle.manifest}: order = \"chain\": {host.title} is a plugin host, and what it does with a "
                       f"hook's answer is not in hookweave's protocol table (core/standalone/protocol.py), so the "
                       f"chain runner could not tell a block from an allow; chains run on {', '.join(chained)}; "
                       f"install on those hosts, or leave {host.name}'s hooks unchained with order = \"alone\"")
    taken = {h.id for h in bundle.hooks}
    for event in events:
        if chain_id(event) in taken:
            raise BadInput(f"{bundle.manifest}: hooks ({chain_id(event)}).id: the chain of {event} is registered "
                           f"under that id; rename the hook")


def members_of(command: Any) -> tuple[str, str, list[Member]] | None:
    """``(host, event, members)`` read back from a chain registration's command; ``None`` when it is
    not one (edited beyond reading)."""
    if not isinstance(command, str):
        return None
    read = _words(command)
    if read is None:
        return None
    words, lead = read
    quads = [Member(*words[i:i + 4]) for i in range(lead, len(words), 4)]
    return words[lead - 2], words[lead - 1], quads


def runner_named(command: Any) -> str | None:
    """The runner file a chain registration runs, as its shell gives it to ``sh`` or ``python3`` (a
    variable as ``$NAME``); ``None`` when the command is not a chain's."""
    read = _words(command) if isinstance(command, str) else None
    return None if read is None else read[0][read[1] - 3]


def _words(command: str) -> tuple[list[str], int] | None:
    import shlex  # a chain's command split: not loaded by commands that meet none (0.8 M)

    found = MARKER_RE.search(command)
    script = unwrapped(command)  # on an agent with no shell, the chain is the script of hookweave's ``sh -c``
    body = unguarded(script if script is not None else command[: found.start()] if found else command)
    try:
        words = shlex.split(body)
    except ValueError:
        return None
    lead = 4 if words[:1] == ["sh"] else 5  # ``sh <runner.sh>`` (issue 24), or ``python3 -S <runner.py>``
    if len(words) < lead or (lead == 5 and words[:2] != ["python3", "-S"]) or (len(words) - lead) % 4:
        return None
    return words, lead
