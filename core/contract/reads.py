"""A fact a host declares in ``also_reads``: another agent runs the hooks of this host's files.

verify (``verify/readers.py``) turns these rows into the cross-agent findings.
"""

from hookweave.core.formats.fieldtuple import FieldTuple


class Reads(FieldTuple):
    """An agent runs the hooks of ``host``'s files at ``scopes``.

    ``matchers``: ``"honoured"`` (it filters by the entry's matcher) or ``"ignored"`` (every hook
    runs on every tool). ``condition``: when the agent reads them at all, e.g. ``'if "Include
    third-party configs" is on'``, ``""`` when always. ``measured``: seen on the real program (the
    findings then say "fires", else "may fire"). ``covers``: the native events of ``host`` whose
    entries the agent runs exactly as ``host`` does (its payload, tool names matched by ``host``'s
    names and its answers), measured: install then writes a hook for both into ``host``'s file only
    (``plan/standin.py``); ``()`` for none."""

    host: str
    scopes: tuple
    matchers: str = "honoured"
    condition: str = ""
    measured: bool = False
    covers: tuple = ()
