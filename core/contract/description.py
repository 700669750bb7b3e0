"""An agent described once, as data: the facts every command reads (issue 21).

A third-party host that needs no code of its own is one ``Description``, published under the
``hookweave`` entry-point group as ``name = "module:ATTRIBUTE"`` (or registered through the hook).
The registry checks it (``check``) and builds its ``Host`` class from it (``describe.host_class``).
Paths are templates: ``~`` is the home folder, ``{project}`` the project folder, and
``${VAR:-default}`` takes an environment variable first (``${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json``).
"""

from __future__ import annotations

import sys
from types import MappingProxyType
from typing import Any, Mapping

from hookweave.core.contract.reads import Reads
from hookweave.core.formats.lazypattern import LazyPattern

# strict JSON; JSON with // and /* */ comments; JSON5, of which hookweave reads and edits the JSONC part
# and refuses the rest (a trailing comma, say), saying the agent reads it; YAML, edited keeping its comments,
# anchors and quoting (formats.yamledit)
FORMATS = ("json", "jsonc", "json5", "yaml")
SHAPES = ("groups", "flat", "top-level-groups", "top-level-flat")  # what an event's list holds, and where
# the command goes to a POSIX shell; split on spaces unless it holds a shell character; always split into
# words (shlex.split, Hermes) and run with no shell, so hookweave writes ``sh -c '...'`` itself
RUNS = ("shell", "argv", "exec")
# an event's hooks: started at once; one after another; at once unless a group of the event sets
# "sequential": true (Gemini, Qwen); not documented
ORDERS = ("parallel", "file", "sequential-flag", "unknown")
# identical commands of one event: every copy runs; run once, with the first copy's settings (its
# timeout) or the last one's; not documented
DEDUP = ("none", "first", "last", "unknown")
LOOKUPS = ("cwd", "git", "codex")  # the project: the folder the agent starts in; the git root; Codex's layers
PLATFORMS = ("linux", "macos", "windows")  # the keys of a per-platform path template
TIMEOUT_UNITS = ("s", "ms")
LOOSE = (None, "skipped", "event", "refused")  # not measured / that entry never runs / nor its event's / nor the file's
NAME = LazyPattern(r"[a-z0-9][a-z0-9-]*")
NONE: Mapping[str, Any] = MappingProxyType({})  # the default of a mapping field: shared, so read-only


class Description:
    """The facts of one agent, given as keywords. Every field but ``name``, ``title``, ``files``
    and ``events`` has a default that fits a Claude-like agent; each says what it means below.

    Frozen, like a frozen dataclass, but not one: building a dataclass of 30 fields cost 2 ms at
    every start of a command that loads a host, more than the rest of the host layer."""

    name: str  # used with --host: lowercase letters, digits and dashes
    title: str  # as the agent calls itself, e.g. "Auggie CLI"
    files: Mapping[str, str | Mapping[str, str]]  # scope -> path template (or one per platform), lowest precedence first
    events: Mapping[str, str | None]  # neutral event -> the agent's name (None: it has no such event)
    tools: Mapping[str, str | None] = NONE  # neutral tool -> matcher name(s), "a|b"
    read_only: tuple[str, ...] = ()  # scopes verify reads and install never writes (system, managed)
    format: str = "json"
    shape: str = "groups"
    native_events: tuple[str, ...] = ()  # more event names a manifest may use as host overrides
    documented_events: tuple[str, ...] = ()  # names a later release documents, never run here: accepted with a warning
    documented_in: str = ""  # that release, as the warning names it ("Qwen Code 1.x")
    timeout_unit: str = "s"
    project_variable: str | None = None  # the env var holding the project folder when a hook runs ("${NAME}": braced)
    project_lookup: str = "cwd"  # which folder the agent takes as the project (LOOKUPS)
    runs: str = "shell"
    order: str = "unknown"
    dedup: str = "unknown"
    env_key: str | None = None  # a settings-level env object the agent exports to hooks, if any
    hooks_key: str = "hooks"  # the top-level key holding the events (ignored by the top-level shapes)
    required: Mapping[str, Any] = NONE  # top-level keys a file needs before the agent loads it
    also_reads: tuple[Reads, ...] = ()  # other agents' files this agent runs the hooks of, too
    programs: tuple[str, ...] = ()  # commands on PATH that say the agent is installed here
    comment_fix: str = "remove the comment"  # the fix for a comment in a strict-JSON file
    execution: str = ""  # verify's sentence on how an event's hooks run ("": said from ``order``)
    switches: Mapping[str, object] = NONE  # a key (dotted: inside objects) and the value that turns hooks off
    restart: str = "hooks load at session start"  # why running sessions need a restart ("": the agent reloads)
    notes: tuple[str, ...] = ()  # facts verify states on every run (a gate hookweave cannot see, say)
    # whose answer protocol the agent follows ("claude", ...; "" when not measured), or the protocol itself
    # as data: a mapping of the fields in core/standalone/protocol_data.DEFAULTS (docs/PLUGINS.md)
    protocol: str | Mapping[str, Any] = ""
    exit_codes: str = "read"  # "ignored": no exit code blocks (Hermes); install warns on blocking_events
    blocking_events: tuple[str, ...] = ()  # the agent's events where a hook's answer can block (with exit_codes)
    loose_entries: str | None = None  # groups shapes: what the agent does with a handler outside a group (LOOSE)
    untyped_handlers: str | None = None  # groups shapes: what it does with a handler that has no "type" (skipped, refused)
    bad_matchers: str | None = None  # groups shapes: what it does with a group whose matcher new RegExp() refuses (LOOSE)
    source: str = ""  # where these facts come from: a documentation page, a version measured

    def __init__(self, **facts: Any) -> None:
        unknown = [name for name in facts if name not in FIELDS]
        missing = [name for name in REQUIRED if name not in facts]
        if unknown or missing:
            raise TypeError(f"Description() got an unexpected keyword argument {unknown[0]!r}" if unknown
                            else f"Description() missing required keyword argument {missing[0]!r}")
        for name, value in facts.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Description is frozen")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return type(other) is Description and all(getattr(self, f) == getattr(other, f) for f in FIELDS)

    __hash__ = object.__hash__  # by identity: its mappings are not hashable

    def __repr__(self) -> str:
        return f"Description(name={self.name!r}, title={self.title!r}, ...)"


FIELDS = tuple(Description.__annotations__)  # the fields, in the order above (annotations stay strings)
REQUIRED = tuple(name for name in FIELDS if name not in Description.__dict__)


def check(description: object, known_events: set[str], known_tools: set[str],
          known_protocols: set[str]) -> str | None:
    """Why ``description`` cannot be registered (``"<field>: <cause>"``), or ``None``."""
    if not isinstance(description, Description):
        return f"not a Description: {type(description).__name__}"
    d = description
    checks = [
        ("name", isinstance(d.name, str) and NAME.fullmatch(d.name) is not None,
         f"{d.name!r} is not lowercase letters, digits and dashes"),
        ("title", isinstance(d.title, str) and d.title.strip() != "", "is empty"),
        ("files", isinstance(d.files, Mapping) and len(d.files) > 0, "names no settings file"),
        ("format", d.format in FORMATS, f"{d.format!r} is not one of {', '.join(FORMATS)}"),
        ("shape", d.shape in SHAPES, f"{d.shape!r} is not one of {', '.join(SHAPES)}"),
        ("runs", d.runs in RUNS, f"{d.runs!r} is not one of {', '.join(RUNS)}"),
        ("order", d.order in ORDERS, f"{d.order!r} is not one of {', '.join(ORDERS)}"),
        ("project_lookup", d.project_lookup in LOOKUPS, f"{d.project_lookup!r} is not one of {', '.join(LOOKUPS)}"),
        ("project_variable", d.project_variable is None or PROJECT_VARIABLE.fullmatch(str(d.project_variable)) is not None,
         f"{d.project_variable!r} is not a variable name (NAME or ${{NAME}})"),
        ("also_reads", all(isinstance(r, Reads) for r in d.also_reads), "holds a row that is not a Reads"),
        ("dedup", d.dedup in DEDUP, f"{d.dedup!r} is not one of {', '.join(DEDUP)}"),
        ("loose_entries", d.loose_entries in LOOSE, f"{d.loose_entries!r} is not skipped, event, refused or None"),
        ("bad_matchers", d.bad_matchers in LOOSE, f"{d.bad_matchers!r} is not skipped, event, refused or None"),
        ("untyped_handlers", d.untyped_handlers in (None, "skipped", "refused"),
         f"{d.untyped_handlers!r} is not skipped, refused or None"),
        ("timeout_unit", d.timeout_unit in TIMEOUT_UNITS, f"{d.timeout_unit!r} is not s or ms"),
        ("exit_codes", d.exit_codes in ("read", "ignored"), f"{d.exit_codes!r} is not read or ignored"),
        ("protocol", isinstance(d.protocol, Mapping) or d.protocol == "" or d.protocol in known_protocols,
         f"{d.protocol!r} is not a protocol hookweave knows ({', '.join(sorted(known_protocols))}); "
         "or give its fields as a mapping (docs/PLUGINS.md)"),
    ]
    for name, ok, cause in checks:
        if not ok:
            return f"{name}: {cause}"
    for label, table, known in (("events", d.events, known_events), ("tools", d.tools, known_tools)):
        unknown = sorted(set(table) - known)
        if unknown:
            return f"{label}: {', '.join(map(repr, unknown))} not a neutral name (known: {', '.join(sorted(known))})"
    if not any(d.events.values()):
        return "events: maps no neutral event to one of the agent's"
    if isinstance(d.protocol, Mapping):
        from hookweave.core.contract import answers

        natives = {n for n in d.events.values() if n} | set(d.native_events) | set(d.documented_events)
        problem = answers.problem(d.protocol, natives)
        if problem:
            return problem
    unknown_scopes = [scope for scope in d.read_only if scope not in d.files]
    if unknown_scopes:
        return f"read_only: {', '.join(unknown_scopes)} has no file in files"
    if all(scope in d.read_only for scope in d.files):
        return "files: every scope is read_only, so there is nothing to install into"
    for scope, template in d.files.items():
        if isinstance(template, Mapping):
            missing = [p for p in PLATFORMS if p not in template] + [p for p in template if p not in PLATFORMS]
            if missing:
                return f"files.{scope}: a per-platform template names exactly {', '.join(PLATFORMS)}"
            problem = next(filter(None, (template_problem(t, p == "windows") for p, t in template.items())), None)
        else:
            problem = template_problem(template)
        if problem:
            return f"files.{scope}: {problem}"
    return None


PROJECT_VARIABLE = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}")


DRIVE = LazyPattern(r"[A-Za-z]:/")  # a Windows path, in a per-platform template
VARIABLE = LazyPattern(r"\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\}")  # ${NAME:-default} in a path template
_NAME_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_REST_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789"


def this_system(template: str | Mapping[str, str]) -> str:
    """A path template as this system uses it: a per-platform one's ``linux``, ``macos`` or ``windows``."""
    if isinstance(template, str):
        return template
    return template[{"darwin": "macos", "win32": "windows"}.get(sys.platform, "linux")]


def variables(template: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, name, default)`` of each ``${NAME:-default}`` in ``template``, as
    ``VARIABLE.finditer`` finds them: what every path a command looks at is expanded by, without
    compiling the pattern (0.6 million instructions of every command that reads a host's files)."""
    out = []
    at = template.find("${")
    while at != -1:
        name_end = at + 2
        if template[name_end:name_end + 1] in _NAME_FIRST:  # "" is in no set
            rest = template[name_end + 1:]
            name_end += 1 + len(rest) - len(rest.lstrip(_NAME_REST_CHARACTERS))  # the name's other characters, in C
            if template.startswith(":-", name_end):
                close = template.find("}", name_end + 2)
                if close != -1:
                    out.append((at, close + 1, template[at + 2:name_end], template[name_end + 2:close]))
                    at = template.find("${", close + 1)
                    continue
        at = template.find("${", at + 1)
    return out


def template_problem(template: object, windows: bool = False) -> str | None:
    if not isinstance(template, str) or not template:
        return "a path template must be a non-empty string"
    rest = VARIABLE.sub("", template)
    if "$" in rest:
        return f"{template!r}: write an environment variable as ${{NAME:-default}}"
    if "{" in rest.replace("{project}", "") or "}" in rest.replace("{project}", ""):
        return f"{template!r}: the only placeholder is {{project}}"
    start = VARIABLE.sub(lambda m: m.group(2), template)
    if not (start.startswith(("/", "~/", "{project}/")) or start in ("~", "{project}") or windows and DRIVE.match(start)):
        return f"{template!r}: start with /, ~/ or {{project}}/" + (" or a drive (C:/)" if windows else "")
    return None
