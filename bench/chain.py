"""What a chain costs per event: a chain of 3 trivial hooks against the same 3 run directly.

Each figure is the median wall time of starting the commands the way a host does (``bash -c``
per registration, one after another), for a PreToolUse payload on stdin:

- ``python3 -c pass``: the yardstick the issue names;
- the 3 hooks directly: three registrations, three shells;
- the chain: one registration whose shell runs the sh fast path (``sh <runner.sh>``, issue 24), which
  runs the 3; and the same through the Python runner (``python3 -S``), as Copilot's chains run;
- the chain with a member that answers in JSON: the sh path hands that member's answer to the
  Python runner, which loads the shared protocol table.

Run: env -u PYTHONDONTWRITEBYTECODE .venv/bin/python bench/chain.py [--runs N]
(figures, not assertions; see the README. Without ``-u``, a shell that sets PYTHONDONTWRITEBYTECODE
measures stale bytecode.)
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hookweave.core.plan import chain, chainsh

PAYLOAD = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "ls"}}).encode()


def real_python_first() -> dict[str, str]:
    """PATH with this interpreter's own folder first: a ``python3`` that is a pyenv shim (a shell
    script) costs some 80 ms per start here, which would measure the shim, not the chain."""
    folder = str(Path(sys.executable).resolve().parent)
    return {**os.environ, "PATH": folder + os.pathsep + os.environ.get("PATH", "")}


def timed_ms(commands: list[str], runs: int) -> tuple[float, float]:
    """(median, fastest) of ``runs`` runs: the fastest shows the cost on a machine busy with nothing else."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for command in commands:
            subprocess.run(["bash", "-c", command], input=PAYLOAD, stdout=subprocess.DEVNULL, check=False, env=ENV)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


ENV = real_python_first()


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 41
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "settings.hookweave-chain.py"
        runner.write_text(chain.runner_text(), encoding="utf-8")
        sh_runner = runner.with_suffix(".sh")
        sh_runner.write_text(chainsh.runner_text(), encoding="utf-8")
        trivial = ["true", "true", "true"]
        words = " ".join(f"m{i} 5 '' {c}" for i, c in enumerate(trivial))
        named = " ".join(f"m{i} 5 Bash {c}" for i, c in enumerate(trivial))
        answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}})
        json_member = f"m3 5 '' {shlex.quote('printf %s ' + shlex.quote(answer))}"
        rows = [
            ("python3 -c pass", ["python3 -c pass"]),
            ("3 trivial hooks, directly (3 registrations)", trivial),
            ("the same 3 as one chain, sh", [f"sh {sh_runner} claude PreToolUse {words}"]),
            ("the same 3, each matching Bash, chain, sh", [f"sh {sh_runner} claude PreToolUse {named}"]),
            ("the same 3 as one chain, python3 -S", [f"python3 -S {runner} claude PreToolUse {words}"]),
            ("+ a member answering in JSON, chain, sh", [f"sh {sh_runner} claude PreToolUse {words} {json_member}"]),
            ("+ a member answering in JSON, chain, python3 -S",
             [f"python3 -S {runner} claude PreToolUse {words} {json_member}"]),
        ]
        figures = [(name, *timed_ms(commands, runs)) for name, commands in rows]
    _, direct, direct_min = figures[1]
    print(f"{runs} runs each, Python {sys.version.split()[0]}: median / fastest")
    for name, ms, fastest in figures:
        extra = f"  ({ms - direct:+.1f} / {fastest - direct_min:+.1f} ms against the 3 run directly)" if "chain" in name else ""
        print(f"{name:48} {ms:6.1f} / {fastest:5.1f} ms{extra}")


if __name__ == "__main__":
    main()
