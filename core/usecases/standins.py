"""Uninstall and the hooks one agent runs from another's file (``plan/standin.py``).

A bundle installed for Claude and Copilot CLI in one run is written into Claude's project settings
only, and Copilot runs it from there (``split``; installed for Copilot alone later, it stays so).
So taking it out of Claude alone would take it out of Copilot without a word, and taking it out of
Copilot alone cannot: Copilot goes on running Claude's copy.
Both are refused (exit 1, nothing written) with the command that does it; ``--force`` takes it out
of Claude anyway, or out of Copilot's own file with a warning that Claude's copy still runs there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from hookweave.core.errors import BadInput, NotInstalled, Refused
from hookweave.core.files import fileio, paths
from hookweave.core.model import record

if TYPE_CHECKING:
    from hookweave.core.plan.plan import Target


def split(targets: list[Target], bundle, project_of: Callable):
    """``plan.standin.split`` over this install's targets; and a reader installed alone keeps out
    of its file what it already runs from a source's file, as an earlier install for both recorded."""
    from hookweave.core.plan import standin
    from hookweave.core.reading.standins import borrowed

    out = standin.split(targets, bundle, project_of)
    writing = {t.host.name for t in targets}
    for t in targets:
        if t.record_path is not None and t.scope != "user" and getattr(t.host, "also_reads", ()):
            rows = [b for b in borrowed(t.host, project_of(t.host), bundle.name) if b.source.name not in writing]
            standin.keep_borrowed(out, t, bundle, rows)
    return out


def check_sources(targets: list[Target], name: str, *, force: bool) -> None:
    """Refuse to take ``name`` out of a source's file while a reader not in this uninstall runs it
    from there (its ``runs_for``), unless ``force``."""
    hosts = {t.host.name for t in targets}
    for t in targets:
        if t.record_path is None or force:
            continue
        try:
            rec = record.from_text(fileio.read_text(t.record_path), str(t.record_path))
        except BadInput:
            continue  # the uninstall itself names a record it cannot read
        bundle = rec.bundles.get(name)
        readers = sorted(r for r in (bundle.runs_for if bundle else {}) if r not in hosts)
        if readers:
            ids, title = bundle.runs_for[readers[0]], _title(readers[0])
            more = "".join(f" --host {r}" for r in readers)
            raise Refused(paths.printable(
                f"{t.shown}: {title} runs {len(ids)} hook{'' if len(ids) == 1 else 's'} of {name} from this file, "
                f"as installed for both; nothing written. Uninstall it from both (add{more}), then install it for "
                f"{readers[0]} alone to keep it there; or rerun with --force to take it from {title} too"))


def _title(name: str) -> str:
    from hookweave.core.contract import registry as plugins

    hosts = plugins.HostRegistry.current or plugins.registry()
    return hosts.info(name).cls.title if name in hosts.names() else name


def check_readers(targets: list[Target], name: str, project_of: Callable, *, force: bool) -> dict:
    """A reader in this uninstall that runs ``name`` from a source's file not in it: refused, as it
    would go on running those hooks; with ``force`` and a copy of its own, that copy goes and a
    warning says what stays (``{id(target): [Finding]}``)."""
    from hookweave.core.model.findings import Finding
    from hookweave.core.reading.standins import borrowed

    hosts = {t.host.name for t in targets}
    said: dict = {}
    for t in targets:
        if t.record_path is None or t.scope == "user":
            continue
        kept = [b for b in borrowed(t.host, project_of(t.host), name) if b.source.name not in hosts]
        if not kept:
            continue
        b = kept[0]
        what = (f"{t.host.title} runs {len(b.ids)} hook{'' if len(b.ids) == 1 else 's'} of {name} from {b.shown} "
                f"({b.source.title}'s {b.scope} settings), as installed for both, and goes on running "
                f"{'it' if len(b.ids) == 1 else 'them'} from there")
        fix = f"uninstall it from {b.source.name} too (--host {b.source.name} --host {t.host.name})"
        try:
            own = name in record.from_text(fileio.read_text(t.record_path), str(t.record_path)).bundles
        except BadInput:
            own = True  # the uninstall itself names a record it cannot read
        if own and force:
            said.setdefault(id(t), []).append(Finding("warning", f"{what}: {fix}", name))
        elif own:
            raise Refused(paths.printable(f"{what}; nothing written. To take it out of {t.host.title}, {fix}; or rerun "
                                          f"with --force to remove only the copies in {t.shown}"))
        else:
            raise NotInstalled(paths.printable(f"{what}; nothing written. To take it out of {t.host.title}, {fix}"))
    return said
