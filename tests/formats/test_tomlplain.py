"""``tomlplain`` reads the plain TOML of most manifests without ``tomllib``: where it gives data, the
data is ``tomllib.loads``'s, value for value; everything else is left to ``tomllib`` (None)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from hookweave.core.formats import tomlplain

REPO = Path(__file__).resolve().parents[2]
EVERY_TOML = sorted(p for p in [*REPO.glob("templates/**/*.toml"), *REPO.glob("tests/data/**/*.toml")])


def tomllib_or_error(text: str):
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return "refused"


def test_every_toml_file_here_reads_as_tomllib_reads_it():
    plain = 0
    for path in EVERY_TOML:
        text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
        got = tomlplain.parse(text)
        if got is not None:
            plain += 1
            assert got == tomllib_or_error(text), path
    assert plain >= 40  # the templates and most manifests of the tests are plain


ACCEPTED = [
    "", "# only a comment\n", 'a = "x"\n', "a = 'lit\\eral'\n", "a = -0\nb = +12\nc = true\nd = false\n",
    'a = [ "x", \'y\' , 1, true, ]  # trailing comma\n', "a = []\nb = [ ]\n", "[a.b]\n[a]\nc = 1\n",
    "[[a]]\nx = 1\n[a.b]\ny = 2\n[[a]]\n[a.b]\ny = 3\n", '\t[env.X]\t# tab\nvalue = "20"\t\n',
    '[bundle]\nname = "grüß ☕"\n', "[[a.b]]\n[a]\nc = 1\n", "1 = 2\n_-x = 'k'\n",
]
REFUSED_OR_LEFT = [
    'a = "x"\na = "y"\n', "[a]\n[a]\n", "[a]\nb = 1\n[a.b]\n", "a = []\n[[a]]\n", "[a]\n[[a]]\n", "[[a]]\n[a]\n",
    'a = "x\\ty"\n', 'a = """x"""\n', "a = '''x'''\n", "a = 1.5\n", "a = 1_000\n", "a = 01\n", "a = 0x1f\n",
    "a = 1979-05-27\n", "a = 07:32:00\n", "a = inf\n", "a = {b = 1}\n", "a.b = 1\n", '"a" = 1\n', "[ a ]\n",
    "[a]]\n", "[[a]\n", "a = [\n  1,\n]\n", "a = [[1]]\n", "a = [,]\n", "a = trueish\n", 'a = "x" "y"\n',
    "a = \n", "= 1\n", "a = 1\r\n", "# bell \x07\n", "a = 'x\x7f'\n", "[a.\u00e9]\n", "a = [1 2]\n",
    "a = 1" + "0" * 18 + "\n", "a = " + "9" * 5000 + "\n",  # past 64 bits; past int()'s digit limit
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_plain_toml_reads_as_tomllib_reads_it(text):
    assert tomlplain.parse(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", REFUSED_OR_LEFT)
def test_what_is_not_plain_is_left_to_tomllib(text):
    assert tomlplain.parse(text) is None


def test_a_thousand_mutated_manifests_read_as_tomllib_reads_them_or_are_left_to_it():
    """Every one-character change (insert, delete, replace) of a real manifest, from the characters
    TOML gives meaning to: data only where tomllib gives the same data."""
    source = (REPO / "templates" / "example-guard" / "hookweave.toml").read_text(encoding="utf-8")
    alphabet = "[]=\"'#,.\n \t01_-+ex\\{}:"
    rng = random.Random(38)
    read = 0
    for _ in range(1000):
        at = rng.randrange(len(source))
        change = rng.choice(("insert", "delete", "replace"))
        char = rng.choice(alphabet)
        text = {"insert": source[:at] + char + source[at:], "delete": source[:at] + source[at + 1:],
                "replace": source[:at] + char + source[at + 1:]}[change]
        got = tomlplain.parse(text)
        if got is not None:
            read += 1
            assert got == tomllib_or_error(text), (change, at, char)
    assert read > 300  # most changes keep the file plain (a comment, a string's text)
