"""Pure planning of install and uninstall for one settings file: texts in, texts and patch out."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.formats import jsonlite, patch
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.patch import escape, sha256
from hookweave.core.model import record
from hookweave.core.model.bundle import Bundle, Finding
from hookweave.core.model.runnable import EVERY_PROJECT
from hookweave.core.plan import (created_containers, envmerge, handwritten, managedlayer, merge, resolve, spelling,
                                  standin)


class Target(FieldTuple):
    """One settings file of one host."""

    host: Host
    scope: str
    path: Path
    record_path: Path | None  # None for a companion file, which has no record of its own
    shown: str  # the path as we print it
    folder_existed: bool = True  # whether the settings file's folder existed before this command
    folders_missing: int = 0  # how many folders, from it upwards, did not (CLAUDE_CONFIG_DIR=~/a/b)


class FilePlan:
    """What a command will write to one file (mutable: companions and gates add to it)."""

    __slots__ = ("target", "old_text", "new_text", "old_record", "new_record", "ops", "findings", "refused",
                 "actions", "remove_folder", "new_doc")

    def __init__(
        self, target: Target, old_text: str | None, new_text: str | None, old_record: str | None,
        new_record: str | None, ops: list[dict] | None = None, findings: list[Finding] | None = None,
        refused: list[Finding] | None = None, actions: list[str] | None = None, remove_folder: int = 0,
    ) -> None:
        self.target, self.old_text, self.new_text = target, old_text, new_text
        self.old_record, self.new_record = old_record, new_record
        self.ops = ops if ops is not None else []
        self.findings = findings if findings is not None else []
        self.refused = refused if refused is not None else []
        self.actions = actions if actions is not None else []
        self.remove_folder = remove_folder  # the last bundle left: how many folders install had created, upwards
        self.new_doc: Any = None  # the data ``new_text`` reads as, when the plan knows it (shared: read only)

    def __repr__(self) -> str:
        return f"FilePlan({self.target.shown!r}, changed={self.changed})"

    @property
    def changed(self) -> bool:
        return self.old_text != self.new_text or self.old_record != self.new_record


def load(target: Target, text: str | None, record_text: str | None) -> tuple[Any, record.Record]:
    """Parse and shape-check a settings file and its record (``{}`` when the file is missing)."""
    doc = {} if text is None else target.host.parse(text, target.shown)
    target.host.check_document(doc, target.shown)
    rec = record.from_text(record_text, str(target.record_path))
    _check_created(rec, target)
    return doc, rec


def _check_created(rec: record.Record, target: Target) -> None:
    """A created pointer names a container install made, which the last uninstall deletes once
    empty: only the places install creates qualify, or a hand edit could delete the operator's."""
    host = target.host
    hooks = f"/{escape(host.hooks_key)}"
    allowed = {hooks} | {f"/{escape(k)}" for k in host.required} | ({f"/{escape(host.env_key)}"} if host.env_key else set())
    for i, pointer in enumerate(rec.created):
        if pointer in allowed or (pointer.startswith(hooks + "/") and pointer.count("/") == 2):
            continue
        raise BadInput(
            f"{paths.display(target.record_path)}: created[{i}]: {jsonlite.dumps(pointer)} is not a place hookweave "
            f"creates in a {host.title} file; {record.FIX}"
        )


def plan_install(target: Target, text: str | None, record_text: str | None, bundle: Bundle, *, force: bool,
                 inherited: Mapping[str, tuple[str, str]] | None = None, project: Path | None = None,
                 runs_for: Mapping[str, tuple[str, ...]] | None = None, readers: frozenset = frozenset()) -> FilePlan:
    """``inherited``: per env variable, the value the host uses when this file does not set it,
    and where from (a lower scope's settings, the shell install runs in): env policies weigh it.
    ``runs_for``: hooks other agents of this run (``readers``) run from here (``standin.split``)."""
    host = target.host
    doc, rec = load(target, text, record_text)
    managedlayer.check_writable(host, target.scope, target.shown, text is not None, rec.created_file)
    runner = ""  # a chain's runner as a shell word, worked out only for a bundle that chains
    if any((h.order or bundle.order) == "chain" for h in bundle.hooks):
        from hookweave.core.plan import chain

        where = None if target.scope in EVERY_PROJECT else project  # run in every project: the runner's full path
        runner = chain.runner_word(host, chain.runner_path(target.path), where)
    regs, findings = resolve.registrations(host, bundle, runner)
    findings += [Finding("warning", said) for said in host.skipped_entries(doc, target.shown)]
    dropped = dict(host.dropped_lists(doc, target.shown))
    hit = next((r.event for r in regs if r.event in dropped), None)
    if hit:  # the agent would drop the list ours goes into; uninstall still takes ours out of it
        raise BadInput(f"{target.shown}: {dropped[hit]}")
    findings += [Finding("warning", said) for said in dropped.values()]
    env_wanted, env_notes = resolve.env_vars(host, bundle)
    findings += env_notes
    prev = rec.bundles.get(bundle.name)
    new = _editable(doc, host)
    created = list(rec.created)
    refused: list[Finding] = []
    hooks_key = host.hooks_key
    # Events we add to and events the previous version used: the only places the record accounts
    # for. A copy of our entry anywhere else is the operator's and stays as it is.
    events = list(dict.fromkeys([r.event for r in regs] + ([h.event for h in prev.hooks] if prev else [])))
    known = set(prev.hashes()) if prev else set()
    ours: dict[str, Any] = {}
    for event in events:
        event_regs = [r for r in regs if r.event == event]
        hooks = new.get(hooks_key)
        if hooks is None:
            if not event_regs:
                continue
            hooks = new[hooks_key] = {}
            created_containers.mark(created, f"/{escape(hooks_key)}")
        entries = hooks.get(event)
        if entries is None:
            if not event_regs:
                continue
            entries = hooks[event] = []
            created_containers.mark(created, f"/{escape(hooks_key)}/{escape(event)}")
        if not isinstance(entries, list):
            continue  # an event the host does not know, holding something else: not ours to touch
        entries, twins = handwritten.drop_hand_written(host, target.scope, event, entries, event_regs, known, force)
        refused += twins if not force else []
        findings += twins if force else []
        outcome = merge.update_event(
            entries, bundle.name, event_regs, prev.hashes(event) if prev else {}, host.owner,
            lambda e: host.strip_ours(e, bundle.name), known=known, force=force, positional=host.positional,
        )
        hooks[event] = outcome.entries
        ours.update(outcome.ours)
        refused += [Finding("problem", why, bundle.name, hook_id) for hook_id, why in outcome.refused]
        findings += [Finding("note", why, bundle.name, hook_id) for hook_id, why in outcome.notes]
    kept = set(prev.traces_before) if prev else set()
    dropped = [h.id for h in prev.hooks if h.id not in {r.id for r in regs} and h.id not in kept] if prev else []
    if dropped:
        host.forget(new, bundle.name, dropped)
    # Traces our hooks had before we installed them are the operator's (Gemini: /hooks disable
    # ran on a same-named hook), so uninstall leaves them; new ones are the host's record of ours.
    before = host.traces(doc, bundle.name)
    known_ids = {h.id for h in prev.hooks} if prev else set()
    traces_before = tuple(r.id for r in regs if (r.id in kept if r.id in known_ids else r.id in before))
    if regs:
        for key, value in host.required.items():
            if key not in new:
                new[key] = value
                created_containers.mark(created, f"/{escape(key)}")
    env_record: dict[str, envmerge.RecordedEnv] = {}
    if host.env_key and (env_wanted or (prev and prev.env)):
        env_record, notes = _install_env(new, created, host.env_key, env_wanted, prev.env if prev else {}, inherited)
        env_record = spelling.spelled_priors(env_record, text, doc, host)
        findings += [Finding("note", f"{name}: {why}", bundle.name) for name, why in notes]
    if host.hook_env and regs:
        exported = {n: v for n, (v, where) in (inherited or {}).items() if where == envmerge.EXPORTED}
        findings += envmerge.hook_env_findings(host, bundle, exported)
    created_containers.drop_empty(new, created, {})
    recorded_hooks = tuple(record.RecordedHook(r.id, r.event, r.position, sha256(ours.get(r.id)), r.members) for r in regs)
    readers_of = standin.runs_for(prev.runs_for if prev else {}, dict(runs_for or {}), set(readers), {r.id for r in regs})
    joined = prev.joined_within({r.id for r in regs}) if prev else ()  # adopt's groups, while their hooks stay
    mine = record.RecordedBundle(bundle.version, recorded_hooks, env_record, traces_before, readers_of, joined)
    created_file = rec.created_file or text is None
    created_folder = rec.created_folder or (0 if text is not None else target.folders_missing)
    new_rec = record.Record({**rec.bundles, bundle.name: mine}, tuple(created), created_file, created_folder)
    plan = _finish(target, text, record_text, doc, new, new_rec, findings, refused, spelling.spellings(host, prev))
    plan.actions = _install_actions(prev, bundle, regs, plan.changed)
    return plan


def plan_uninstall(target: Target, text: str | None, record_text: str | None, name: str, *, force: bool,
                   by_marker: bool = False) -> FilePlan:
    host = target.host
    doc, rec = load(target, text, record_text)
    prev = rec.bundles.get(name)
    if prev is None:
        return _unrecorded(target, text, record_text, doc, rec, name, by_marker)
    new = _editable(doc, host)
    findings: list[Finding] = []
    refused: list[Finding] = []
    hooks = new.get(host.hooks_key) or {}
    recorded_events = set(h.event for h in prev.hooks)
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        if event not in recorded_events:  # no entry here is ours, whatever marker it carries
            findings += [Finding("note", f"a copy with our marker under {event} is not ours to remove; left in place",
                                 name, hook_id) for _, hook_id in merge.copies(entries, name, {}, host.owner)]
            continue
        outcome = merge.remove_bundle(
            entries, name, prev.hashes(event), host.owner, lambda e: host.strip_ours(e, name), force=force
        )
        hooks[event] = outcome.entries
        refused += [Finding("problem", why, name, hook_id) for hook_id, why in outcome.refused]
        findings += [Finding("note", why, name, hook_id) for hook_id, why in outcome.notes]
    if host.env_key and prev.env and isinstance(new.get(host.env_key), dict):
        new[host.env_key], notes = envmerge.uninstall_env(new[host.env_key], prev.env)
        findings += [Finding("note", f"{var}: {why}", name) for var, why in notes]
    host.forget(new, name, [h.id for h in prev.hooks if h.id not in prev.traces_before])
    created = list(rec.created)
    bundles = {k: v for k, v in rec.bundles.items() if k != name}
    created_containers.drop_empty(new, created, host.required if not bundles else {})
    new_rec = record.Record(bundles, tuple(created), rec.created_file, rec.created_folder)
    plan = _finish(target, text, record_text, doc, new, new_rec, findings, refused, spelling.spellings(host, prev))
    if new_rec.empty and rec.created_file and new == {}:
        plan.new_text = None  # we created the file; removing the last bundle removes it
        plan.remove_folder = rec.created_folder
    plan.actions = [f"removed {name} {prev.version}"]
    return plan


def _unrecorded(target: Target, text, record_text, doc, rec: record.Record, name: str, by_marker: bool) -> FilePlan:
    """No record lists ``name`` here: its marked entries, if any, are named, and removed under
    ``--by-marker`` only (``orphans``)."""
    from hookweave.core.plan import orphans

    found = orphans.marked(target.host, doc, name)
    if not found:
        return FilePlan(target, text, text, record_text, record_text, actions=[f"{name} is not installed here"])
    if not by_marker:
        plan = FilePlan(target, text, text, record_text, record_text, actions=[f"{name} is not in the record here"])
        plan.findings.append(orphans.finding(name, found, "warning"))
        return plan
    new = _editable(doc, target.host)
    removed = orphans.remove(target.host, new, name)
    plan = _finish(target, text, record_text, doc, new, rec, orphans.notes(name, removed, bool(target.host.env_key)), [])
    if target.host.owns_file and new == {} and rec.empty:
        plan.new_text = None  # hookweave's own file, holding nothing else: it goes
    plan.actions = [f"removed {name} by its marker ({len(removed)} entr{'y' if len(removed) == 1 else 'ies'})"]
    return plan


def _editable(doc: dict, host: Host) -> dict:
    """The plan's copy of the file's data: new containers only where the plan writes (the top
    level and the hooks object; event lists and env come back from ``merge`` and ``envmerge`` as
    new lists and dicts, and ``Host.forget`` assigns top-level keys), every other value shared
    with ``doc``, which stays as read. A deep copy cost a 100,000-entry file more time than its
    edit, and as much memory again as its data. The file's data is shared with the rest of the
    command (``jsontext.load`` keeps it), so nothing may change a nested container in place: a
    change made there would be in both, and no check could see it (``Host.forget``'s contract;
    tests/attack/test_attack_properties.py checks every plan leaves the data it read as it was)."""
    new = dict(doc)
    if isinstance(new.get(host.hooks_key), dict):
        new[host.hooks_key] = dict(new[host.hooks_key])
    return new


def _install_env(new: dict, created: list[str], key: str, wanted, recorded, inherited) -> tuple[dict, list]:
    existed = key in new
    env, env_record, notes = envmerge.install_env(new.get(key, {}), wanted, recorded, inherited)
    if existed or env:
        new[key] = env
        if not existed:
            created_containers.mark(created, f"/{escape(key)}")
    return env_record, notes


def _finish(target, text, record_text, doc, new, new_rec, findings, refused, spellings=None) -> FilePlan:
    host = target.host
    ops = patch.diff(doc, new)
    base = text if text is not None else host.new_file_text()
    new_text = host.apply(base, spelling.spelled(ops, spellings or {}), target.shown) if ops else text
    if ops:
        # Two independent routes to the same data, or we write nothing: the text editor's result
        # read back, and jsonpatch applying the same operations to the parsed file. Both cost what
        # changed: the text proof reads only the changed values again (``jsoncheck``), and
        # jsonpatch copies only the containers on the operations' paths.
        if not host.reads_as(base, new_text, new, target.shown, ops) or not patch.same(patch.applied(doc, ops), new):
            raise RuntimeError(f"internal error: the edit of {target.shown} does not match its plan; nothing written")
    new_record = record.to_text(new_rec, target.path.name)
    plan = FilePlan(target, text, new_text, record_text, new_record, ops, findings, refused)
    plan.new_doc = new if ops else doc  # what the new text reads as, proven above: the gates read it
    return plan


def _install_actions(prev, bundle: Bundle, regs, changed: bool) -> list[str]:
    if not changed:
        return [f"{bundle.name} {bundle.version} already installed; nothing written"]
    if prev is None:
        count = sum(len(r.members) or 1 for r in regs)
        chains = sum(1 for r in regs if r.members)
        chained = f", {chains} chain{'' if chains == 1 else 's'}" if chains else ""
        return [f"installed {bundle.name} {bundle.version} ({count} hook{'' if count == 1 else 's'}{chained})"]
    if prev.version != bundle.version:
        return [f"upgraded {bundle.name} {prev.version} -> {bundle.version}"]
    return [f"updated {bundle.name} {bundle.version}"]
