"""What every command costs, as a ratio to ``python -c "import typer"`` from the same interpreter.

Run: .venv/bin/python bench/cli.py [--quick]      (figures, never assertions; see the README)

Each figure is the median over several runs of the real ``hooks`` command in a fresh process: its
wall time, its ratio to a run of ``python -c "import typer"`` made just before it (the median of
these paired ratios, for wall and for CPU time: on a busy machine the CPU ratio moves less), and the
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
from typing import NamedTuple

BIN = Path(sys.executable).parent
HOOKS = str(BIN / "hooks")


def run_once(argv: list[str], cwd: Path, env: dict[str, str], stdin=None) -> tuple[float, float, int, int]:
    """Wall and CPU (user + system) milliseconds, peak RSS in KiB, and exit code of one run of ``argv``."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss, process.returncode


UNIT = [sys.executable, "-c", "import typer"]


class Figure(NamedTuple):
    ms: float  # median wall time
    ratio: float  # median of the paired wall-time ratios to the unit
    cpu_ratio: float  # the same for CPU time, which other processes on the machine disturb less
    kib: int  # the highest peak resident memory


def measure(argv, cwd, env, runs: int, prepare=None) -> Figure:
    """``runs`` paired runs: the unit, then ``argv`` (``prepare()`` untimed before each pair).

    Each run of the command is divided by the unit's run just before it, so a moment when other
    processes load the machine weighs on both sides of a ratio rather than on one figure."""
    times, ratios, cpu_ratios, peaks = [], [], [], []
    for _ in range(runs):
        if prepare:
            prepare()
        unit_ms, unit_cpu, _, _ = run_once(UNIT, cwd, env)
        ms, cpu, kib, code = run_once(argv, cwd, env)
        if code not in (0, 1):
            raise SystemExit(f"bench: {' '.join(argv)} exited {code}")
        times.append(ms)
        ratios.append(ms / unit_ms)
        cpu_ratios.append(cpu / max(unit_cpu, 0.001))
        peaks.append(kib)
    median = statistics.median
    return Figure(median(times), median(ratios), median(cpu_ratios), max(peaks))


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
    rows: list[tuple[str, Figure, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        precompile()
        env = {**without_bytecode_switch(os.environ), "HOME": str(root / "home"), "CLAUDE_CONFIG_DIR": str(root / "home" / ".claude"),
               "CODEX_HOME": str(root / "home" / ".codex"), "GEMINI_CLI_HOME": str(root / "home"), "NO_COLOR": "1"}
        (root / "home").mkdir()
        rows.append(("python -c 'import typer' (the unit)", measure(UNIT, root, env, small_runs), ""))
        # How much of the unit is the interpreter's teardown, which ``hooks`` skips (core/cli/entry.py).
        no_teardown = [sys.executable, "-c", "import os, typer; os._exit(0)"]
        rows.append(("the unit ending with os._exit", measure(no_teardown, root, env, small_runs), ""))

        small = root / "small"
        small.mkdir()
        install = [HOOKS, "install", "example-guard", "--host", "claude"]
        subprocess.run(install, cwd=small, env=env, stdout=subprocess.DEVNULL, check=True)
        for label, argv in [("--help", [HOOKS, "--help"]), ("status", [HOOKS, "status"]),
                            ("verify", [HOOKS, "verify", "--host", "claude"]), ("install, no change", install)]:
            rows.append((f"{label} (small file)", measure(argv, small, env, small_runs), ""))

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
                rows.append((f"{label} ({entries:,} entries)", measure(argv, project, env, runs, prepare), size))

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
            rows.append((f"install a {count:,}-hook bundle", measure(argv, project, env, large_runs, fresh), "into 10 groups"))

            def installed(project=project, fresh=fresh, argv=argv):
                fresh()
                subprocess.run(argv, cwd=project, env=env, stdout=subprocess.DEVNULL, check=True)

            uninstall = [HOOKS, "uninstall", "many", "--host", "claude"]
            rows.append((f"uninstall a {count:,}-hook bundle", measure(uninstall, project, env, large_runs, installed), ""))

    print(f"hookweave bench, Python {sys.version.split()[0]}, medians; ratio = time / python -c 'import typer' "
          "run just before (wall and CPU)")
    print(f"{'command':<42} {'ms':>9} {'ratio':>7} {'cpu':>6} {'peak MiB':>9}  file")
    for label, figure, note in rows:
        print(f"{label:<42} {figure.ms:9.1f} {figure.ratio:7.2f} {figure.cpu_ratio:6.2f} {figure.kib / 1024:9.1f}  {note}")


if __name__ == "__main__":
    main()
