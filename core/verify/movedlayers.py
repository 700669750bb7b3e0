"""A machine layer that only hookweave was told to look for elsewhere (issue 34 item 3, decided).

A description's path template may start with a variable of hookweave's own (``HOOKWEAVE_...``,
e.g. ``${HOOKWEAVE_CLAUDE_MANAGED_DIR:-/etc/claude-code}``): tests and images point it at another
folder. The agent never reads it (Claude Code 2.1.332 reads no variable for its managed folder,
measured: tests/e2e/test_managed_real.py; Copilot CLI 1.0.102 none for policy.d), so hooks written
there run only where that folder is, to the agent, the fixed one (a container, a mount, an overlay).
verify cannot see the agent's view of the file system: a note names the variable and both folders.
A variable the agent reads too (Gemini CLI's ``GEMINI_CLI_SYSTEM_SETTINGS_PATH``) moves both alike:
nothing to say.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from hookweave.core.contract.description import this_system, variables
from hookweave.core.files import paths
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host

OWN_PREFIX = "HOOKWEAVE_"  # hookweave's variables: no agent reads them


def findings(host: Host, installed: set[str]) -> list[Finding]:
    """A note per scope hookweave installed in whose folder a variable of hookweave's own moved."""
    files = getattr(getattr(host, "description", None), "files", {})
    out = []
    for scope in (s for s in host.verify_scopes if s in installed):
        template = files.get(scope)
        template = this_system(template) if template is not None else None
        found = variables(template)[:1] if isinstance(template, str) else []  # VARIABLE.match's, if any
        if not found or found[0][0] != 0 or not found[0][2].startswith(OWN_PREFIX):
            continue
        _, _, variable, fixed = found[0]
        value = os.environ.get(variable)
        if not value or os.path.normpath(value) == os.path.normpath(fixed):
            continue
        out.append(Finding("note", paths.printable(
            f"{variable} is set in this shell: hookweave reads and writes {host.title}'s {scope} scope in {value}; "
            f"{host.title} does not read that variable and looks only in {fixed}, so the hooks there run only where "
            f"{value} is {fixed} to {host.title} (a container or a mount)")))
    return out
