"""Shell words without shlex where it is not needed: ``mistakes._words`` finds the words
``shlex.split(command, comments=True)`` finds (shlex is loaded for a command with a quote, escape
or comment only), and ``render._shell_quote`` is ``shlex.quote``."""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from hookweave.core.usecases.mistakes import _words

PIECES = st.sampled_from(["python3", "{bundle_dir}/x.py", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\u00a0", "\u2028",
                          "\x1c", "é", "-", "$HOME", ";", "|", "&&", "'", '"', "\\", "#", "a#b", "()", "", "\x00"])


def _shlex(command: str):
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return None


@given(st.lists(PIECES, max_size=12).map("".join))
def test_words_are_shlex_words(command):
    assert _words(command) == _shlex(command)


def test_words_on_edges():
    for command in ["", " ", "a", " a  b ", "a\tb\nc\rd", "a\x0bb", "a\u00a0b", "a 'b c'", 'a "b', "a # c", "a\\ b", "x#y z"]:
        assert _words(command) == _shlex(command), command
    assert _words(("a b", "c")) == ["a b", "c"]


@given(st.lists(PIECES, max_size=8).map("".join))
def test_quoting_is_shlex_quote(text):
    from hookweave.core.model.render import _shell_quote

    assert _shell_quote(text) == shlex.quote(text)
    for edge in ["", "a", "a b", "it's", "$x", "é", "_@%+=:,./-", "a\x00", "~", "*"]:
        assert _shell_quote(edge) == shlex.quote(edge)
