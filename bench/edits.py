"""Cost of big edits: wall time of whole `hooks install` / `hooks uninstall` commands.

Cases: a bundle of 100 and of 1,000 hooks into a Claude event that already holds operator
entries, and a 3-hook bundle into a Claude settings file of 10,000 operator entries. Each case
also checks that uninstall gave back the original bytes. Prints figures, asserts nothing else.

Run: .venv/bin/python bench/edits.py            (figures for the README / RELIABILITY.md)
     .venv/bin/python bench/edits.py 100 1000   (only the bundle sizes named)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
EVENTS = ("pre_tool_use", "post_tool_use", "stop", "session_start")
CLAUDE_EVENTS = ("PreToolUse", "PostToolUse", "Stop", "SessionStart")


def manifest(hooks: int) -> str:
    rows = ['[bundle]\nname = "bench"\nversion = "1.0.0"\n']
    for i in range(hooks):
        position = "first" if i % 2 else "last"
        rows.append(f'[[hooks]]\nid = "h{i}"\nevent = "pre_tool_use"\ncommand = "bench-hook --n {i}"\n'
                    f'position = "{position}"\n')
    return "\n".join(rows)


def operator_settings(entries: int) -> str:
    """A pretty-printed Claude settings file with ``entries`` operator hook groups over four events."""
    hooks: dict[str, list] = {event: [] for event in CLAUDE_EVENTS}
    for i in range(entries):
        group = {"matcher": "Bash", "hooks": [{"type": "command", "command": f"operator-hook {i} é"}]}
        hooks[CLAUDE_EVENTS[i % len(CLAUDE_EVENTS)]].append(group)
    data = {"model": "opus", "env": {"OPERATOR": "1"}, "hooks": hooks}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def case(hooks: int, entries: int) -> tuple[float, float, bool]:
    """Seconds to install and to uninstall, and whether the round trip gave back every byte."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "HOME": str(root), "CLAUDE_CONFIG_DIR": str(root / ".claude"), "NO_COLOR": "1"}
        project = root / "project"
        settings = project / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True)
        original = operator_settings(entries)
        settings.write_text(original, encoding="utf-8")
        bundle = root / "bundle"
        bundle.mkdir()
        (bundle / "hookweave.toml").write_text(manifest(hooks), encoding="utf-8")
        hooks_bin = str(BIN / "hooks")
        install = timed([hooks_bin, "install", str(bundle), "--host", "claude"], project, env)
        uninstall = timed([hooks_bin, "uninstall", "bench", "--host", "claude"], project, env)
        return install, uninstall, settings.read_text(encoding="utf-8") == original


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [100, 1000]
    print(f"{'case':<44} {'install':>9} {'uninstall':>10}  round trip")
    rows = [(f"{n:,} hooks into an event with 8 entries", n, 32) for n in sizes]
    if not sys.argv[1:]:
        rows.append(("3 hooks into a file of 10,000 entries", 3, 10_000))
    results = {}
    for label, hooks, entries in rows:
        install, uninstall, exact = case(hooks, entries)
        results[hooks] = (install, uninstall)
        print(f"{label:<44} {install:8.2f}s {uninstall:9.2f}s  {'exact' if exact else 'DIFFERS'}")
    if len(sizes) >= 2:
        small, big = results[sizes[0]], results[sizes[-1]]
        print(f"ratio {sizes[-1]:,} / {sizes[0]:,} hooks: install {big[0] / small[0]:.1f}x, "
              f"uninstall {big[1] / small[1]:.1f}x")


if __name__ == "__main__":
    main()
