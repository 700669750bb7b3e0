"""Issue 34 item 1, the real Claude Code 2.1.332 offline: the hooks of its own plugins, and verify
held to what it did. The plugin is installed by the real ``claude plugin marketplace add`` and
``claude plugin install`` from a local marketplace folder; a probe logs every hook that runs.

Measured here: an enabled plugin's ``hooks/hooks.json`` runs, read in place from a ``directory``
marketplace (the cache copy is not read) or from the installed copy for any other marketplace;
``${CLAUDE_PLUGIN_ROOT}`` is that folder; a plugin hook with a settings hook's very command runs
as well as it (twice per call); plugin and settings hooks start at once; ``false`` in the
project's local settings turns a user's plugin off."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from realhosts import HERE, HOSTS, agent_binary, overlap, run_agent
from test_gemini_real import gemini  # noqa: F401  (fixture)
from test_qwen_real import qwen  # noqa: F401  (fixture)
from test_copilot_real import copilot  # noqa: F401  (fixture)
from test_managed_real import etc, in_overlay  # noqa: F401  (fixture)


def _bundle(probe) -> str:
    (probe.folder / "hookweave.toml").write_text(
        '[bundle]\nname = "guard"\nversion = "1.0.0"\n\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{{bundle_dir}}/probe.py", "probe-pre", "{probe.log}", "2"]\n')
    return str(probe.folder)


def _marketplace(folder: Path, probe, same_command: str) -> Path:
    """A marketplace folder with one plugin whose PreToolUse runs our command word for word, and a
    probe of its own through ``${CLAUDE_PLUGIN_ROOT}`` that logs the folder it was given."""
    plugin = folder / "plugins" / "guardplug"
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "marketplace.json").write_text(json.dumps(
        {"name": "local", "owner": {"name": "ops"}, "plugins": [{"name": "guardplug", "source": "./plugins/guardplug"}]}))
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "guardplug", "version": "1.0.0"}))
    (plugin / "hooks").mkdir()
    shutil.copy(HERE / "probe.py", plugin / "probe.py")
    own = f"python3 ${{CLAUDE_PLUGIN_ROOT}}/probe.py plug-pre {probe.log} 2 ${{CLAUDE_PLUGIN_ROOT}}"
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": same_command}, {"type": "command", "command": own}]}]}}))
    return plugin


def _install_plugin(home: Path, project: Path, marketplace: Path) -> Path:
    """``claude plugin marketplace add`` and ``install``, as an operator does; the cache copy it
    makes is changed to log ``cache-pre``, so a run tells which copy Claude read."""
    claude = str(agent_binary("claude"))
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([claude, "plugin", "marketplace", "add", str(marketplace)], project, env)
    run_agent([claude, "plugin", "install", "guardplug@local"], project, env)
    cached = home / ".claude" / "plugins" / "cache" / "local" / "guardplug" / "1.0.0" / "hooks" / "hooks.json"
    cached.write_text(cached.read_text().replace("plug-pre", "cache-pre"))
    return cached


def _our_command(home: Path) -> str:
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    return settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].rsplit(" # hookweave:", 1)[0]


def _count(calls: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for call in calls:
        out[call["id"]] = out.get(call["id"], 0) + 1
    return out


def test_claude_runs_a_plugins_hooks_beside_ours_and_verify_says_so(run, claude, probe, home, project,
                                                                     tmp_path) -> None:
    assert run("install", _bundle(probe), "--host", "claude", "--scope", "user").exit_code == 0
    plugin = _marketplace(tmp_path / "marketplace", probe, _our_command(home))
    # plugin.json's "hooks" names one more file, loaded beside hooks/hooks.json
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(
        {"name": "guardplug", "version": "1.0.0", "hooks": "./extra/more.json"}))
    (plugin / "extra").mkdir()
    (plugin / "extra" / "more.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": probe.command("extra-pre")}]}]}}))
    _install_plugin(home, project, tmp_path / "marketplace")

    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 1
    host = json.loads(result.stdout)["hosts"][0]
    assert [(h["name"], h["file"], h["event"]) for h in host["plugin_hooks"]] == \
        [("guardplug@local", str(plugin / "hooks" / "hooks.json"), "PreToolUse")] * 2 + \
        [("guardplug@local", str(plugin / "extra" / "more.json"), "PreToolUse")]  # in place, not the cache
    assert [f["message"].split(":", 1)[0] for f in host["findings"] if f["level"] == "problem"] == \
        ["fires twice per PreToolUse"]

    claude()
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 2, "plug-pre": 1, "extra-pre": 1}  # ours and the plugin's copy: both ran
    plug = next(c for c in calls if c["id"] == "plug-pre")
    assert plug["argv"][3] == str(plugin)  # ${CLAUDE_PLUGIN_ROOT}: the marketplace folder's plugin
    times = [(c["id"], round(c["start"] - plug["start"], 2), round(c["end"] - plug["start"], 2)) for c in calls]
    # started at once: the plugin's hook runs while ours does (any, not all: a loaded machine may start one late)
    assert any(overlap(plug, c) for c in calls if c["id"] == "probe-pre"), times

    # false in the project's local settings turns the user's plugin off
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"enabledPlugins": {"guardplug@local": False}}))
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []
    claude()
    assert _count(probe.calls()) == {"probe-pre": 1}


def test_claude_runs_the_installed_copy_of_a_remote_marketplaces_plugin(run, claude, probe, home, project,
                                                                        tmp_path) -> None:
    """A marketplace registered from GitHub (here: its record says so; nothing is fetched): Claude
    runs the copy installed_plugins.json names, and verify lists that copy's file."""
    assert run("install", _bundle(probe), "--host", "claude", "--scope", "user").exit_code == 0
    _marketplace(tmp_path / "marketplace", probe, "true")
    cached = _install_plugin(home, project, tmp_path / "marketplace")
    plugins = home / ".claude" / "plugins"
    clone = plugins / "marketplaces" / "local"
    shutil.move(str(tmp_path / "marketplace"), clone)  # where Claude clones a GitHub marketplace
    (plugins / "known_marketplaces.json").write_text(json.dumps({"local": {
        "source": {"source": "github", "repo": "example/local"}, "installLocation": str(clone),
        "lastUpdated": "2026-11-27T23:55:30.050Z"}}))
    settings = home / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    del doc["extraKnownMarketplaces"]
    settings.write_text(json.dumps(doc, indent=2))

    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 0  # the plugin's command is not ours
    host = json.loads(result.stdout)["hosts"][0]
    assert {h["file"] for h in host["plugin_hooks"]} == {str(cached)}

    claude()
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 1, "cache-pre": 1}
    assert next(c for c in calls if c["id"] == "cache-pre")["argv"][3] == str(cached.parent.parent)


def test_gemini_runs_an_extensions_hooks_beside_ours_and_verify_says_so(run, gemini, probe, home, project) -> None:
    """Gemini CLI 0.61.0: an extension folder in ~/.gemini/extensions with hooks/hooks.json; its
    hook with our command word for word runs as well as ours; ``${extensionPath}`` is its folder;
    a ``!`` rule for this project in extension-enablement.json turns it off."""
    assert run("install", _bundle(probe), "--host", "gemini", "--scope", "user").exit_code == 0
    settings = json.loads((home / ".gemini" / "settings.json").read_text())
    ours = settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"].rsplit(" # hookweave:", 1)[0]
    extension = home / ".gemini" / "extensions" / "guardext"
    (extension / "hooks").mkdir(parents=True)
    (extension / "gemini-extension.json").write_text(json.dumps({"name": "guardext", "version": "1.0.0"}))
    shutil.copy(HERE / "probe.py", extension / "probe.py")
    own = f"python3 ${{extensionPath}}${{/}}probe.py ext-pre {probe.log} 2 ${{extensionPath}}"
    (extension / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": ours},
                                                   {"type": "command", "command": own}]}]}}))

    result = run("verify", "--host", "gemini", "--json")
    host = json.loads(result.stdout)["hosts"][0]
    assert [(h["source"], h["name"], h["file"], h["event"]) for h in host["plugin_hooks"]] == \
        [("extension", "guardext", str(extension / "hooks" / "hooks.json"), "BeforeTool")] * 2
    assert [f["message"].split(":", 1)[0] for f in host["findings"] if f["level"] == "problem"] == \
        ["fires twice per BeforeTool"]
    assert result.exit_code == 1

    gemini()
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 2, "ext-pre": 1}
    assert next(c for c in calls if c["id"] == "ext-pre")["argv"][3] == str(extension)

    (home / ".gemini" / "extensions" / "extension-enablement.json").write_text(
        json.dumps({"guardext": {"overrides": [f"!{project}/*"]}}))
    result = run("verify", "--host", "gemini", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []
    gemini()
    assert _count(probe.calls()) == {"probe-pre": 1}


def test_qwen_runs_an_extensions_hooks_beside_ours_and_verify_says_so(run, qwen, probe, home, project) -> None:
    """Qwen Code 0.24.4: hooks written into an extension's qwen-extension.json itself; its hook
    with our command word for word runs as well as ours; ``${CLAUDE_PLUGIN_ROOT}`` is its folder."""
    assert run("install", _bundle(probe), "--host", "qwen", "--scope", "user").exit_code == 0
    settings = json.loads((home / ".qwen" / "settings.json").read_text())
    event, groups = next((e, g) for e, g in settings["hooks"].items())
    ours = groups[0]["hooks"][0]["command"].rsplit(" # hookweave:", 1)[0]
    extension = home / ".qwen" / "extensions" / "guardext"
    extension.mkdir(parents=True)
    shutil.copy(HERE / "probe.py", extension / "probe.py")
    own = f"python3 ${{CLAUDE_PLUGIN_ROOT}}/probe.py ext-pre {probe.log} 2 ${{CLAUDE_PLUGIN_ROOT}}"
    (extension / "qwen-extension.json").write_text(json.dumps({"name": "guardext", "version": "1.0.0", "hooks": {
        event: [{"matcher": groups[0].get("matcher", ""), "hooks": [{"type": "command", "command": ours},
                                                                    {"type": "command", "command": own}]}]}}))

    result = run("verify", "--host", "qwen", "--json")
    host = json.loads(result.stdout)["hosts"][0]
    assert [(h["source"], h["name"], h["file"], h["event"]) for h in host["plugin_hooks"]] == \
        [("extension", "guardext", str(extension / "qwen-extension.json"), event)] * 2
    assert [f["message"].split(":", 1)[0] for f in host["findings"] if f["level"] == "problem"] == \
        [f"fires twice per {event}"]
    assert result.exit_code == 1

    qwen()
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 2, "ext-pre": 1}
    assert next(c for c in calls if c["id"] == "ext-pre")["argv"][3] == str(extension)


def test_copilot_runs_a_plugins_hooks_beside_ours_and_verify_says_so(run, copilot, probe, home, project,
                                                                      tmp_path) -> None:
    """Copilot CLI 1.0.102: ``copilot plugin install <folder>`` copies the plugin under
    ~/.copilot/installed-plugins and lists it in config.json; its hooks/hooks.json (Copilot's own
    shape) runs, a word-for-word copy of our command as well as ours; ``plugin disable`` stops it."""
    assert run("install", _bundle(probe), "--host", "copilot", "--scope", "user").exit_code == 0
    ours = json.loads((home / ".copilot" / "hooks" / "hookweave.json").read_text())["hooks"]["preToolUse"][0]
    source = tmp_path / "guardplug"
    (source / "hooks").mkdir(parents=True)
    (source / "plugin.json").write_text(json.dumps({"name": "guardplug", "version": "1.0.0"}))
    own = f"python3 {HERE / 'probe.py'} plug-pre {probe.log} 2"
    (source / "hooks" / "hooks.json").write_text(json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": ours["bash"].rsplit(" # hookweave:", 1)[0]}, {"type": "command", "bash": own}]}}))
    binary = str(HOSTS / "copilot" / "node_modules" / ".bin" / "copilot")
    env = {"HOME": str(home), "COPILOT_OFFLINE": "1", "COPILOT_AUTO_UPDATE": "false"}
    run_agent([binary, "plugin", "install", str(source)], project, env)
    copy = home / ".copilot" / "installed-plugins" / "_direct" / "guardplug" / "hooks" / "hooks.json"

    result = run("verify", "--host", "copilot", "--json")
    host = json.loads(result.stdout)["hosts"][0]
    assert [(h["source"], h["name"], h["file"], h["event"]) for h in host["plugin_hooks"]] == \
        [("plugin", "guardplug", str(copy), "preToolUse")] * 2
    assert [f["message"].split(":", 1)[0] for f in host["findings"] if f["level"] == "problem"] == \
        ["fires twice per preToolUse"]
    assert result.exit_code == 1

    copilot()
    assert _count(probe.calls()) == {"probe-pre": 2, "plug-pre": 1}

    run_agent([binary, "plugin", "disable", "guardplug"], project, env)
    result = run("verify", "--host", "copilot", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hosts"][0]["plugin_hooks"] == []
    copilot()
    assert _count(probe.calls()) == {"probe-pre": 1}


def test_claude_managed_plugin_order_keys_leave_command_hooks_at_once(run, mock, probe, home, project, tmp_path,
                                                                      etc, monkeypatch) -> None:
    """Managed settings enable two plugins and set ``prependPlugins`` / ``appendPlugins`` (their
    schema: "whose hooks run first, outermost"): the plugins' hooks.json command hooks still start
    at once with ours, and a plugin the organization enables does not run first as managed hooks do.
    /etc is an overlay in a private mount namespace (``etc``, as tests/e2e/test_managed_real.py)."""
    assert run("install", _bundle(probe), "--host", "claude", "--scope", "user").exit_code == 0
    marketplace = tmp_path / "marketplace"
    _marketplace(marketplace, probe, "true")
    catalogue = json.loads((marketplace / ".claude-plugin" / "marketplace.json").read_text())
    other = marketplace / "plugins" / "other"
    shutil.copytree(marketplace / "plugins" / "guardplug", other)
    (other / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "other", "version": "1.0.0"}))
    hooks = other / "hooks" / "hooks.json"
    hooks.write_text(hooks.read_text().replace("plug-pre", "other-pre"))
    catalogue["plugins"].append({"name": "other", "source": "./plugins/other"})
    (marketplace / ".claude-plugin" / "marketplace.json").write_text(json.dumps(catalogue))
    _install_plugin(home, project, marketplace)
    managed = etc / "claude-code"
    managed.mkdir()
    (managed / "managed-settings.json").write_text(json.dumps({
        "enabledPlugins": {"guardplug@local": True, "other@local": True},
        "extraKnownMarketplaces": {"local": {"source": {"source": "directory", "path": str(marketplace)}}},
        "prependPlugins": ["other@local"], "appendPlugins": ["guardplug@local"]}))
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(managed))

    result = run("verify", "--host", "claude")
    assert "note: PreToolUse: Claude Code starts the hooks of guardplug@local, other@local at once with the user, " \
           "project and local settings' hooks, hookweave's included, in no fixed order (prependPlugins and " \
           "appendPlugins do not change that)\n" in result.stdout, result.stdout

    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent(in_overlay([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], etc), project, env)
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 1, "plug-pre": 1, "other-pre": 1}
    ours = next(c for c in calls if c["id"] == "probe-pre")
    times = [(c["id"], round(c["start"] - ours["start"], 2), round(c["end"] - ours["start"], 2)) for c in calls]
    assert all(overlap(ours, c) for c in calls), times  # none waits for another: no order among them

    # ours at managed scope instead: it runs first, and the plugins' hooks start only when it has ended
    assert run("uninstall", "guard", "--host", "claude", "--scope", "user").exit_code == 0
    assert run("install", _bundle(probe), "--host", "claude", "--scope", "managed").exit_code == 0
    result = run("verify", "--host", "claude")
    assert "note: PreToolUse: Claude Code runs hookweave's managed hooks first, and starts the hooks of " \
           "guardplug@local, other@local only when the last managed hook has ended, at once with the user, project " \
           "and local settings' hooks\n" in result.stdout, result.stdout
    run_agent(in_overlay([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], etc), project, env)
    calls = probe.calls()
    assert _count(calls) == {"probe-pre": 1, "plug-pre": 1, "other-pre": 1}
    ours = next(c for c in calls if c["id"] == "probe-pre")
    assert all(c["start"] >= ours["end"] for c in calls if c is not ours), calls
