"""The plugin boundary: hookspecs, registration like a third-party plugin, clear collision errors."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pluggy
import pytest

from hookweave.core.contract import hookspecs
from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.hookspecs import hookimpl
from hookweave.core.contract.registry import HostRegistry, get_plugin_manager
from hookweave.core.errors import BadInput
from hookweave.hosts.claude import ClaudeCodeHost
from tests.hostnames import NAMES

REFERENCE = (Path(__file__).parent.parent.parent / "docs" / "host-reference.md").read_text(encoding="utf-8")


def _specs() -> list[str]:
    return [name for name, _ in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("hookweave_")]


def test_every_hookspec_is_documented_in_the_reference_with_its_signature() -> None:
    for name in _specs():
        params = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        assert f"{name}({params})" in REFERENCE, name


def test_every_hookspec_has_a_test() -> None:
    here = Path(__file__).read_text(encoding="utf-8")
    for name in _specs():
        assert f"def test_hook_{name}" in here, name


def test_hook_hookweave_register_hosts() -> None:
    class Echo(ClaudeCodeHost):
        name = "echo-agent"
        title = "Echo"

        def settings_path(self, scope: str, project: Path) -> Path:  # its own: Claude's would be refused
            return project / ".echo" / "settings.json"

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(Echo)

    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(Plugin(), name="echo")
    registry = HostRegistry(pm)
    assert registry.names() == sorted([*NAMES, "echo-agent"])
    assert registry.info("echo-agent").origin == Echo.__module__  # not from a distribution: its module
    assert registry.info("claude").origin == "built-in"
    assert [h.name for h in registry.resolve(["all"])] == sorted([*NAMES, "echo-agent"])


def test_builtin_host_is_registered_through_the_hook_like_any_plugin() -> None:
    pm = get_plugin_manager(load_entrypoints=False)
    registry = HostRegistry(pm)
    assert registry.names() == NAMES
    assert pm.get_plugin("hookweave.hosts.codex") is None  # registered on first use, not before
    registry.get("codex")
    assert pm.get_plugin("hookweave.hosts.codex") is not None
    assert {registry.info(n).origin for n in registry.names()} == {"built-in"}
    for module in ("hookweave.hosts.claude", "hookweave.hosts.codex", "hookweave.hosts.cursor", "hookweave.hosts.gemini"):
        assert pm.get_plugin(module) is not None


def test_a_command_for_one_host_imports_only_that_host(tmp_path) -> None:
    """Start-up (issue 9): the other built-in host modules stay unimported; ``--host all`` loads all
    (verify's: a status of every host loads only those with a record, tests/test_status_lazy.py)."""
    probe = (
        "import sys\n"
        "from hookweave.core.cli.app import main\n"
        "sys.argv = ['hooks', 'status' if sys.argv[1] != 'all' else 'verify', '--host', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('hookweave.hosts.')), file=sys.stderr)\n"
    )
    seen = {}
    for host in ("claude", "gemini", "all"):
        done = subprocess.run([sys.executable, "-c", probe, host], cwd=tmp_path, capture_output=True, text=True)
        seen[host] = done.stderr.strip().splitlines()[-1]
    assert seen["claude"] == "['hookweave.hosts.claude']"
    assert seen["gemini"] == "['hookweave.hosts.gemini']"
    assert all(f"hookweave.hosts.{n}'" in seen["all"] for n in ("claude", "codex", "cursor", "gemini"))


def test_duplicate_host_name_names_both_classes() -> None:
    class Impostor(ClaudeCodeHost):
        pass

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(Impostor)

    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(Plugin())
    registry = HostRegistry(pm)  # the impostor is skipped with a warning; the built-in keeps its name
    [message] = registry.warnings
    assert "defines its name as 'claude', but that name is already used by" in message
    assert "hookweave.hosts.claude.ClaudeCodeHost" in message and "Impostor" in message
    assert registry.get("claude").__class__.__name__ == "ClaudeCodeHost"


def test_host_without_name_and_non_host_are_rejected() -> None:
    class Nameless(ClaudeCodeHost):
        name = ""

    for bad, message in ((Nameless, "does not set `name`"), (object, "neither a hookweave Host subclass")):
        class Plugin:
            @hookimpl
            def hookweave_register_hosts(self, register, bad=bad):
                register(bad)

        pm = get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin())
        registry = HostRegistry(pm)
        assert len(registry.warnings) == 1 and message in registry.warnings[0], registry.warnings
        assert registry.names() == NAMES  # every built-in host is still there


def test_unknown_hook_implementation_fails_loudly() -> None:
    class Typo:
        @hookimpl
        def hookweave_register_host(self, register):  # missing "s"
            pass

    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(Typo())
    with pytest.raises(pluggy.PluginValidationError):
        pm.check_pending()


def test_blocked_entry_points_are_not_loaded(monkeypatch) -> None:
    monkeypatch.setenv("HOOKWEAVE_DISABLE_PLUGINS", "someplugin")
    pm = get_plugin_manager()
    assert pm.is_blocked("someplugin")


PROBE = (
    "import sys\n"
    "from hookweave.core.cli.app import main\n"
    "sys.argv = ['hooks', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "print('pluggy' in sys.modules, file=sys.stderr)\n"
)


def _with_plugin(site: Path, dist: str, entry: str, module: str, source: str) -> None:
    """A distribution on ``site`` declaring ``entry = module`` in the ``hookweave`` group, as pip lays it out."""
    meta = site / f"{dist}-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text(f"[hookweave]\n{entry} = {module}\n")
    (site / f"{module}.py").write_text(source)


ECHO_SOURCE = (
    "from hookweave.core.contract.hookspecs import hookimpl\n"
    "from hookweave.hosts.claude import ClaudeCodeHost\n\n"
    "class Echo(ClaudeCodeHost):\n    name = 'echo'\n    title = 'Echo'\n\n"
    "    def settings_path(self, scope, project):\n        return project / '.echo' / 'settings.json'\n\n"
    "@hookimpl\ndef hookweave_register_hosts(register):\n    register(Echo)\n"
)


def _probe(tmp_path: Path, *args: str, site: Path | None = None, blocked: str | None = None) -> tuple[str, str]:
    import os

    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    if blocked is not None:
        env["HOOKWEAVE_DISABLE_PLUGINS"] = blocked
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    return done.stdout, lines[-1] if lines else ""


def test_without_plugins_no_command_loads_pluggy_and_every_host_is_there(tmp_path) -> None:
    """Start-up (issue 9): with no plugin installed the built-in hooks are called directly."""
    hosts, loaded = _probe(tmp_path, "hosts", "--json")
    assert loaded == "False"
    assert [(h["name"], h["origin"]) for h in json.loads(hosts)["hosts"]] == [
        (name, "built-in") for name in NAMES]
    for args in (["status"], ["verify", "--host", "all"], ["install", "example-guard", "--host", "claude"]):
        assert _probe(tmp_path, *args)[1] == "False", args


def test_an_installed_plugin_is_seen_at_once_and_a_disabled_one_is_not(tmp_path) -> None:
    site = tmp_path / "site"
    _with_plugin(site, "echo_dist", "echo", "echo_plugin", ECHO_SOURCE)
    hosts, loaded = _probe(tmp_path, "hosts", "--json", site=site)
    assert loaded == "True" and {h["name"]: h["origin"] for h in json.loads(hosts)["hosts"]}["echo"] == "echo_dist 1.0"
    hosts, loaded = _probe(tmp_path, "hosts", "--json", site=site, blocked="other, echo")
    assert loaded == "False" and "echo" not in [h["name"] for h in json.loads(hosts)["hosts"]]


def test_a_plugin_that_takes_a_built_in_name_is_refused_on_the_command_line(tmp_path) -> None:
    site = tmp_path / "site"
    _with_plugin(site, "impostor_dist", "impostor", "impostor_plugin", ECHO_SOURCE.replace("'echo'", "'claude'"))
    done = subprocess.run([sys.executable, "-c", PROBE, "status"], cwd=tmp_path, capture_output=True, text=True,
                          env={**__import__("os").environ, "PYTHONPATH": str(site)})
    assert "defines its name as 'claude', but that name is already used by hookweave.hosts.claude.ClaudeCodeHost" in done.stderr


def test_the_registry_without_pluggy_answers_as_with_it() -> None:
    """The direct call of the built-in hooks and pluggy's call register the same classes."""
    direct, through = HostRegistry(), HostRegistry(get_plugin_manager(load_entrypoints=False))
    assert direct.names() == through.names()
    for name in direct.names():
        assert direct.info(name) == through.info(name)


def test_the_entry_point_group_is_the_hookspecs_project() -> None:
    from hookweave.core.contract import registry as plugins

    assert plugins.PROJECT == hookspecs.PROJECT
