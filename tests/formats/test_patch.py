"""diff() produces minimal RFC 6902 operations that jsonpatch agrees with; hashes ignore key order."""

from __future__ import annotations

import copy
import random

import pytest

from hookweave.core.formats.patch import canonical, check_patch, diff, escape, sha256

HOOK_A = {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}
HOOK_B = {"hooks": [{"type": "command", "command": "b"}]}
MINE = {"hooks": [{"type": "command", "command": "mine"}]}


@pytest.mark.parametrize("old, new, ops", [
    ([1, 2, 3, 4], [1, 2, 9, 3, 4], [{"op": "add", "path": "/2", "value": 9}]),
    (
        {"hooks": {"Stop": [HOOK_A, HOOK_B]}},
        {"hooks": {"Stop": [HOOK_A, MINE, HOOK_B]}},
        [{"op": "add", "path": "/hooks/Stop/1", "value": MINE}],
    ),
    ([1, 2, 3, 4], [1, 3, 4], [{"op": "remove", "path": "/1"}]),
    ({"Stop": [MINE, HOOK_A]}, {"Stop": [HOOK_A]}, [{"op": "remove", "path": "/Stop/0"}]),
    (
        {"a": {"b": {"c": "old", "d": [1, 2]}, "e": 1}, "f": [HOOK_A]},
        {"a": {"b": {"c": "new", "d": [1, 2]}, "e": 1}, "f": [HOOK_A]},
        [{"op": "replace", "path": "/a/b/c", "value": "new"}],
    ),
    (
        {"Stop": [HOOK_A, HOOK_B]},
        {"Stop": [HOOK_A, {"hooks": [{"type": "command", "command": "b", "timeout": 5}]}]},
        [{"op": "add", "path": "/Stop/1/hooks/0/timeout", "value": 5}],
    ),
    ({"model": "x"}, {"model": "x", "env": {"A": "1"}}, [{"op": "add", "path": "/env", "value": {"A": "1"}}]),
    ({"model": "x", "env": {"A": "1"}}, {"model": "x"}, [{"op": "remove", "path": "/env"}]),
    ({"a/b": 1, "c~d": 2}, {"a/b": 1}, [{"op": "remove", "path": "/c~0d"}]),
    ({}, {"x/y~z": []}, [{"op": "add", "path": "/x~1y~0z", "value": []}]),
    ([1, 2], [], [{"op": "remove", "path": "/1"}, {"op": "remove", "path": "/0"}]),
    ([], [1, 2], [{"op": "add", "path": "/0", "value": 1}, {"op": "add", "path": "/1", "value": 2}]),
    ([1, 2, 3], [4, 2, 6], [{"op": "replace", "path": "/2", "value": 6}, {"op": "replace", "path": "/0", "value": 4}]),
    ({"a": 1}, {"a": True}, [{"op": "replace", "path": "/a", "value": True}]),
    ({"a": 0}, {"a": False}, [{"op": "replace", "path": "/a", "value": False}]),
    ({"a": 1}, {"a": 1.5}, [{"op": "replace", "path": "/a", "value": 1.5}]),
    ({"a": None}, {"a": {}}, [{"op": "replace", "path": "/a", "value": {}}]),
    ({"a": 1}, [1], [{"op": "replace", "path": "", "value": [1]}]),
    ({"b": 1, "a": [1, {"x": 1, "y": 2}]}, {"a": [1, {"y": 2, "x": 1}], "b": 1}, []),
], ids=[
    "insert-middle", "insert-hook-group", "remove-middle", "remove-first-group", "nested-replace-leaf",
    "nested-add-leaf", "key-added", "key-removed", "escaped-key-removed", "escaped-key-added",
    "empty-the-list", "fill-the-list", "same-length-replace-from-the-end", "int-to-bool", "zero-to-false",
    "int-to-float", "null-to-object", "type-of-root-changes", "key-order-only",
])
def test_diff_exact_ops_and_jsonpatch_agrees(old, new, ops):
    before = copy.deepcopy(old)
    assert diff(old, new) == ops
    assert check_patch(old, ops, new)
    assert old == before, "diff and check_patch leave their input alone"


def test_check_patch_says_no_when_the_ops_do_not_arrive():
    assert not check_patch([1, 2], [{"op": "remove", "path": "/0"}], [1])
    assert not check_patch({"a": 1}, [], {"a": True})


def test_diff_uses_the_path_prefix():
    assert diff(1, 2, "/x~1y") == [{"op": "replace", "path": "/x~1y", "value": 2}]


@pytest.mark.parametrize("token, escaped", [("a", "a"), ("a/b", "a~1b"), ("~1", "~01"), ("~/", "~0~1")])
def test_escape(token, escaped):
    assert escape(token) == escaped


def test_canonical_is_sorted_compact_and_keeps_non_ascii():
    assert canonical({"b": [1, {"d": None, "c": True}], "a": "café ☕"}) == (
        '{"a":"café ☕","b":[1,{"c":true,"d":null}]}'
    )


def test_sha256_is_stable_under_key_order_and_sensitive_to_values():
    one = {"hooks": {"Stop": [{"a": 1, "b": 2}]}, "env": {"X": "1"}}
    two = {"env": {"X": "1"}, "hooks": {"Stop": [{"b": 2, "a": 1}]}}
    assert sha256(one) == sha256(two)
    assert sha256(one).startswith("sha256:") and len(sha256(one)) == len("sha256:") + 64
    assert sha256({"a": 1}) == "sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
    assert sha256({"a": 1}) != sha256({"a": True})
    assert sha256({"Stop": [1, 2]}) != sha256({"Stop": [2, 1]})


# -- random pairs --------------------------------------------------------------------------------

KEYS = ["a", "b", "c", "d/e", "f~g", "é"]


def random_value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth >= 3 or roll < 0.45:
        return rng.choice([0, 1, 2, 1.5, True, False, None, "a", "b", "é/~"])
    if roll < 0.75:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {k: random_value(rng, depth + 1) for k in rng.sample(KEYS, rng.randint(0, 4))}


def mutate(rng: random.Random, value, depth: int = 0):
    """A near neighbour of ``value``: a few inserts, removals and nested changes."""
    if isinstance(value, list):
        value = list(value)
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.35:
                value.insert(rng.randint(0, len(value)), random_value(rng, depth + 1))
            elif roll < 0.6 and value:
                value.pop(rng.randrange(len(value)))
            elif value:
                i = rng.randrange(len(value))
                value[i] = mutate(rng, value[i], depth + 1)
        return value
    if isinstance(value, dict):
        value = dict(value)
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.3:
                value[rng.choice(KEYS + ["new"])] = random_value(rng, depth + 1)
            elif roll < 0.5 and value:
                value.pop(rng.choice(list(value)))
            elif value:
                key = rng.choice(list(value))
                value[key] = mutate(rng, value[key], depth + 1)
        return dict(reversed(list(value.items()))) if rng.random() < 0.2 else value
    return random_value(rng, depth) if rng.random() < 0.5 else value


def test_random_pairs_diff_then_check_patch_agrees():
    rng = random.Random(6902)
    for _ in range(3000):
        old = random_value(rng)
        new = mutate(rng, old) if rng.random() < 0.8 else random_value(rng)
        ops = diff(old, new)
        assert check_patch(old, ops, new), (old, new, ops)
        assert {op["op"] for op in ops} <= {"add", "remove", "replace"}
        assert diff(old, copy.deepcopy(old)) == []
        assert (ops == []) == (canonical(old) == canonical(new))


def test_random_single_insert_is_one_add_at_its_index():
    rng = random.Random(7)
    for _ in range(1000):
        old = [random_value(rng, 1) for _ in range(rng.randint(0, 6))]
        new_item = {"hookweave": rng.randint(0, 10**6)}
        index = rng.randint(0, len(old))
        new = old[:index] + [new_item] + old[index:]
        ops = diff({"Stop": old}, {"Stop": new})
        assert ops == [{"op": "add", "path": f"/Stop/{index}", "value": new_item}]
        assert check_patch({"Stop": old}, ops, {"Stop": new})
        assert diff({"Stop": new}, {"Stop": old}) == [{"op": "remove", "path": f"/Stop/{index}"}]


# -- the post-edit check in plan._finish: an independent proof, whatever the editor does ---------

@pytest.mark.parametrize("spoil", [
    pytest.param(lambda text: text.replace('"type": "command"', '"type": "commandx"', 1), id="a value changed"),
    pytest.param(lambda text: text.replace('"model": "opus",', "", 1), id="an operator key dropped"),
])
def test_an_edit_that_does_not_match_its_plan_is_refused(spoil, monkeypatch):
    from pathlib import Path

    from hookweave.core.formats import jsonedit
    from hookweave.core.model.bundle import Bundle, BundleHook
    from hookweave.core.plan.plan import Target, plan_install
    from hookweave.hosts.claude import ClaudeCodeHost

    host, path = ClaudeCodeHost(), Path("/p/.claude/settings.json")
    target = Target(host, "project", path, host.record_path(path), ".claude/settings.json")
    bundle = Bundle("guard", "1", "", (BundleHook("a", "stop", "guard-hook"),), (), Path("/b/hookweave.toml"), Path("/b"))
    text = '{\n  "model": "opus",\n  "hooks": {}\n}\n'
    assert plan_install(target, text, None, bundle, force=False).new_text != text
    real = jsonedit.apply_ops
    monkeypatch.setattr(jsonedit, "apply_ops", lambda *args, **kwargs: spoil(real(*args, **kwargs)))
    with pytest.raises(RuntimeError, match="does not match its plan; nothing written"):
        plan_install(target, text, None, bundle, force=False)
