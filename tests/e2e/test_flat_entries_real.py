"""Issue 22 class 6 on the real agents: a handler written straight under an event, where the host
expects a ``{matcher, hooks: [handler]}`` group (two public Gemini files do this), next to a proper
group. What each agent does with it is measured here (which of the two ran), and ``hooks verify``
must say the same: an entry the agent skips is reported as never running, a file it refuses whole
as refused; install and adopt leave the entry as it is and say the same thing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from newhosts import agent
from realhosts import agent_binary, ids, run_agent
from test_runtime_real import GEMINI_IN_PROCESS

GEMINI_OFFLINE = {"security": {"auth": {"selectedType": "gemini-api-key"}},
                  "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                  "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}
EVENT = {"gemini": "BeforeTool", "claude": "PreToolUse", "qwen": "PreToolUse", "factory": "PreToolUse"}
FILE = {"gemini": ".gemini/settings.json", "claude": ".claude/settings.json", "qwen": ".qwen/settings.json",
        "factory": ".factory/hooks.json"}


def _hooks(probe, event: str) -> dict:
    """The event holding a flat handler (``op-flat``) first, then a proper group (``op-group``)."""
    return {event: [{"type": "command", "command": probe.command("op-flat")},
                    {"hooks": [{"type": "command", "command": probe.command("op-group")}]}]}


def _runner(host: str, mock, home: Path, project: Path):
    if host == "gemini":
        (home / ".gemini").mkdir()
        (home / ".gemini" / "settings.json").write_text(json.dumps(GEMINI_OFFLINE))
        env = {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "dummy",
               "GOOGLE_GEMINI_BASE_URL": mock.url, "GEMINI_CLI_TRUST_WORKSPACE": "true",
               **GEMINI_IN_PROCESS}
        argv = [str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"]
        return lambda: run_agent(argv, project, env)
    if host == "claude":
        env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
               "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
        argv = [str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"]
        return lambda: run_agent(argv, project, env)
    start = agent(host, mock, home, project, {})
    return lambda: start("run the echo")


# What each agent did (which of the two hooks ran), measured by the test below.
MEASURED = {"gemini": ["op-group"], "qwen": ["op-group"], "claude": [], "factory": []}


@pytest.mark.parametrize("host", ["gemini", "claude", "qwen", "factory"])
def test_flat_handler_where_a_group_belongs(host, run, mock, home, project, probe, monkeypatch) -> None:
    if host == "gemini":
        monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")  # what verify should see, as the agent does
    start = _runner(host, mock, home, project)
    settings = project / FILE[host]
    settings.parent.mkdir(parents=True, exist_ok=True)
    doc = _hooks(probe, EVENT[host])
    original = json.dumps(doc if host == "factory" else {"hooks": doc}, indent=2) + "\n"
    settings.write_text(original)
    start()
    ran = ids(probe.calls())
    assert ran == MEASURED[host]
    pointer = f"/{EVENT[host]}/0" if host == "factory" else f"/hooks/{EVENT[host]}/0"
    verify = run("verify", "--verbose", "--host", host)
    said = next(line for line in verify.stdout.splitlines() if pointer in line).split(f"{pointer}: ", 1)[1]
    if ran:  # the agent skips the entry and runs the rest: every command says so, and goes on
        assert "skips: it never runs" in said
        install = run("install", probe.bundle(), "--host", host)
        assert install.exit_code == 0 and said in install.stdout
        start()
        assert ids(probe.calls()) == ["op-group", "probe-pre", "probe-start", "probe-stop"]
        assert run("uninstall", "probe", "--host", host).exit_code == 0
        assert settings.read_text().replace(',\n  "$version": 4', "") == original  # Qwen adds its version
        adopt = run("adopt", "--host", host, "--out", str(project.parent / "adopted"))
        assert adopt.exit_code == 0 and said in adopt.stdout and "adopted 1 hook" in adopt.stdout
        start()
        assert ids(probe.calls()) == ran  # adopted, the same hooks run as before, the loose one still not
    else:  # the agent refuses the whole file: verify says so, install and adopt refuse with the same words
        assert "refuses the whole file for it and runs none of its hooks" in said
        for args in (("install", probe.bundle()), ("adopt", "--out", str(project.parent / "adopted"))):
            refused = run(*args, "--host", host)
            assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
        assert settings.read_text() == original and not (project.parent / "adopted").exists()


def test_codex_skips_a_flat_handler_and_so_does_verify(run, codex_env, project, probe, monkeypatch) -> None:
    """Codex 0.169 (hooks/list, no model call): the entry reads as a group without hooks, the file loads."""
    from hookweave.hosts.codex.appserver import hooks_list

    binary = str(agent_binary("codex"))
    settings = project / ".codex" / "hooks.json"
    settings.parent.mkdir(parents=True)
    original = json.dumps({"hooks": _hooks(probe, "PreToolUse")}, indent=2) + "\n"
    settings.write_text(original)
    listed = hooks_list(binary, project, env={**os.environ, **codex_env})
    assert [h["command"].split()[2] for h in listed["hooks"]] == ["op-group"] and not listed["warnings"]
    assert listed["hooks"][0]["key"].endswith(":pre_tool_use:1:0")  # the loose entry still counts in the keys
    monkeypatch.setenv("CODEX_HOME", codex_env["CODEX_HOME"])
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", binary)
    verify = run("verify", "--verbose", "--host", "codex")
    assert "/hooks/PreToolUse/0: a hook outside a {matcher, hooks} group, which Codex skips" in verify.stdout
    assert run("install", probe.bundle(), "--host", "codex", "--trust").exit_code == 0
    listed = hooks_list(binary, project, env={**os.environ, **codex_env})
    assert sorted(h["trustStatus"] for h in listed["hooks"] if "hookweave:" in h["command"]) == ["trusted"] * 3
    assert run("uninstall", "probe", "--host", "codex").exit_code == 0
    assert settings.read_text() == original



def test_codex_skips_a_flat_handler_inline_in_config_toml_too(run, codex_env, project, monkeypatch) -> None:
    from hookweave.hosts.codex.appserver import hooks_list

    path = project / ".codex" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[[hooks.PreToolUse]]\ntype = "command"\ncommand = "echo flat"\n\n'
                    '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "echo group"\n')
    listed = hooks_list(str(agent_binary("codex")), project, env={**os.environ, **codex_env})
    assert [h["command"] for h in listed["hooks"]] == ["echo group"] and not listed["warnings"]
    monkeypatch.setenv("CODEX_HOME", codex_env["CODEX_HOME"])
    assert "/hooks/PreToolUse/0: a hook outside a {matcher, hooks} group, which Codex skips" in \
        run("verify", "--verbose", "--host", "codex").stdout


UNKNOWN = {"gemini": "PostToolUse", "claude": "BeforeTool", "qwen": "BeforeTool", "factory": "BeforeTool"}
SKIPS_UNTYPED = ("gemini", "qwen")  # they skip an untyped handler and run the rest; Claude refuses its file
# Where the unknown-event scenario sits in the shared run: beside the untyped handler in the one file
# (Gemini, Qwen), or in Claude's other project file, which it loads though it refuses settings.json.
BESIDE = {"gemini": FILE["gemini"], "qwen": FILE["qwen"], "claude": ".claude/settings.local.json"}
UNKNOWN_EVENT_HOOKS, UNTYPED_HOOKS = ("op-unknown", "op-known"), ("op-untyped", "op-group")


def _ran_of(ran: list[str], scenario: tuple[str, ...]) -> list[str]:
    """The hooks of one scenario among those a shared run ran (each test asserts only its own)."""
    return [hook for hook in ran if hook in scenario]


@pytest.fixture(scope="module")
def side_by_side_runs() -> dict:
    """One agent run a host, shared by the unknown-event and untyped-handler tests (Gemini, Qwen,
    Claude): both scenarios sit side by side, so the run's probe log answers each test. Built by
    whichever of the two runs first, inside that test's own isolated HOME and project (its
    fixtures, so nothing_left_running covers the run); the other reads the same record."""
    return {}


def _both_side_by_side(host, run, mock, home, project, probe) -> dict:
    """Start ``host`` once on an unknown event next to a proper group (op-known), and an untyped
    handler before a proper group (op-group); then verify, install (and uninstall) once."""
    start = _runner(host, mock, home, project)

    def group(hook: str) -> dict:
        return {"hooks": [{"type": "command", "command": probe.command(hook)}]}

    unknown = {UNKNOWN[host]: [group("op-unknown")], EVENT[host]: [group("op-known")]}
    untyped = {EVENT[host]: [{"hooks": [{"command": probe.command("op-untyped")}]}, group("op-group")]}
    settings, beside = project / FILE[host], project / BESIDE[host]
    settings.parent.mkdir(parents=True, exist_ok=True)
    if beside == settings:
        untyped = {UNKNOWN[host]: unknown[UNKNOWN[host]], EVENT[host]: untyped[EVENT[host]] + unknown[EVENT[host]]}
    else:
        beside.write_text(json.dumps({"hooks": unknown}, indent=2) + "\n")
    original = json.dumps({"hooks": untyped}, indent=2) + "\n"
    settings.write_text(original)
    start()
    ran = ids(probe.calls())
    assert set(ran) <= {*UNKNOWN_EVENT_HOOKS, *UNTYPED_HOOKS}, ran  # nothing but the files' own hooks ran
    verify = run("verify", "--verbose", "--host", host).stdout
    install = run("install", probe.bundle(), "--host", host)
    uninstalled = run("uninstall", "probe", "--host", host).exit_code if install.exit_code == 0 else None
    return {"ran": ran, "verify": verify, "install": (install.exit_code, install.output), "uninstalled": uninstalled,
            "original": original, "after": settings.read_text()}


def _side_by_side(cache: dict, host, run, mock, home, project, probe) -> dict:
    if host not in cache:
        cache[host] = _both_side_by_side(host, run, mock, home, project, probe)
    return cache[host]


@pytest.mark.parametrize("host", ["gemini", "claude", "qwen", "factory"])
def test_an_event_the_host_does_not_know(host, run, mock, home, project, probe, monkeypatch,
                                         side_by_side_runs) -> None:
    """A real Gemini file (5throck/ai-workspace-standards) holds Claude's PostToolUse: measured here."""
    if host == "gemini":
        monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    pointer = f"/{UNKNOWN[host]}" if host == "factory" else f"/hooks/{UNKNOWN[host]}"
    if host in BESIDE:
        shared = _side_by_side(side_by_side_runs, host, run, mock, home, project, probe)
        assert _ran_of(shared["ran"], UNKNOWN_EVENT_HOOKS) == ["op-known"]  # skips the event, runs the rest
        assert f"{pointer}: not an event" in shared["verify"]
        return
    start = _runner(host, mock, home, project)
    doc = {UNKNOWN[host]: [{"hooks": [{"type": "command", "command": probe.command("op-unknown")}]}],
           EVENT[host]: [{"hooks": [{"type": "command", "command": probe.command("op-group")}]}]}
    settings = project / FILE[host]
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(doc if host == "factory" else {"hooks": doc}, indent=2) + "\n")
    start()
    assert ids(probe.calls()) == ["op-group"]  # every agent skips the event and runs the rest
    assert f"{pointer}: not an event" in run("verify", "--verbose", "--host", host).stdout


def test_codex_keeps_trusting_a_group_of_three_adopted_as_three_groups(run, codex_env, project, probe, tmp_path,
                                                                      monkeypatch) -> None:
    """Issue 22 class 7: adopt splits a trusted group of three handlers; Codex 0.169 (hooks/list)
    still trusts all three, under their new keys, and again after --undo."""
    from hookweave.hosts.codex import trust_hash
    from hookweave.hosts.codex.appserver import hooks_list

    binary = str(agent_binary("codex"))
    path = project / ".codex" / "hooks.json"
    path.parent.mkdir(parents=True)
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": probe.command(f"op-{i}")} for i in range(3)]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}, indent=2) + "\n")
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + "".join(
        f'\n[hooks.state."{path}:pre_tool_use:0:{h}"]\ntrusted_hash = "{trust_hash("PreToolUse", group, hd)}"\n'
        for h, hd in enumerate(group["hooks"])))
    env = {**os.environ, **codex_env}

    def trusted() -> list[str]:
        return [h["trustStatus"] for h in hooks_list(binary, project, env=env)["hooks"]]

    assert trusted() == ["trusted"] * 3
    monkeypatch.setenv("CODEX_HOME", codex_env["CODEX_HOME"])
    assert run("adopt", "--host", "codex", "--out", str(tmp_path / "out")).exit_code == 0
    assert len(json.loads(path.read_text())["hooks"]["PreToolUse"]) == 3
    assert trusted() == ["trusted"] * 3
    assert run("adopt", "--undo", "adopted", "--host", "codex").exit_code == 0
    assert trusted() == ["trusted"] * 3


@pytest.mark.parametrize("host", ["gemini", "claude", "qwen", "factory"])
def test_a_handler_without_type(host, run, mock, home, project, probe, monkeypatch, side_by_side_runs) -> None:
    """A group's handler with no "type" (hookweave read it as a command hook): Gemini and Qwen skip
    that handler, Claude and Factory refuse the whole file; verify and install say which."""
    if host == "gemini":
        monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    pointer = f"/{EVENT[host]}/0/hooks/0" if host == "factory" else f"/hooks/{EVENT[host]}/0/hooks/0"
    skips = host in SKIPS_UNTYPED
    if host in BESIDE:  # measured on the run shared with the unknown-event test: the untyped handler is first
        shared = _side_by_side(side_by_side_runs, host, run, mock, home, project, probe)
        assert _ran_of(shared["ran"], UNTYPED_HOOKS) == (["op-group"] if skips else [])
        said = next(line for line in shared["verify"].splitlines() if pointer in line)
        assert ("skips: it never runs" if skips else "refuses the whole file") in said
        code, output = shared["install"]
        assert code == (0 if skips else 2) and said.split(f"{pointer}: ")[1] in output
        assert shared["uninstalled"] == (0 if skips else None)
        assert shared["after"].replace(',\n  "$version": 4', "") == shared["original"]
        return
    start = _runner(host, mock, home, project)
    doc = {EVENT[host]: [{"hooks": [{"command": probe.command("op-untyped")}]},
                         {"hooks": [{"type": "command", "command": probe.command("op-group")}]}]}
    settings = project / FILE[host]
    settings.parent.mkdir(parents=True, exist_ok=True)
    original = json.dumps(doc if host == "factory" else {"hooks": doc}, indent=2) + "\n"
    settings.write_text(original)
    start()
    assert ids(probe.calls()) == []  # Factory refuses the whole file
    said = next(line for line in run("verify", "--verbose", "--host", host).stdout.splitlines() if pointer in line)
    assert "refuses the whole file" in said
    install = run("install", probe.bundle(), "--host", host)
    assert install.exit_code == 2 and said.split(f"{pointer}: ")[1] in install.output
    assert settings.read_text() == original
