"""The JSON / JSONC span parser: errors name ``path:line:col``; successful parses know every span."""

from __future__ import annotations

import json

import pytest

from hookweave.core.errors import EXIT_BAD_INPUT, BadInput, ParseError
from hookweave.core.formats import jsontext
from hookweave.core.formats.jsontext import MAX_DEPTH

PATH = "proj/.claude/settings.json"
FIX = "Claude ignores the whole file when it has a comment: remove it"


def fails(text: str, *, comments: bool = False, comment_fix: str = "") -> ParseError:
    with pytest.raises(ParseError) as info:
        jsontext.parse(text, PATH, comments=comments, comment_fix=comment_fix)
    return info.value


@pytest.mark.parametrize("text, comments, line, col, message", [
    ('{\n  "a": [1, 2,]\n}', False, 2, 13, "trailing comma; remove the comma"),
    ('{"a": 1,\n}', True, 1, 8, "trailing comma; remove the comma"),
    ("", False, 1, 1, "the file holds no JSON value; write {} into it or delete it"),
    ("  \n\t\r\n", False, 3, 1, "the file holds no JSON value; write {} into it or delete it"),
    ("// only a comment\n", True, 2, 1, "the file holds no JSON value; write {} into it or delete it"),
    ('{\n  "a" 1\n}', False, 2, 7, "expected ':' after the key"),
    ('{"a": 1, "b"}', False, 1, 13, "expected ':' after the key"),
    ('{\n  "a": "abc\n}', False, 2, 8, "unterminated string or invalid character in string"),
    ('{"a": "abc', False, 1, 7, "unterminated string or invalid character in string"),
    ('{\n  /* never closed\n  "a": 1\n}', True, 2, 3, "unterminated /* comment"),
    ('{"a": tru}', False, 1, 7, "unexpected character 't'"),
    ("[\n  True\n]", False, 2, 3, "unexpected character 'T'"),
    ('{"a": 1}\n{"b": 2}', False, 2, 1, "unexpected text after the JSON value"),
    ("[1] x", False, 1, 5, "unexpected character 'x'"),
    ('{\n  "a": "x\\qy"\n}', False, 2, 10, "invalid string: Invalid \\escape"),
    ('{"a": [1, 2', False, 1, 12, "unexpected end of file, expected ',' or ']'"),
    ("[1 2]", False, 1, 4, "unexpected '2', expected ',' or ']'"),
    ("{a: 1}", False, 1, 2, "unexpected character 'a'"),
    ('{"a": 1,, "b": 2}', False, 1, 9, "expected a double-quoted key"),
], ids=[
    "trailing-comma-array", "trailing-comma-object-jsonc", "empty-file", "whitespace-only", "comment-only",
    "missing-colon", "missing-colon-before-close", "unterminated-string-eol", "unterminated-string-eof",
    "unterminated-block-comment", "invalid-literal", "capitalised-literal", "second-value", "trailing-garbage",
    "invalid-escape", "end-of-file-in-array", "missing-comma", "unquoted-key", "double-comma",
])
def test_parse_errors_name_path_line_and_column(text, comments, line, col, message):
    error = fails(text, comments=comments)
    assert str(error) == f"{PATH}:{line}:{col}: {message}"
    assert (error.path, error.line, error.col) == (PATH, line, col)
    assert isinstance(error, BadInput) and error.exit_code == EXIT_BAD_INPUT


@pytest.mark.parametrize("text, line, col", [
    ('{\n  // hooks below\n  "a": 1\n}', 2, 3),
    ('{"a": 1 /* note */}', 1, 9),
    ("\r\n[1,\r\n /**/ 2]", 3, 2),
])
def test_comment_in_strict_mode_carries_the_host_fix(text, line, col):
    assert str(fails(text, comment_fix=FIX)) == f"{PATH}:{line}:{col}: comments are not allowed in this file; {FIX}"


def test_comment_in_strict_mode_without_a_fix_has_no_tail():
    assert str(fails("// x\n{}")) == f"{PATH}:1:1: comments are not allowed in this file"


def nested(levels: int) -> str:
    return "[" * levels + "0" + "]" * levels


def test_nesting_up_to_max_depth_parses():
    value = jsontext.parse(nested(MAX_DEPTH), PATH).value
    for _ in range(MAX_DEPTH):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == 0


@pytest.mark.parametrize("extra", [1, 50])
def test_nesting_deeper_than_max_depth_is_refused_at_the_first_too_deep_value(extra):
    error = fails(nested(MAX_DEPTH + extra))
    assert str(error) == f"{PATH}:1:{MAX_DEPTH + 2}: nested deeper than {MAX_DEPTH} levels"


def test_deep_objects_are_refused_at_the_same_depth():
    text = '{"k":' * (MAX_DEPTH + 1) + "0" + "}" * (MAX_DEPTH + 1)
    assert str(fails(text)) == f"{PATH}:1:{5 * (MAX_DEPTH + 1) + 1}: nested deeper than {MAX_DEPTH} levels"


# -- successful parses ---------------------------------------------------------------------------


def test_bom_is_skipped_and_spans_count_it():
    text = '\ufeff{"a": [1, "b"]}'
    doc = jsontext.parse(text, PATH)
    assert doc.value == {"a": [1, "b"]}
    assert (doc.root.start, doc.root.end) == (1, len(text))
    assert doc.text is text


def test_comments_are_allowed_when_asked_and_their_spans_recorded():
    text = '// head\n{\n  /* a */ "a": 1, // tail\n  "b": [2 /* two */]\n}\n/* end */'
    doc = jsontext.parse(text, PATH, comments=True)
    assert doc.value == {"a": 1, "b": [2]}
    assert [text[s:e] for s, e in doc.comments] == ["// head", "/* a */", "// tail", "/* two */", "/* end */"]


def test_block_comment_may_span_lines_and_hold_slashes():
    text = '{\r\n  /* http://x\r\n     "not": "json" */\r\n  "a": "//not a comment"\r\n}'
    doc = jsontext.parse(text, PATH, comments=True)
    assert doc.value == {"a": "//not a comment"}
    assert len(doc.comments) == 1


def test_spans_of_keys_values_and_commas():
    text = '{\n  "hooks": {"Stop": [ {"x": 1}, "café" ]},\n  "n": -1.5e2, "t": true\n}'
    doc = jsontext.parse(text, PATH)
    root = doc.root
    assert (root.kind, root.start, root.end) == ("object", 0, len(text))
    assert root.keys == ["hooks", "n", "t"]
    assert [text[s:e] for s, e in root.key_spans] == ['"hooks"', '"n"', '"t"']
    assert [text[c.start:c.end] for c in root.children] == ['{"Stop": [ {"x": 1}, "café" ]}', "-1.5e2", "true"]
    assert [text[c] for c in root.commas] == [",", ","]
    assert [text[slice(*root.member_span(i))] for i in range(3)] == [
        '"hooks": {"Stop": [ {"x": 1}, "café" ]}', '"n": -1.5e2', '"t": true'
    ]
    stop = root.children[0].children[0]
    assert (stop.kind, stop.value) == ("array", [{"x": 1}, "café"])
    assert [text[c.start:c.end] for c in stop.children] == ['{"x": 1}', '"café"']
    assert text[slice(*stop.member_span(1))] == '"café"'
    assert [c.kind for c in root.children] == ["object", "number", "literal"]
    assert root.children[1].value == -150.0 and root.children[2].value is True


def test_child_by_pointer_token():
    doc = jsontext.parse('{"a": 1, "b": [10, 20], "a": 2}', PATH)
    index, node = doc.root.child("a")
    assert (index, node.value) == (2, 2)  # duplicate keys: the last wins, as in JSON.parse
    arr = doc.root.child("b")[1]
    assert arr.child("1")[1].value == 20
    assert arr.child("2") is None and arr.child("-") is None and doc.root.child("z") is None


@pytest.mark.parametrize("text, value", [
    ("0", 0), ('"\\u00e9\\n"', "é\n"), ("[]", []), ("{}", {}), ("null", None), (" [false] ", [False]),
])
def test_scalars_and_empty_containers(text, value):
    assert jsontext.parse(text, PATH).value == value


def test_line_col_counts_from_one():
    text = "ab\ncd\r\nef"
    assert [jsontext.line_col(text, i) for i in (0, 1, 3, 7, 8)] == [(1, 1), (1, 2), (2, 1), (3, 1), (3, 2)]


# -- the C-decoder path (load) and lazy spans answer as the span parser does ----------------------

LOAD_CASES = [
    ('{"a": [1, 2.5e3, -0, true, null, "\\u00e9\\ud800"], "a": {"b": {}}}', False),
    ('\ufeff{"a": 1}', False), ('{"a": NaN}', False), ('[Infinity]', False), ('[-Infinity]', False),
    ('{"a": 1} // c', False), ('{"a": 1} // c', True), ('/* x */ {"a": /* y */ [1 /* ] */]} // }', True),
    ('{"a": "// not a comment", "b": "/* nor this */"}', True), ('{"a": 1/**/2}', True),
    ('{"a": "tab\there"}', False), ('{"a": 1,}', True), ('', False), ('  ', True), ('[1] [2]', False),
    ("[" + "9" * 5000 + "]", False), ('"\ufeff"', False), ('{"a": 1}\ufeff', False), ('[1]\x0c', False),
    ('[1]\u00a0', False), ('{"a": 01}', False), ('[.5]', False), ('["\\x41"]', False),
    ("[" * MAX_DEPTH + "]" * MAX_DEPTH, False), ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), False),
    ("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH, False), ("[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1), False),
    ('{"k":' * 3000 + "0" + "}" * 3000, False), ('"' + "[" * 400 + '"', False), ("/* [[[[ */ [1]", True),
    # long lists of strings (asked as a whole whether anything in them is deeper) at the deepest levels
    *(("[" * (MAX_DEPTH + extra) + tail + "]" * (MAX_DEPTH + extra - 1), False) for extra in (0, 1)
      for tail in ('"s", ' * 99 + '"s"]', '"s", ' * 99 + '[]]', '"s", ' * 99 + '["t"]]', '"s", ' * 99 + '7]')),
]


@pytest.mark.parametrize("text, comments", LOAD_CASES)
def test_load_gives_the_value_or_the_error_of_the_span_parser(text, comments):
    try:
        expected = jsontext.parse(text, PATH, comments=comments, comment_fix=FIX).value
    except ParseError as exc:
        with pytest.raises(ParseError) as info:
            jsontext.load(text, PATH, comments=comments, comment_fix=FIX)
        assert str(info.value) == str(exc)
    else:
        got = jsontext.load(text, PATH, comments=comments, comment_fix=FIX)
        assert json.dumps(got) == json.dumps(expected)


def _same_spans(full, lazy) -> int:
    assert (full.kind, full.start, full.end) == (lazy.kind, lazy.start, lazy.end)
    if full.kind not in ("object", "array"):
        return 1
    assert (full.keys, full.key_spans, full.commas) == (lazy.keys, lazy.key_spans, lazy.commas)
    assert len(full.children) == len(lazy.children)
    return 1 + sum(_same_spans(f, z) for f, z in zip(full.children, lazy.children))


@pytest.mark.parametrize("seed", range(150))
def test_lazy_spans_are_the_spans_of_the_span_parser(seed):
    import random

    from hookweave.core.formats import jsonspans
    from tests.formats.test_jsonedit import random_value, render

    rng = random.Random(seed)
    style = {"comments": rng.random() < 0.5, "nl": rng.choice(["\n", "\r\n"]),
             "unit": rng.choice(["  ", "\t"]), "sep": rng.choice([": ", ":"])}
    text = ("\ufeff" if rng.random() < 0.2 else "") + render({"k": random_value(rng, 0)}, rng, style)
    full = jsontext.parse(text, PATH, comments=style["comments"]).root
    assert _same_spans(full, jsonspans.root(text, PATH, comments=style["comments"])) >= 2


def _container_paths(node, tokens, out) -> None:
    """Every container's pointer tokens under ``node`` (a full parse), the last of a duplicated key's."""
    if node.kind not in ("object", "array"):
        return
    out.append(tokens)
    names = node.keys if node.kind == "object" else [str(i) for i in range(len(node.children))]
    for name, child in zip(names, node.children):
        _container_paths(child, tokens + [name], out)


@pytest.mark.parametrize("seed", range(150))
def test_spans_read_along_paths_are_the_spans_of_the_span_parser(seed):
    """Containers walked on the way to an edit (``jsonspans.along``) end where the decoder says."""
    import random

    from hookweave.core.formats import jsonspans
    from tests.formats.test_jsonedit import random_value, render

    rng = random.Random(seed)
    style = {"comments": rng.random() < 0.5, "nl": rng.choice(["\n", "\r\n"]),
             "unit": rng.choice(["  ", "\t"]), "sep": rng.choice([": ", ":"])}
    text = ("\ufeff" if rng.random() < 0.2 else "") + render({"k": random_value(rng, 0), "z": [1]}, rng, style)
    full = jsontext.parse(text, PATH, comments=style["comments"]).root
    paths: list[list[str]] = []
    _container_paths(full, [], paths)
    lazy = jsonspans.root(text, PATH, comments=style["comments"])
    jsonspans.along(lazy, *rng.sample(paths, min(len(paths), rng.randint(1, 3))))
    assert _same_spans(full, lazy) >= 2
