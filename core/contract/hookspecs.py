"""The plugin contract: pluggy hook specifications of the ``hookweave`` project.

A host plugin is a module (or object) with a ``@hookimpl`` function below, published under the
entry-point group ``hookweave``::

    [project.entry-points.hookweave]
    myagent = "hookweave_myagent"

Per-host behaviour lives on a ``hookweave.core.contract.host.Host`` subclass, not on more hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pluggy

PROJECT = "hookweave"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


@hookspec
def hookweave_register_hosts(register: Callable[[type[Host]], None]) -> None:
    """Called once when hookweave builds its host registry; register your host classes.

    :param register: call ``register(MyHost)`` for each ``Host`` subclass the plugin provides.
        The registry rejects a class without ``name`` and a name that is already taken.
    :return: nothing; registration happens through ``register``.
    """
