"""The cross-agent check loads only the built-in hosts that hold a record of ours or read a file of
one that does (issue 38): ``builtin_records`` knows their records' places without their modules,
and is held equal to the hosts here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.describe import expand
from hookweave.core.contract.registry import HostRegistry
from hookweave.core.verify.builtin_records import IN_USE_FOLDERS, MOVED_BY, PROGRAMS, READS, RECORDS
from tests.shipping.test_startup_imports import installed, loaded  # noqa: F401 - the fixture

MOVED = {"gemini"}  # the test set-up names Gemini's system files by its variables (MOVED_BY)


def hosts_loaded(project: Path, tmp_path: Path, *argv: str) -> set[str]:
    modules = loaded(project, tmp_path, *argv)
    return {name for name, module in BUILT_IN.items() if module in modules}


def test_verify_of_claude_loads_only_the_hosts_that_can_run_its_hooks(installed, tmp_path):  # noqa: F811
    """Cursor and Copilot run Claude's files, but neither is in use here (no folder of theirs, no
    program on PATH, no copy of ours installed for them): no finding could name them."""
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", *MOVED}


def test_a_reader_that_may_be_in_use_is_loaded(run, installed, tmp_path, home, monkeypatch):  # noqa: F811
    (home / ".cursor").mkdir()  # Cursor's user folder
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "cursor", *MOVED}
    (installed / ".github" / "hooks").mkdir(parents=True)  # where Copilot's project file lives
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "cursor", "copilot", *MOVED}


def test_a_reader_whose_program_is_on_path_is_loaded(installed, tmp_path, monkeypatch):  # noqa: F811
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "copilot").write_text("#!/bin/sh\n")
    (bin_dir / "copilot").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "copilot", *MOVED}


def test_a_reader_with_a_copy_installed_for_it_is_loaded(run, project, tmp_path):
    """Copilot runs Claude's project file: an install for both writes Copilot's share there only
    (``runs_for`` in Claude's record), and no folder of Copilot's is made."""
    assert run("install", "example-guard", "--host", "claude", "--host", "copilot").exit_code == 0
    assert not (project / ".github").exists()
    assert hosts_loaded(project, tmp_path, "verify", "--host", "claude") == {"claude", "copilot", *MOVED}


SETUPS = ["nothing", "cursor folder", "copilot folder", "copilot program", "copy for copilot", "managed folder"]


@pytest.mark.parametrize("setup", SETUPS)
def test_the_cross_agent_findings_are_those_of_every_host_loaded(run, project, home, tmp_path, monkeypatch, setup):
    """What ``in_use`` leaves unloaded changes no finding: the same as with all sixteen hosts asked."""
    from hookweave.core.contract import registry as plugins
    from hookweave.core.verify import crossreads

    hosts = ["claude", "copilot"] if setup == "copy for copilot" else ["claude"]
    assert run("install", "example-guard", *[w for h in hosts for w in ("--host", h)]).exit_code == 0
    if setup == "cursor folder":
        (project / ".cursor").mkdir()
    elif setup == "copilot folder":
        (home / ".copilot").mkdir()
    elif setup == "copilot program":
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "copilot").write_text("#!/bin/sh\n")
        (tmp_path / "bin" / "copilot").chmod(0o755)
        monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    elif setup == "managed folder":
        monkeypatch.setenv("HOOKWEAVE_CURSOR_MANAGED_DIR", str(tmp_path / "etc-cursor"))
        (tmp_path / "etc-cursor").mkdir()
    registry = plugins.registry()
    claude = registry.get("claude")
    every = [registry.info(name).cls for name in registry.names()]
    assert crossreads.findings(claude, project) == crossreads.findings(claude, project, classes=every)
    lazy = {cls.name for cls in crossreads.host_classes(claude, project)}
    assert ("cursor" in lazy) == (setup in ("cursor folder", "managed folder"))
    assert ("copilot" in lazy) == (setup in ("copilot folder", "copilot program", "copy for copilot"))


@pytest.mark.parametrize("env", [False, True])
def test_a_readers_in_use_signs_are_in_the_table(tmp_path, monkeypatch, env):
    """``IN_USE_FOLDERS`` are the folders ``crossreads.in_use`` looks at for a reader (its settings
    files' folders) and the one its ``detect`` does; ``PROGRAMS`` are what ``detect`` looks for on
    PATH: without them, ``detect`` says no, and with any of them, yes."""
    registry = HostRegistry()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert set(IN_USE_FOLDERS) == set(PROGRAMS) == set(READS)
    for name in READS:
        host = registry.get(name)
        assert PROGRAMS[name] == tuple(host.description.programs), name
        if env:
            for template in IN_USE_FOLDERS[name]:
                for variable in __import__("re").findall(r"\$\{(\w+):-", str(template)):
                    monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
        folders = [expand(t, tmp_path / "project") for t in IN_USE_FOLDERS[name]]
        settings = {host.settings_path(scope, tmp_path / "project").parent for scope in host.verify_scopes}
        assert settings <= set(folders), name
        assert not any(f.exists() for f in folders) and not host.detect(), name
        for folder in folders:  # the one not a settings folder is detect's
            folder.mkdir(parents=True)
            assert host.detect() or folder in settings, (name, folder)
            __import__("shutil").rmtree(tmp_path / "home" if str(folder).startswith(str(tmp_path / "home")) else folder)


@pytest.mark.parametrize("env", [False, True])
def test_the_table_names_each_hosts_records(monkeypatch, tmp_path, env):
    registry = HostRegistry()
    assert set(RECORDS) == set(BUILT_IN)
    for variable in (v for moved in MOVED_BY.values() for v in moved):
        monkeypatch.delenv(variable, raising=False)  # set, they load the host: no template follows them
    for name, scopes in RECORDS.items():
        host = registry.get(name)
        if env:
            for place in scopes.values():
                for template in place if isinstance(place, tuple) else (place,):
                    for variable in __import__("re").findall(r"\$\{(\w+):-", str(template)):
                        monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
        assert list(scopes) == list(host.verify_scopes), name
        for scope, place in scopes.items():
            if not isinstance(place, tuple):
                assert expand(place, tmp_path) == host.record_path(host.settings_path(scope, tmp_path)), (name, scope)
                continue
            for candidate in place:  # a record there makes the host choose that candidate's settings file
                record = expand(candidate, tmp_path)
                record.parent.mkdir(parents=True, exist_ok=True)
                record.write_text("{}", encoding="utf-8")
                assert host.record_path(host.settings_path(scope, tmp_path)) == record, (name, scope, candidate)
                record.unlink()
            assert host.record_path(host.settings_path(scope, tmp_path)) in [expand(c, tmp_path) for c in place]


def test_the_table_names_who_reads_another_hosts_files():
    registry = HostRegistry()
    found = {name: tuple(r.host for r in getattr(registry.info(name).cls, "also_reads", ()))
             for name in BUILT_IN}
    assert READS == {name: hosts for name, hosts in found.items() if hosts}


OPENS_PROBE = """
import atexit, json, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
opened = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str) and opened.append(args[0]))
atexit.register(lambda: open({out!r}, "w").write(json.dumps(opened)))
from hookweave.core.cli.entry import main
main()
"""


def test_a_loaded_hosts_scope_without_our_record_is_not_read(installed, tmp_path):  # noqa: F811
    """Cursor is loaded to verify Claude (it runs Claude's files), but its own project file holds no
    record of ours: nothing of ours can be found in it, so it is neither read nor parsed (an
    operator's file, often big, on every verify and install; a fifth of the attack campaign's CPU)."""
    cursor = installed / ".cursor" / "hooks.json"
    cursor.parent.mkdir()
    cursor.write_text('{"version": 1, "hooks": {"stop": [{"command": "echo operator"}]}}\n')
    out = tmp_path / "opened.json"
    done = subprocess.run([sys.executable, "-c", OPENS_PROBE.format(out=str(out)), json.dumps(["verify", "--host", "claude"])],
                          cwd=installed, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    opened = [Path(p).resolve() for p in json.loads(out.read_text())]
    assert (installed / ".claude" / "settings.json").resolve() in opened  # the probe saw the command read
    assert cursor.resolve() not in opened


def test_the_variables_read_are_those_the_tables_name():
    """``holding`` copies only these from the environment: every ``${NAME:-...}`` of the tables, the
    variables that move a host's files (``MOVED_BY``), and HOME."""
    from hookweave.core.contract.description import variables
    from hookweave.core.verify import builtin_records

    named: set[str] = set()

    def walk(place):
        if isinstance(place, (tuple, list)):
            for each in place:
                walk(each)
        elif isinstance(place, dict):
            for each in place.values():
                walk(each)
        else:
            named.update(name for _, _, name, _ in variables(place))

    for table in (builtin_records.RECORDS, builtin_records.IN_USE_FOLDERS, builtin_records.CHOSEN_BY):
        walk(table)
    named.update(v for moved in builtin_records.MOVED_BY.values() for v in moved)
    assert sorted(builtin_records.READ_FROM_ENVIRONMENT) == sorted(named | {"HOME"})
