"""Pure placement, ordering and removal of one bundle's entries in one event's array.

Words: an item is *ours* when the record accounts for it: it carries this bundle's marker for a
hook that the record lists under this event, and it is that hook's entry here (the one whose hash
is the recorded one, else the first with the marker). Every other item is the operator's: a copy
of our entry (in another event, another position, another file, or a second one here) is never
updated or removed. An item is *hookweave's* when it carries any bundle's marker, and *foreign*
otherwise. ``first`` means before every foreign item, ``last`` after every foreign item; other
bundles' items and copies do not count, so bundles never fight over a spot. An arrangement that
already satisfies the positions and the declared order is kept as it is: that is what makes a
second install write nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.patch import sha256

if TYPE_CHECKING:  # verify reads entries without loading the manifest's data types
    from hookweave.core.model.bundle import Registration

Owner = Callable[[Any], "tuple[str, str] | None"]


class Item:
    """One entry of an event's list while it is being merged (mutable: a match adopts it)."""

    __slots__ = ("entry", "hook_id", "foreign")

    def __init__(self, entry: Any, hook_id: str | None = None, foreign: bool = True) -> None:
        self.entry = entry
        self.hook_id = hook_id  # set when the item is ours
        self.foreign = foreign


def accounted(entries: list[Any], bundle: str, recorded: dict[str, str], owner: Owner,
              owners: list | None = None) -> dict[int, str]:
    """Index to hook id of the entries the record accounts for; ``recorded`` maps the ids that the
    record lists under this event to their hashes. One entry per id at most: the first with the
    recorded hash, else (an edit of ours) the first with the marker. ``owners``: each entry's
    ``owner``, when the caller has them already."""
    candidates: dict[str, list[int]] = {}
    for i, found in enumerate(owners if owners is not None else map(owner, entries)):
        if found and found[0] == bundle and found[1] in recorded:
            candidates.setdefault(found[1], []).append(i)
    out: dict[int, str] = {}
    for hook_id, indexes in candidates.items():
        exact = [i for i in indexes if sha256(entries[i]) == recorded[hook_id]]
        out[(exact or indexes)[0]] = hook_id
    return out


def classify(entries: list[Any], bundle: str, recorded: dict[str, str], owner: Owner,
             owners: list | None = None) -> list[Item]:
    """``owners``: each entry's ``owner``, when the caller has them already (verify asks for them once)."""
    if owners is None:
        owners = [owner(e) for e in entries]  # a marker search per entry, once: an event can hold 10,000
    ours = accounted(entries, bundle, recorded, owner, owners)
    return [Item(e, ours.get(i), i not in ours and owners[i] is None) for i, e in enumerate(entries)]


def copies(entries: list[Any], bundle: str, recorded: dict[str, str], owner: Owner,
           owners: list | None = None) -> list[tuple[int, str]]:
    """``(index, hook id)`` of entries with this bundle's marker that the record does not account for."""
    if owners is None:
        owners = [owner(e) for e in entries]
    ours = accounted(entries, bundle, recorded, owner, owners)
    out = []
    for i, found in enumerate(owners):
        if found and found[0] == bundle and i not in ours:
            out.append((i, found[1]))
    return out


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


class Outcome(FieldTuple):
    entries: list[Any]
    refused: list[tuple[str, str]]  # (hook id, why) for entries the operator edited
    notes: list[tuple[str, str]] = []  # noqa: RUF012 - never mutated
    ours: dict[str, Any] = {}  # noqa: RUF012 - hook id -> the entry of ours now in place; never mutated


def update_event(
    entries: list[Any],
    bundle: str,
    regs: list[Registration],
    recorded: dict[str, str],
    owner: Owner,
    strip: Callable[[Any], Any],
    *,
    known: set[str],
    force: bool,
    positional: bool = True,
) -> Outcome:
    """Install or upgrade ``bundle``'s registrations of one event.

    ``recorded`` maps the ids the record lists under this event to the hash written last time,
    so an entry the operator edited since (hash differs) is refused unless ``force``, and then
    replaced by the bundle's version while any handler the operator added to it stays, in a group
    of its own at the same place (``strip``). ``known`` holds every id the record lists for the
    bundle, under any event: an unrecorded entry with our marker and exactly a new registration's
    content is taken as ours (a lost record); one that differs is refused, and under ``force``
    left alone beside the one we add.
    """
    wanted = {r.id: r for r in regs}
    refused: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    items = classify(entries, bundle, recorded, owner)
    _adopt(items, bundle, regs, known, owner, refused, notes, force)
    kept: list[Item] = []
    for item in items:
        if item.hook_id is None:
            kept.append(item)
            continue
        current = sha256(item.entry)
        reg = wanted.get(item.hook_id)
        if reg is not None and current == sha256(reg.entry):
            kept.append(item)
            continue
        if recorded.get(item.hook_id, current) != current and not force:
            refused.append((item.hook_id, "was edited since it was installed"))
            kept.append(item)
            continue
        rest = strip(item.entry) if recorded.get(item.hook_id, current) != current else None
        mine = [Item(reg.entry, item.hook_id, False)] if reg is not None else []
        theirs = [Item(rest, None, owner(rest) is None)] if rest is not None else []
        # The operator's handlers keep the place; ours sits on the side its position asks for.
        kept += mine + theirs if reg is not None and reg.position == "first" else theirs + mine
        # (an unedited entry dropped from the bundle in this version simply goes)
    placed = place(kept, regs, positional=positional)
    ours = {item.hook_id: item.entry for item in placed if item.hook_id}
    return Outcome([item.entry for item in placed], refused, notes, ours)


def _adopt(items: list[Item], bundle: str, regs: list[Registration], known: set[str], owner: Owner,
           refused: list, notes: list, force: bool) -> None:
    for reg in regs:
        if reg.id in known:
            continue
        # ``foreign``: no marker (``classify`` asked each entry's owner once): no need to ask again
        marked = [item for item in items if item.hook_id is None and not item.foreign
                  and owner(item.entry) == (bundle, reg.id)]
        same = next((item for item in marked if sha256(item.entry) == sha256(reg.entry)), None)
        if same is not None:
            same.hook_id, same.foreign = reg.id, False
        elif marked and not force:
            refused.append((reg.id, "carries hookweave's marker but is not in the record"))
        elif marked:
            notes.append((reg.id, "an entry with our marker that the record does not list is left in place"))


def remove_bundle(
    entries: list[Any], bundle: str, recorded: dict[str, str], owner: Owner, strip: Callable[[Any], Any], *, force: bool
) -> Outcome:
    """Take out exactly the entries the record accounts for under this event; keep everything else.

    ``recorded`` maps the ids the record lists under this event to their hashes.
    """
    refused: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    out: list[Any] = []
    for item in classify(entries, bundle, recorded, owner):
        hook_id = item.hook_id
        if hook_id is None:
            found = owner(item.entry)
            if found and found[0] == bundle:
                notes.append((found[1], "a copy with our marker that the record does not list is not ours to remove; "
                              "left in place"))
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
