"""Mistakes in a command's text that render without a word and fail at run time (pure).

A mistyped placeholder (``{bundle-dir}``, ``{bundledir}``, ``{{bundle_dir}}``, ``${bundle_dir}``)
is written as it is, and the agent runs a path that does not exist; a placeholder in quotes the
author added breaks where the folder's path holds a space (hookweave quotes it already); a Windows
path in a shell string loses its backslashes to the POSIX shell every host runs.
"""

from __future__ import annotations

import re

from hookweave.core.formats.lazypattern import LazyPattern

PLACEHOLDERS = ("bundle_dir", "project_dir")
# ``{name}``, ``{{name}}``, ``${name}``, ``{ name }``: any braces around a word that reads as one of ours.
BRACED = LazyPattern(r"\$?\{+\s*([A-Za-z][A-Za-z_ -]*?)\s*\}+")
LOOKALIKE = LazyPattern(r"(bundle|project)[-_ ]?(dir|directory|folder|path|root)", re.IGNORECASE)
WINDOWS = LazyPattern(r"(?<![\w\\])[A-Za-z]:\\")


def _only_placeholders(word: str) -> bool:
    """Whether ``BRACED`` can find nothing but the two placeholders written right: every brace is in
    one, with no ``$`` before it (compiling the pattern costs 0.7 million instructions, and nearly
    every command passes here; ``tests/formats/test_lazypattern.py`` holds this to the pattern)."""
    if "{" not in word:
        return True
    rest = word.replace("{bundle_dir}", "").replace("{project_dir}", "")
    return "{" not in rest and "}" not in rest and "${" not in word


def mistake(command: str | tuple[str, ...]) -> tuple[str, str] | None:
    """``(what, fix)`` for the first mistake in ``command``, or ``None``."""
    words = (command,) if isinstance(command, str) else command
    for word in words:
        if _only_placeholders(word):
            continue
        for found in BRACED.finditer(word):
            text, name = found.group(0), found.group(1)
            if text in ("{bundle_dir}", "{project_dir}") or not LOOKALIKE.fullmatch(name):
                continue
            if name.isupper() and text.startswith("${"):
                continue  # a shell variable of the operator's (${PROJECT_DIR})
            right = "{bundle_dir}" if name.lower().startswith("bundle") else "{project_dir}"
            return (f"{text} is not a placeholder, so it would be written as it is",
                    f"write {right} (placeholders: {{bundle_dir}}, {{project_dir}})")
    if isinstance(command, str):
        quoted = _quoted_placeholder(command)
        if quoted:
            return (f"{quoted} is inside quotes you wrote; hookweave quotes it itself, so a folder whose path holds a "
                    "space or a quote would break the command", f"remove the quotes around {quoted}")
        if WINDOWS.search(command):
            return ("holds a Windows path: the POSIX shell every host runs hooks with reads its backslashes as escapes",
                    "write the path with / (C:/tools/h.py), or use {bundle_dir}")
    else:
        for word in command:
            for name in PLACEHOLDERS:
                at = word.find("{" + name + "}")
                if at > 0 and word[at - 1] in "'\"" or at >= 0 and word.endswith(("'", '"')) and word[0] in "'\"":
                    return (f"a word of the argv holds quotes around {{{name}}}; each word is quoted for you",
                            "remove the quotes from the word")
    return None


def _quoted_placeholder(command: str) -> str | None:
    """The first placeholder that stands inside single or double quotes of the shell text."""
    quote = None
    i = 0
    while i < len(command):
        char = command[i]
        if char == "\\" and quote != "'":
            i += 2
            continue
        if quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
        elif quote is not None and char == "{":
            name = next((p for p in PLACEHOLDERS if command.startswith("{" + p + "}", i)), None)
            if name:
                return "{" + name + "}"
        i += 1
    return None
