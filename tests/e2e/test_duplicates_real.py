"""Issue 10, the real binaries: which copies of a hook installed at two scopes really run, and
verify's verdict held against that (cases 2, 4, 5 and the Codex trust facts).

One bundle, installed at user scope and then at project scope after its timeouts changed (the
commands stay the same). Its ``pre`` hook sleeps 2 s with a 1 s timeout at user scope and 10 s at
project scope, so a line in the log also says which copy's timeout the host used.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from realhosts import agent_binary
from test_gemini_real import gemini  # noqa: F401  (fixture)

from hookweave.hosts.codex.appserver import hooks_list
from tests.conftest import attack_size


def _manifest(probe, user: bool) -> str:
    def hook(hook_id: str, event: str, timeout: int, sleep: float, matcher: str = "") -> str:
        return (f'[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\n{matcher}timeout = {timeout}\n'
                f'command = ["python3", "{{bundle_dir}}/probe.py", "probe-{hook_id}", "{probe.log}", "{sleep}"]\n')

    return ('[bundle]\nname = "probe"\nversion = "1.0.0"\n'
            + hook("start", "session_start", 30 if user else 31, 0)
            + hook("pre", "pre_tool_use", 1 if user else 10, 2, 'matcher = ["shell"]\n')
            + hook("stop", "stop", 30 if user else 31, 0))


def _install_at_user_and_project(run, probe, host: str, *extra: str) -> None:
    manifest = probe.folder / "hookweave.toml"
    manifest.write_text(_manifest(probe, user=True))
    assert run("install", str(probe.folder), "--host", host, "--scope", "user", *extra).exit_code == 0
    manifest.write_text(_manifest(probe, user=False))
    assert run("install", str(probe.folder), "--host", host, "--scope", "project", *extra).exit_code == 0


def _count(calls: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for call in calls:
        out[call["id"]] = out.get(call["id"], 0) + 1
    return out


def _with_shell(text: str) -> str:
    """The settings with "shell": "bash" on every handler."""
    doc = json.loads(text)
    for groups in doc["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                handler["shell"] = "bash"
    return json.dumps(doc, indent=2)


def test_claude_runs_the_copies_once_with_the_later_scope_settings(run, claude, probe, project) -> None:
    _install_at_user_and_project(run, probe, "claude")
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert "Claude Code runs identical commands once, with the timeout of the project copy" in verify.stdout
    claude()
    # Once each; pre finished its 2 s: the project copy's 10 s timeout applied, not the user's 1 s.
    assert _count(probe.calls()) == {"probe-start": 1, "probe-pre": 1, "probe-stop": 1}

    # "shell": "bash" written out on the project copies is Claude's default: the same key, still once.
    settings = project / ".claude" / "settings.json"
    settings.write_text(_with_shell(settings.read_text()))
    verify = run("verify", "--verbose", "--host", "claude")
    assert "fires 2 times" not in verify.stdout and "Claude Code runs identical commands once" in verify.stdout
    claude()
    assert _count(probe.calls()) == {"probe-start": 1, "probe-pre": 1, "probe-stop": 1}


def test_gemini_runs_the_copies_once_with_the_first_scope_settings(run, gemini, probe) -> None:
    _install_at_user_and_project(run, probe, "gemini")
    verify = run("verify", "--verbose", "--host", "gemini")
    assert verify.exit_code == 0, verify.stdout
    assert "Gemini CLI runs identical commands once, with the timeout of the user copy" in verify.stdout
    gemini()
    # Once each; pre never logged: the user copy (first) ran, and its 1 s timeout killed it.
    assert _count(probe.calls()) == {"probe-start": 1, "probe-stop": 1}


def test_codex_runs_every_copy_it_loads_and_verify_agrees(run, codex, codex_env, probe, project, monkeypatch) -> None:
    _install_at_user_and_project(run, probe, "codex", "--trust")
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(agent_binary("codex")))
    config = Path(codex_env["CODEX_HOME"]) / "config.toml"

    # Trusted project: both copies run (the user copy of pre is killed at 1 s, the project copy ends).
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 1
    for hook, event in (("start", "SessionStart"), ("pre", "PreToolUse"), ("stop", "Stop")):
        assert f"probe/{hook}: installed at user and project scope; Codex runs the copies in user and project each, " \
               f"so it fires 2 times per {event}" in verify.stdout
    codex()
    assert _count(probe.calls()) == {"probe-start": 2, "probe-pre": 1, "probe-stop": 2}

    # enabled = false on the project copy of start: that copy is skipped.
    key = f'[hooks.state."{os.path.realpath(project)}/.codex/hooks.json:session_start:0:0"]\n'
    config.write_text(config.read_text().replace(key, key + "enabled = false\n"))
    verify = run("verify", "--verbose", "--host", "codex")
    assert "probe/start: installed" not in verify.stdout and "probe/stop: installed" in verify.stdout
    codex()
    assert _count(probe.calls()) == {"probe-start": 1, "probe-pre": 1, "probe-stop": 2}

    # Untrusted project: only the user layer loads, so each hook runs once.
    config.write_text(config.read_text().replace('trust_level = "trusted"', 'trust_level = "untrusted"'))
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 1 and "this project is marked untrusted" in verify.stdout
    assert "fires 2 times" not in verify.stdout
    assert "Codex does not run the project copy here (see above), so each hook fires once" in verify.stdout
    codex()
    assert _count(probe.calls()) == {"probe-start": 1, "probe-stop": 1}  # pre: the user copy, killed at 1 s

    # Case 4: "$schema" in the user hooks.json: Codex refuses the file and runs nothing of ours.
    hooks = Path(codex_env["CODEX_HOME"]) / "hooks.json"
    hooks.write_text('{"$schema": "https://example.com/s.json",' + hooks.read_text()[1:])
    codex()
    assert probe.calls() == []
    verify = run("verify", "--verbose", "--host", "codex")
    assert verify.exit_code == 1
    assert f"  problem: {hooks}: /$schema: unknown root key" in verify.stdout
    assert f"  warning: codex app-server warns: failed to parse hooks config {hooks}: unknown field `$schema`" in verify.stdout
    for hook in ("start", "pre", "stop"):
        assert f"  problem: probe/{hook}: codex app-server does not list it in the user layer" in verify.stdout
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(project / "no-codex-here"))
    without = run("verify", "--verbose", "--host", "codex")
    assert without.exit_code == 1 and f"  problem: {hooks}: /$schema: unknown root key" in without.stdout


# -- hooks.json shapes: our model of what Codex refuses whole, against codex app-server ------------------

ODD = [None, True, 5, -1, 1.5, 2**64, "5", "", [], {}, ["x"], {"a": 1}]


def _variant(r: random.Random) -> dict:
    """A hooks.json holding one good hook and one random change somewhere Codex reads (or does not)."""
    good = {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "echo ok # hookweave:probe/pre", "timeout": 30}]}
    handler: dict = {"type": "command", "command": "echo theirs"}
    group: dict = {"hooks": [handler]}
    doc: dict = {"description": "d", "hooks": {"PreToolUse": [good], "Stop": [group]}}
    where = r.choice(["root", "description", "hooks", "event", "unknown-event", "group", "matcher", "group-hooks",
                      "handler", "type", "command", "timeout", "async", "statusMessage", "commandWindows",
                      "mcp", "other-type", "extra-key", "group-list", "handler-list", "events-list"])
    value = r.choice(ODD)
    if where == "root":
        doc[r.choice(["$schema", "version", "Hooks"])] = value
    elif where == "description":
        doc["description"] = value
    elif where == "hooks":
        doc["hooks"] = value
    elif where == "event":
        doc["hooks"]["Stop"] = value
    elif where == "unknown-event":
        doc["hooks"]["BeforeTool"] = value
    elif where == "group":
        doc["hooks"]["Stop"] = [value]
    elif where == "matcher":
        group["matcher"] = value
    elif where == "group-hooks":
        group["hooks"] = value
    elif where == "handler":
        group["hooks"] = [value]
    elif where == "type":
        handler["type"] = r.choice([value, "foo", "mcpTool", "prompt", "agent"])
    elif where in ("command", "timeout", "async", "statusMessage", "commandWindows"):
        handler[where] = r.choice([value, 0, 7, True, False])
    elif where == "mcp":
        group["hooks"] = [{"type": "mcp_tool", r.choice(["server", "tool"]): value}]
    elif where == "other-type":
        group["hooks"] = [{"type": r.choice(["prompt", "agent"]), "prompt": value, "timeout": value}]
    elif where == "group-list":  # serde also reads a struct from a list, field by field
        doc["hooks"]["Stop"] = [[r.choice([value, "^x$", None]), r.choice([[handler], [], value])][: r.randint(0, 3)]]
    elif where == "handler-list":
        fields = [r.choice(["command", "prompt", "agent", "x"]), "echo theirs", None, 5, True, "s", None, value]
        group["hooks"] = [fields[: r.randint(0, len(fields))]]
    elif where == "events-list":
        doc["hooks"] = [r.choice([[], [group], value]) for _ in range(r.randint(0, 16))]
    else:
        handler[r.choice(["x_installer", "name", "timeoutSec", "additionalContextLimit"])] = value
    if r.random() < 0.2:
        del handler["type"]
    return doc


@pytest.mark.attack
def test_our_hooks_json_shape_check_agrees_with_codex(tmp_path, attack_report) -> None:
    from hookweave.hosts.codex import CodexHost

    binary = str(agent_binary("codex"))
    home, work = tmp_path / "h", tmp_path / "w"
    (home / ".codex").mkdir(parents=True)
    work.mkdir()
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    hooks, cases, disagree = home / ".codex" / "hooks.json", attack_size(25, 300), []
    for i in range(cases):
        doc = _variant(random.Random(i))
        hooks.write_text(json.dumps(doc))
        listed = hooks_list(binary, work, env=env, timeout=20)
        codex_refuses = any("failed to parse hooks config" in w for w in listed["warnings"])
        ours = CodexHost().rejects(doc, str(hooks))
        if codex_refuses != (ours is not None):
            disagree.append((json.dumps(doc), listed["warnings"], ours))
    attack_report("codex hooks.json shape", cases=cases, failures=len(disagree))
    assert not disagree, "\n".join(map(str, disagree[:8]))
