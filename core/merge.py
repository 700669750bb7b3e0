"""Pure placement, ordering and removal of one bundle's entries in one event's array.

Words: an item is *ours* when it carries this bundle's marker, *hookweave's* when it carries any
bundle's marker, and *foreign* otherwise. ``first`` means before every foreign item, ``last``
after every foreign item; other bundles' items do not count, so bundles never fight over a spot.
An arrangement that already satisfies the positions and the declared order is kept as it is:
that is what makes a second install write nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from hookweave.core.model import Registration
from hookweave.core.patch import sha256

Owner = Callable[[Any], "tuple[str, str] | None"]


@dataclass
class Item:
    entry: Any
    hook_id: str | None = None  # set when the item is ours
    foreign: bool = True


def classify(entries: list[Any], bundle: str, owner: Owner) -> list[Item]:
    items: list[Item] = []
    seen: set[str] = set()
    for entry in entries:
        found = owner(entry)
        if found and found[0] == bundle and found[1] not in seen:
            seen.add(found[1])
            items.append(Item(entry, found[1], False))
        else:
            # A second copy of one of our entries counts as hookweave's, not ours: we leave it be.
            items.append(Item(entry, None, found is None))
    return items


def duplicates(entries: list[Any], bundle: str, owner: Owner) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in entries:
        found = owner(entry)
        if found and found[0] == bundle:
            counts[found[1]] = counts.get(found[1], 0) + 1
    return {hook_id: n for hook_id, n in counts.items() if n > 1}


def order_problems(
    items: list[Item], positions: dict[str, str], declared: list[str], *, positional: bool = True
) -> list[tuple[str, str]]:
    """``(hook id, problem)`` pairs: position against foreign items, then declared order."""
    problems: list[tuple[str, str]] = []
    foreign_at = [i for i, item in enumerate(items) if item.foreign] if positional else []
    ours = [(i, item.hook_id) for i, item in enumerate(items) if item.hook_id in positions]
    for i, hook_id in ours:
        if positions[hook_id] == "first" and foreign_at and foreign_at[0] < i:
            problems.append((hook_id, "should come before every other hook of the event, but a foreign hook is above it"))
        if positions[hook_id] == "last" and foreign_at and foreign_at[-1] > i:
            problems.append((hook_id, "should come after every other hook of the event, but a foreign hook is below it"))
    rank = {hook_id: (positions[hook_id] == "last", declared.index(hook_id)) for _, hook_id in ours}
    for (_, a), (_, b) in zip(ours, ours[1:]):
        if rank[a] > rank[b]:
            problems.append((b, f"is declared before {a} but stands after it"))
    return problems


def place(items: list[Item], regs: list[Registration], *, positional: bool = True) -> list[Item]:
    """Insert the registrations not present yet; repair the order only when it is wrong.

    Without ``positional`` new entries are appended and nothing is ever moved.
    """
    items = list(items)
    present = {item.hook_id for item in items if item.hook_id}
    declared = [r.id for r in regs]
    for reg in regs:
        if reg.id not in present:
            index = _insertion_index(items, reg, regs, present) if positional else len(items)
            items.insert(index, Item(reg.entry, reg.id, False))
            present.add(reg.id)
    positions = {r.id: r.position for r in regs}
    if positional and order_problems(items, positions, declared):
        items = _canonical(items, regs)
    return items


def _insertion_index(items: list[Item], reg: Registration, regs: list[Registration], present: set[str]) -> int:
    index_of = {item.hook_id: i for i, item in enumerate(items) if item.hook_id}
    same = [r.id for r in regs if r.position == reg.position]
    k = same.index(reg.id)
    before = [h for h in same[:k] if h in present]
    if before:
        return index_of[before[-1]] + 1
    after = [h for h in same[k + 1 :] if h in present]
    if after:
        return index_of[after[0]]
    if reg.position == "last":
        return len(items)
    candidates = [i for i, item in enumerate(items) if item.foreign]
    candidates += [index_of[r.id] for r in regs if r.position == "last" and r.id in index_of]
    return min(candidates, default=len(items))


def _canonical(items: list[Item], regs: list[Registration]) -> list[Item]:
    """Others keep their relative order; our firsts go before the first foreign item, lasts at the end."""
    ours = {item.hook_id: item for item in items if item.hook_id}
    others = [item for item in items if not item.hook_id]
    cut = next((i for i, item in enumerate(others) if item.foreign), len(others))
    firsts = [ours[r.id] for r in regs if r.position == "first" and r.id in ours]
    lasts = [ours[r.id] for r in regs if r.position == "last" and r.id in ours]
    return others[:cut] + firsts + others[cut:] + lasts


@dataclass
class Outcome:
    entries: list[Any]
    refused: list[tuple[str, str]]  # (hook id, why) for entries the operator edited
    notes: list[tuple[str, str]]


def update_event(
    entries: list[Any],
    bundle: str,
    regs: list[Registration],
    recorded: dict[str, str],
    owner: Owner,
    *,
    force: bool,
    positional: bool = True,
) -> Outcome:
    """Install or upgrade ``bundle``'s registrations of one event.

    ``recorded`` maps hook id to the hash written last time, so an entry the operator edited
    since (hash differs) is refused unless ``force``; an unchanged one is upgraded in place.
    """
    wanted = {r.id: r for r in regs}
    refused: list[tuple[str, str]] = []
    kept: list[Item] = []
    for item in classify(entries, bundle, owner):
        if item.hook_id is None:
            kept.append(item)
            continue
        current = sha256(item.entry)
        reg = wanted.get(item.hook_id)
        if reg is not None and current == sha256(reg.entry):
            kept.append(item)
            continue
        if recorded.get(item.hook_id) != current and not force:
            refused.append((item.hook_id, _edited_reason(item.hook_id, recorded)))
            kept.append(item)
            continue
        if reg is not None:
            kept.append(Item(reg.entry, item.hook_id, False))
        # else: dropped from the bundle in this version; unedited, so it goes
    placed = place(kept, regs, positional=positional)
    return Outcome([item.entry for item in placed], refused, [])


def _edited_reason(hook_id: str, recorded: dict[str, str]) -> str:
    if hook_id in recorded:
        return "was edited since it was installed"
    return "carries hookweave's marker but is not in the record"


def remove_bundle(
    entries: list[Any], bundle: str, recorded: dict[str, str], owner: Owner, strip: Callable[[Any], Any], *, force: bool
) -> Outcome:
    """Take out exactly the entries the record says ``bundle`` wrote; keep everything else."""
    refused: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    out: list[Any] = []
    for item in classify(entries, bundle, owner):
        hook_id = item.hook_id
        if hook_id is None:
            found = owner(item.entry)
            if found and found[0] == bundle:
                notes.append((found[1], "a second copy with our marker is not ours to remove; left in place"))
            out.append(item.entry)
            continue
        if hook_id not in recorded:
            notes.append((hook_id, "carries our marker but is not in the record; left in place"))
            out.append(item.entry)
        elif recorded[hook_id] == sha256(item.entry):
            continue
        elif force:
            rest = strip(item.entry)  # keep any handler the operator added to our group
            if rest is not None:
                out.append(rest)
        else:
            refused.append((hook_id, "was edited since it was installed"))
            out.append(item.entry)
    return Outcome(out, refused, notes)
