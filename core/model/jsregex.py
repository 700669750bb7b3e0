"""Whether JavaScript's ``new RegExp(pattern)`` (no flags) throws, and why, without running Node.

Auggie checks each group's matcher with exactly that call and drops the file's whole list for the
event when it throws (issue 34), so verify needs the same answer. The grammar is ECMAScript's with
its web-compatibility annex (Annex B), which every Node follows without the ``u`` flag: an unknown
escape is the character itself, a lone ``]`` or ``}`` is literal, ``{`` is literal unless a whole
``{n}``, ``{n,}`` or ``{n,m}`` follows, and a lookahead can be repeated. The messages are V8's.
tests/test_issue34.py compares this with Node on every pattern it knows.
"""

from __future__ import annotations

import re

from hookweave.core.formats.lazypattern import LazyPattern

QUANTIFIER = LazyPattern(r"\{(\d+)(,(\d*))?\}")
NAME = LazyPattern(r"[A-Za-z_$][A-Za-z0-9_$]*")
CLASS_ESCAPES = frozenset("dDsSwW")
CONTROL = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "b": 8}
HEX = LazyPattern(r"x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})")
OCTAL = LazyPattern(r"[0-3][0-7]{0,2}|[4-7][0-7]?")


def js_regex_error(pattern: str) -> str | None:
    """V8's reason ``new RegExp(pattern)`` throws (``"Nothing to repeat"``), or ``None`` when it does not."""
    names = _names(pattern)
    seen: set[str] = set()  # the names of the groups opened so far
    stack: list[str] = []  # the open groups' kinds: "group", "named" or "lookbehind"
    repeatable: bool | str = False  # whether the last item can take a quantifier; "lookbehind" cannot either
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 == len(pattern):
                return "\\ at end of pattern"
            if pattern[i + 1] == "k" and names:
                match = re.compile(r"<([^>]*)>").match(pattern, i + 2)
                if not match:
                    return "Invalid named reference"
                if match.group(1) not in names:
                    return "Invalid named capture referenced"
                i = match.end()
                repeatable = True
            else:
                repeatable = pattern[i + 1] not in "bB"  # \b and \B are assertions
                i += 2
            continue
        if c == "[":
            end, error = _class(pattern, i + 1, bool(names))
            if error:
                return error
            i, repeatable = end, True
            continue
        if c == "(":
            kind, length = _group(pattern, i)
            if kind is None:
                return "Invalid group"
            name = pattern[i + 3:i + length - 1] if kind == "named" else None
            if name is not None and not NAME.fullmatch(name):
                return "Invalid capture group name"
            if name in seen:
                return "Duplicate capture group name"
            seen.update([name] if name else [])
            stack.append(kind)
            i, repeatable = i + length, False
            continue
        if c == ")":
            if not stack:
                return "Unmatched ')'"
            repeatable = stack.pop()  # truthy; a lookbehind's quantifier is an error of its own
        elif c in "*+?" or c == "{" and QUANTIFIER.match(pattern, i):
            if repeatable == "lookbehind":
                return "Invalid quantifier"
            if not repeatable:
                return "Nothing to repeat"
            match = QUANTIFIER.match(pattern, i) if c == "{" else None
            if match and match.group(3) and int(match.group(3)) < int(match.group(1)):
                return "numbers out of order in {} quantifier"
            i = match.end() if match else i + 1
            i += 1 if pattern[i:i + 1] == "?" else 0  # lazy
            repeatable = False
            continue
        else:
            repeatable = c not in "|^$"
        i += 1
    return "Unterminated group" if stack else None


def _names(pattern: str) -> set[str]:
    """The named groups' names (a ``\\k<name>`` may come before its group); ``(?<`` inside a class or
    after ``\\`` is text."""
    found: set[str] = set()
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class or c == "[":
            in_class = c == "[" or in_class and c != "]"
        elif pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!"):
            end = pattern.find(">", i + 3)
            found.add(pattern[i + 3:end] if end > 0 else "")
        i += 1
    return found


def _group(pattern: str, i: int) -> tuple[str | None, int]:
    """The kind of the group opening at ``i`` and how long its opening is; ``None`` when invalid."""
    if not pattern.startswith("(?", i):
        return "group", 1
    rest = pattern[i + 2:i + 4]
    if rest[:1] in (":", "=", "!"):
        return "group", 3
    if rest in ("<=", "<!"):
        return "lookbehind", 4
    if rest[:1] == "<":
        end = pattern.find(">", i)
        return "named", end - i + 1 if end > 0 else 3  # no ">": an empty name, which is invalid
    return None, 0


def _class(pattern: str, i: int, named: bool) -> tuple[int, str | None]:
    """Where the class opened before ``i`` ends, or why it is invalid (a range out of order; ``\\k``
    in a pattern with named groups)."""
    i += 1 if pattern[i:i + 1] == "^" else 0
    while i < len(pattern) and pattern[i] != "]":
        if named and pattern.startswith("\\k", i):
            return i, "Invalid escape"
        low, i = _class_atom(pattern, i)
        if pattern[i:i + 1] == "-" and pattern[i + 1:i + 2] not in ("", "]"):
            high, i = _class_atom(pattern, i + 1)
            if low is not None and high is not None and low > high:
                return i, "Range out of order in character class"
    if i > len(pattern) or i == len(pattern) and pattern.endswith("\\") and _escaped_end(pattern):
        return i, "\\ at end of pattern"
    if i >= len(pattern):
        return i, "Unterminated character class"
    return i + 1, None


def _escaped_end(pattern: str) -> bool:
    """Whether the pattern ends in a ``\\`` that escapes nothing (an odd run of them)."""
    return (len(pattern) - len(pattern.rstrip("\\"))) % 2 == 1


def _class_atom(pattern: str, i: int) -> tuple[int | None, int]:
    """One class atom's code point (``None`` for ``\\d`` and the like) and where it ends."""
    if pattern[i] != "\\":
        return ord(pattern[i]), i + 1
    if i + 1 == len(pattern):
        return None, i + 1  # the caller reports the unterminated class
    return _class_escape(pattern, i + 1)


def _class_escape(pattern: str, i: int) -> tuple[int | None, int]:
    """The code point of the escape after the ``\\`` before ``i``, and where it ends."""
    c = pattern[i]
    if c in CLASS_ESCAPES:
        return None, i + 1
    if c in CONTROL:
        return CONTROL[c], i + 1
    hexed = HEX.match(pattern, i)
    if hexed:
        return int(hexed.group(1) or hexed.group(2), 16), hexed.end()
    if c == "c" and i + 1 < len(pattern) and (pattern[i + 1].isascii() and pattern[i + 1].isalnum() or pattern[i + 1] == "_"):
        return ord(pattern[i + 1]) % 32, i + 2
    if c == "c":
        return ord("\\"), i  # Annex B: a backslash, and the c is read next as itself
    octal = OCTAL.match(pattern, i)
    if octal:
        return int(octal.group(), 8), octal.end()
    return ord(c), i + 1
