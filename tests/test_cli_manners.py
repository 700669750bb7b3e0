"""Issue 36 items 1, 4 and 5, through the real ``hooks`` command: the CLI's conventions (``-V``,
``hooks help``, ``--color``, an unshortened command list, metavars, one-line usage errors with
did-you-mean, a mistyped scope, ``verify -v -q``, ``HOME`` unset), ``doctor`` sized to the question,
and the misleading errors (a script passed as the manifest)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HOOKS = str(Path(sys.executable).parent / "hooks")
ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("init", "add", "sync", "remove", "autoupdate", "install", "uninstall", "verify", "status", "check",
            "adopt", "templates", "hosts", "doctor", "completion", "help")


def hooks(*argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([HOOKS, *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=cwd)


# -- item 1: conventions ---------------------------------------------------------------------------

def test_dash_capital_v_is_the_version() -> None:
    short, long = hooks("-V"), hooks("--version")
    assert (short.returncode, short.stdout, short.stderr) == (0, long.stdout, "")
    assert re.fullmatch(r"hookweave \d+\.\d+\.\d+\S*\n", short.stdout)


def test_help_command_prints_what_command_help_prints() -> None:
    for name in ("install", "verify", "add", "doctor"):
        assert hooks("help", name).stdout == hooks(name, "--help").stdout
    assert hooks("help").stdout == hooks("--help").stdout
    listed = hooks("--help", env={"COLUMNS": "80"}).stdout
    assert re.search(r"^  help +Show the help of hooks or of one command$", listed, re.M)
    typo = hooks("help", "instal")
    assert (typo.returncode, typo.stdout) == (2, "")
    assert typo.stderr == "hooks help: no such command 'instal'; did you mean 'install'? (hooks help --help)\n"


def test_the_command_list_is_not_cut_at_80_columns() -> None:
    text = hooks("--help", env={"COLUMNS": "80"}).stdout
    listing = text[text.index("Commands:\n"):].splitlines()[1:]
    assert [line.split()[0] for line in listing] == list(COMMANDS)  # one line each
    assert not [line for line in listing if "..." in line]
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("command", COMMANDS)
def test_metavars_name_what_to_pass(command: str) -> None:
    text = hooks(command, "--help", env={"COLUMNS": "80"}).stdout
    assert text.startswith(f"Usage: hooks {command} [OPTIONS]")
    for noise in ("<str>", "<int", "<float", "TEXT", "INTEGER", "FLOAT"):
        assert noise not in text, (command, noise, text)
    import re

    assert not re.search(r"\{[a-z_]+\}", text), (command, text)  # click's {name} metavar (JSON examples are fine)


def test_metavars_in_usage_and_options() -> None:
    install = hooks("install", "--help").stdout
    assert install.startswith("Usage: hooks install [OPTIONS] [BUNDLE]\n")
    for shown in ("-H, --host HOST", "-s, --scope SCOPE", "-p, --project DIR"):
        assert shown in install
    assert hooks("add", "--help").stdout.startswith("Usage: hooks add [OPTIONS] SOURCE\n")
    assert hooks("init", "--help").stdout.startswith("Usage: hooks init [OPTIONS] [FOLDER]\n")
    assert "--from TEMPLATE" in hooks("init", "--help").stdout
    assert "-o, --out DIR" in hooks("adopt", "--help").stdout


@pytest.mark.parametrize(("argv", "line"), [
    (["install", "--hots", "claude"], "hooks install: no such option --hots; did you mean --host? (hooks install --help)"),
    (["verify", "--quite"], "hooks verify: no such option --quite; did you mean --quiet? (hooks verify --help)"),
    (["add"], "hooks add: missing argument SOURCE (hooks add --help)"),
    (["instal"], "hooks: no such command 'instal'; did you mean 'install'? (hooks --help)"),
    (["frobnicate"], "hooks: no such command 'frobnicate' (hooks --help)"),
    (["install", "--host"], "hooks install: option --host needs a value (hooks install --help)"),
    (["check", "--runs", "x"], "hooks check: invalid value for --runs: 'x' is not a whole number (hooks check --help)"),
    (["--color", "nevr", "status"],
     "hooks: invalid value for --color: 'nevr' is not auto, always or never; did you mean 'never'? (hooks --help)"),
    (["verify", "-v", "-q"], "hooks verify: --quiet and --verbose exclude each other; pass one of them (hooks verify --help)"),
])
def test_a_usage_error_is_one_line_exit_2(argv: list[str], line: str) -> None:
    done = hooks(*argv)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


def test_under_json_a_usage_error_stays_json() -> None:
    done = hooks("install", "--hots", "claude", "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": "hooks install: no such option --hots; did you mean --host?", "exit_code": 2}
    assert done.stderr == "hooks install: no such option --hots; did you mean --host? (hooks install --help)\n"


@pytest.mark.parametrize("argv", [
    ["install", "--host", "claude"],
    ["uninstall", "tiny", "--host", "claude"],
    ["verify"],
    ["adopt", "--host", "claude"],
    ["check", "--installed"],
    ["add", "tools/guard", "--host", "claude"],
])
def test_a_mistyped_scope_gets_did_you_mean_before_anything_is_read(argv: list[str], tmp_path: Path) -> None:
    """In an empty folder (no manifest, no project file): the scope is the first thing said."""
    command = argv[0]
    done = hooks(*argv, "--scope", "projet", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"hooks {command}: invalid value for --scope: no agent has a scope 'projet'; "
                           f"did you mean 'project'? (hooks {command} --help)\n")


def test_color_wins_over_the_environment(project: Path) -> None:
    plain = hooks("verify", "--host", "claude", env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert "\x1b[" in plain  # FORCE_COLOR: colour into a pipe
    never = hooks("--color", "never", "verify", "--host", "claude", env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" not in never.stdout + never.stderr and never.stdout == "nothing installed: claude\nverify: ok\n"
    always = hooks("--color=always", "verify", "--host", "claude", env={"NO_COLOR": "1"})
    assert always.stdout == "nothing installed: claude\n\x1b[32m\x1b[22mverify: ok\x1b[0m\n"
    auto = hooks("--color", "auto", "verify", "--host", "claude", env={"NO_COLOR": "1"})
    assert "\x1b[" not in auto.stdout
    assert "--color WHEN" in hooks("--help").stdout
    assert "--color" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def test_with_home_unset_the_error_is_one_plain_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HOME"}
    for argv in (["status"], ["verify"], ["doctor"]):
        done = subprocess.run([HOOKS, *argv], capture_output=True, text=True, env=env, timeout=120)
        assert (done.returncode, done.stderr) == (2, "hooks: HOME is not set; set it to your home folder\n"), argv


# -- item 4: doctor sized to the question ----------------------------------------------------------

def _path_with(tmp_path: Path, *programs: str) -> str:
    folder = tmp_path / "bin"
    if folder.is_dir():
        return str(folder)
    folder.mkdir()
    (folder / "python3").symlink_to(sys.executable)
    for name in programs:
        (folder / name).write_text(f"#!/bin/sh\necho '{name} 9.9.9'\n")
        (folder / name).chmod(0o755)
    return str(folder)


def test_doctor_with_no_agent_is_short_and_counts_the_rest(tmp_path: Path, project: Path) -> None:
    done = hooks("doctor", env={"PATH": _path_with(tmp_path)}, cwd=project)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) <= 25, done.stdout
    assert lines[0].startswith("not found: 16 agents (not on PATH, no settings file): antigravity, claude, cline, ")
    assert lines[0].endswith("; hooks doctor --verbose shows each")
    assert lines[-1] == "doctor: ok"
    every = hooks("doctor", "--verbose", env={"PATH": _path_with(tmp_path)}, cwd=project).stdout
    assert len([line for line in every.splitlines() if not line.startswith(" ")]) == 16 + 3
    assert "not found:" not in every


def test_doctor_shows_the_agents_found_first(tmp_path: Path, project: Path) -> None:
    (project / ".gemini").mkdir()
    (project / ".gemini" / "settings.json").write_text("{}\n")
    done = hooks("doctor", env={"PATH": _path_with(tmp_path, "codex")}, cwd=project)
    heads = [line for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert heads[0].startswith("codex (Codex, built-in): ") and heads[0].endswith("(codex 9.9.9)")
    assert heads[1] == "gemini (Gemini CLI, built-in): not found"
    assert heads[2].startswith("not found: 14 agents (not on PATH, no settings file): antigravity, claude, ")
    assert len(done.stdout.splitlines()) <= 25


# -- item 5: misleading errors ---------------------------------------------------------------------

def test_a_script_passed_as_the_manifest_is_named_so(project: Path) -> None:
    guard = project / "tools" / "guard"
    guard.mkdir(parents=True)
    (guard / "hook.py").write_text("#!/usr/bin/env python3\nimport sys\nsys.exit(0)\n")
    (guard / "run").write_text("#!/bin/sh\nexit 0\n")
    done = hooks("install", "tools/guard/hook.py", "--host", "claude", cwd=project)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("hooks: tools/guard/hook.py: a script, not a manifest; pass a hookweave.toml whose hook "
                           "runs it (hooks init writes one)\n")
    (guard / "hookweave.toml").write_text('[bundle]\nname = "guard"\nversion = "1.0.0"\n')
    for script in ("hook.py", "run"):
        done = hooks("install", f"tools/guard/{script}", "--host", "claude", cwd=project)
        assert (done.returncode, done.stderr) == (2, f"hooks: tools/guard/{script}: a script, not a manifest; pass its "
                                                     "bundle's manifest, tools/guard/hookweave.toml\n")
    assert sorted(p.name for p in project.rglob("*") if p.is_file()) == ["hook.py", "hookweave.toml", "run"]


def test_color_before_the_command_keeps_the_one_command_start_up() -> None:
    """``hooks --color never status`` builds only ``status``, as ``hooks status`` does (docs/speed.md)."""
    from hookweave.core.cli.app import _command_word

    assert _command_word(["--color", "never", "status", "--json"]) == "status"
    assert _command_word(["--color=always", "verify"]) == "verify"
    assert _command_word(["--help"]) == "--help" and _command_word([]) == ""
    probe = ("import sys; sys.argv = ['hooks', '--color', 'never', 'hosts']\n"
             "from hookweave.core.cli.app import main\n"
             "try: main()\nexcept SystemExit: pass\n"
             "print(sorted(m for m in ('hookweave.core.cli.adopt', 'hookweave.core.cli.check', 'hookweave.core.cli.setup', "
             "'hookweave.core.cli.team') if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stderr.splitlines()[-1] == "[]", done.stderr
