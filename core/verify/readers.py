"""Who else reads a host's files: the cross-agent table, and what it means for one of our hooks.

Several agents run the hooks of files that belong to another host: Copilot CLI runs the hooks in
Claude's project and local settings, Cursor runs Claude's files when its "Include third-party
configs" setting is on, and VS Code's agent hooks read Claude's and Copilot's files and ignore
every matcher. So one hook hookweave installed can run in several agents, twice in one of them, or
on every tool. This module is pure: the table as data, and the judgement over places a hook is
installed at. ``crossreads`` reads the files and feeds it.

A host plugin declares what its agent reads besides its own files with ``also_reads`` (a tuple of
``Reads``); agents without a host plugin (VS Code) are rows of ``EXTRA_AGENTS``.
"""

from typing import Iterable

from hookweave.core.contract.reads import Reads
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model.findings import Finding


class Agent(FieldTuple):
    """A program that runs hooks: ``host`` names its own plugin (``None`` for a reader only, whose
    files hookweave does not write); ``reads``: the files it runs besides its own; ``signs``: folders
    (``~/`` for home, else project-relative) whose presence says it is in use here."""

    title: str
    host: object  # str | None
    reads: tuple
    signs: tuple = ()


class Place(FieldTuple):
    """Where a copy of one of our hooks is installed: the host's file at a scope, with its matcher."""

    host: str
    scope: str
    matcher: object = None  # str | None, as written in that file
    event: object = None  # str | None: its native event there (a reader's ``covers`` are measured events)


VS_CODE = Agent(
    "VS Code",
    None,
    (
        # microsoft/vscode-docs docs/agent-customization/hooks.md, chat.hookFilesLocations' default:
        # "VS Code ignores matcher values, so hooks run on all tool invocations regardless of the matcher".
        Reads("claude", ("user", "project", "local"), "ignored"),
        # Copilot's files are converted (bash for Linux and macOS); VS Code's own entries have no
        # matcher field, so none is applied [inferred, not measured].
        Reads("copilot", ("user", "project"), "ignored"),
    ),
    (".vscode", "~/.vscode"),
)
EXTRA_AGENTS = (VS_CODE,)


def agent_of(host_cls) -> Agent:
    """A host plugin's row: its own files at every ``verify_scopes``, and its ``also_reads``."""
    own = Reads(host_cls.name, tuple(host_cls.verify_scopes), "honoured", "", True)
    return Agent(host_cls.title, host_cls.name, (own, *getattr(host_cls, "also_reads", ())))


def table(host_classes: Iterable) -> list:
    """Every agent: a row per host plugin, then the readers without one."""
    return [agent_of(cls) for cls in host_classes] + list(EXTRA_AGENTS)


def runs(agent: Agent, places: Iterable[Place]) -> list:
    """``(place, reads)`` for each copy ``agent`` runs, in the order given."""
    out = []
    for place in places:
        rule = next((r for r in agent.reads if r.host == place.host and place.scope in r.scopes), None)
        if rule is not None:
            out.append((place, rule))
    return out


def _where(agent: Agent, place: Place, titles: dict) -> str:
    if place.host == agent.host:
        return f"its own {place.scope} file"
    return f"{titles.get(place.host, place.host)}'s {place.scope} settings"


def _count(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def judge(agents: Iterable[Agent], places: list, bundle: str, hook: str, in_use: Iterable[str]) -> list:
    """What the copies of one hook mean across agents, for the agents ``in_use`` (by title):

    - a note naming every agent that runs it, when more than one does and one of them reads it from
      another host's file (a hook installed for Claude and Gemini, each in its own file, is no news);
    - a warning per agent that runs it more than once and reads at least one copy from another
      host's file (copies in one host's own scopes are ``duplicates``' to judge);
    - a warning per matcher an agent ignores: the hook runs on every tool there.
    """
    agents = list(agents)
    titles = {a.host: a.title for a in agents if a.host}
    used = set(in_use)
    found: list = []
    names: list = []
    crossed = False  # an agent runs it from another host's file: only then is naming them news
    for agent in agents:
        ran = runs(agent, places)
        if not ran or agent.title not in used:
            continue
        conditions = sorted({r.condition for _, r in ran if r.condition})
        names.append(agent.title + (f" ({'; '.join(conditions)})" if conditions else ""))
        foreign = [p for p, _ in ran if p.host != agent.host]
        crossed = crossed or bool(foreign)
        if len(ran) > 1 and foreign:
            sure = all(r.measured and (not r.covers or p.host == agent.host or p.event in (None, *r.covers))
                       for p, r in ran)
            verb = "fires" if sure else "may fire"
            tail = f" {conditions[0]}" if len(conditions) == 1 else ""
            found.append(Finding("warning", f"{verb} {_count(len(ran))} in {agent.title}{tail}: it runs the copies in "
                                 f"{' and '.join(_where(agent, p, titles) for p, _ in ran)}; "
                                 f"{'turn that setting off, or ' if tail else ''}keep one of them",
                                 bundle, hook))
        for matcher in dict.fromkeys(p.matcher for p, r in ran if r.matchers == "ignored" and p.matcher not in (None, "", "*")):
            sources = " and ".join(_where(agent, p, titles) for p, r in ran if r.matchers == "ignored" and p.matcher == matcher)
            found.append(Finding("warning", f"{agent.title} ignores the matcher `{matcher}` in {sources}: "
                                 "it runs on every tool there", bundle, hook))
    if len(names) > 1 and crossed:
        found.insert(0, Finding("note", f"runs in {len(names)} agents: {', '.join(names)}", bundle, hook))
    return found
