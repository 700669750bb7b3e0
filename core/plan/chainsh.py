"""Pure: the chain runner's sh fast path as install writes it (``core/standalone/chainrun.sh`` after a
header of host facts, ``core/model/shfacts.py``), its place beside the settings file, and whether a
file is one hookweave wrote.
"""

from __future__ import annotations

import functools
from pathlib import Path

from hookweave.core.formats.patch import sha256_text
from hookweave.core.model.shfacts import (  # noqa: F401  (SH_HOSTS: chain, verify)
    SH_HOSTS,
    bare,
    body,
    facts_text,
    host_arms,
    host_facts,
    shapes,
)

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


@functools.lru_cache(maxsize=4)
def runner_text(protocol: str | None = None) -> str:
    """The runner for the settings of a host whose answers ``protocol`` reads (``Host.answer_protocol``):
    its facts and answers' table alone (every sh host's without one, as ``chain.runner_text``), then
    the body, bare (``shfacts.bare``)."""
    if protocol is None:
        facts, table = facts_text(), shapes()
    else:
        facts, table = host_facts(protocol), host_arms(shapes(), protocol)
    rest = facts + "\nhw_py=${0%.sh}.py\n" + bare(body().replace(SHAPES_HERE, table))
    return HEAD + KEY + _key(rest) + "\n" + rest


def pristine(text: str) -> bool:
    """Whether ``text`` is an sh runner as some hookweave wrote it, unedited (its key is the hash of the rest)."""
    if not text.startswith(HEAD + KEY):
        return False
    key, _, rest = text[len(HEAD + KEY):].partition("\n")
    return _key(rest) == key
