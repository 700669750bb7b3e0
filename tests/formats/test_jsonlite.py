"""``jsonlite`` is ``json`` for the calls it takes: the same values, the same text, the same errors."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from hookweave.core.formats import jsonlite

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests").glob("**/*.json"))
         if ".venv" not in p.parts and ".cache" not in p.parts and "node_modules" not in p.parts and p.is_file()][:300]
EDGES = ["", " ", "{}", " [] ", "\ufeff{}", "{} x", "{}\n\n", "[1, 2,]", '{"a": NaN}', "Infinity", "-Infinity", "1e400",
         "-0", "0.1", "12345678901234567890123", '"\\ud800"', '"\\u00e9\\n"', '"tab\there"', "[" * 5000 + "]" * 5000,
         '{"a": 1, "a": 2}', "nul", "true false", '"unterminated', "{'a': 1}", "\t\r\n 7 \t", "\x00", "01"]


def outcome(call, *args, **kwargs):
    try:
        value = call(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return ("raised", type(exc), str(exc))
    return ("value", repr(value), type(value))


def _parsed(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


def refuse(name: str):
    raise ValueError(f"not JSON: {name}")


@pytest.mark.parametrize("constant", [None, refuse])
def test_loads_is_json_loads(constant) -> None:
    rng = random.Random(38)
    texts = TEXTS + EDGES
    for text in list(texts):  # and mutations of each: a character dropped, doubled or replaced
        for _ in range(3):
            if text:
                i = rng.randrange(len(text))
                texts.append(rng.choice([text[:i] + text[i + 1:], text[:i] + text[i] * 2 + text[i:],
                                         text[:i] + rng.choice('{}[],:"\\ 0e-.tn\u00e9') + text[i + 1:]]))
    for text in texts:
        assert outcome(jsonlite.loads, text, parse_constant=constant) == outcome(
            json.loads, text, parse_constant=constant), text[:200]
    assert math.isnan(jsonlite.loads("NaN")) and jsonlite.loads(b'{"a": 1}') == {"a": 1}


VALUES = [None, True, 0, -1, 2**70, 1.5, float("inf"), float("nan"), "", "é\n\"\\", "\ud800", [], {}, [1, [2, {"b": None}]],
          {"b": 1, "a": [True, "x"]}, {1: "int key", "1": "str key"}, {"a": 1, 2: "b"}, {(1, 2): "tuple key"},
          {"set": {1, 2}}, [Path("/x")], {"z": {"y": object()}}, (1, 2), {None: 1, True: 2, 1.5: 3}]


@pytest.mark.parametrize("kwargs", [{}, {"ensure_ascii": False}, {"sort_keys": True},
                                    {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False},
                                    {"sort_keys": True, "default": str}, {"separators": (",", ":"), "default": str}])
def test_dumps_is_json_dumps(kwargs) -> None:
    circular: list = []
    circular.append(circular)
    for value in [*VALUES, circular, *(outcome_value for outcome_value in map(_parsed, TEXTS) if outcome_value is not None)]:
        assert outcome(jsonlite.dumps, value, **kwargs) == outcome(json.dumps, value, **kwargs), repr(value)[:200]
    after = {"a": [1, 2]}
    assert jsonlite.dumps([after, after], **kwargs) == json.dumps([after, after], **kwargs)  # no stale marker


@pytest.mark.parametrize("kwargs", [{"indent": 2, "ensure_ascii": False}, {"indent": 2}, {"indent": 0}, {"indent": 4}])
def test_indented_dumps_is_json_dumps(kwargs) -> None:
    """A record's text (``indent=2, ensure_ascii=False``): the same text as json's, or json's error."""
    circular: dict = {}
    circular["a"] = [circular]
    shared = {"a": [1, 2]}
    extra = [circular, [shared, shared], {"k": (1, "t")}, {1: "int key"}, {True: 1, None: 2}, {"f": 1.5}, [float("nan")],
             {"s": "\ud800 é \u2028"}, [[], {}, [[]], {"a": {}}], True, 10 ** 30, {"b": object()}]
    for value in [*VALUES, *extra, *(outcome_value for outcome_value in map(_parsed, TEXTS) if outcome_value is not None)]:
        assert outcome(jsonlite.dumps, value, **kwargs) == outcome(json.dumps, value, **kwargs), repr(value)[:200]


# -- depth: how deep the deepest value sits, as the span parser counts levels -----------------------

def _depth_by_recursion(value) -> int:
    members = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    return 1 + max(map(_depth_by_recursion, members)) if members else 0


DEPTH_CASES = ["0", '"s"', "[]", "{}", "[[]]", '{"a": {}}', '[1, [2, [3]]]', '{"a": [{"b": "c"}], "d": 1}',
               '[[], [[], [[]]], "x"]', '{"k": ' * 300 + "1" + "}" * 300, '[' * 400 + ']' * 400,
               '["s", ' * 50 + '"t"' + "]" * 50, '{"1": 1, "2": {"3": [true, null, 1.5, {"4": "x"}]}}',
               '[' + ", ".join(['"s"'] * 1000) + ', [[1]]]', '{"a": "[[[[", "b": {"c": "{{{"}}']


@pytest.mark.parametrize("text", DEPTH_CASES + [t for t in TEXTS if _parsed(t) is not None][:100])
def test_depth_is_the_deepest_level(text) -> None:
    value = json.loads(text)
    assert jsonlite.depth(value) == _depth_by_recursion(value)


def test_depth_of_random_values() -> None:
    rng = random.Random(38)

    def grow(level: int):
        if level > 6 or rng.random() < 0.3:
            return rng.choice([1, "s", None, True, 2.5, [], {}])
        if rng.random() < 0.5:
            return [grow(level + 1) for _ in range(rng.randrange(4))]
        return {f"k{i}": grow(level + 1) for i in range(rng.randrange(4))}

    for _ in range(500):
        value = json.loads(json.dumps(grow(0)))
        assert jsonlite.depth(value) == _depth_by_recursion(value)
