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
from hookweave.core.plan import merge, spelling
from hookweave.core.usecases.transaction import run

if TYPE_CHECKING:
    from hookweave.core.plan.plan import FilePlan, Target

MANIFEST = "hookweave.toml"


def take(target: Target, name: str, event: str | None, out: Path, *, force: bool, trust: bool,
         dry_run: bool) -> tuple[list[FilePlan], Path, str]:
    """Adopt; returns the plans, the manifest's path and text. Nothing is written on any error."""
    from hookweave.core.plan import plan as planning

    host = target.host
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
        marked_text = host.apply(text, spelling.spelled(ops, _spellings(host, text, ops, doc)), t.shown)
        if not host.reads_as(text, marked_text, marked_doc, t.shown, ops):
            raise RuntimeError(f"internal error: the edit of {t.shown} does not match its plan; nothing written")
        plan = planning.plan_install(t, marked_text, record_text, bundle, force=False)
        after = plan.new_doc if plan.new_doc is not None else marked_doc
        if not same(after.get(host.hooks_key), marked_doc.get(host.hooks_key)):
            raise BadInput(f"{t.shown}: installing the adopted bundle would move entries; adopt one --event at a time")
        plan.old_text = text
        plan.ops = diff(doc, after)
        split = sum(1 for item in found if item.part == 0 and item.parts > 1)
        plan.actions = [f"adopted {len(found)} hook{'' if len(found) == 1 else 's'} into {name} "
                        f"({paths.display(manifest_path)})"
                        + (f"; {split} group{' ' if split == 1 else 's '}of several hooks now one group per hook, "
                           "same matcher (--undo keeps them so)" if split else "")]
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
    released = 0
    if isinstance(hooks, dict):
        hooks = new[host.hooks_key] = dict(hooks)
        for event in dict.fromkeys(h.event for h in prev.hooks):
            entries = hooks.get(event)
            if not isinstance(entries, list):
                continue
            ours = merge.accounted(entries, name, prev.hashes(event), host.owner)
            if not ours:
                continue
            entries = hooks[event] = list(entries)
            for index, hook_id in ours.items():
                entries[index] = _unmarked(host, entries[index])
                released += 1
    if prev.env:
        findings.append(Finding("note", f"env {', '.join(sorted(prev.env))} stays as it is, now the operator's", name))
    bundles = {k: v for k, v in rec.bundles.items() if k != name}
    created = list(rec.created)
    if not bundles:  # what install added for hooks to load (Cursor's "version": 1) goes, as on uninstall
        planning._drop_empty_created(new, created, host.required)
    new_rec = record.Record(bundles, tuple(created) if bundles else (), rec.created_file and bool(bundles),
                            rec.created_folder if bundles else 0)
    ops = diff(doc, new)
    plan = planning._finish(target, text, record_text, doc, new, new_rec, findings, [],
                            _spellings(host, text, ops, doc))
    plan.actions = [f"gave back {released} hook{'' if released == 1 else 's'} of {name} {prev.version}: "
                    "hand-written again, no longer a bundle's"]
    return plan


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
        new = op["value"]
        if new.startswith(old):  # adopt: the marker appended
            out[op["path"]] = spelled[:-1] + json.dumps(new[len(old):], ensure_ascii=False)[1:]
        else:  # --undo: the marker, however the file spells its separator, taken off (and the " ;" before it)
            for before in ("", " ;"):
                pattern = before + r'(?: |\\n|\\u00(?:0[aA]|20))# hookweave:[a-z0-9-]+/[a-z0-9-]+[ \t]*"$'
                cut = re.sub(pattern, '"', spelled)
                if cut != spelled and json.loads(cut) == new:
                    out[op["path"]] = cut
                    break
    return out


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

