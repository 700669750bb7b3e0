"""The shared contract every registered host honours (DESIGN.md section 5), on operator files.

Parametrized over the host registry, so a new built-in host is tested the day it is registered;
``tests/plugin`` runs the same checks against an out-of-tree plugin.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.contract.registry import HostRegistry, get_plugin_manager
from hookweave.core.model.render import marker_in

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
HOSTS = HostRegistry(get_plugin_manager(load_entrypoints=False)).names()


def operator_text(host: str) -> str | None:
    path = DATA / host / "operator.settings.json"
    return path.read_text(encoding="utf-8") if path.exists() else None


@pytest.fixture(params=HOSTS)
def host(request):
    return HostRegistry(get_plugin_manager(load_entrypoints=False)).get(request.param)


def scope_of(host) -> str:
    """The scope these tests write: the project's, or the first a host without one has (OpenHarness: user)."""
    return "project" if "project" in host.scopes else host.scopes[0]


@pytest.fixture
def flags(host, project: Path, trust_project) -> list[str]:
    return trust_project(host, project) + scoped(host)


def scoped(host) -> list[str]:
    return [] if scope_of(host) == "project" else ["--scope", scope_of(host)]


@pytest.fixture
def settings(host, project: Path, flags) -> Path:
    path = host.settings_path(scope_of(host), project)
    text = operator_text(host.name)
    if text is not None:
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
    return path


def _marked_command(entry: dict, hook_id: str) -> tuple[str, str]:
    """The pointer below ``entry`` and the text of the first command string that carries our marker
    (``command`` in most dialects, ``bash`` first in Copilot's)."""
    for key, value in entry.items():
        if isinstance(value, str) and marker_in(value) == ("guard", hook_id):
            return f"/{key}", value
        if key == "hooks" and isinstance(value, list):
            for j, handler in enumerate(value):
                if isinstance(handler, dict) and marker_in(handler.get("command")) == ("guard", hook_id):
                    return f"/hooks/{j}/command", handler["command"]
    raise AssertionError("no marked command")


def _edit_our_command(host, path: Path, hook_id: str) -> None:
    """Change one of our commands the way an operator would, keeping the rest of the file."""
    text = path.read_text(encoding="utf-8")
    doc = host.parse(text, str(path))
    for event, entries in doc[host.hooks_key].items():
        for i, entry in enumerate(entries):
            if host.owner(entry) == ("guard", hook_id):
                below, command = _marked_command(entry, hook_id)
                new = command.replace(" # hookweave:", " --edited # hookweave:")
                pointer = f"/{host.hooks_key}/{event}/{i}{below}"
                path.write_text(host.apply(text, [{"op": "replace", "path": pointer, "value": new}], str(path)))
                return
    raise AssertionError("our entry is not in the file")


def expected_owners(host) -> list[tuple[str, str]]:
    """The bundle's hooks on the events this host has (Windsurf has no session start)."""
    wanted = {"one-strike": "pre_tool_use", "keepalive": "stop", "session-log": "session_start"}
    return sorted(("guard", hook_id) for hook_id, event in wanted.items() if host.events.get(event))


def ours_in(host, doc) -> list:
    return sorted(host.owner(e) for es in doc[host.hooks_key].values() if isinstance(es, list) for e in es
                  if host.owner(e))


def test_install_verify_reinstall_edit_uninstall(run, host, settings: Path, flags) -> None:
    before = settings.read_text(encoding="utf-8") if settings.exists() else None
    result = run("install", BUNDLE, "--host", host.name, *flags)
    assert result.exit_code == 0, result.output
    installed = settings.read_text(encoding="utf-8")
    doc = host.parse(installed, str(settings))
    assert ours_in(host, doc) == expected_owners(host)
    assert run("verify", "--host", host.name).exit_code == 0, run("verify", "--host", host.name).output
    again = run("install", BUNDLE, "--host", host.name, *flags)
    assert "already installed; nothing written\n" in again.stdout
    assert settings.read_text(encoding="utf-8") == installed
    _edit_our_command(host, settings, "keepalive")
    verify = run("verify", "--host", host.name)
    assert verify.exit_code == 1 and " modified " in verify.stdout and "keepalive" in verify.stdout
    assert run("uninstall", "guard", "--host", host.name, *scoped(host)).exit_code == 1
    _edit_our_command_back = settings.read_text(encoding="utf-8").replace(" --edited # hookweave:", " # hookweave:")
    settings.write_text(_edit_our_command_back, encoding="utf-8")
    assert run("uninstall", "guard", "--host", host.name, *scoped(host)).exit_code == 0
    if before is None:
        assert not settings.exists() and not settings.parent.exists()
    else:
        assert settings.read_text(encoding="utf-8") == before


GOLDEN = [name for name in HOSTS if (DATA / name / "operator.after-install.json").exists()]


def test_every_host_has_a_golden_round_trip() -> None:
    """Here, or (a host whose files are not one JSON document: Cline's dispatchers) in its own
    test module, against golden files in its data folder."""
    def own_goldens(name: str) -> bool:
        module = Path(__file__).parent / f"test_{name}.py"
        text = module.read_text(encoding="utf-8") if module.exists() else ""
        return (DATA / name).is_dir() and ("golden(" in text or "operator.after-install." in text)

    assert set(HOSTS) == set(GOLDEN) | {name for name in HOSTS if own_goldens(name)}


@pytest.mark.parametrize("host", GOLDEN, indirect=True)
def test_install_matches_the_golden_file(run, host, settings: Path, flags) -> None:
    golden = DATA / host.name / "operator.after-install.json"
    assert run("install", BUNDLE, "--host", host.name, *flags).exit_code == 0
    assert settings.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8")


def test_every_entry_we_write_is_recognised_as_ours(run, host, settings: Path, flags) -> None:
    run("install", BUNDLE, "--host", host.name, *flags)
    doc = host.parse(settings.read_text(encoding="utf-8"), str(settings))
    assert ours_in(host, doc) == expected_owners(host)
    foreign = [e for es in doc[host.hooks_key].values() if isinstance(es, list) for e in es if not host.owner(e)]
    assert all(marker_in(str(e)) is None for e in foreign)


def test_scopes_resolve_inside_the_test_home(host, tmp_path: Path, project: Path) -> None:
    for scope in host.verify_scopes:
        assert str(host.settings_path(scope, project)).startswith(str(tmp_path)), scope
