"""The cross-agent check loads only the built-in hosts that hold a record of ours or read a file of
one that does (issue 38): ``builtin_records`` knows their records' places without their modules,
and is held equal to the hosts here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.describe import expand
from hookweave.core.contract.registry import HostRegistry
from hookweave.core.verify.builtin_records import MOVED_BY, READS, RECORDS
from tests.shipping.test_startup_imports import installed, loaded  # noqa: F401 - the fixture

MOVED = {"gemini"}  # the test set-up names Gemini's system files by its variables (MOVED_BY)


def hosts_loaded(project: Path, tmp_path: Path, *argv: str) -> set[str]:
    modules = loaded(project, tmp_path, *argv)
    return {name for name, module in BUILT_IN.items() if module in modules}


def test_verify_of_claude_loads_only_the_hosts_that_can_run_its_hooks(installed, tmp_path):  # noqa: F811
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "cursor", "copilot", *MOVED}


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["install", "example-guard", "--host", "claude"]])
def test_no_host_is_loaded_for_its_paths_alone(installed, tmp_path, monkeypatch, argv):  # noqa: F811
    """Codex, Factory, OpenHands and Gemini choose their files at run time; their records' places
    are known all the same (every candidate's), so a Claude-only project loads none of them."""
    for variable in (v for moved in MOVED_BY.values() for v in moved):
        monkeypatch.delenv(variable, raising=False)
    assert hosts_loaded(installed, tmp_path, *argv) == {"claude", "cursor", "copilot"}


def test_a_variable_that_moves_a_hosts_files_loads_it(installed, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("OPENHANDS_WORK_DIR", str(tmp_path / "elsewhere"))
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "cursor", "copilot", "openhands",
                                                                               *MOVED}


@pytest.mark.parametrize("host", ["qwen", "codex", "factory", "openhands"])
def test_a_host_with_our_record_is_loaded_and_checked(run, installed, tmp_path, host):  # noqa: F811
    assert run("install", "example-guard", "--host", host).exit_code == 0
    assert hosts_loaded(installed, tmp_path, "verify", "--host", "claude") == {"claude", "cursor", "copilot", host,
                                                                               *MOVED}


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
