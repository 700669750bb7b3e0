"""Pure: whether install may write a file in an agent's managed layer (``--scope managed``), where
hookweave edits only the drop-in it created, and only as root where the agent loads root's files only."""

from __future__ import annotations

import os

from hookweave.core.contract.host import Host
from hookweave.core.errors import Refused


def check_writable(host: Host, scope: str, shown: str, exists: bool, created: bool) -> None:
    """``Refused`` (nothing written) for a file there that hookweave did not create, or a run as a
    user other than root where the agent skips a file root does not own (``Host.root_only``)."""
    if scope in host.created_only and exists and not created:
        raise Refused(f"{shown}: hookweave did not create this file, and in the {scope} layer it edits "
                      "only its own; nothing written. Move or rename the file if it is yours, then install again")
    check_root(host, scope, shown)


def check_root(host: Host, scope: str, shown: str) -> None:
    """``Refused`` for a run as a user other than root where the agent skips a file root does not
    own; install asks first, so this reason comes before the folder's (root's, not writable)."""
    if scope in host.root_only and getattr(os, "geteuid", lambda: 0)() != 0:  # Windows: no owner to check
        raise Refused(f"{shown}: {host.root_only[scope]}")
