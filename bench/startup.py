"""Start-up cost of the CLI: prints median wall times of whole commands, and what each imports.

Run: .venv/bin/python bench/startup.py   (figures, not assertions; see the README)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = 15


def median_ms(argv: list[str], cwd: str, env: dict[str, str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def heavy_imports(argv: list[str], cwd: str, env: dict[str, str]) -> str:
    probe = ("import sys, runpy; sys.argv = %r; "
             "from hookweave.core.cli.app import main\n"
             "try: main()\nexcept SystemExit: pass\n"
             "print(' '.join(m for m in ('questionary', 'tomlkit', 'jsonpatch', 'pluggy', 'pydantic', 'rich') "
             "if m in sys.modules) or 'none of questionary, tomlkit, jsonpatch, pluggy, pydantic, rich', file=sys.stderr)"
             % (["hooks", *argv[1:]],))
    out = subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True)
    return out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        from cli import precompile, without_bytecode_switch  # bench/cli.py, beside this file

        precompile()
        env = {**without_bytecode_switch(os.environ), "HOME": tmp, "CLAUDE_CONFIG_DIR": f"{tmp}/.claude", "NO_COLOR": "1"}
        project = Path(tmp) / "project"
        project.mkdir()
        hooks = str(BIN / "hooks")
        subprocess.run([hooks, "install", "example-guard", "--host", "claude"], cwd=project, env=env,
                       stdout=subprocess.DEVNULL, check=True)
        rows = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
            ("hooks --help", [hooks, "--help"]),
            ("hooks hosts", [hooks, "hosts"]),
            ("hooks status", [hooks, "status"]),
            ("hooks verify", [hooks, "verify"]),
            ("hooks install (no change)", [hooks, "install", "example-guard", "--host", "claude"]),
        ]
        print(f"median of {RUNS} runs, {sys.version.split()[0]}")
        for label, argv in rows:
            ms = median_ms(argv, str(project), env)
            loaded = heavy_imports(argv, str(project), env) if argv[0] == hooks else ""
            print(f"{label:<28} {ms:7.1f} ms   {('imports: ' + loaded) if loaded else ''}")


if __name__ == "__main__":
    main()
