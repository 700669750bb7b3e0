"""What hookweave's programs in the agent's path cost per event: a chain, and Cline's dispatcher.

Each figure is the median wall time of starting the commands the way a host does (``bash -c``
per registration, one after another), for a PreToolUse payload on stdin, against the same hooks
run directly (one registration each):

- ``python3 -c pass``: the yardstick the issue names;
- a chain of 3 trivial hooks as one registration: the sh fast path (``sh <runner.sh>``, issue 24),
  with and without a matcher to read, and the Python runner (``python3 -S``), as Copilot's run;
  the same for 3 hook scripts (``#!/bin/sh``, reading the payload), the members real bundles have;
- a member answering in JSON: last (its answer goes to the host as it is, no Python) and first (the
  sh path hands its answer to the Python runner, which loads the shared protocol table);
- Cline's dispatcher (``python3 -S`` behind an sh line) running 3 trivial hooks.

Run: env -u PYTHONDONTWRITEBYTECODE .venv/bin/python bench/chain.py [--runs N]
(figures, not assertions; see docs/speed.md. Without ``-u``, a shell that sets PYTHONDONTWRITEBYTECODE
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
    from hookweave.hosts import cline_dispatcher

    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 41
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "settings.hookweave-chain.py"
        runner.write_text(chain.runner_text(), encoding="utf-8")
        sh_runner = runner.with_suffix(".sh")
        sh_runner.write_text(chainsh.runner_text(), encoding="utf-8")
        cline = Path(tmp) / "PreToolUse"
        cline.write_text(cline_dispatcher.render("PreToolUse", [{"command": "true", "timeout": 5}] * 3, 0))
        trivial = ["true", "true", "true"]
        script = Path(tmp) / "hook.sh"  # a hook as authors ship one: a #! script that reads the payload
        script.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n", encoding="utf-8")
        script.chmod(0o755)
        scripts = [shlex.quote(str(script))] * 3
        script_words = " ".join(f"s{i} 5 '' {shlex.quote(c)}" for i, c in enumerate(scripts))
        words = " ".join(f"m{i} 5 '' {c}" for i, c in enumerate(trivial))
        named = " ".join(f"m{i} 5 Bash {c}" for i, c in enumerate(trivial))
        answer = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}})
        printing = "printf %s " + shlex.quote(answer)
        json_member = f"j 5 '' {shlex.quote(printing)}"
        sh, py = f"sh {sh_runner} claude PreToolUse", f"python3 -S {runner} claude PreToolUse"
        rows = [  # (name, commands, the row it is compared with)
            ("python3 -c pass", ["python3 -c pass"], None),
            ("3 trivial hooks, directly (3 registrations)", trivial, None),
            ("the same 3 as one chain, sh", [f"{sh} {words}"], 1),
            ("the same 3, each matching Bash, chain, sh", [f"{sh} {named}"], 1),
            ("the same 3 as one chain, python3 -S", [f"{py} {words}"], 1),
            ("3 hook scripts (#!/bin/sh), directly", scripts, None),
            ("the same 3 scripts as one chain, sh", [f"{sh} {script_words}"], 5),
            ("the same 3 scripts as one chain, python3 -S", [f"{py} {script_words}"], 5),
            ("3 trivial + a JSON answer, directly", trivial + [printing], None),
            ("the same, JSON last, chain, sh", [f"{sh} {words} {json_member}"], 8),
            ("the same, JSON first, chain, sh", [f"{sh} {json_member} {words}"], 8),
            ("the same, JSON first, chain, python3 -S", [f"{py} {json_member} {words}"], 8),
            ("Cline's dispatcher, the 3 trivial hooks", [f"sh {cline}"], 1),
        ]
        figures = [(name, *timed_ms(commands, runs), base) for name, commands, base in rows]
    print(f"{runs} runs each, Python {sys.version.split()[0]}: median / fastest")
    for name, ms, fastest, base in figures:
        extra = ""
        if base is not None:
            extra = f"  ({ms - figures[base][1]:+.1f} / {fastest - figures[base][2]:+.1f} ms against them run directly)"
        print(f"{name:48} {ms:6.1f} / {fastest:5.1f} ms{extra}")


if __name__ == "__main__":
    main()
