"""Pure rendering of a bundle command into the shell string a host runs, with our marker.

Every command we write ends in a shell comment ``# hookweave:<bundle>/<id>``. The host's shell
ignores it; it survives host rewrites (it is part of the command), needs no extra key that a
host schema could reject, tells the operator where the entry came from, and lets uninstall find
our entry even after the operator changed something else in it.
"""

from __future__ import annotations

from pathlib import Path

from hookweave.core.formats.lazypattern import LazyPattern

MARKER_RE = LazyPattern(r"(?:^|\s)# hookweave:([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9-]*)[ \t]*$")


MARK = "# hookweave:"  # in every command of ours; most operator commands lack it, so no search is made


def marker(bundle: str, hook_id: str) -> str:
    return f"{MARK}{bundle}/{hook_id}"


def marker_in(command: object) -> tuple[str, str] | None:
    """``(bundle, hook id)`` when ``command`` ends in our marker: ``MARKER_RE``'s answer, read with
    string methods (the pattern costs 0.9 million instructions to compile, more than a verify's
    every other marker read; ``tests/formats/test_render.py`` holds the two to each other)."""
    if not isinstance(command, str) or MARK not in command:  # most operator hooks: no search
        return None
    # ``[ \t]*$``: blanks, then the end or a last newline. Names hold no ``#``, ``:`` or blank, so
    # only the last marker can reach the end: the pattern's one candidate.
    body = (command[:-1] if command.endswith("\n") else command).rstrip(" \t")
    at = body.rfind(MARK)
    if at > 0 and not body[at - 1].isspace():  # ``(?:^|\s)``: str.isspace is the pattern's \s
        return None
    bundle, slash, hook_id = body[at + len(MARK):].partition("/")
    return (bundle, hook_id) if slash and _marker_name(bundle) and _marker_name(hook_id) else None


_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-"


def _marker_name(text: str) -> bool:
    """``[a-z0-9][a-z0-9-]*``."""
    return bool(text) and text[0] != "-" and not text.strip(_NAME_CHARACTERS)


def shell_command(
    command: str | tuple[str, ...], bundle_dir: Path, project_ref: str, tag: str, bundle_ref: str | None = None
) -> str:
    """Render for a POSIX shell (``sh -c``, ``$SHELL -lc``): argv words quoted, placeholders filled.

    ``project_ref`` is the host's own project variable as a shell word, e.g. ``"$CLAUDE_PROJECT_DIR"``.
    ``bundle_ref``, when given, is the shell word ``{bundle_dir}`` becomes instead of the absolute
    folder (``portable_ref``: a bundle inside the project, reached through the host's variable).
    In a string command the placeholders become shell-quoted words, so do not quote them yourself.
    """
    if isinstance(command, tuple):
        body = " ".join(_argv_word(arg, bundle_dir, project_ref, bundle_ref) for arg in command)
    else:
        body = command.replace("{bundle_dir}", bundle_ref or _quote(str(bundle_dir)))
        body = body.replace("{project_dir}", project_ref)
    # A marker on the last line of a multi-line command would end a here-document early.
    return body + ("\n" if "\n" in body else " ") + tag


SHELL_CHARACTERS = LazyPattern(r"[|&;><$`]")  # what makes an argv-splitting agent give a command to a shell


def through_a_shell(rendered: str) -> str:
    """A rendered command (ending in our marker) that an agent which splits commands without shell
    characters on spaces (Auggie 0.36: ``/[|&;><$`]/`` or a leading ``~`` sends it to ``bash -c``)
    still runs in a shell, where the marker is a comment: without one, `` ;`` is added before the
    marker (such a command cannot end in ``&`` or ``;``, so the result is always valid)."""
    found = MARKER_RE.search(rendered)
    body, tag = (rendered[: found.start()], rendered[found.start():]) if found else (rendered, "")
    if body.lstrip().startswith("~") or SHELL_CHARACTERS.search(body):
        return rendered
    return body.rstrip(" \n") + " ;" + body[len(body.rstrip(" \n")):] + tag


EXEC_NAME = "hookweave"  # $0 of the shell an exec-host command starts: what its error messages begin with


def through_sh(rendered: str) -> str:
    """A rendered command (ending in our marker) for an agent that splits every command into words
    and runs them with no shell (Hermes: ``shlex.split``, ``shell=False``): the command becomes the
    script of ``sh -c``, whose ``$0`` is ``hookweave``, and our marker follows as two more words,
    ``$1`` and ``$2`` of that shell. The program the command starts never gets them, and the
    command still ends in the marker that says whose it is."""
    found = MARKER_RE.search(rendered)
    body, tag = (rendered[: found.start()], rendered[found.start():].lstrip()) if found else (rendered, "")
    return f"sh -c {_quote(body.rstrip())} {EXEC_NAME} {tag}".rstrip()


def unwrapped(command: str) -> str | None:
    """The script of a command ``through_sh`` wrote, without its marker; ``None`` when it is not one."""
    import shlex  # here and in _quote: a command read or written, not every command's start (0.8 M)

    found = MARKER_RE.search(command)
    body = command[: found.start()] if found else command
    try:
        words = shlex.split(body)
    except ValueError:
        return None
    if len(words) == 4 and words[:2] == ["sh", "-c"] and words[3] == EXEC_NAME:
        return words[2]
    return None


def without_marker(rendered: str, runs: str) -> str:
    """A rendered command as the operator would write it by hand: without our marker, and on an
    agent that runs argv (``runs``) without the `` ;`` ``through_a_shell`` put before it."""
    found = MARKER_RE.search(rendered)
    body = rendered[: found.start()] if found else rendered
    if runs == "exec" and unwrapped(rendered) is not None:
        return unwrapped(rendered)  # type: ignore[return-value]
    if runs == "argv" and found and body.endswith(" ;"):
        bare = body[:-2]
        if not (bare.lstrip().startswith("~") or SHELL_CHARACTERS.search(bare)):
            return bare
    return body


def portable_ref(root_ref: str, relative: str) -> str:
    """The shell word for a folder ``relative`` (POSIX, ``.`` for the root itself) to the project
    folder, which the host's shell reaches as ``root_ref``: ``"$CLAUDE_PROJECT_DIR"/tools/guard``."""
    return root_ref if relative in ("", ".") else f"{root_ref}/{_quote(relative)}"


def _argv_word(arg: str, bundle_dir: Path, project_ref: str, bundle_ref: str | None = None) -> str:
    if bundle_ref is not None:
        pieces = arg.split("{bundle_dir}")
        word = bundle_ref.join(_argv_word(p, bundle_dir, project_ref) if p else "" for p in pieces)
        return word or "''"
    arg = arg.replace("{bundle_dir}", str(bundle_dir))
    pieces = arg.split("{project_dir}")
    word = project_ref.join(_quote(p) if p else "" for p in pieces)
    return word or "''"


def _quote(text: str) -> str:
    """``shlex.quote``, with each ``$`` written as ``\\$`` outside the quotes.

    Gemini CLI replaces ``$GEMINI_PROJECT_DIR``, ``$GEMINI_CWD``, ``$CLAUDE_PROJECT_DIR`` (and two
    more) in the command text before its shell sees it, inside quotes too, with a quoted path that
    would end ours. ``\\$`` is the same ``$`` to every POSIX shell, and no such name follows it.
    """
    word = _shell_quote(text).replace("$", "'\\$'")
    if len(word) > 2 and word.startswith("''"):  # an empty quoted piece before or after: drop it
        word = word[2:]
    if len(word) > 2 and word.endswith("''"):
        word = word[:-2]
    return word


# shlex.quote's safe characters (``[^\w@%+=:,./-]`` with re.ASCII finds an unsafe one): written here,
# shlex and its pattern load only for a command to split (an install of a bundle: 1 million instructions).
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def _shell_quote(text: str) -> str:
    """``shlex.quote(text)``."""
    if not text:
        return "''"
    if _SAFE.issuperset(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
