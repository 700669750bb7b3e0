"""Pure: one copy of a hook for two agents when one of them runs the other's file (issue 25).

Copilot CLI runs the hooks in Claude's project and local settings as well as its own, so a bundle
installed for both would fire twice in Copilot. When one install writes a bundle for a host (the
source: Claude) and for an agent that runs that host's file at the scope written (the reader:
Copilot, its ``Reads`` row naming the events it ``covers``), a hook the reader would run from the
source's entry exactly as its own copy is left out of the reader's file: each agent runs it once.
The source's record says so (``runs_for``): verify and status show the hook as the reader's, run
from the source's file, and uninstall keeps the two together.

A hook stays in both files when the reader might run the source's copy differently: a host table
of its own for either host (another command, event or native matcher), a chain (the runner judges
answers by the source's protocol), an event the reader is not measured to cover, a condition on
the reading (Cursor's third-party setting), or a reader at user scope with the source's copy in
one project.
"""

from typing import Callable

from hookweave.core.contract.reads import Reads
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model import names
from hookweave.core.model.bundle import Bundle, BundleHook, Finding


class Split(FieldTuple):
    """An install's plan per target, keyed by ``id(target)``: the bundle to write there, the
    source's ``runs_for`` (``{reader: hook ids}``), the readers planned in this run at each source
    (whose earlier ``runs_for`` this run replaces) and what to say."""

    bundles: dict
    runs_for: dict
    readers: dict
    notes: dict


def stands_in(row: object, source_scope: str) -> bool:
    """Whether a reader's ``Reads`` row lets the source's file at ``source_scope`` stand in for its own."""
    return (isinstance(row, Reads) and source_scope in row.scopes and bool(row.covers) and not row.condition
            and row.matchers == "honoured")


def covered(hook: BundleHook, bundle: Bundle, row: Reads, source, reader) -> bool:
    """Whether ``reader`` runs ``source``'s entry of ``hook`` as it would run its own copy."""
    if hook.hosts is not None and not {source.name, reader.name} <= set(hook.hosts):
        return False
    if source.name in hook.overrides or reader.name in hook.overrides:
        return False
    if (hook.order or bundle.order) == "chain":
        return False
    if source.events.get(hook.event) not in row.covers or not reader.events.get(hook.event):
        return False
    # Neutral tool names only (a native matcher string needs a host table, refused above): the
    # reader maps each of its tools to the source's name, measured for every neutral tool.
    return hook.matcher is None or (isinstance(hook.matcher, tuple) and all(t in names.TOOLS for t in hook.matcher))


def split(targets: list, bundle: Bundle, project_of: Callable) -> Split:
    """Who writes what: for each reader and source both in ``targets`` (in one project, the reader
    not at user scope), the hooks the source's copy covers leave the reader's bundle."""
    out = Split({}, {}, {}, {})
    sources = {t.host.name: t for t in targets if t.record_path is not None}
    for t in targets:
        if t.record_path is None or t.scope == "user":
            continue
        for row in getattr(t.host, "also_reads", ()):
            source = sources.get(row.host)
            if source is None or not stands_in(row, source.scope) or project_of(source.host) != project_of(t.host):
                continue
            ids = tuple(h.id for h in bundle.hooks if covered(h, bundle, row, source.host, t.host))
            out.readers.setdefault(id(source), set()).add(t.host.name)
            if not ids:
                continue
            mine = out.bundles.get(id(t), bundle)
            out.bundles[id(t)] = mine._replace(hooks=tuple(h for h in mine.hooks if h.id not in ids))
            out.runs_for.setdefault(id(source), {})[t.host.name] = ids
            one = len(ids) == 1
            said = f"{len(ids)} hook{'' if one else 's'} ({', '.join(ids)})"
            out.notes.setdefault(id(source), []).append(Finding(
                "note", f"{t.host.title} runs {said} from this file as its own, so {'it is' if one else 'they are'} "
                "written here only: once in each agent", bundle.name))
            out.notes.setdefault(id(t), []).append(Finding(
                "note", f"{said} not written here: {t.host.title} runs {'it' if one else 'them'} from {source.shown} "
                f"({source.host.title}'s {source.scope} settings), once", bundle.name))
    return out


def keep_borrowed(out: Split, t, bundle: Bundle, rows: list) -> None:
    """A reader installed alone that already runs hooks of ``bundle`` from a source's file, as an
    earlier install for both recorded (``reading.standins.Borrowed`` rows): a copy of its own would
    fire twice, so those hooks stay out of its file too."""
    ids = tuple(i for row in rows for i in row.ids if any(h.id == i for h in out.bundles.get(id(t), bundle).hooks))
    if not ids:
        return
    mine = out.bundles.get(id(t), bundle)
    out.bundles[id(t)] = mine._replace(hooks=tuple(h for h in mine.hooks if h.id not in ids))
    one, row = len(ids) == 1, rows[0]
    out.notes.setdefault(id(t), []).append(Finding(
        "note", f"{len(ids)} hook{'' if one else 's'} ({', '.join(ids)}) not written here: {t.host.title} runs "
        f"{'it' if one else 'them'} from {row.shown} ({row.source.title}'s {row.scope} settings), as installed for "
        "both", bundle.name))


def runs_for(prev: dict, planned: dict, readers: set, ids: set) -> dict:
    """The source's ``runs_for`` after an install: this run's for the readers planned in it, and the
    earlier ones of readers not in this run for the hooks still installed (an upgrade for Claude alone
    keeps Copilot running them)."""
    kept = {r: tuple(i for i in hooks if i in ids) for r, hooks in prev.items() if r not in readers}
    return {r: tuple(hooks) for r, hooks in sorted({**kept, **planned}.items()) if hooks}
