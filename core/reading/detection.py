"""Whether an agent looks in use here, for ``hooks hosts`` and the install picker: its own
``detect()`` (a program on PATH, its user folder), or a project settings file of it in the
folder it reads here (issue 25: "not detected" beside a host whose project file exists)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def detected(host: Host, project: Path) -> bool:
    try:
        if host.detect():
            return True
    except OSError:
        pass
    for scope in host.scopes:
        if scope == "user":
            continue  # detect() judges the user folder; a user file alone is not this folder's
        try:
            if host.settings_path(scope, project).exists():
                return True
        except (OSError, ValueError):
            continue
    return False
