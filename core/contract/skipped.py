"""What a groups-shaped host skips in a settings file, or refuses it whole for, as measured on the
real agents (tests/e2e/test_flat_entries_real.py): the one sentence verify, install and adopt all
say about it. ``host`` is a ``NestedGroupsHost``; its ``loose_entries`` says what the agent does:
``skipped`` (that entry), ``event`` (the event's list in that file), ``refused`` (the whole file).
"""

from __future__ import annotations

from typing import Any

from hookweave.core.formats import jsonlite


GROUP = 'put it in a group ({"hooks": [it]})'


def loose_entry_says(host: Any, pointer: str, path: str, entry: Any = None) -> str:
    pointer = _shown(host, pointer, path)
    handler = isinstance(entry, dict) and ("command" in entry or "type" in entry)
    what = f"{pointer}: " + ("a hook outside a {matcher, hooks} group" if handler else 'a group without a "hooks" list')
    fix = GROUP if handler else 'give it a "hooks" list'
    if host.loose_entries == "skipped":
        return f"{what}, which {host.title} skips: it never runs; {fix} to run it"
    if host.loose_entries == "refused":
        return f"{what}: {host.title} refuses the whole file for it and runs none of its hooks; {fix} or remove it"
    if host.loose_entries == "event":
        event = pointer.split("/")[-2].replace("~1", "/").replace("~0", "~")
        return f"{what}: {host.title} drops the file's whole {event} list for it: none of those hooks run; {fix} or remove it"
    return f"{what}, which {host.title} may not run (not measured); {fix}"


def loose_pointers(host: Any, doc: Any) -> list[tuple[str, Any]]:
    """The JSON Pointers and values of the loose entries of the events the host knows, in file order."""
    return [(f"/{_escape(host.hooks_key)}/{_escape(event)}/{i}", entry) for event, entries in _events(host, doc)
            if event in host.native_events and isinstance(entries, list)
            for i, entry in enumerate(entries) if host.loose_in(event, entry)]


def skipped_entries(host: Any, doc: Any, path: str) -> list[str]:
    """One sentence per entry the host skips while it runs the rest: loose entries (where it skips
    them), and events it does not know (every measured host skips those)."""
    said = [] if host.loose_entries == "refused" else [loose_entry_says(host, p, path, e)
                                                      for p, e in loose_pointers(host, doc)]
    if host.untyped_handlers == "skipped":
        said += [untyped_says(host, p, path) for p in untyped_pointers(host, doc)]
    if host.bad_matchers == "skipped":
        said += [bad_matcher_says(host, *bad, path=path) for bad in bad_matchers(host, doc)]
    if not host.loose_entries:
        return said  # not measured: nothing said of unknown events either
    return said + [f"{_shown(host, '/' + _escape(host.hooks_key) + '/' + _escape(event), path)}: not an event "
                   f"{host.title} knows: it skips these hooks; use one of its own ({', '.join(sorted(host.native_events))})"
                   for event, entries in _events(host, doc)
                   if event not in host.native_events and isinstance(entries, list)
                   and any(isinstance(e, dict) for e in entries)]


def rejects(host: Any, doc: Any, path: str) -> str | None:
    found = loose_pointers(host, doc) if host.loose_entries == "refused" else []
    if found:
        return loose_entry_says(host, found[0][0], path, found[0][1])
    untyped = untyped_pointers(host, doc) if host.untyped_handlers == "refused" else []
    if untyped:
        return untyped_says(host, untyped[0], path)
    bad = bad_matchers(host, doc) if host.bad_matchers == "refused" else []
    return bad_matcher_says(host, *bad[0], path=path) if bad else None


def dropped_lists(host: Any, doc: Any, path: str) -> list[tuple[str, str]]:
    """``(event, sentence)`` per group whose matcher makes the host drop the file's whole list for its event."""
    return [(bad[1], bad_matcher_says(host, *bad, path=path)) for bad in bad_matchers(host, doc)
            ] if host.bad_matchers == "event" else []


def bad_matchers(host: Any, doc: Any) -> list[tuple[str, str, Any, str]]:
    """``(pointer, event, matcher, cause)`` for each group of a known event whose ``matcher`` the
    host's ``new RegExp(matcher)`` refuses (Auggie 0.36.0 checks each so, a non-string too), in file order."""
    if not host.bad_matchers:
        return []
    from hookweave.core.model.jsregex import js_regex_error  # only for the hosts that check matchers (1 M to load)

    found = []
    for event, groups in _events(host, doc):
        for i, group in enumerate(groups if event in host.native_events and isinstance(groups, list) else []):
            if not isinstance(group, dict) or "matcher" not in group:
                continue
            matcher = group["matcher"]
            cause = js_regex_error(matcher) if isinstance(matcher, str) else "not a string"
            if cause:
                found.append((f"/{_escape(host.hooks_key)}/{_escape(event)}/{i}/matcher", event, matcher, cause))
    return found


def bad_matcher_says(host: Any, pointer: str, event: str, matcher: Any, cause: str, path: str = "") -> str:
    what = f"{_shown(host, pointer, path)}: {jsonlite.dumps(matcher)} is not a regex {host.title} takes ({cause})"
    fix = 'write a JavaScript regex (".*" for every tool) or leave the matcher out'
    if host.bad_matchers == "refused":
        return f"{what}: it refuses the whole file for it and runs none of its hooks; {fix}"
    if host.bad_matchers == "event":
        return f"{what}: it drops the file's whole {event} list for it, so none of those hooks run; {fix}"
    return f"{what}, so it skips that group: its hooks never run; {fix}"


def untyped_pointers(host: Any, doc: Any) -> list[str]:
    """The pointers of handlers in groups of known events that have no ``"type"`` key."""
    return [f"/{_escape(host.hooks_key)}/{_escape(event)}/{i}/hooks/{j}" for event, entries in _events(host, doc)
            if event in host.native_events and isinstance(entries, list)
            for i, group in enumerate(entries) if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for j, handler in enumerate(group["hooks"]) if isinstance(handler, dict) and "type" not in handler]


def untyped_says(host: Any, pointer: str, path: str) -> str:
    what = f'{_shown(host, pointer, path)}: a hook without "type": "command"'
    if host.untyped_handlers == "refused":
        return f'{what}: {host.title} refuses the whole file for it and runs none of its hooks; add "type": "command"'
    return f'{what}, which {host.title} skips: it never runs; add "type": "command" to run it'


def _events(host: Any, doc: Any) -> list[tuple[str, Any]]:
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    return list(hooks.items()) if isinstance(hooks, dict) else []


def _shown(host: Any, pointer: str, path: str) -> str:
    """The pointer as it is in the file: Factory's hooks.json has no "hooks" wrapper."""
    top = getattr(host, "events_at_top", None)
    return pointer.removeprefix(f"/{_escape(host.hooks_key)}") if top and top(path) else pointer


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
