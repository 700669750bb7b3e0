"""Use cases of ``hooks adopt``: take hand-written hooks into a bundle, and give them back (``--undo``).

Adopting writes the manifest (``adopt.manifest_text``), then marks each adopted entry as that
bundle's registration: its command gains hookweave's marker, and the record lists it. Nothing else
in the settings file changes (Cursor's ``"version": 1`` is added if it was missing, as install
does). The edit is planned as ``plan_install`` of the new bundle over the marked text, so the
record is exactly what install writes, and a later install of the manifest writes nothing.

``--undo NAME`` takes the marker off every entry the record lists for ``NAME`` and drops it from
the record: the entries stay, hand-written again (after an adopt, the original bytes). It works on
any installed bundle: "keep these hooks, stop managing them".
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput, HooksError
from hookweave.core.files import fileio, paths
from hookweave.core.formats.patch import diff, same
from hookweave.core.model import record
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import without_marker
from hookweave.core.plan import adoption as adopt
from hookweave.core.plan import created_containers, merge, spelling
from hookweave.core.usecases.transaction import run

if TYPE_CHECKING:
    from hookweave.core.plan.plan import FilePlan, Target

MANIFEST = "hookweave.toml"


def take(target: Target, name: str, event: str | None, out: Path, *, force: bool, trust: bool,
         dry_run: bool) -> tuple[list[FilePlan], Path, str]:
    """Adopt; returns the plans, the manifest's path and text. Nothing is written on any error."""
    from hookweave.core.plan import plan as planning

    host = target.host
    if host.runs == "exec":
        raise BadInput(f"{target.shown}: {adopt.EXEC_REFUSED.format(title=host.title)}")
    native = adopt.native_event(host, event) if event is not None else None
    manifest_path = out / MANIFEST
    if fileio.read_text(manifest_path) is not None and not force:
        raise BadInput(f"{paths.display(manifest_path)}: a manifest is there already; pass --out with another "
                       "folder, or --force to replace it")
    about = f"{host.title} {target.scope} settings"
    built: dict[str, object] = {}

    def planner(t: Target, text: str | None, record_text: str | None) -> FilePlan:
        doc, rec = planning.load(t, text, record_text)
        if name in rec.bundles:
            raise BadInput(f"{t.shown}: a bundle named {paths.printable(name)} is installed here already; choose another --name")
        found = adopt.collect(host, doc, t.shown, native)
        text_, bundle = adopt.manifest_text(host, name, found, manifest_path, about)
        built.update(text=text_, count=len(found))
        marked_doc = _marked(host, doc, found, bundle)
        ops = diff(doc, marked_doc)
        moved = _moves(host, found)
        marked_text = host.apply(text, spelling.spelled(ops, _spellings(host, text, ops, doc))
                                 + _respelled(host, text, marked_doc, moved), t.shown)
        if not host.reads_as(text, marked_text, marked_doc, t.shown, ops):
            raise RuntimeError(f"internal error: the edit of {t.shown} does not match its plan; nothing written")
        plan = planning.plan_install(t, marked_text, record_text, bundle, force=False)
        plan.new_record = _with_joined(plan.new_record, t, name, found, bundle)
        after = plan.new_doc if plan.new_doc is not None else marked_doc
        if not same(after.get(host.hooks_key), marked_doc.get(host.hooks_key)):
            raise BadInput(f"{t.shown}: installing the adopted bundle would move entries; adopt one --event at a time")
        plan.old_text = text
        plan.ops = diff(doc, after)
        split = sum(1 for item in found if item.part == 0 and item.parts > 1)
        plan.actions = [f"adopted {len(found)} hook{'' if len(found) == 1 else 's'} into {name} "
                        f"({paths.display(manifest_path)})"
                        + (f"; {split} group{' ' if split == 1 else 's '}of several hooks now one group per hook, "
                           "same matcher (--undo joins them again)" if split else "")]
        return plan

    plans = run([target], planner, dry_run=True, force_hint="", bundle=name, trust=trust)
    text = str(built["text"])
    if dry_run:
        return plans, manifest_path, text
    old_manifest = fileio.read_text(manifest_path)
    folders = fileio.missing_folders([manifest_path])
    fileio.write_text(manifest_path, text, old_manifest)
    try:
        plans = run([target], planner, dry_run=False, force_hint="", bundle=name, trust=trust)
    except BaseException:
        fileio.write_text(manifest_path, old_manifest, text)  # the settings were not written: neither is this
        fileio.remove_empty_dirs(folders)
        raise
    if built["text"] != text:  # a host saved the file between the preview and the write: as marked now
        fileio.write_text(manifest_path, str(built["text"]), text)
        text = str(built["text"])
    return plans, manifest_path, text


def _marked(host, doc: dict, found: list, bundle) -> dict:
    """``doc`` with each found entry replaced by its marked copy (new containers on the way only)."""
    from hookweave.core.model.render import marker

    new = dict(doc)
    hooks = new[host.hooks_key] = dict(new[host.hooks_key])
    pieces: dict[tuple[str, int], list] = {}
    for item, hook in zip(found, bundle.hooks):  # a group of several handlers: one group per handler
        pieces.setdefault((item.event, item.index), []).append(adopt.marked(host, item.entry, marker(bundle.name, hook.id)))
    for event in dict.fromkeys(item.event for item in found):
        hooks[event] = [e for i, entry in enumerate(hooks[event]) for e in pieces.get((event, i), [entry])]
    return new


def _with_joined(record_text: str | None, t: Target, name: str, found: list, bundle) -> str | None:
    """The record with the groups adopt split (their hook ids, in order), for --undo to join again."""
    groups: dict[tuple[str, int], list[str]] = {}
    for item, hook in zip(found, bundle.hooks):
        if item.parts > 1:
            groups.setdefault((item.event, item.index), []).append(hook.id)
    rec = record.from_text(record_text, str(t.record_path))
    if not groups or name not in rec.bundles:
        return record_text
    bundles = {**rec.bundles, name: rec.bundles[name]._replace(joined=tuple(tuple(ids) for ids in groups.values()))}
    return record.to_text(rec._replace(bundles=bundles), t.path.name)


def _moves(host, found: list) -> list[tuple[list, list]]:
    """Per handler of a group adopt splits into one group per handler: the path of its command in
    the file before (in its old group) and after (its new group's only handler), as ``_marked``
    places it: each split group's new groups follow it, so later entries of the event move down."""
    out = []
    for item in found:
        if item.parts > 1:  # its group is written anew: each command respelled, the first one too
            grown = sum(g.parts - 1 for g in found if g.event == item.event and g.index < item.index and g.part == 0)
            old = [host.hooks_key, item.event, str(item.index), "hooks", str(item.part), "command"]
            new = [host.hooks_key, item.event, str(item.index + grown + item.part), "hooks", "0", "command"]
            out.append((old, new))
    return out


def _respelled(host, text: str | None, new_doc: dict, moves: list[tuple[list, list]]) -> list[dict]:
    """Ops that write each moved command as the file spelled it (``"\u003e"`` stays an escape), with
    only the marker added or taken off, so the round trip gives the bytes back."""
    from hookweave.core.formats import jsonspans

    out = []
    for old, new in moves if text is not None else ():
        try:
            spelled = jsonspans.value_text(text, host.comments, old)
        except HooksError:
            return []  # not JSON: nothing to respell
        value = _at(new_doc, new)
        again = _spelled_as(spelled, value) if spelled is not None and isinstance(value, str) else None
        if again is not None:
            out.append({"op": "replace", "path": "/" + "/".join(t.replace("~", "~0").replace("/", "~1") for t in new),
                        "value": value, "spelling": again})
    return out


def give_back(target: Target, name: str, *, dry_run: bool) -> list[FilePlan]:
    """``--undo``: take the marker off ``name``'s recorded entries and drop it from the record."""
    return run([target], lambda t, text, rec: _plan_give_back(t, text, rec, name), dry_run=dry_run, force_hint="",
               bundle=name)


def _plan_give_back(target: Target, text: str | None, record_text: str | None, name: str) -> FilePlan:
    from hookweave.core.plan import plan as planning

    host = target.host
    doc, rec = planning.load(target, text, record_text)
    prev = rec.bundles.get(name)
    if prev is None:
        raise BadInput(f"{target.shown}: no bundle named {paths.printable(name)} is installed here; `hooks status` lists them")
    new = dict(doc)
    hooks = new.get(host.hooks_key)
    findings: list[Finding] = []
    released, moves = 0, []
    if isinstance(hooks, dict):
        hooks = new[host.hooks_key] = dict(hooks)
        for event in dict.fromkeys(h.event for h in prev.hooks):
            entries = hooks.get(event)
            if not isinstance(entries, list):
                continue
            ours = merge.accounted(entries, name, prev.hashes(event), host.owner)
            if not ours:
                continue
            entries = list(entries)
            for index, hook_id in ours.items():
                entries[index] = _unmarked(host, entries[index])
                released += 1
            hooks[event], joins = _join(host, event, entries, ours, prev.joined)
            moves += joins
    if prev.env:
        findings.append(Finding("note", f"env {', '.join(sorted(prev.env))} stays as it is, now the operator's", name))
    bundles = {k: v for k, v in rec.bundles.items() if k != name}
    created = list(rec.created)
    if not bundles:  # what install added for hooks to load (Cursor's "version": 1) goes, as on uninstall
        created_containers.drop_empty(new, created, host.required)
    new_rec = record.Record(bundles, tuple(created) if bundles else (), rec.created_file and bool(bundles),
                            rec.created_folder if bundles else 0)
    ops = diff(doc, new)
    spellings = _spellings(host, text, ops, doc)
    plan = planning._finish(target, text, record_text, doc, new, new_rec, findings, [], spellings)
    respelled = _respelled(host, text, new, moves)
    if respelled and text is not None:  # the joined handlers' commands as the file spelled them
        plan.new_text = host.apply(text, spelling.spelled(plan.ops, spellings) + respelled, target.shown)
        if not host.reads_as(text, plan.new_text, new, target.shown, plan.ops):
            raise RuntimeError(f"internal error: the edit of {target.shown} does not match its plan; nothing written")
    plan.actions = [f"gave back {released} hook{'' if released == 1 else 's'} of {name} {prev.version}: "
                    "hand-written again, no longer a bundle's"]
    return plan


def _join(host, event: str, entries: list, ours: dict[int, str], joined) -> tuple[list, list]:
    """``entries`` with each group adopt split (``joined``: its hook ids) one group again, where its
    pieces are still side by side with the same keys; and the moves of their commands (``_moves``)."""
    where = {hook_id: index for index, hook_id in ours.items()}
    merged: dict[int, tuple[list[int], dict]] = {}
    for ids in joined:
        idx = [where.get(hook_id) for hook_id in ids]
        if None in idx or idx != list(range(idx[0], idx[0] + len(idx))):
            continue  # a piece moved or went: the groups stay as they are
        groups = [entries[i] for i in idx]
        keys = [{k: v for k, v in g.items() if k != "hooks"} if isinstance(g, dict) else None for g in groups]
        if all(isinstance(g, dict) and isinstance(g.get("hooks"), list) and len(g["hooks"]) == 1 and k == keys[0]
               for g, k in zip(groups, keys)):
            merged[idx[0]] = (idx, {**groups[0], "hooks": [g["hooks"][0] for g in groups]})
    dropped = {i for idx, _ in merged.values() for i in idx[1:]}
    out: list = []
    moves = []
    for i, entry in enumerate(entries):
        if i in merged:
            idx, group = merged[i]
            moves += [([host.hooks_key, event, str(j), "hooks", "0", "command"],
                       [host.hooks_key, event, str(len(out)), "hooks", str(k), "command"]) for k, j in enumerate(idx)]
            out.append(group)
        elif i not in dropped:
            out.append(entry)
    return out, moves


def _spellings(host, text: str | None, ops: list[dict], doc: dict) -> dict[str, str]:
    """Per replaced command, the new value spelled as the file spelled the old one (``"\\u00e9"``
    stays an escape): only the marker differs, so --undo gives the original bytes back."""
    from hookweave.core.formats import jsonspans
    from hookweave.core.formats.jsontext import split_pointer

    out: dict[str, str] = {}
    for op in ops if text is not None else ():
        tokens = split_pointer(op["path"])
        old = _at(doc, tokens)
        if op["op"] != "replace" or tokens[-1] != "command" or not isinstance(old, str):
            continue
        try:
            spelled = jsonspans.value_text(text, host.comments, tokens)
        except HooksError:  # not JSON (Codex config.toml: tomledit keeps a string's kind itself)
            return {}
        if spelled is None or not spelled.endswith('"') or json.loads(spelled) != old:
            continue
        again = _spelled_as(spelled, op["value"])
        if again is not None:
            out[op["path"]] = again
    return out


def _spelled_as(spelled: str, new: str) -> str | None:
    """``new`` (a command with hookweave's marker added or taken off) spelled as ``spelled`` spells
    the old command, or ``None``."""
    if not spelled.endswith('"'):
        return None
    old = json.loads(spelled)
    if new.startswith(old):  # adopt: the marker appended
        return spelled[:-1] + json.dumps(new[len(old):], ensure_ascii=False)[1:]
    for before in ("", " ;"):  # --undo: the marker, however the file spells its separator, taken off (and the " ;")
        pattern = before + r'(?: |\\n|\\u00(?:0[aA]|20))# hookweave:[a-z0-9-]+/[a-z0-9-]+[ \t]*"$'
        cut = re.sub(pattern, '"', spelled)
        if cut != spelled and json.loads(cut) == new:
            return cut
    return None


def _at(doc, tokens: list[str]):
    node = doc
    for token in tokens:
        if isinstance(node, list):
            node = node[int(token)] if token.isdigit() and int(token) < len(node) else None
        else:
            node = node.get(token) if isinstance(node, dict) else None
    return node


def _unmarked(host, entry: dict) -> dict:
    handler = host.handler_of(entry)
    kept = without_marker(handler["command"], host.runs)  # and the " ;" through_a_shell brought on argv hosts
    new = {**handler, "command": kept}
    if handler is entry:
        return new
    return {**entry, "hooks": [new if h is handler else h for h in entry["hooks"]]}

