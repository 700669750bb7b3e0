"""Attack: duplicates across scopes. Random multi-scope layouts of one bundle on every host: the
same commands installed at two or three scopes with differing timeouts and matchers (the manifest
changed between installs), then hand edits that do or do not change the host's de-duplication key
(Claude: ``if``, ``shell``, a timeout or statusMessage; Gemini: the hook's ``name``, a timeout, a
description; Codex: a timeout, which stales the trust hash), Codex copies trusted, untrusted or
``enabled = false``, and Codex projects trusted, untrusted, unlisted or trusted through their git root;
half the files already hold the operator's hooks (some with our command or our hook's name, without
our marker), which shift Codex's positional trust keys.

The oracle is a simulation of the hosts' rules (HOSTS.md, measured in tests/e2e), independent of
hookweave's code: for each tool call (a shell call, an edit, any other tool) it collects the copies
whose matcher matches, drops what the host does not load or skips, and counts one run per distinct
key (Claude: shell, command, args, if; Gemini: name and command; Codex and Cursor: every copy).
verify must report "fires N times" exactly for the hooks the oracle counts N > 1 for (a warning
on Cursor, whose rule is not documented), a note otherwise, and write no byte.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import tomlkit

from hookweave.hosts.claude import ClaudeCodeHost
from hookweave.hosts.codex import CodexHost
from hookweave.hosts.cursor import CursorHost
from hookweave.hosts.gemini import GeminiHost
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
HOSTS = {"claude": ClaudeCodeHost(), "gemini": GeminiHost(), "codex": CodexHost(), "cursor": CursorHost()}
MATCHERS = {"shell": {"shell"}, "edit": {"edit", "write"} , None: None}  # the neutral tools each matcher covers
CALLS = ("shell", "edit", "read")  # the tool calls the oracle simulates
EDITS = {
    "claude": [None, None, "if", "shell-bash", "shell-powershell", "timeout", "status"],
    "gemini": [None, None, "rename", "timeout", "description"],
    "codex": [None, None, "timeout", "disable", "forget"],
    "cursor": [None, "timeout"],
}
KEY_EDITS = {"if", "shell-powershell", "rename"}  # edits that give the copy a key of its own


def _manifest(timeout: int | None, matcher: str | None) -> str:
    pre = f'matcher = ["{matcher}"]\n' if matcher else ""
    if matcher == "edit":
        pre = 'matcher = ["edit", "write"]\n'
    wait = f"timeout = {timeout}\n" if timeout else ""
    return ('[bundle]\nname = "guard"\nversion = "1.0.0"\n'
            f'[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n{pre}{wait}command = "echo guard"\n'
            f'[[hooks]]\nid = "stop"\nevent = "stop"\n{wait}command = "echo stop"\n')


def _layout(r: random.Random, host: str) -> dict:
    scopes = r.sample(HOSTS[host].scopes, r.randint(2, len(HOSTS[host].scopes)))
    return {
        "host": host,
        "scopes": [s for s in HOSTS[host].scopes if s in scopes],
        "timeout": {s: r.choice([None, 5, 30, 31]) for s in scopes},
        "matcher": {s: r.choice(["shell", "shell", "edit", None]) for s in scopes},
        "edit": {s: r.choice(EDITS[host]) for s in scopes},
        "trust": {s: r.random() < 0.8 for s in scopes},  # codex: install with --trust
        "project": r.choice(["trusted", "trusted", "untrusted", "unlisted", "git-root"]),
    }


def _runs(case: dict, scope: str, hook: str) -> bool:
    """Whether the host loads and runs this copy at all (Codex only skips any)."""
    if case["host"] != "codex":
        return True
    if scope == "project" and case["project"] not in ("trusted", "git-root"):
        return False
    edited = case["edit"][scope] if hook == "pre" else None
    return case["trust"][scope] and edited not in ("timeout", "disable", "forget")


def _key(case: dict, scope: str, hook: str) -> object:
    host, edit = case["host"], case["edit"][scope] if hook == "pre" else None
    if host in ("codex", "cursor"):
        return ("copy", scope)  # every copy runs
    if edit == "rename":
        return ("name", scope)  # each renamed copy has a name of its own (mine-<scope>)
    if edit in KEY_EDITS:
        return edit  # the same "if" or "shell" on two copies: one key again
    return "same"  # shell "bash" is Claude's default; timeouts, status, descriptions are not in the key


def expected(case: dict) -> dict[str, int]:
    """Runs per event of each hook, at most, over the simulated tool calls."""
    out = {}
    for hook in ("pre", "stop"):
        most = 0
        for call in CALLS:
            keys = []
            for scope in case["scopes"]:
                covers = MATCHERS[case["matcher"][scope]] if hook == "pre" else None
                if _runs(case, scope, hook) and (covers is None or call in covers):
                    keys.append(_key(case, scope, hook))
            most = max(most, len(set(keys)))
        out[hook] = most
    return out


def _edit(case: dict, scope: str, path: Path, config: Path) -> None:
    edit = case["edit"][scope]
    if edit in (None, "disable", "forget"):
        return _edit_state(case, scope, path, config) if edit else None
    doc = json.loads(path.read_text())
    event = {"claude": "PreToolUse", "gemini": "BeforeTool", "codex": "PreToolUse", "cursor": "preToolUse"}[case["host"]]
    entry = next(e for e in doc["hooks"][event] if HOSTS[case["host"]].owner(e) == ("guard", "pre"))
    handler = entry if case["host"] == "cursor" else entry["hooks"][0]
    changes = {"if": {"if": "Bash(git *)"}, "shell-bash": {"shell": "bash"}, "shell-powershell": {"shell": "powershell"},
               "timeout": {"timeout": 77}, "status": {"statusMessage": "checking"}, "rename": {"name": f"mine-{scope}"},
               "description": {"description": "the operator's words"}}[edit]
    handler.update(changes)
    path.write_text(json.dumps(doc, indent=2))


def _operator_file(r: random.Random, host: str, path: Path) -> None:
    """The operator's own hooks in the file before install, some with our command but not our marker."""
    events = {"claude": ("PreToolUse", "Stop"), "gemini": ("BeforeTool", "AfterAgent"),
              "codex": ("PreToolUse", "Stop"), "cursor": ("preToolUse", "stop")}[host]
    hooks: dict = {}
    for event in events:
        for n in range(r.randint(0, 2)):
            handler = {"type": "command", "command": r.choice(["echo guard", f"echo theirs {n}"])}
            if host == "gemini":
                handler["name"] = r.choice(["guard/pre", f"theirs-{n}"])  # our name, not our command
            entry = handler if host == "cursor" else {"matcher": r.choice(["Bash", "*", ""]), "hooks": [handler]}
            hooks.setdefault(event, []).append(entry)
    doc = {"version": 1, "hooks": hooks} if host == "cursor" else {"hooks": hooks}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def _edit_state(case: dict, scope: str, path: Path, config: Path) -> None:
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    at = next(g for g, group in enumerate(groups) if HOSTS["codex"].owner(group) == ("guard", "pre"))
    key = f"{os.path.realpath(path)}:pre_tool_use:{at}:0"
    doc = tomlkit.parse(config.read_text())
    state = doc.get("hooks", {}).get("state", {})
    if key not in state:
        return
    if case["edit"][scope] == "disable":
        state[key]["enabled"] = False
    else:
        del state[key]
    config.write_text(tomlkit.dumps(doc))


def _prepare(case: dict, root: Path, monkeypatch) -> tuple[Path, Path]:
    home, project = root / "home", root / "work" / "project"
    home.mkdir(parents=True)
    project.mkdir(parents=True)
    for var, value in (("HOME", home), ("CLAUDE_CONFIG_DIR", home / ".claude"), ("CODEX_HOME", home / ".codex"),
                       ("GEMINI_CLI_HOME", home), ("GEMINI_CLI_TRUSTED_FOLDERS_PATH", home / ".gemini" / "t.json"),
                       ("HOOKWEAVE_CLAUDE_MANAGED_DIR", root / "managed")):  # each case its own machine
        monkeypatch.setenv(var, str(value))
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    monkeypatch.chdir(project)
    config = home / ".codex" / "config.toml"
    if case["host"] == "codex":
        config.parent.mkdir()
        trusted = {"trusted": project, "untrusted": project, "git-root": project.parent}.get(case["project"])
        if case["project"] == "git-root":
            (project.parent / ".git").mkdir()  # a repository (an empty .git folder is no root to Codex)
            (project.parent / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        level = "untrusted" if case["project"] == "untrusted" else "trusted"
        config.write_text(f'[projects."{trusted}"]\ntrust_level = "{level}"\n' if trusted else "# nothing trusted\n")
    return project, config


def _check(case: dict, stdout: str) -> list[str]:
    wrong = []
    for hook, n in expected(case).items():
        said = [line for line in stdout.splitlines() if f"guard/{hook}: installed at" in line]
        if n > 1:
            verb = "may fire" if case["host"] == "cursor" else "fires"
            if not any(f"{verb} {n} times per" in line for line in said):
                wrong.append(f"{hook}: {n} runs expected, verify said {said}")
        elif said:
            wrong.append(f"{hook}: runs once, verify said {said}")
    if max(expected(case).values()) <= 1 and "  note: guard: installed at" not in stdout:
        wrong.append("no note on the bundle at several scopes")
    return wrong


@pytest.mark.parametrize("host", list(HOSTS))
def test_verify_counts_runs_as_the_host_does(run, tmp_path, monkeypatch, attack_report, host) -> None:
    cases, failures = attack_size(40, 400), []
    for i in range(cases):
        r = random.Random(f"{host}-{i}")
        case = _layout(r, host)
        project, config = _prepare(case, tmp_path / f"case{i}", monkeypatch)
        for scope in case["scopes"]:  # not in hookweave's own drop-in: one it did not create is refused (test_managed_scope)
            if r.random() < 0.5 and scope not in HOSTS[host].created_only:
                _operator_file(r, host, HOSTS[host].settings_path(scope, project))
        for scope in case["scopes"]:
            folder = tmp_path / f"case{i}" / "bundle"
            folder.mkdir(exist_ok=True)
            (folder / "hookweave.toml").write_text(_manifest(case["timeout"][scope], case["matcher"][scope]))
            trust = ["--trust"] if host == "codex" and case["trust"][scope] else []
            where = ("--project", str(project))
            result = run("install", str(folder), "--host", host, "--scope", scope, *trust, *where)
            if result.exit_code == 1 and "by hand (the same command and matcher)" in result.stderr:
                # issue 11: install refuses to add a hook the operator wrote by hand; --force replaces it
                result = run("install", str(folder), "--host", host, "--scope", scope, "--force", *trust, *where)
            assert result.exit_code == 0, (case, result.stdout, result.stderr)
        for scope in case["scopes"]:
            _edit(case, scope, HOSTS[host].settings_path(scope, project), config)
        before = {p: p.read_bytes() for p in (tmp_path / f"case{i}").rglob("*") if p.is_file()}
        result = run("verify", "--host", host, "--project", str(project))  # the subfolder, also under a git root
        after = {p: p.read_bytes() for p in (tmp_path / f"case{i}").rglob("*") if p.is_file()}
        wrong = _check(case, result.stdout) + (["verify wrote a file"] if before != after else [])
        wrong += [] if result.exit_code in (0, 1) else [f"exit {result.exit_code}"]
        if wrong:
            failures.append((case, wrong, result.stdout))
    attack_report(f"duplicates across scopes ({host})", cases=cases, failures=len(failures))
    assert not failures, "\n".join(f"{c}\n{w}\n{out}" for c, w, out in failures[:2])
