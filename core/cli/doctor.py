"""``hooks doctor``: what this machine and this folder give hooks, per host, before anything is installed.

Per host: its binary on PATH and the version it reports, the project folder it would read when
started here, each settings file in effect (and whether it exists), and every gate that would stop
hooks if they were installed at user and project scope; then the plugins loaded and what a chain
runner needs (``python3`` on PATH). A problem (a gate, a missing ``python3``) makes it exit 1.
A host whose binary is not found is a note: you may not use it. The text shows the agents found
first, and counts the others (not on PATH, no settings file, nothing wrong) on one line; ``--verbose``
shows each of them too, and ``--json`` always has every host.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.reading import projects, scopes

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host

BINARIES = {"cursor": "cursor-agent", "factory": "droid", "antigravity": "agy"}  # host name -> binary name, where they differ
VERSION_TIMEOUT = 10.0


def binary_version(binary: str) -> str:
    """The first line ``binary --version`` prints, or why there is none."""
    import subprocess

    try:
        done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT,
                              stdin=subprocess.DEVNULL, errors="replace")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"version unknown ({type(exc).__name__})"
    lines = (done.stdout or done.stderr).strip().splitlines()
    return paths.printable(lines[0]) if lines else f"version unknown (exit {done.returncode})"


def host_row(host: Host, origin: str, start: Path, explicit: Path | None) -> dict[str, Any]:
    import os

    name = BINARIES.get(host.name, host.name)
    binary = shutil.which(os.environ.get(f"HOOKWEAVE_{host.name.upper()}_BIN") or name)
    folder = explicit or projects.project_root(start)
    files = []
    for scope in host.verify_scopes:
        path = host.settings_path(scope, folder)
        files.append({"scope": scope, "path": paths.display(path), "exists": path.exists()})
    findings = [] if binary is None else gates(host, folder)
    if binary is None:
        findings.append(Finding("note", f"{name} is not on PATH: install {host.title}, or ignore this if you do not use it"))
    return {"host": host.name, "title": host.title, "origin": origin, "binary": binary,
            "version": binary_version(binary) if binary else None, "project": str(folder),
            "files": files, "findings": [f.as_json() for f in findings]}


def gates(host: Host, folder: Path) -> list[Finding]:
    """The gates that would stop hooks installed at the user and project scope (verify's own
    judgement, from the files as they are)."""
    docs: dict[str, object] = {}
    for scope in host.verify_scopes:
        docs[scope] = scopes.read_scope(host, scope, folder)[0]
    for label, path in host.context_paths(folder).items():
        docs[label] = scopes.read_context(host, path)
    wanted = {s for s in ("user", "project") if s in host.scopes}
    return [f for f in host.gates(docs, wanted, folder) if f.level != "note"]


def chain_runner() -> dict[str, Any]:
    python = shutil.which("python3")
    return {"python3": python, "version": binary_version(python) if python else None,
            "problem": None if python else "python3 is not on PATH: chained hooks and the shipped templates need it; install Python 3"}


def report(registry, explicit: str | None) -> dict[str, Any]:
    start = paths.project_dir(None)
    folder = paths.project_dir(explicit) if explicit else None
    rows = [host_row(registry.get(n), registry.info(n).origin, start, folder) for n in registry.names()]
    runner = chain_runner()
    problems = sum(1 for r in rows for f in r["findings"] if f["level"] == "problem") + (1 if runner["problem"] else 0)
    plugins = sorted({r["origin"] for r in rows if r["origin"] != "built-in"})
    return {"ok": problems == 0, "problems": problems, "cwd": str(start), "hosts": rows,
            "plugins": plugins, "chain_runner": runner}


def worth_showing(row: dict[str, Any]) -> bool:
    """Whether a host's row is worth its lines: its program is here, a file of it exists, or it has a problem."""
    return bool(row["binary"]) or any(f["exists"] for f in row["files"]) or \
        any(f["level"] != "note" for f in row["findings"])


def print_report(doc: dict[str, Any], verbose: bool = False) -> None:
    from hookweave.core.cli import console

    shown = sorted((row for row in doc["hosts"] if worth_showing(row)), key=lambda row: not row["binary"])
    absent = [row for row in doc["hosts"] if not worth_showing(row)]
    for row in shown + absent if verbose else shown:
        found = f"{row['binary']} ({row['version']})" if row["binary"] else "not found"
        console.out(f"{row['host']} ({row['title']}, {row['origin']}): {paths.printable(found)}", "head")
        console.out(f"  project folder: {paths.printable(row['project'])}")
        width = max(len(f["scope"]) for f in row["files"])
        for f in row["files"]:
            console.out(f"  {f['scope']:<{width}}  {f['path']}{'' if f['exists'] else '  (none)'}")
        for f in row["findings"]:
            console.out(f"  {f['level']}: {f['message']}", f["level"])
    if absent and not verbose:
        names = ", ".join(row["host"] for row in absent)
        console.out(f"not found: {len(absent)} agent{'s' if len(absent) != 1 else ''} (not on PATH, no settings file): "
                    f"{names}; hooks doctor --verbose shows each", "note")
    console.out(f"plugins: {', '.join(doc['plugins']) or 'none (built-in hosts only)'}")
    runner = doc["chain_runner"]
    if runner["problem"]:
        console.out(f"chain runner: problem: {runner['problem']}", "problem")
    else:
        console.out(f"chain runner: {paths.printable(runner['python3'])} ({runner['version']})")
    total = doc["problems"]
    console.out(f"doctor: {total} problem{'s' if total != 1 else ''}" if total else "doctor: ok", "problem" if total else "ok")
