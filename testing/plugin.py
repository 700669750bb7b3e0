"""The pytest plugin of hookweave.testing (entry point ``pytest11``: ``hookweave``): two fixtures.

Loaded in every pytest session where hookweave is installed, so it imports nothing of hookweave
until a test asks for a fixture.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ISOLATED = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME")


@pytest.fixture
def hookweave_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder to work in, with HOME and the agents' own folders under ``tmp_path``."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    for name in ISOLATED:
        monkeypatch.setenv(name, str(home if name in ("HOME", "GEMINI_CLI_HOME") else home / f".{name.lower()}"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    monkeypatch.chdir(project)
    return project


@pytest.fixture
def hookweave_prepare():
    """``hookweave_prepare(host, project) -> [flags]``: what an operator does once per project for a host
    that gates its hooks (trust the folder), and the extra ``hooks install`` flags (``--trust``).
    Override this fixture in a conftest or test module; by default nothing is needed."""
    return lambda host, project: []


@pytest.fixture
def hookweave_run():
    """Run ``hooks`` in-process: ``hookweave_run("install", bundle, "--host", name)`` gives click's
    result (``exit_code``, ``stdout``, ``stderr``); an exception is raised, never swallowed."""
    from typer.testing import CliRunner

    import importlib

    from hookweave.core.cli.app import COMMAND_MODULES, app

    for module in dict.fromkeys(COMMAND_MODULES.values()):  # the console entry point loads each on demand
        importlib.import_module(module)

    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize a ``HostContract`` subclass's tests by host (and by operator file spelling)."""
    cls = metafunc.cls
    if cls is None or "host_name" not in metafunc.fixturenames or not hasattr(cls, "spellings"):
        return  # not a HostContract: nothing of hookweave is loaded
    from hookweave.core.contract.registry import registry
    from hookweave.testing.files import spellings

    hosts = registry()
    names = list(cls.hosts) or hosts.names()
    if "scope" in metafunc.fixturenames:  # each scope hookweave writes, each operator file there is
        cases = [(name, scope, spelling) for name in names for scope in hosts.get(name).scopes
                 for spelling in [s for s in spellings(hosts.get(name)) if s != "none"] or ["none"]
                 if spelling in cls.spellings]
        metafunc.parametrize(("host_name", "scope", "spelling"), cases, ids=["-".join(c) for c in cases])
    elif "spelling" in metafunc.fixturenames:
        pairs = [(name, spelling) for name in names for spelling in spellings(hosts.get(name))
                 if spelling in cls.spellings]
        metafunc.parametrize(("host_name", "spelling"), pairs, ids=[f"{n}-{s}" for n, s in pairs])
    else:
        metafunc.parametrize("host_name", names)
