"""Pure: the chain runner's sh fast path as install writes it (``core/standalone/chainrun.sh`` after a
header of host facts, ``core/model/shfacts.py``), its place beside the settings file, and whether a
file is one hookweave wrote.
"""

from __future__ import annotations

from pathlib import Path

from hookweave.core.formats.patch import sha256_text
from hookweave.core.model.shfacts import SH_HOSTS, body, facts_text, shapes  # noqa: F401  (SH_HOSTS: chain, verify)

HEAD = "#!/bin/sh\n# hookweave chain runner, sh fast path (`hooks install`); do not edit: `hooks verify` checks it.\n"
KEY = "# key "


SUFFIX = ".hookweave-chain.sh"
# Where the answers' table goes in the body: after the part every event runs, so that the shell parses
# it only for an event whose member answered (``core/standalone/chainrun.sh``).
SHAPES_HERE = "# @shapes: the answers' table (core/standalone/chainshapes.sh) goes here (core/plan/chainsh.py)\n"


def runner_path(settings: Path) -> Path:
    """Beside the Python runner (``chain.runner_path``), which it finds by its own name."""
    return settings.with_name(settings.stem + SUFFIX)


def _key(rest: str) -> str:
    return sha256_text(rest)[len("sha256:"):][:16]


def runner_text() -> str:
    rest = facts_text() + "\nhw_py=${0%.sh}.py\n" + body().replace(SHAPES_HERE, shapes())
    return HEAD + KEY + _key(rest) + "\n" + rest


def pristine(text: str) -> bool:
    """Whether ``text`` is an sh runner as some hookweave wrote it, unedited (its key is the hash of the rest)."""
    if not text.startswith(HEAD + KEY):
        return False
    key, _, rest = text[len(HEAD + KEY):].partition("\n")
    return _key(rest) == key
