"""Chained events through the CLI on every host: install, verify, upgrade and uninstall on settings
files full of operator entries, each asserted on whole file texts (tests/data/chain)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookweave.core.plan import chain

DATA = Path(__file__).parent.parent / "data"
CHAIN = DATA / "chain"
MANIFEST = (CHAIN / "hookweave.toml").read_text(encoding="utf-8")
FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json",
         "cursor": ".cursor/hooks.json", "qwen": ".qwen/settings.json", "factory": ".factory/hooks.json",
         "windsurf": ".windsurf/hooks.json", "antigravity": ".agents/hooks.json"}
HOSTS = list(FILES)
# Windsurf files a tool hook under one event per kind of tool: its chain's members are all shell hooks.
WINDSURF = MANIFEST.replace('id = "gate"\nevent = "pre_tool_use"\n', 'id = "gate"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
                            ).replace('matcher = ["shell", "write"]', 'matcher = ["shell"]')


def manifest(host: str) -> str:
    return WINDSURF if host == "windsurf" else MANIFEST


def operator(host: str) -> str:
    return (DATA / host / "operator.settings.json").read_text(encoding="utf-8")


@pytest.fixture
def settings(request, project: Path, home: Path) -> Path:
    host = request.param
    path = project / FILES[host]
    path.parent.mkdir()
    path.write_text(operator(host), encoding="utf-8")
    return path


def record_of(path: Path) -> Path:
    return path.with_name(f"{path.stem}.hookweave.json")


def runner_of(path: Path) -> Path:
    return path.with_name(f"{path.stem}.hookweave-chain.py")


def bundle(tmp_path: Path, text: str = MANIFEST, name: str = "b") -> str:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "hookweave.toml").write_text(text, encoding="utf-8")
    return str(folder)


def host_of(settings: Path) -> str:
    return next(h for h, f in FILES.items() if settings.as_posix().endswith(f))


@pytest.mark.parametrize("settings", HOSTS, indirect=True)
def test_install_writes_one_registration_per_chained_event_golden(run, settings: Path, tmp_path: Path) -> None:
    host = host_of(settings)
    result = run("install", bundle(tmp_path, manifest(host)), "--host", host)
    assert result.exit_code == 0, result.output
    assert settings.read_text(encoding="utf-8") == (CHAIN / f"{host}.after.json").read_text(encoding="utf-8")
    assert record_of(settings).read_text(encoding="utf-8") == (CHAIN / f"{host}.record.json").read_text(encoding="utf-8")
    assert runner_of(settings).read_text(encoding="utf-8") == chain.runner_text()
    shown = FILES[host].rsplit("/", 1)[0]
    assert f"{host} project {FILES[host]}: installed guards 2.0.0 (4 hooks, 1 chain)\n" in result.stdout
    assert f"{host} project {shown}/{runner_of(settings).name}: chain runner\n" in result.stdout
    again = run("install", bundle(tmp_path, manifest(host)), "--host", host)
    assert f"{host} project {FILES[host]}: guards 2.0.0 already installed; nothing written\n" in again.stdout
    assert "chain runner" not in again.stdout
    assert run("uninstall", "guards", "--host", host).exit_code == 0
    assert settings.read_text(encoding="utf-8") == operator(host)
    assert sorted(p.name for p in settings.parent.iterdir()) == [settings.name]


def _statuses(run, host: str) -> dict[str, tuple[str, str]]:
    """Each hook's (status, detail) as verify --json gives them (the text lists only what is not ok)."""
    doc = json.loads(run("verify", "--host", host, "--json").stdout)
    return {h["id"]: (h["status"], h["detail"]) for r in doc["hosts"] for f in r["files"] for b in f["bundles"]
            for h in b["hooks"]}


def test_verify_says_the_order_is_guaranteed_and_checks_each_member(run, project: Path, tmp_path: Path) -> None:
    path = project / FILES["claude"]
    path.parent.mkdir()
    path.write_text(operator("claude"), encoding="utf-8")
    run("install", bundle(tmp_path), "--host", "claude")
    ok = run("verify", "--host", "claude")
    assert (ok.exit_code, ok.stdout) == (0, (  # issue 25: notes first, then one line for what is fine
        "claude (Claude Code)\n"
        "  project  .claude/settings.json\n"
        "    note: guards/chain-pretooluse: PreToolUse: order guaranteed: the chain runs guard, gate, session one "
        "after another in that order, and the first that blocks ends it; Claude Code would start them at once, so "
        "every call of PreToolUse now waits for the sum of their times instead of the slowest (hooks check shows "
        "each one's)\n"
        "  note: Claude starts all of an event's matching hooks at once and does not wait for one before the next, "
        "so file order is not execution order, except in a chain, which runs its members in declared order\n"
        "claude  project  guards 2.0.0  5 hooks ok  .claude/settings.json\n"
        "verify: ok (2 notes)\n"))
    assert _statuses(run, "claude") == {
        "chain-pretooluse": ("ok", ""), "chain-pretooluse/guard": ("ok", "member 1 of 3 of PreToolUse's chain"),
        "chain-pretooluse/gate": ("ok", "member 2 of 3 of PreToolUse's chain"),
        "chain-pretooluse/session": ("ok", "member 3 of 3 of PreToolUse's chain"), "farewell": ("ok", "")}
    text = path.read_text(encoding="utf-8")
    # The operator edits the gate's words and drops the session check from the chain.
    edited = text.replace("overflow-gate --limit 3", "overflow-gate --limit 9").replace(
        " session 10 'Bash|Write' 'session-gate \\\"'\\\\$'CLAUDE_PROJECT_DIR\\\"/.state'", "")
    assert edited.count("overflow-gate --limit 9") == 1 and "session-gate" not in edited
    path.write_text(edited, encoding="utf-8")
    bad = run("verify", "--host", "claude")
    assert bad.exit_code == 1
    lines = [line for line in bad.stdout.splitlines() if line.startswith("      ") and "chain-pretooluse" in line]
    assert lines == [
        "      modified     chain-pretooluse          PreToolUse (last)  edited since it was installed; reinstall with "
        "--force to restore it",
        "      modified     chain-pretooluse/gate     PreToolUse (last)  member 2 of 3 of PreToolUse's chain: edited "
        "since it was installed; reinstall with --force to restore it",
        "      missing      chain-pretooluse/session  PreToolUse (last)  member 3 of 3 of PreToolUse's chain: not in "
        "the chain any more; reinstall with --force",
    ]
    assert run("install", bundle(tmp_path), "--host", "claude").exit_code == 1  # the operator's edit is refused
    assert run("install", bundle(tmp_path), "--host", "claude", "--force").exit_code == 0
    assert path.read_text(encoding="utf-8") == (CHAIN / "claude.after.json").read_text(encoding="utf-8")


def test_verify_reports_a_missing_or_modified_runner(run, project: Path, tmp_path: Path) -> None:
    path = project / FILES["claude"]
    path.parent.mkdir()
    path.write_text(operator("claude"), encoding="utf-8")
    run("install", bundle(tmp_path), "--host", "claude")
    runner = runner_of(path)
    runner.write_text(runner.read_text() + "# mine\n")
    modified = run("verify", "--host", "claude")
    assert modified.exit_code == 1
    assert ("    problem: .claude/settings.hookweave-chain.py: the chain runner is modified; reinstall the bundle "
            "with --force to restore it\n") in modified.stdout
    refused = run("install", bundle(tmp_path), "--host", "claude")
    assert refused.exit_code == 1
    assert refused.stderr == ("hooks: .claude/settings.json: guards/chain needs its chain runner at "
                              ".claude/settings.hookweave-chain.py, which is hookweave's chain runner, edited since; "
                              "nothing written. Keep the operator's version, or rerun with --force to replace it with "
                              "the bundle's version\n")
    runner.unlink()
    missing = run("verify", "--host", "claude")
    assert ("    problem: .claude/settings.hookweave-chain.py: the chain runner is missing, so every chain of this "
            "file fails; reinstall the bundle\n") in missing.stdout
    assert run("install", bundle(tmp_path), "--host", "claude").exit_code == 0
    assert runner.read_text() == chain.runner_text()
    assert run("verify", "--host", "claude").exit_code == 0


def test_verify_reports_python3_missing_from_path(run, project: Path, tmp_path: Path, monkeypatch) -> None:
    run("install", bundle(tmp_path), "--host", "claude")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert "    problem: python3 is not on PATH here, and chains run with python3; install Python 3\n" in result.stdout


def test_a_file_at_the_runners_place_that_hookweave_did_not_write_is_refused(run, project: Path, tmp_path: Path) -> None:
    path = project / FILES["claude"]
    path.parent.mkdir()
    path.write_text(operator("claude"), encoding="utf-8")
    runner_of(path).write_text("print('mine')\n")
    result = run("install", bundle(tmp_path), "--host", "claude")
    assert result.exit_code == 1
    assert "which is a file hookweave did not write; nothing written" in result.stderr
    assert path.read_text(encoding="utf-8") == operator("claude")
    assert not record_of(path).exists() and runner_of(path).read_text() == "print('mine')\n"


@pytest.mark.parametrize("settings", ["claude", "gemini", "codex"], indirect=True)
def test_upgrade_in_place_alone_to_chain_and_back_byte_exact(run, settings: Path, tmp_path: Path) -> None:
    host = settings.parent.name.lstrip(".")
    alone = MANIFEST.replace('order = "chain"\n', "", 1)
    assert run("install", bundle(tmp_path, alone, "v1"), "--host", host).exit_code == 0
    as_alone = settings.read_text(encoding="utf-8")
    assert "guards/guard" in as_alone and "chain" not in as_alone
    assert not runner_of(settings).exists()
    up = run("install", bundle(tmp_path), "--host", host)
    assert up.exit_code == 0, up.output
    assert settings.read_text(encoding="utf-8") == (CHAIN / f"{host}.after.json").read_text(encoding="utf-8")
    assert runner_of(settings).read_text() == chain.runner_text()
    down = run("install", bundle(tmp_path, alone, "v1"), "--host", host)
    assert down.exit_code == 0, down.output
    assert settings.read_text(encoding="utf-8") == as_alone
    assert not runner_of(settings).exists()
    assert run("uninstall", "guards", "--host", host).exit_code == 0
    assert settings.read_text(encoding="utf-8") == operator(host)


LOGGING = """[bundle]
name = "steps"
version = "1.0.0"
order = "chain"
[[hooks]]
id = "one"
event = "pre_tool_use"
command = "echo one >> \\"$STEP_LOG\\"; sleep 0.2; echo one-end >> \\"$STEP_LOG\\""
[[hooks]]
id = "two"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "-c", "echo two >> \\"$STEP_LOG\\"; echo no >&2; exit 2"]
[[hooks]]
id = "three"
event = "pre_tool_use"
command = "echo three >> \\"$STEP_LOG\\""
"""


def test_a_cloned_project_runs_the_same_chain_no_path_of_this_machine_in_it(run, project: Path, tmp_path: Path) -> None:
    """The teammate's case: the project folder moves; the host runs the registration with its own
    project variable, and the chain finds its runner and runs its members in order."""
    assert run("install", bundle(tmp_path, LOGGING), "--host", "claude").exit_code == 0
    text = (project / ".claude" / "settings.json").read_text(encoding="utf-8")
    assert str(tmp_path) not in text
    clone = tmp_path / "teammate" / "repo"
    shutil.copytree(project, clone)
    shutil.rmtree(project)
    command = json.loads((clone / ".claude" / "settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    log = tmp_path / "steps.log"
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(clone), "STEP_LOG": str(log)}
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Read"}).encode()
    done = subprocess.run(["bash", "-c", command], input=payload, capture_output=True, cwd=clone, env=env, timeout=30)
    assert (done.returncode, done.stdout, log.read_text()) == (0, b"", "one\none-end\nthree\n")
    log.unlink()
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash"}).encode()
    done = subprocess.run(["bash", "-c", command], input=payload, capture_output=True, cwd=clone, env=env, timeout=30)
    assert (done.returncode, log.read_text()) == (2, "one\none-end\ntwo\n")
    assert done.stderr == b"no\n"


@pytest.mark.parametrize("text, message", [
    ('order = "chained"', 'bundle.order: unknown order "chained"; use "chain" (one after another, first block wins) '
                          'or "alone"'),
    ("order = true", 'bundle.order: unknown order a boolean; use "chain" (one after another, first block wins) or '
                     '"alone"'),
    ('order = "chain\\u0007"', 'bundle.order: unknown order "chain\\u0007"; use "chain" (one after another, first '
                               'block wins) or "alone"'),
])
def test_a_bad_order_is_one_line_naming_file_key_and_fix(run, project: Path, tmp_path: Path, text, message) -> None:
    folder = bundle(tmp_path, MANIFEST.replace('order = "chain"', text, 1))
    result = run("install", folder, "--host", "claude")
    assert result.exit_code == 2
    assert result.stderr == f"hooks: {folder}/hookweave.toml: {message}\n"
    assert list(project.iterdir()) == []


def test_a_bad_per_hook_order_and_a_hook_id_the_chain_needs(run, project: Path, tmp_path: Path) -> None:
    folder = bundle(tmp_path, MANIFEST.replace('order = "alone"', 'order = "last"'))
    result = run("install", folder, "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, (
        f'hooks: {folder}/hookweave.toml: hooks[3] (farewell).order: unknown order "last"; use "chain" (one after '
        'another, first block wins) or "alone"\n'))
    clash = bundle(tmp_path, MANIFEST.replace('id = "gate"', 'id = "chain-pretooluse"'), "clash")
    result = run("install", clash, "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, (
        f"hooks: {clash}/hookweave.toml: hooks (chain-pretooluse).id: the chain of PreToolUse is registered under "
        "that id; rename the hook\n"))
    assert list(project.iterdir()) == []


def test_per_hook_order_chains_only_the_hooks_that_ask(run, project: Path, tmp_path: Path) -> None:
    mixed = MANIFEST.replace('order = "chain"\n', "", 1).replace('id = "gate"', 'id = "gate"\norder = "chain"').replace(
        'id = "session"', 'id = "session"\norder = "chain"')
    assert run("install", bundle(tmp_path, mixed), "--host", "claude").exit_code == 0
    groups = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["PreToolUse"]
    commands = [g["hooks"][0]["command"] for g in groups]
    assert commands == [
        "destructive-guard --strict # hookweave:guards/guard",
        "[ -f \"$CLAUDE_PROJECT_DIR\"/.claude/settings.hookweave-chain.sh ] || { echo hookweave: chain runner missing, "
        "its hooks did not run, see hooks verify >&2; exit 0; }; "
        "sh \"$CLAUDE_PROJECT_DIR\"/.claude/settings.hookweave-chain.sh claude PreToolUse gate 600 '' "
        "'overflow-gate --limit 3 '\"'\"'it'\"'\"''\"'\"'s'\"'\" session 10 'Bash|Write' 'session-gate "
        "\"'\\$'CLAUDE_PROJECT_DIR\"/.state' # hookweave:guards/chain-pretooluse",
    ]
    assert [g.get("matcher") for g in groups] == ["Bash", None]


def test_verify_sees_members_swapped_or_added_by_hand(run, project: Path, tmp_path: Path) -> None:
    path = project / FILES["claude"]
    path.parent.mkdir()
    path.write_text(operator("claude"), encoding="utf-8")
    run("install", bundle(tmp_path), "--host", "claude")
    text = path.read_text(encoding="utf-8")
    guard = "guard 5 Bash 'destructive-guard --strict'"
    swapped = text.replace(guard + " ", "").replace(" # hookweave:guards/chain-pretooluse",
                                                     " " + guard + " extra 1 '' true # hookweave:guards/chain-pretooluse")
    assert swapped.count(guard) == 1 and swapped != text
    path.write_text(swapped, encoding="utf-8")
    result = run("verify", "--host", "claude")
    lines = [line for line in result.stdout.splitlines() if "chain-pretooluse/" in line]
    assert lines == [
        "      out-of-order chain-pretooluse/guard    PreToolUse (last)  member 1 of 3 of PreToolUse's chain: the "
        "chain runs it in another place than declared; reinstall with --force",
        "      out-of-order chain-pretooluse/gate     PreToolUse (last)  member 2 of 3 of PreToolUse's chain: the "
        "chain runs it in another place than declared; reinstall with --force",
        "      out-of-order chain-pretooluse/session  PreToolUse (last)  member 3 of 3 of PreToolUse's chain: the "
        "chain runs it in another place than declared; reinstall with --force",
        "      modified     chain-pretooluse/extra    PreToolUse (last)  added to PreToolUse's chain by hand; the "
        "chain runs it too",
    ]
    assert result.exit_code == 1


def test_verify_warns_of_a_python3_that_is_a_script(run, project: Path, tmp_path: Path, monkeypatch) -> None:
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3"
    shim.write_text('#!/bin/sh\nexec python3.real "$@"\n')
    shim.chmod(0o755)
    run("install", bundle(tmp_path), "--host", "claude")
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0
    assert (f"    warning: python3 on PATH is a script ({shim}, a pyenv shim or the like): it adds tens of "
            "milliseconds to every chained event; put the interpreter's own folder first on PATH\n") in result.stdout


def test_status_counts_a_chains_members_as_hooks(run, project: Path, tmp_path: Path) -> None:
    run("install", bundle(tmp_path), "--host", "claude")
    assert run("status", "--host", "claude").stdout == (
        "claude  project  guards 2.0.0  (4 hooks, 0 env)  .claude/settings.json\n")


def test_a_runner_another_hookweave_version_wrote_is_replaced_without_force(run, project: Path, tmp_path: Path) -> None:
    """After an upgrade of hookweave the runner on disk is the old version's: unedited (its key is
    the hash of what it holds), so install replaces it and verify asks for exactly that."""
    import ast

    path = project / FILES["claude"]
    path.parent.mkdir()
    path.write_text(operator("claude"), encoding="utf-8")
    run("install", bundle(tmp_path), "--host", "claude")
    shipped = runner_of(path).read_text()
    body = shipped.split("\n\nRUNNER = r'\'\'", 1)[1].rsplit("\'\'\'\n\nexec(", 1)[0] + "# an older runner\n"
    table = ast.literal_eval(shipped.split("\nPROTOCOL = ", 1)[1].split("\n\nRUNNER = r'\'\'", 1)[0])
    older = chain._fill(chain._key(body, table), table, body)
    runner_of(path).write_text(older)
    result = run("verify", "--host", "claude")
    assert result.exit_code == 1
    assert ("    problem: .claude/settings.hookweave-chain.py: the chain runner is another hookweave version's; "
            "reinstall the bundle to update it\n") in result.stdout
    upgraded = run("install", bundle(tmp_path), "--host", "claude")
    assert upgraded.exit_code == 0, upgraded.output
    assert runner_of(path).read_text() == shipped
    runner_of(path).write_text(older)
    assert run("uninstall", "guards", "--host", "claude").exit_code == 0
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


NEWER = {  # host: (its file, the registration's command in it, the project variable, the shell it runs)
    "copilot": (".github/hooks/hookweave.json", lambda d: d["hooks"]["preToolUse"][0]["bash"], "COPILOT_PROJECT_DIR",
                "bash"),
    "qwen": (".qwen/settings.json", lambda d: d["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "QWEN_PROJECT_DIR",
             "bash"),
    "factory": (".factory/hooks.json", lambda d: d["PreToolUse"][0]["hooks"][0]["command"], "FACTORY_PROJECT_DIR",
                "sh"),
    "windsurf": (".windsurf/hooks.json", lambda d: d["hooks"]["pre_run_command"][0]["command"], None, "sh"),
    "antigravity": (".agents/hooks.json", lambda d: d["hookweave"]["PreToolUse"][0]["hooks"][0]["command"], None, "sh"),
}


@pytest.mark.parametrize("host", sorted(NEWER))
def test_a_chain_runs_as_each_newer_host_runs_its_registration(run, project: Path, tmp_path: Path, host: str) -> None:
    """Install a chain, then run its registration the way the host does (its shell, its project
    variable, the project as cwd, its own payload): members in order, the first block ends it with
    the member's exit code and stderr; a call of another tool skips the shell-only member."""
    from hookweave.core.runtime import payloads

    text = LOGGING if host != "windsurf" else LOGGING.replace('id = "one"\nevent = "pre_tool_use"\n', 'id = "one"\n'
        'event = "pre_tool_use"\nmatcher = ["shell"]\n').replace('id = "three"\nevent = "pre_tool_use"\n',
                                                                 'id = "three"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n')
    assert run("install", bundle(tmp_path, text), "--host", host).exit_code == 0
    file, command_of, variable, shell = NEWER[host]
    command = command_of(json.loads((project / file).read_text()))
    assert str(tmp_path) not in command  # found through the host's variable or folder, not this machine's path
    log = tmp_path / "steps.log"
    env = {**os.environ, "STEP_LOG": str(log), **({variable: str(project)} if variable else {})}
    event = {"copilot": "preToolUse", "windsurf": "pre_run_command"}.get(host, "PreToolUse")
    shell_call = payloads.for_event(host, event, str(project), "t.jsonl")[0].data
    done = subprocess.run([shell, "-c", command], input=json.dumps(shell_call).encode(), capture_output=True,
                          cwd=project, env=env, timeout=30)
    assert (done.returncode, done.stderr, log.read_text()) == (2, b"no\n", "one\none-end\ntwo\n")
    if host == "windsurf":
        return  # no matcher there: the event is the tool
    log.unlink()
    other = json.loads(json.dumps(shell_call).replace('"bash"', '"view"').replace('"run_shell_command"', '"read_file"')
                       .replace('"Execute"', '"Read"').replace('"run_command"', '"view_file"'))
    done = subprocess.run([shell, "-c", command], input=json.dumps(other).encode(), capture_output=True, cwd=project,
                          env=env, timeout=30)
    assert (done.returncode, log.read_text()) == (0, "one\none-end\nthree\n")


def test_a_chain_on_a_plugin_host_is_refused_before_any_write(run, project: Path, tmp_path: Path, monkeypatch) -> None:
    """Every built-in host is in the protocol table; a plugin host is not, so the runner could not
    tell a block from an allow there: install refuses, one line, exit 2, and writes nothing for any
    host of the plan."""
    from hookweave.core.contract import registry as registries
    from hookweave.core.contract.hookspecs import hookimpl
    from hookweave.hosts.claude import ClaudeCodeHost

    class Echo(ClaudeCodeHost):
        name = "echo-agent"
        title = "Echo"

        def settings_path(self, scope: str, project_dir: Path) -> Path:
            return project_dir / ".echo" / "settings.json"

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(Echo)

    def with_echo():
        pm = registries.get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="echo")
        return registries.HostRegistry(pm)

    monkeypatch.setattr(registries, "registry", with_echo)
    folder = bundle(tmp_path)
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    result = run("install", folder, "--host", "claude", "--host", "echo-agent")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f'hooks: {folder}/hookweave.toml: order = "chain": Echo is a plugin host, and what it does with a hook\'s '
        "answer is not in hookweave's protocol table (core/standalone/protocol.py), so the chain runner could not tell "
        "a block from an allow; chains run on claude, codex, gemini, cursor, copilot, qwen, factory, windsurf, "
        'antigravity; install on those hosts, or leave echo-agent\'s hooks unchained with order = "alone"\n')
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_copilot_chain_in_its_own_file_and_gone_with_it(run, project: Path, tmp_path: Path) -> None:
    """Copilot: the chain is one entry of hookweave's own .github/hooks file (its command in ``bash``),
    the runner beside it; verify reads the members back; uninstall removes the file, the runner
    and the folders install made."""
    result = run("install", bundle(tmp_path), "--host", "copilot")
    assert result.exit_code == 0, result.output
    own = project / ".github" / "hooks" / "hookweave.json"
    [entry] = json.loads(own.read_text())["hooks"]["preToolUse"]
    assert entry["bash"] == (
        "[ -f \"${COPILOT_PROJECT_DIR}\"/.github/hooks/hookweave.hookweave-chain.py ] || { echo hookweave: chain runner "
        "missing, its hooks did not run, see hooks verify >&2; exit 0; }; "
        "python3 -S \"${COPILOT_PROJECT_DIR}\"/.github/hooks/hookweave.hookweave-chain.py copilot preToolUse guard 5 "
        "bash 'destructive-guard --strict' gate 30 '' 'overflow-gate --limit 3 '\"'\"'it'\"'\"''\"'\"'s'\"'\" session 10 "
        "'bash|create' 'session-gate \"'\\$'{COPILOT_PROJECT_DIR}\"/.state' # hookweave:guards/chain-pretooluse")
    assert (entry["timeoutSec"], "matcher" in entry) == (47, False)  # 5 + Copilot's default 30 + 10, + 2 of margin
    assert (own.parent / "hookweave.hookweave-chain.py").read_text() == chain.runner_text()
    shown = _statuses(run, "copilot")
    for member in ("chain-pretooluse", "chain-pretooluse/guard", "chain-pretooluse/gate", "chain-pretooluse/session"):
        assert shown[member][0] == "ok", shown
    assert run("uninstall", "guards", "--host", "copilot").exit_code == 0
    assert not (project / ".github").exists()


def test_cline_takes_a_chain_as_its_dispatchers_members(run, project: Path, tmp_path: Path) -> None:
    """Cline's hook file is hookweave's dispatcher, which already runs an event's hooks one after
    another in declared order and stops at the first cancel: a chained bundle installs as its
    members, no runner, and verify lists them."""
    result = run("install", bundle(tmp_path), "--host", "cline")
    assert result.exit_code == 0, result.output
    assert "chain runner" not in result.stdout
    data = json.loads((project / ".cline" / "hookweave-hooks.json").read_text())
    assert [h["command"].rsplit("# hookweave:", 1)[1] for h in data["hooks"]["PreToolUse"]] == [
        "guards/guard", "guards/gate", "guards/session"]
    assert not list(project.rglob("*hookweave-chain.py"))
    verify = run("verify", "--host", "cline")
    assert verify.exit_code == 0, verify.stdout
    assert run("uninstall", "guards", "--host", "cline").exit_code == 0
    assert not (project / ".cline").exists() and not (project / ".clinerules").exists()


def test_a_codex_chain_at_the_top_of_a_git_repo_runs_from_a_subfolder(run, project: Path, tmp_path: Path) -> None:
    """Codex runs the root's project hooks when started in a subfolder, with that subfolder as the
    hook's folder and no project variable (measured, 0.169): the runner is found through git's top
    level, not ``$PWD``, which would name a missing file (and python3's exit 2 would block)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    assert run("install", bundle(tmp_path, LOGGING), "--host", "codex").exit_code == 0
    command = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command.startswith('[ -f "$(git rev-parse --show-toplevel)"/.codex/hooks.hookweave-chain.sh ] || { echo '
                              'hookweave: chain runner missing, its hooks did not run, see hooks verify >&2; exit 0; }; '
                              'sh "$(git rev-parse --show-toplevel)"/.codex/hooks.hookweave-chain.sh codex ')
    below = project / "src" / "pkg"
    below.mkdir(parents=True)
    log = tmp_path / "steps.log"
    env = {**os.environ, "STEP_LOG": str(log)}
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash"}).encode()
    done = subprocess.run(["bash", "-c", command], input=payload, capture_output=True, cwd=below, env=env, timeout=30)
    assert (done.returncode, done.stderr, log.read_text()) == (2, b"no\n", "one\none-end\ntwo\n")
    shown = _statuses(run, "codex")
    for member in ("chain-pretooluse", "chain-pretooluse/one", "chain-pretooluse/two", "chain-pretooluse/three"):
        assert shown[member][0] == "ok", shown  # verify reads the members back from this command
