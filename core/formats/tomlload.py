"""Pure: TOML text to data, every failure a ``ParseError`` at ``path:line:col`` (never a traceback)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hookweave.core.errors import ParseError
from hookweave.core.formats import tomlplain


def load(text: str, path: Path) -> dict[str, Any]:
    text = text.removeprefix("\ufeff")  # an editor's byte order mark; TOML parsers reject it
    plain = tomlplain.parse(text)  # most manifests, without loading tomllib
    if plain is not None:
        return plain
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: tomlkit parses the same language
        return _load_tomlkit(text, path)
    try:
        return tomllib.loads(text)
    except RecursionError:  # tomllib has no depth limit; tomlkit stops at 100 levels and says where
        return _load_tomlkit(text, path)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        reason = re.sub(r"\s*\(at line.*\)", "", str(exc))
        raise ParseError(str(path), line, col, f"invalid TOML: {reason}") from None
    except ValueError:  # tomllib's int() past Python's 4300-digit limit
        raise _long_number(text, path) from None


def _long_number(text: str, path: Path) -> ParseError:
    m = re.search(r"[0-9_]{4000,}", text)
    start = m.start() if m else 0
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    size = len(m.group()) if m else 0
    return ParseError(str(path), line, col, f"a number of {size} digits", "write it as a string, or shorten it")


def _load_tomlkit(text: str, path: Path) -> dict[str, Any]:
    import tomlkit

    try:
        return tomlkit.parse(text).unwrap()
    except tomlkit.exceptions.ParseError as exc:  # tomlkit counts columns from 0
        reason = str(exc).split(" at line ")[0]
        raise ParseError(str(path), exc.line, exc.col + 1, f"invalid TOML: {reason}") from None
    except tomlkit.exceptions.TOMLKitError as exc:  # KeyAlreadyPresent and its kin: no place to name
        raise ParseError(str(path), 1, 1, f"invalid TOML: {str(exc).rstrip('.')}") from None
    except ValueError:
        raise _long_number(text, path) from None
