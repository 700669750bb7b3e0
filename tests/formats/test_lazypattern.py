"""The checks that stand in for a pattern (``lazypattern.NAME`` and the others, ``PRINTABLE``,
``envmerge``'s whole number) answer as the pattern would, for every text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookweave.core.formats import lazypattern
from hookweave.core.formats.textsafe import PRINTABLE
from hookweave.core.plan.envmerge import _whole_number

CHECKS = [lazypattern.NAME, lazypattern.ENV_NAME, lazypattern.SHA256, lazypattern.POINTER]
# Texts made of what each pattern is about, so that both answers come up often.
ALPHABET = st.sampled_from(list("az09-_AZ/~01ab:sha256\n\t \x00\x7f\x1fé\u00a0\u2028") + ["sha256:", "~0", "~1", "\ud800"])
TEXTS = st.lists(ALPHABET, max_size=80).map("".join)
EDGES = ["", "a", "-", "a-", "0" * 64, "a" * 64, "a" * 65, "a\n", "\na", "A", "é", "_", "_1", "1a", "a1", "if",
         "sha256:" + "0" * 64, "sha256:" + "F" * 64, "sha256:" + "a" * 63, "sha256:" + "a" * 65, "sha256:" + "a" * 64 + "\n",
         "/", "//", "/~", "/~0", "/~1", "/~2", "/~~0", "/~01", "~0", "/a/b~1c", "/\n", "/é~0", "a/", "\x00", "\x7f", "\t",
         "1.0", "é", "line\n", " 1 ", "-7", "- 7", "--7", "７", "²", "\u00a0 12\u2028", "\x1c5\x1f", "1\n", "\n", "-"]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.pattern)
def test_checks_answer_as_their_pattern(check):
    pattern = re.compile(check.pattern)
    for text in EDGES:
        assert bool(check.fullmatch(text)) == (pattern.fullmatch(text) is not None), text


@given(TEXTS)
def test_checks_answer_as_their_pattern_on_any_text(text):
    for check in CHECKS:
        assert bool(check.fullmatch(text)) == (re.fullmatch(check.pattern, text) is not None), (check.pattern, text)
    printable = re.fullmatch("[^\x00-\x1f\x7f]+", text) is not None and re.search("[\ud800-\udfff]", text) is None
    assert bool(PRINTABLE.fullmatch(text)) == printable
    assert _whole_number(text) == (re.match(r"^\s*-?[0-9]+\s*$", text) is not None)


@pytest.mark.parametrize("text", EDGES)
def test_whole_number_and_printable_on_edges(text):
    assert _whole_number(text) == (re.match(r"^\s*-?[0-9]+\s*$", text) is not None)
    printable = re.fullmatch("[^\x00-\x1f\x7f]+", text) is not None and re.search("[\ud800-\udfff]", text) is None
    assert bool(PRINTABLE.fullmatch(text)) == printable


TEMPLATE_TEXTS = st.lists(st.sampled_from(["${", "}", ":-", "$", "{", "A", "a_1", "9", "x", "/", ":", "-", "~", " ", "\n",
                                           "${HOME:-", "${A:-b}", "{project}"]), max_size=20).map("".join)


@given(TEMPLATE_TEXTS)
def test_template_variables_are_found_as_the_pattern_finds_them(template):
    from hookweave.core.contract.description import VARIABLE, variables

    found = [(m.start(), m.end(), m.group(1), m.group(2)) for m in re.finditer(VARIABLE.pattern, template)]
    assert variables(template) == found


@pytest.mark.parametrize("template", ["/${A:-b}", "/x${A:-b}", "/${A:-}${B_2:-/c}/d", "/${:-x}", "/${1A:-x}", "/${A-x}",
                                      "/${A:-x", "/$${A:-{x}}", "/${A:-b}}", "/${${A:-b}:-c}", "/${A :-b}", "/${É:-b}"])
@pytest.mark.parametrize("environment", [{}, {"A": "/set"}, {"A": "", "B_2": "two"}])
def test_template_variables_on_edges(template, environment, monkeypatch):
    """As found by the pattern, and expanded as ``VARIABLE.sub`` expanded them."""
    import os
    from pathlib import Path

    from hookweave.core.contract.describe import expand
    from hookweave.core.contract.description import VARIABLE, variables

    found = [(m.start(), m.end(), m.group(1), m.group(2)) for m in re.finditer(VARIABLE.pattern, template)]
    assert variables(template) == found
    for name in ("A", "B_2"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    substituted = re.sub(VARIABLE.pattern, lambda m: os.environ.get(m.group(1)) or m.group(2), template)
    assert expand(template, Path("/p")) == Path(os.path.normpath(substituted.replace("{project}", "/p")))


# -- our marker and the placeholders, read with string methods where the patterns cost a compile ----

MARKER_TEXTS = st.lists(st.sampled_from(["# hookweave:", "#hookweave:", "a", "b-1", "-", "/", " ", "\t", "\n", "\u00a0",
                                         "\x1c", "A", "é", "x", "'", ";", ":", "#", "0"]), max_size=14).map("".join)
MARKER_EDGES = ["# hookweave:a/b", "x # hookweave:a/b", "x # hookweave:a/b \t", "x # hookweave:a/b\n", "x # hookweave:a/b \n",
                "x # hookweave:a/b\n\n", "x # hookweave:a/b\n ", "x\u00a0# hookweave:a/b", "x\x1c# hookweave:a/b",
                "x# hookweave:a/b", "x # hookweave:-a/b", "x # hookweave:a/-b", "x # hookweave:a-/b-", "x # hookweave:/b",
                "x # hookweave:a/", "x # hookweave:a/b/c", "x # hookweave:A/b", "x # hookweave:a/b # hookweave:c/d",
                "x # hookweave:a/b #hookweave:c/d", "# hookweave:a/b\r", "# hookweave:a/b\x0b", "# hookweave:", "# hookweave:\n"]


@pytest.mark.parametrize("command", MARKER_EDGES)
def test_marker_read_as_its_pattern_reads_it(command):
    _same_marker(command)


@given(MARKER_TEXTS)
def test_marker_read_as_its_pattern_reads_it_on_any_text(command):
    _same_marker(command)


def _same_marker(command: str) -> None:
    from hookweave.core.model.render import MARKER_RE, marker_in

    found = re.search(MARKER_RE.pattern, command)
    assert marker_in(command) == ((found.group(1), found.group(2)) if found else None), command


PLACEHOLDER_TEXTS = st.lists(st.sampled_from(["{bundle_dir}", "{project_dir}", "{", "}", "$", "${", "bundle", "_dir", "dir",
                                              " ", "x", "BUNDLE_DIR", "project-dir", "{{", "}}", "/"]), max_size=10).map("".join)


@given(PLACEHOLDER_TEXTS)
def test_a_command_passed_without_the_placeholder_pattern_holds_only_placeholders(word):
    """Where ``_only_placeholders`` spares the pattern, all it would find is the two placeholders."""
    from hookweave.core.model.commandcheck import BRACED, _only_placeholders

    if _only_placeholders(word):
        assert {m.group(0) for m in re.finditer(BRACED.pattern, word)} <= {"{bundle_dir}", "{project_dir}"}, word
    else:
        assert "{" in word
