"""The local proof of an edit (``jsoncheck.reads_as``) against a full read of the text.

The proof replaces re-reading the whole file after every edit, so it must never accept a text that
does not read as the plan's data. Each case edits a random JSON or JSONC text with the real editor
(must be accepted), then spoils the result at random (one character changed, added or removed, a
hidden duplicate key edited, a second stretch changed) and checks the proof never accepts what a
full read refuses.
"""

from __future__ import annotations

import json
import random

import pytest

from hookweave.core.errors import ParseError
from hookweave.core.formats import jsoncheck, jsonedit, jsontext
from hookweave.core.formats.patch import diff, same
from tests.conftest import attack_size

KEYS = ["hooks", "env", "PreToolUse", "a", "b", "x/y", "é", "~"]
SCALARS = [0, 1, -2, 1.5, -0.0, 1e20, True, False, None, "", "s", "é ☕", "\\", '"', "//", "/*"]


def value(r: random.Random, depth: int = 0):
    roll = r.random()
    if depth > 3 or roll < 0.35:
        return r.choice(SCALARS)
    if roll < 0.65:
        return [value(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {r.choice(KEYS): value(r, depth + 1) for _ in range(r.randint(0, 4))}


def changed(r: random.Random, data, depth: int = 0):
    """A copy of ``data`` with a few random changes, sharing what did not change (as a plan does)."""
    if isinstance(data, dict):
        out = dict(data)
        for key in list(out):
            roll = r.random()
            if roll < 0.15:
                del out[key]
            elif roll < 0.4:
                out[key] = changed(r, out[key], depth + 1)
        if r.random() < 0.3:
            out[r.choice(KEYS)] = value(r, depth + 1)
        return out
    if isinstance(data, list):
        out = list(data)
        for i in range(len(out) - 1, -1, -1):
            roll = r.random()
            if roll < 0.15:
                del out[i]
            elif roll < 0.4:
                out[i] = changed(r, out[i], depth + 1)
        if r.random() < 0.35:
            out.insert(r.randint(0, len(out)), value(r, depth + 1))
        return out
    return value(r, depth) if r.random() < 0.3 else data


def render(data, r: random.Random, comments: bool, depth: int = 0) -> str:
    if isinstance(data, (dict, list)):
        items = list(data.items()) if isinstance(data, dict) else list(data)
        opening, closing = ("{", "}") if isinstance(data, dict) else ("[", "]")
        parts = []
        for item in items:
            text = (json.dumps(item[0], ensure_ascii=False) + ": " + render(item[1], r, comments, depth + 1)
                    if isinstance(data, dict) else render(item, r, comments, depth + 1))
            if comments and r.random() < 0.2:
                text = r.choice(["// note\n", "/* c */ "]) + text
            parts.append(text)
        pad = "\n" + "  " * (depth + 1)
        return opening + (pad + ("," + pad).join(parts) + "\n" + "  " * depth if parts else "") + closing
    return json.dumps(data, ensure_ascii=r.random() < 0.5)


def full_read(text: str, new, comments: bool) -> bool:
    try:
        return same(jsontext.load(text, "t.json", comments=comments), new)
    except (ParseError, ValueError):
        return False


def spoiled(text: str, r: random.Random) -> str:
    at = r.randrange(len(text) + 1)
    roll = r.random()
    if roll < 0.3:
        return text[:at] + r.choice(' 1a",]}[{:/') + text[at:]
    if roll < 0.6 and at < len(text):
        return text[:at] + text[at + 1 :]
    if roll < 0.9 and at < len(text):
        return text[:at] + r.choice('0 9"e,') + text[at + 1 :]
    other = r.randrange(len(text) + 1)  # a second, separate change
    lo, hi = sorted((at, other))
    return text[:lo] + "1" + text[lo:hi] + " " + text[hi:]


@pytest.mark.attack
@pytest.mark.parametrize("comments", [False, True])
def test_the_proof_says_what_a_full_read_says(comments, attack_report):
    r = random.Random(9 + comments)
    cases = accepted = stricter = 0
    for _ in range(attack_size(1500, 30000)):
        old = {r.choice(KEYS): value(r, 1) for _ in range(r.randint(1, 5))}
        key = r.choice(list(old))
        # Half the plans change one member only, as installs do (the proof's local path); the
        # rest change anything, the top level included (its fallback to a full read).
        new = {**old, key: changed(r, old[key])} if r.random() < 0.5 else changed(r, old)
        old_text = render(old, r, comments) + "\n"
        ops = diff(old, new)
        if not ops:
            continue
        new_text = jsonedit.apply_ops(old_text, ops, "t.json", comments=comments)
        assert jsoncheck.reads_as(old_text, new_text, new, "t.json", comments=comments, ops=ops), (old_text, new_text)
        for _ in range(3):
            bad = spoiled(new_text, r)
            proved = jsoncheck.reads_as(old_text, bad, new, "t.json", comments=comments, ops=ops)
            # Sound: nothing is proven that a full read denies. Stricter than a full read where
            # the text changed outside the changed values (a blank moved): refused, as a
            # fidelity fault of the editor would be.
            assert not proved or full_read(bad, new, comments), (old_text, bad, new)
            cases += 1
            accepted += proved
            stricter += not proved and full_read(bad, new, comments)
    attack_report("edit proof vs full read", cases=cases, accepted=accepted, stricter=stricter, failures=0)
    assert accepted and cases - accepted > cases // 2


def test_an_edit_of_a_member_a_later_duplicate_hides_is_refused():
    old_text = '{"hooks": {"Stop": []}, "hooks": {"Stop": []}}'
    new = {"hooks": {"Stop": [1]}}
    hidden = '{"hooks": {"Stop": [1]}, "hooks": {"Stop": []}}'  # reads as the old data
    shown = '{"hooks": {"Stop": []}, "hooks": {"Stop": [1]}}'
    ops = diff(jsontext.load(old_text, "t.json"), new)
    assert not jsoncheck.reads_as(old_text, hidden, new, "t.json", comments=False, ops=ops)
    assert jsoncheck.reads_as(old_text, shown, new, "t.json", comments=False, ops=ops)


def test_a_change_beside_the_planned_one_is_refused():
    old_text = '{"permissions": {"allow": ["a", "b"]}, "hooks": {"Stop": []}}'
    new = {"permissions": {"allow": ["a", "b"]}, "hooks": {"Stop": [1]}}
    sneaky = '{"permissions": {"allow": ["a", "c"]}, "hooks": {"Stop": [1]}}'
    ops = diff(jsontext.load(old_text, "t.json"), new)
    assert not jsoncheck.reads_as(old_text, sneaky, new, "t.json", comments=False, ops=ops)
    assert jsoncheck.reads_as(old_text, sneaky.replace('"c"', '"b"'), new, "t.json", comments=False, ops=ops)


def test_a_line_comment_that_swallows_what_follows_is_refused():
    old_text = '{"a": [1], "b": 2}'
    new = {"a": [1, 2], "b": 2}
    ops = diff(jsontext.load(old_text, "t.json", comments=True), new)
    swallowed = '{"a": [1, 2] // x, "b": 2}'
    assert not jsoncheck.reads_as(old_text, swallowed, new, "t.json", comments=True, ops=ops)
    assert jsoncheck.reads_as(old_text, '{"a": [1, 2 /* x */], "b": 2}', new, "t.json", comments=True, ops=ops)


@pytest.mark.parametrize("comments", [False, True])
def test_a_long_event_gaining_a_hook_is_proven_member_by_member(comments):
    """The install case at size: kept members are compared as text, the new one decoded; every
    one-character spoil of the event's text is refused unless a full read agrees."""
    r = random.Random(4)
    groups = [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"check-{i}.sh", "timeout": 5}]}
              for i in range(200)]
    old = {"permissions": {"allow": ["a"]}, "hooks": {"PreToolUse": groups}}
    ours = {"hooks": [{"type": "command", "command": "guard # hookweave:g/a"}]}
    new = {**old, "hooks": {"PreToolUse": [ours, *groups]}}
    old_text = json.dumps(old, indent=2) + "\n"
    ops = diff(old, new)
    new_text = jsonedit.apply_ops(old_text, ops, "t.json", comments=comments)
    assert jsoncheck.reads_as(old_text, new_text, new, "t.json", comments=comments, ops=ops)
    start = new_text.index('"PreToolUse"')
    for _ in range(300):
        at = r.randrange(start, len(new_text) - 2)
        bad = new_text[:at] + r.choice(' ,x"]}[{1') + new_text[at + 1 :]
        if jsoncheck.reads_as(old_text, bad, new, "t.json", comments=comments, ops=ops):
            assert full_read(bad, new, comments), bad[at - 40 : at + 40]
