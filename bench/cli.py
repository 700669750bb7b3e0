"""What every command costs, as a ratio to ``python -c "import typer"`` from the same interpreter.

Run: .venv/bin/python bench/cli.py [--quick]      (figures, never assertions; see the README)

Each figure is the median wall time of several runs of the real ``hooks`` command in a fresh
process, divided by the median of ``python -c "import typer"`` measured in the same run, with the
command's peak resident memory (the child's own ``ru_maxrss``). Files are generated the way real
Claude settings grow: ``N`` ``permissions.allow`` entries and ``N / 10`` operator hook groups.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
HOOKS = str(BIN / "hooks")


def run_once(argv: list[str], cwd: Path, env: dict[str, str], stdin=None) -> tuple[float, int, int]:
    """Wall milliseconds, peak RSS in KiB, and exit code of one run of ``argv``."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss, process.returncode


def measure(argv, cwd, env, runs: int, prepare=None) -> tuple[float, int]:
    """Median ms and max peak KiB over ``runs``; ``prepare()`` runs untimed before each run."""
    times, peaks = [], []
    for _ in range(runs):
        if prepare:
            prepare()
        ms, kib, code = run_once(argv, cwd, env)
        if code not in (0, 1):
            raise SystemExit(f"bench: {' '.join(argv)} exited {code}")
        times.append(ms)
        peaks.append(kib)
    return statistics.median(times), max(peaks)


def claude_settings(entries: int, path: Path) -> None:
    """Write a generated settings file from a child process: a child forked from a parent that
    had built the text would count the parent's memory in its own peak."""
    script = f"""
import json, sys
entries = {entries}
groups = max(1, entries // 10)
doc = {{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {{"allow": [f"Bash(tool-{{i}} --flag:*)" for i in range(entries)], "deny": ["Bash(curl:*)"]}},
    "env": {{"GREETING": "grüß dich ☕"}},
    "hooks": {{
        "PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": f"~/bin/check-{{i}}.sh", "timeout": 5}}]}}
                       for i in range(groups)],
        "Stop": [{{"hooks": [{{"type": "command", "command": "say done"}}]}}],
    }},
}}
open(sys.argv[1], "w", encoding="utf-8").write(json.dumps(doc, indent=2, ensure_ascii=False) + "\\n")
"""
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)


def many_hook_bundle(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = ['[bundle]\nname = "many"\nversion = "1.0.0"\n']
    for i in range(count):
        lines.append(f'[[hooks]]\nid = "h{i}"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
                     f'command = ["sh", "-c", "exit 0", "{i}"]\n')
    (folder / "hookweave.toml").write_text("\n".join(lines), encoding="utf-8")
    return folder


def without_bytecode_switch(env) -> dict[str, str]:
    """The environment without ``PYTHONDONTWRITEBYTECODE``: a user's installed packages load from
    bytecode (pip compiles it at install), so every command here must too, ours like typer's."""
    return {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}


def precompile() -> None:
    """Bytecode for hookweave's own modules (an editable install has none until a first run writes it)."""
    import compileall
    import importlib.util

    for package in ("hookweave.core", "hookweave.hosts"):
        folder = Path(importlib.util.find_spec(package).origin).parent
        compileall.compile_dir(str(folder), quiet=1)


def main() -> None:
    quick = "--quick" in sys.argv
    small_runs, large_runs = (5, 3) if quick else (15, 5)
    sizes = (1_000, 10_000) if quick else (1_000, 10_000, 100_000)
    rows: list[tuple[str, float, int, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        precompile()
        env = {**without_bytecode_switch(os.environ), "HOME": str(root / "home"), "CLAUDE_CONFIG_DIR": str(root / "home" / ".claude"),
               "CODEX_HOME": str(root / "home" / ".codex"), "GEMINI_CLI_HOME": str(root / "home"), "NO_COLOR": "1"}
        (root / "home").mkdir()
        base, base_kib = measure([sys.executable, "-c", "import typer"], root, env, small_runs)
        rows.append(("python -c 'import typer' (the unit)", base, base_kib, ""))

        small = root / "small"
        small.mkdir()
        install = [HOOKS, "install", "example-guard", "--host", "claude"]
        subprocess.run(install, cwd=small, env=env, stdout=subprocess.DEVNULL, check=True)
        for label, argv in [("--help", [HOOKS, "--help"]), ("status", [HOOKS, "status"]),
                            ("verify", [HOOKS, "verify", "--host", "claude"]), ("install, no change", install)]:
            ms, kib = measure(argv, small, env, small_runs)
            rows.append((f"{label} (small file)", ms, kib, ""))

        for entries in sizes:
            project = root / f"p{entries}"
            settings = project / ".claude" / "settings.json"
            settings.parent.mkdir(parents=True)
            pristine = root / f"settings-{entries}.json"
            claude_settings(entries, pristine)
            size = f"{pristine.stat().st_size / 1024:,.0f} KiB"

            def fresh(pristine=pristine, settings=settings):
                shutil.copyfile(pristine, settings)
                settings.with_name("settings.hookweave.json").unlink(missing_ok=True)

            def installed(project=project, fresh=fresh):
                fresh()
                subprocess.run(install, cwd=project, env=env, stdout=subprocess.DEVNULL, check=True)

            runs = large_runs if entries < 100_000 else 3
            uninstall = [HOOKS, "uninstall", "example-guard", "--host", "claude"]
            verify = [HOOKS, "verify", "--host", "claude"]
            for label, argv, prepare in [("install, fresh", install, fresh), ("install, idempotent", install, None),
                                         ("verify", verify, None), ("uninstall", uninstall, installed)]:
                if prepare is None:
                    installed()
                ms, kib = measure(argv, project, env, runs, prepare)
                rows.append((f"{label} ({entries:,} entries)", ms, kib, size))

        for count in (100, 1_000):
            project = root / f"bundle{count}"
            settings = project / ".claude" / "settings.json"
            settings.parent.mkdir(parents=True)
            bundle = many_hook_bundle(root / f"many{count}", count)
            pristine = root / f"settings-hooks-{count}.json"
            claude_settings(100, pristine)

            def fresh(pristine=pristine, settings=settings):
                shutil.copyfile(pristine, settings)
                settings.with_name("settings.hookweave.json").unlink(missing_ok=True)

            argv = [HOOKS, "install", str(bundle), "--host", "claude"]
            ms, kib = measure(argv, project, env, large_runs, fresh)
            rows.append((f"install a {count:,}-hook bundle", ms, kib, "into 10 groups"))

            def installed(project=project, fresh=fresh, argv=argv):
                fresh()
                subprocess.run(argv, cwd=project, env=env, stdout=subprocess.DEVNULL, check=True)

            ms, kib = measure([HOOKS, "uninstall", "many", "--host", "claude"], project, env, large_runs, installed)
            rows.append((f"uninstall a {count:,}-hook bundle", ms, kib, ""))

    print(f"hookweave bench, Python {sys.version.split()[0]}, medians; ratio = time / python -c 'import typer'")
    print(f"{'command':<42} {'ms':>9} {'ratio':>7} {'peak MiB':>9}  file")
    for label, ms, kib, note in rows:
        print(f"{label:<42} {ms:9.1f} {ms / base:7.2f} {kib / 1024:9.1f}  {note}")


if __name__ == "__main__":
    main()
