"""What verify says of a Cline dispatcher, read from the file Cline runs, against hookweave's data:
gone, replaced by another script, edited by hand, or left over with no hook listed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import marker_in


def findings(scope: str, event: str, members: list[dict], there: Any, path: Path) -> list[Finding]:
    shown = paths.display(path)
    ours = [marker_in(h.get("command")) for h in members if marker_in(h.get("command"))]
    if ours and path.is_symlink():  # measured on 3.0.65: even a link to an identical copy (a linked folder runs)
        return [Finding("problem", f"{shown} is a symlink, and Cline skips a hook file that is one, so it runs none "
                        f"of the {scope} {event} hooks; delete the link and install the bundle again", b, i)
                for b, i in ours]
    if there is None:
        if not ours:
            return []
        return [Finding("problem", f"missing: {shown} is gone, so Cline runs none of the {scope} {event} hooks; "
                        "install the bundle again", b, i) for b, i in ours]
    if there.get("foreign"):
        if not ours:
            return []
        return [Finding("problem", f"modified: {shown} is no longer the file hookweave wrote (another script replaced "
                        "it), so Cline runs that instead; move that script away and install the bundle again", b, i)
                for b, i in ours]
    listed = there.get("hooks", {}).get(event, [])
    if not ours and not members:
        return [Finding("problem", f"{shown} is hookweave's, but no bundle lists a {event} hook any more; "
                        "delete the file")]
    if listed == members and there.get("earlier") == "keyed":
        return [Finding("note", f"{shown} runs the code of an earlier hookweave's dispatcher; install the bundle "
                        "again to update it")]
    if listed == members and there.get("earlier"):
        return [Finding("note", f"{shown} runs the code of an earlier hookweave's dispatcher, which waits for a child "
                        "a hook leaves holding its output and fails on a command with an emoji; install the bundle "
                        "again to update it")]
    if listed == members and there.get("exact"):
        return []
    return [Finding("problem", f"modified: {shown} was edited by hand and no longer runs exactly what hookweave "
                    "wrote; undo the edit, or delete the file and install the bundle again", b, i) for b, i in ours] or [
        Finding("problem", f"modified: {shown} was edited by hand; undo the edit, or delete the file")]


def unmarked(data: Path, event: str, entries: list, folder: Path) -> list[Finding]:
    """Entries without our marker in hookweave's own data file: Cline never reads that file and the
    dispatcher runs only hookweave's entries, so such an entry runs nowhere."""
    return [Finding("problem", f"{paths.display(data)}: /hooks/{event}/{i} has no hookweave marker; this file is "
                    f"hookweave's own and Cline never reads it, so that entry runs nowhere: put its command in a hook "
                    f"file of your own ({paths.display(folder / (event + '.sh'))}) and remove it here")
            for i, entry in enumerate(entries) if not (isinstance(entry, dict) and marker_in(entry.get("command")))]


def interpreter() -> list[Finding]:
    """The dispatchers start ``python3 -S``: without one on PATH Cline runs none of them."""
    if shutil.which("python3") is not None:
        return []
    return [Finding("problem", "python3 is not on PATH here, and hookweave's Cline hook files run with python3 "
                    "(python3 -S): Cline runs none of them; install Python 3", machine=True)]
