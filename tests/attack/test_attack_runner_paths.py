"""Attack: chains installed at user and managed scope, run from another folder (issue 33, items 1 and 4).

1. A user- or managed-scope file's hooks run in every project, so its chain registration must name
   its runner by a path that holds from every folder. Per host with chains, and per home folder
   with a hostile name: install at user scope, then run the registration through ``sh -c`` and
   ``bash -c`` from another folder (the host's project variable pointing there): both members run,
   in order, exit 0. With the runner files gone the registration exits 0 with a note on stderr (a
   runner that cannot start never reads as a block). verify, from another folder, says "problem"
   for a registration written in the old form (the runner under the project variable, ``"$PWD"``
   or ``./``), and a reinstall upgrades it. Claude's managed drop-in the same way.
2. Size: three 50 KB members are a 150 KB command, more than one ``bash -c`` argument may hold
   (E2BIG): install refuses it (exit 2, one line, nothing written), and verify does not say ok for
   one written anyway; 120 KB of members install and run.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from hookweave.core.model.runnable import MISSING
from tests.conftest import attack_size

pytestmark = pytest.mark.attack

# Every host whose chains run through a runner file (Cline's dispatcher is a chain itself), with user scope.
HOSTS = ["claude", "codex", "gemini", "cursor", "qwen", "factory", "letta", "copilot", "kimi", "openharness",
         "antigravity", "openhands", "windsurf"]
PROJECT_VARIABLES = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR", "QWEN_PROJECT_DIR",
                     "FACTORY_PROJECT_DIR", "LETTA_WORKING_DIR", "COPILOT_PROJECT_DIR", "OPENHANDS_PROJECT_DIR"]
PIECES = ["a b", "it's", '"q"', "$HOME", "$(id)", "`id`", "*", ";", "é", "\\", "$GEMINI_PROJECT_DIR", "{x}", "#", "-x"]
SHELLS = (["sh", "-c"], ["bash", "-c"])


def manifest(host: str, log: Path) -> str:
    matcher = 'matcher = ["shell"]\n' if host == "windsurf" else ""  # Windsurf files tool hooks by kind of tool
    words = {name: json.dumps(["sh", "-c", 'echo ' + name + ' >> "$1"', "-", str(log)]) for name in "ab"}
    return ('[bundle]\nname = "g"\nversion = "1.0.0"\norder = "chain"\n' + "".join(
        f'[[hooks]]\nid = "{name}"\nevent = "pre_tool_use"\n{matcher}command = {words[name]}\n' for name in "ab"))


def registration(settings: Path) -> str:
    """The chain's command as the host's POSIX shell gets it (Copilot's ``bash``)."""
    text = settings.read_text(encoding="utf-8")
    if settings.suffix == ".toml":
        import tomllib

        doc = tomllib.loads(text)
    else:
        doc = json.loads(text)
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("command", "bash") and isinstance(value, str) and "# hookweave:g/chain-" in value:
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert len(found) == 1, found
    return found[0]


def host_of(name: str):
    from hookweave.core.contract.registry import registry

    return registry().get(name)


def run_from(command: str, folder: Path, shell: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **{v: str(folder) for v in PROJECT_VARIABLES}, "PWD": str(folder)}
    payload = json.dumps({"tool_name": "Bash", "toolName": "bash", "tool_input": {"command": "ls"}, "cwd": str(folder),
                          "hook_event_name": "PreToolUse", "agent_action_name": "pre_run_command"})
    return subprocess.run([*shell, command], input=payload.encode(), capture_output=True, cwd=folder, env=env,
                          timeout=60)


def rehome(monkeypatch, home: Path, new: Path) -> None:
    """Every variable conftest pointed into the home, pointed into ``new`` instead."""
    for name, value in list(os.environ.items()):
        if value == str(home) or value.startswith(str(home) + os.sep):
            monkeypatch.setenv(name, str(new) + value[len(str(home)):])


def test_user_scope_chains_run_from_every_folder_on_every_host(run, home, tmp_path, monkeypatch, attack_report) -> None:
    rng = random.Random(33)
    failures: list[tuple] = []
    cases = 0
    for n in range(attack_size(1, 4)):
        name = "home " + ("".join(rng.choice(PIECES) for _ in range(3)) if n else "it's $HOME `id`")
        for host in HOSTS:
            cases += 1
            new_home = tmp_path / f"{n}-{host}" / name
            new_home.mkdir(parents=True)
            rehome(monkeypatch, home, new_home)
            monkeypatch.setenv("HOME", str(new_home))
            other = tmp_path / f"{n}-{host}" / "other project"
            other.mkdir()
            log = tmp_path / f"{n}-{host}" / "log"
            bundle = new_home / "g"
            bundle.mkdir()
            (bundle / "hookweave.toml").write_text(manifest(host, log), encoding="utf-8")
            monkeypatch.chdir(new_home)  # the case: the project is the home, which holds the user files
            result = run("install", str(bundle), "--host", host, "--scope", "user", "--trust")
            if result.exit_code != 0:
                failures.append((host, name, "install", result.stdout, result.stderr))
                continue
            settings = host_of(host).settings_path("user", new_home)
            command = registration(settings)
            for shell in SHELLS:
                log.write_text("", encoding="utf-8")
                done = run_from(command, other, shell)
                if done.returncode != 0 or log.read_text(encoding="utf-8") != "a\nb\n":
                    failures.append((host, name, shell[0], done.returncode, done.stderr[-300:], command[:300]))
            runners = sorted(settings.parent.glob(settings.stem + ".hookweave-chain.*"))
            for gone in [runners, *([r] for r in runners if len(runners) > 1)]:  # both, or the .py or the .sh alone
                for runner in gone:
                    runner.rename(runner.with_name(runner.name + ".away"))
                for shell in SHELLS:
                    log.write_text("", encoding="utf-8")
                    done = run_from(command, other, shell)
                    said, ran = done.stderr.decode(), log.read_text(encoding="utf-8")
                    # the sh fast path needs the Python runner only to hand over (test_sh_path_without_...)
                    whole = ".py" in gone[0].name and len(gone) == 1 and (said, ran) == ("", "a\nb\n")
                    if done.returncode != 0 or not whole and (said, ran) != (MISSING + "\n", ""):
                        failures.append((host, name, shell[0], [r.name for r in gone], done.returncode, said[-300:]))
                for runner in gone:
                    runner.with_name(runner.name + ".away").rename(runner)
            monkeypatch.chdir(other)
            verify = run("verify", "--host", host, "--scope", "user")
            if "chain names its runner" in verify.stdout or "does not exist" in verify.stdout:
                failures.append((host, name, "verify", verify.stdout))
            home = new_home
    attack_report("user-scope chains from another folder", cases=cases, failures=len(failures))
    assert not failures, failures[:3]


@pytest.mark.parametrize("host", HOSTS)
def test_verify_flags_an_old_user_scope_runner_path_and_install_upgrades_it(run, home, tmp_path, monkeypatch,
                                                                            host) -> None:
    """A user-scope chain written before issue 33 (its runner under the project folder, no guard) is a
    problem from another folder, and install puts the full path in its place."""
    from hookweave.core.plan import chain

    log = tmp_path / "log"
    bundle = home / "g"
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text(manifest(host, log), encoding="utf-8")
    monkeypatch.chdir(home)
    with monkeypatch.context() as old:  # the registration as hookweave wrote it before
        old.setattr("hookweave.core.plan.plan.EVERY_PROJECT", frozenset(), raising=False)
        old.setattr(chain, "guard", lambda runner: "", raising=False)
        assert run("install", str(bundle), "--host", host, "--scope", "user", "--trust").exit_code == 0
    settings = host_of(host).settings_path("user", home)
    before = registration(settings)
    assert str(settings.parent) not in before.split(" a ")[0]  # named through the project, as the issue found
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    verify = run("verify", "--host", host, "--scope", "user")
    assert verify.exit_code == 1
    assert "chain names its runner as" in verify.stdout, verify.stdout
    again = run("install", str(bundle), "--host", host, "--scope", "user", "--trust")
    assert again.exit_code == 0, again.stdout + again.stderr
    after = registration(settings)
    assert after != before and after.startswith("[ -f ")
    assert "chain names its runner" not in run("verify", "--host", host, "--scope", "user").stdout
    log.write_text("", encoding="utf-8")
    assert run_from(after, other, ["sh", "-c"]).returncode == 0
    assert log.read_text(encoding="utf-8") == "a\nb\n"


def test_claude_managed_chain_runs_from_every_folder(run, home, tmp_path, monkeypatch) -> None:
    """The administrator installs from the folder that holds the managed one (``/`` for
    ``/etc/claude-code``): the drop-in lies inside that "project", yet runs in every project."""
    log = tmp_path / "log"
    bundle = tmp_path / "g"
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text(manifest("claude", log), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("install", "./g", "--host", "claude", "--scope", "managed")
    assert result.exit_code == 0, result.stdout + result.stderr
    drop_in = host_of("claude").settings_path("managed", tmp_path)
    assert drop_in.is_relative_to(tmp_path)
    command = registration(drop_in)
    assert "$CLAUDE_PROJECT_DIR" not in command and str(drop_in.parent) in command
    other = tmp_path / "other"
    other.mkdir()
    for shell in SHELLS:
        log.write_text("", encoding="utf-8")
        done = run_from(command, other, shell)
        assert (done.returncode, log.read_text(encoding="utf-8")) == (0, "a\nb\n"), done.stderr
    monkeypatch.chdir(other)
    assert "chain names its runner" not in run("verify", "--host", "claude", "--scope", "managed").stdout


def big_manifest(log: Path, size: int) -> str:
    pad = "x" * size
    return ('[bundle]\nname = "g"\nversion = "1.0.0"\norder = "chain"\n' + "".join(
        f'[[hooks]]\nid = "{name}"\nevent = "pre_tool_use"\ncommand = "echo {name} >> \'{log}\'; : {pad}"\n'
        for name in "abc"))


def test_a_chain_longer_than_one_shell_argument_is_refused(run, claude_settings, project, tmp_path) -> None:
    log = tmp_path / "log"
    (project / "g").mkdir()
    (project / "g" / "hookweave.toml").write_text(big_manifest(log, 50_000), encoding="utf-8")
    before = claude_settings.read_text(encoding="utf-8")
    result = run("install", "./g", "--host", "claude")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "E2BIG" in result.stderr and "script file" in result.stderr
    assert claude_settings.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in claude_settings.parent.iterdir()) == [claude_settings.name]


def test_a_chain_just_under_the_limit_installs_and_runs(run, claude_settings, project, tmp_path) -> None:
    log = tmp_path / "log"
    (project / "g").mkdir()
    (project / "g" / "hookweave.toml").write_text(big_manifest(log, 40_000), encoding="utf-8")
    assert run("install", "./g", "--host", "claude").exit_code == 0
    command = registration(claude_settings)
    assert len(command.encode()) > 120_000
    done = run_from(command, project, ["bash", "-c"])
    assert (done.returncode, log.read_text(encoding="utf-8")) == (0, "a\nb\nc\n"), done.stderr


def test_verify_does_not_say_ok_for_a_registration_over_the_limit(run, claude_settings, project, tmp_path,
                                                                   monkeypatch) -> None:
    log = tmp_path / "log"
    (project / "g").mkdir()
    (project / "g" / "hookweave.toml").write_text(big_manifest(log, 50_000), encoding="utf-8")
    with monkeypatch.context() as lax:  # written anyway (an older hookweave, a hand edit)
        try:
            from hookweave.core.model import runnable

            lax.setattr(runnable, "MAX_COMMAND_BYTES", 10**9)
        except ImportError:
            pass
        assert run("install", "./g", "--host", "claude").exit_code == 0
    command = registration(claude_settings)
    with pytest.raises(OSError, match="Argument list too long"):
        run_from(command, project, ["bash", "-c"])
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 1
    assert "more than the 129024 one shell argument may hold" in verify.stdout, verify.stdout


def test_claude_managed_bundle_dir_is_the_full_path(run, home, tmp_path, monkeypatch) -> None:
    """``{bundle_dir}`` in a managed drop-in, as a chain's runner: the full path, not the project variable."""
    bundle = tmp_path / "g"
    bundle.mkdir()
    (bundle / "hook.sh").write_text("#!/bin/sh\necho ran\n", encoding="utf-8")
    (bundle / "hook.sh").chmod(0o755)
    (bundle / "hookweave.toml").write_text('[bundle]\nname = "g"\nversion = "1.0.0"\n[[hooks]]\nid = "h"\n'
                                           'event = "stop"\ncommand = ["{bundle_dir}/hook.sh"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run("install", "./g", "--host", "claude", "--scope", "managed").exit_code == 0
    command = json.loads(host_of("claude").settings_path("managed", tmp_path).read_text())["hooks"]["Stop"][0][
        "hooks"][0]["command"]
    assert command == f"{bundle}/hook.sh # hookweave:g/h"
    other = tmp_path / "other"
    other.mkdir()
    assert run_from(command, other, ["sh", "-c"]).stdout == b"ran\n"


def test_sh_path_without_its_python_runner_goes_on_where_it_would_hand_over(run, home, tmp_path, monkeypatch) -> None:
    """A member's stdout makes the sh path hand over to the Python runner beside it: with that file
    gone, python3's exit 2 blocked; now the chain ends there with exit 0 and a note on stderr."""
    log = tmp_path / "log"
    bundle = home / "g"
    bundle.mkdir()
    text = manifest("claude", log).replace('echo a >> \\"$1\\"', 'echo a >> \\"$1\\"; echo said')
    assert text != manifest("claude", log)
    (bundle / "hookweave.toml").write_text(text, encoding="utf-8")
    assert run("install", str(bundle), "--host", "claude", "--scope", "user").exit_code == 0
    settings = host_of("claude").settings_path("user", home)
    settings.with_name("settings.hookweave-chain.py").unlink()
    other = tmp_path / "other"
    other.mkdir()
    for shell in SHELLS:
        log.write_text("", encoding="utf-8")
        done = run_from(registration(settings), other, shell)
        assert (done.returncode, done.stdout, log.read_text(encoding="utf-8")) == (0, b"", "a\n")
        assert done.stderr == b"hookweave: chain runner missing, the rest of its hooks did not run, see hooks verify\n"
