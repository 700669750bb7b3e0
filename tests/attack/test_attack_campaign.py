"""The whole-CLI campaign: random hostile worlds, random command sequences, generic oracles.

The other attacks each aim at one class. This one plays an adversarial operator across all of
them at once: every settings file, record, trust list and managed file of every host is, at
random, missing, the operator's own (full of foreign entries and comments), of a wrong shape,
garbage, a folder, a dangling link or holding a copy of our entries; then install (with --force,
--trust, --dry-run, --json at random), uninstall, verify and status run through the real CLI.

Oracles, after every command:
- it ends with exit 0, 1 or 2, never an exception (the runner does not catch them);
- an error (exit 2) is one line on stderr;
- a refused or failed command (1 or 2 from install/uninstall), verify, status and every dry run
  change no byte, mode or file anywhere;
- foreign data survives: every handler without our marker stays under its event, other
  bundles' entries stay, and every key we do not manage keeps its value;
- an install that succeeds, repeated, writes nothing; an uninstall right after a fresh install
  gives back every file and folder exactly as it was before the install.
"""

from __future__ import annotations

import collections
import json
import os
import random
import traceback
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import app
from hookweave.core.model.render import marker_in
from tests.conftest import CLAUDE_DATA, attack_size

pytestmark = pytest.mark.attack
DATA = CLAUDE_DATA.parent
BUNDLES = ("example-guard", "mine")
MANIFEST = """
[bundle]
name = "mine"
version = "{version}"

[[hooks]]
id = "one"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "-c", "echo one"]
position = "{position}"

[[hooks]]
id = "two"
event = "{event}"
command = "echo 'two ☕' $HOME"
timeout = 7

[env.MINE_LEVEL]
value = "{level}"
policy = "{policy}"
"""

WRONG_SHAPES = [
    "[]", "null", '"text"', "5", '{"hooks": 5}', '{"hooks": []}', '{"hooks": {"PreToolUse": 5}}',
    '{"hooks": {"PreToolUse": [5]}}', '{"hooks": {"PreToolUse": [{"hooks": 5}]}}',
    '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": 5}]}]}}',
    '{"hooks": {"FutureEvent": [{"hooks": 5}]}}', '{"env": []}', '{"env": {"A": 5}}', '{"env": {"A": null}}',
    '{"hooksConfig": 5}', '{"hooksConfig": {"disabled": "x"}}', '{"hooksConfig": {"enabled": "no"}}',
    '{"security": []}', '{"security": {"folderTrust": 5}}', '{"disableAllHooks": "yes"}',
    '{"allowManagedHooksOnly": []}', '{"version": "one"}', '{"hooks": {"preToolUse": [{"command": 5}]}}',
    '{"env": {"MINE_LEVEL": "' + "9" * 5000 + '"}}', '{"env": {"X": "\\ud800"}}',
    '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "op \\udfff"}]}]}}',
    '{"/": {"~": 1}, "a/b": [], "": {}}',
]
GARBAGE = [b"", b"{", b"\xef\xbb\xbf", b"\xff\xfe{}", b"{} {}", b'{"a": 1,}', b"[" * 3000 + b"]" * 3000,
           b"// c\n{}", b'{"a": NaN}', b'{"a": 1e99999}', b'{"\\ud800": 1}']
TRUST_LISTS = ['{}', '[]', '5', '{"/": 5}', '{"%s": "TRUST_FOLDER"}', '{"%s": "DO_NOT_TRUST"}', '{"%s": 5}']
CODEX_CONFIGS = [
    "", "# only a comment\n", "model = 'x'\n[hooks.state]\n# mine\n", "hooks = 5\n", "[hooks]\nstate = 5\n",
    "[hooks.state.'x']\ntrusted_hash = 5\n", "[features]\nhooks = false\n", "[projects.'%s']\ntrust_level = 'trusted'\n",
    "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = 'command'\ncommand = 'op-stop'\n",
    "[[hooks.PreToolUse]]\nhooks = 5\n", "not toml = = 1\n", "[hooks.FutureEvent]\nx = 1\n",
]


def _operator_text(host: str) -> str | None:
    name = {"claude": "operator.settings.json", "gemini": "operator.settings.json",
            "cursor": "operator.settings.json", "codex": "operator.settings.json"}[host]
    path = DATA / host / name
    return path.read_text(encoding="utf-8") if path.exists() else None


def _copy_of_ours(host: str, r: random.Random) -> str:
    """A file holding hand copies of entries with our marker, in events the record may not name."""
    bundle = r.choice(BUNDLES)
    hook = r.choice(["one", "two", "destructive-guard", "clean-tree", "ghost"])
    command = f"echo copied # hookweave:{bundle}/{hook}"
    if host == "cursor":
        return json.dumps({"version": 1, "hooks": {r.choice(["preToolUse", "stop", "afterFileEdit"]): [
            {"command": command}, {"command": "op-cursor"}]}})
    event = r.choice({"claude": ["PreToolUse", "PostToolUse", "Stop", "FutureEvent"],
                      "codex": ["PreToolUse", "PostToolUse", "Stop"],
                      "gemini": ["BeforeTool", "AfterTool", "AfterAgent"]}[host])
    group = {"hooks": [{"type": "command", "command": command}, {"type": "command", "command": "op-added"}]}
    return json.dumps({"hooks": {event: [group, {"hooks": [{"type": "command", "command": "op-own"}]}]}}, indent=r.choice([None, 2, "\t"]))


def _place(path: Path, r: random.Random, host: str, *, settings: bool = True) -> None:
    roll = r.random()
    path.parent.mkdir(parents=True, exist_ok=True)
    if roll < 0.3:
        return  # missing
    if roll < 0.65 and settings:
        text = _operator_text(host)
        if text is not None:
            path.write_text(text, encoding="utf-8")
            return
    if roll < 0.77 and settings:
        path.write_text(_copy_of_ours(host, r), encoding="utf-8")
    elif roll < 0.88:
        path.write_text(r.choice(WRONG_SHAPES), encoding="utf-8")
    elif roll < 0.95:
        path.write_bytes(r.choice(GARBAGE))
    elif roll < 0.98:
        path.mkdir()
    else:
        path.symlink_to(path.parent / "nowhere")


def _hostile_record(r: random.Random) -> str:
    good = {"hookweave_record": 1, "bundles": {r.choice(BUNDLES): {
        "version": "1.0.0",
        "hooks": [{"id": "one", "event": "PreToolUse", "position": "last", "sha256": "sha256:00"}],
        "env": {"MINE_LEVEL": {"value": "5", "policy": "override", "prior": "3", "applied": True}}}},
        "created": [], "created_file": False, "created_folder": False}
    bundle = next(iter(good["bundles"].values()))
    mutation = r.choice([
        lambda: bundle["env"]["MINE_LEVEL"].update(prior=5),
        lambda: bundle["env"]["MINE_LEVEL"].update(prior={"x": 1}),
        lambda: bundle["env"]["MINE_LEVEL"].update(value=["a"]),
        lambda: bundle["hooks"][0].update(id={"x": 1}),
        lambda: bundle["hooks"][0].update(event=["PreToolUse"]),
        lambda: bundle["hooks"][0].update(sha256=5),
        lambda: bundle.update(hooks={"one": 1}),
        lambda: bundle.update(version=None),
        lambda: good.update(created=["not a pointer"]),
        lambda: good.update(created="/hooks"),
        lambda: good.update(bundles=[]),
        lambda: good.update(created_file="yes"),
        lambda: None,
    ])
    mutation()
    return json.dumps(good)


class World:
    """One random arrangement of every file hookweave reads or writes, in a fresh folder."""

    def __init__(self, root: Path, r: random.Random, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root, self.r = root, r
        home, self.project = root / "home", root / "project"
        home.mkdir(parents=True)
        self.project.mkdir()
        for var, value in {
            "HOME": home, "CLAUDE_CONFIG_DIR": home / ".claude", "CODEX_HOME": home / ".codex",
            "GEMINI_CLI_HOME": home, "HOOKWEAVE_CLAUDE_MANAGED_DIR": root / "managed",
            "HOOKWEAVE_CURSOR_MANAGED_DIR": root / "cursor-managed",
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": root / "gemini-system" / "system-defaults.json",
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": root / "gemini-system" / "settings.json",
            "GEMINI_CLI_TRUSTED_FOLDERS_PATH": home / ".gemini" / "trustedFolders.json",
        }.items():
            monkeypatch.setenv(var, str(value))
        monkeypatch.chdir(self.project)
        p = self.project
        for host, path in [("claude", home / ".claude" / "settings.json"), ("claude", p / ".claude" / "settings.json"),
                           ("claude", p / ".claude" / "settings.local.json"),
                           ("gemini", home / ".gemini" / "settings.json"), ("gemini", p / ".gemini" / "settings.json"),
                           ("cursor", home / ".cursor" / "hooks.json"), ("cursor", p / ".cursor" / "hooks.json"),
                           ("codex", p / ".codex" / "hooks.json")]:
            _place(path, r, host)
            if r.random() < 0.15:
                path.with_name(path.stem + ".hookweave.json").write_text(_hostile_record(r), encoding="utf-8")
        for host, path in [("claude", root / "managed" / "managed-settings.json"),
                           ("claude", root / "managed" / "managed-settings.d" / "10-x.json"),
                           ("gemini", root / "gemini-system" / "settings.json"),
                           ("gemini", root / "gemini-system" / "system-defaults.json"),
                           ("cursor", root / "cursor-managed" / "hooks.json")]:
            if r.random() < 0.5:
                _place(path, r, host, settings=False)
        if r.random() < 0.6:
            trusted = home / ".gemini" / "trustedFolders.json"
            trusted.parent.mkdir(parents=True, exist_ok=True)
            if not trusted.parent.is_dir() or trusted.exists():
                pass
            else:
                template = r.choice(TRUST_LISTS)
                trusted.write_text(template.replace("%s", str(p)) if "%s" in template else template, encoding="utf-8")
        if r.random() < 0.6:
            config = home / ".codex" / "config.toml"
            config.parent.mkdir(parents=True, exist_ok=True)
            template = r.choice(CODEX_CONFIGS)
            config.write_text(template.replace("%s", str(p)), encoding="utf-8")
        self.bundle_dir = root / "bundle"
        self.bundle_dir.mkdir()

    def write_manifest(self) -> None:
        r = self.r
        (self.bundle_dir / "hookweave.toml").write_text(MANIFEST.format(
            version=r.choice(["1.0.0", "1.1.0"]), position=r.choice(["first", "last"]),
            event=r.choice(["stop", "post_tool_use", "session_start"]), level=r.choice(["5", "50", "-1"]),
            policy=r.choice(["if-absent", "override", "at-least"])), encoding="utf-8")

    def snapshot(self) -> dict[str, tuple]:
        out: dict[str, tuple] = {}
        for folder, dirs, files in os.walk(self.root):
            if Path(folder) == self.bundle_dir:
                continue
            for name in dirs + files:
                full = Path(folder) / name
                info = full.lstat()
                if full.is_symlink():
                    out[str(full)] = ("link", os.readlink(full))
                elif full.is_dir():
                    out[str(full)] = ("dir", info.st_mode)
                else:
                    out[str(full)] = ("file", info.st_mode, full.read_bytes())
        return out

    def command(self) -> list[str]:
        r = self.r
        host = r.choice(["claude", "codex", "gemini", "cursor", "all"])
        scope = r.choice(["project", "project", "user", "local"]) if host == "claude" else r.choice(["project", "user"])
        kind = r.choice(["install", "install", "install", "uninstall", "uninstall", "verify", "status"])
        if kind == "install":
            self.write_manifest()
            args = ["install", r.choice(["example-guard", str(self.bundle_dir)]), "--host", host, "--scope", scope]
            args += [flag for flag in ("--force", "--trust", "--dry-run", "--json") if r.random() < 0.2]
        elif kind == "uninstall":
            args = ["uninstall", r.choice(BUNDLES), "--host", host, "--scope", scope]
            args += [flag for flag in ("--force", "--dry-run", "--json") if r.random() < 0.2]
        elif kind == "verify":
            args = ["verify"] + (["--host", host] if r.random() < 0.7 else []) + (["--json"] if r.random() < 0.3 else [])
        else:
            args = ["status"] + (["--json"] if r.random() < 0.3 else [])
        return args


def _foreign(snapshot: dict[str, tuple], bundle: str | None) -> dict[str, tuple]:
    """Per settings file that parses: the handlers without our marker (by event) and other bundles' entries."""
    out = {}
    for path, state in snapshot.items():
        if state[0] != "file" or not path.endswith(".json") or path.endswith(".hookweave.json"):
            continue
        try:
            doc = json.loads(state[2].decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        doc = _as_settings(path, doc)
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        if not isinstance(hooks, dict):
            continue
        kept = collections.Counter()
        for event, entries in hooks.items():
            for entry in entries if isinstance(entries, list) else []:
                handlers = entry.get("hooks") if isinstance(entry, dict) and "hooks" in entry else [entry]
                for handler in handlers if isinstance(handlers, list) else []:
                    command = (handler.get("command") or handler.get("bash")) if isinstance(handler, dict) else None
                    owner = marker_in(command)
                    if owner is None or owner[0] != bundle:
                        kept[(event, json.dumps(command))] += 1
        out[path] = kept
    return out


def _as_settings(path: str, doc: object) -> object:
    """Factory's hooks.json holds the events at its top level, and Antigravity's holds named hooks
    of which hookweave manages one, "hookweave": read each as a settings file would be."""
    if path.endswith("/.factory/hooks.json") and isinstance(doc, dict):
        return {"hooks": doc}
    if path.endswith(("/.agents/hooks.json", "/antigravity-cli/hooks.json")) and isinstance(doc, dict):
        others = {(f"named hook {k}" if k == "hooks" else k): v for k, v in doc.items() if k != "hookweave"}
        return {**others, "hooks": doc["hookweave"]} if "hookweave" in doc else others
    return doc


def _managed_keys(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("hooks", "env", "version", "hooksConfig")}


def _check_keys(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    problems = []
    for path, state in before.items():
        if state[0] != "file" or not path.endswith(".json") or path.endswith(".hookweave.json"):
            continue
        new = after.get(path)
        if new is None or new[0] != "file":
            continue
        try:
            old_doc, new_doc = _as_settings(path, json.loads(state[2])), _as_settings(path, json.loads(new[2]))
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        if isinstance(old_doc, dict) and isinstance(new_doc, dict) and _managed_keys(old_doc) != _managed_keys(new_doc):
            problems.append(f"{path}: keys we do not manage changed")
        for key in ("env",):
            old_env, new_env = (old_doc.get(key) if isinstance(old_doc, dict) else None), (new_doc.get(key) if isinstance(new_doc, dict) else None)
            if isinstance(old_env, dict) and isinstance(new_env, dict):
                for var, value in old_env.items():
                    if var not in ("MINE_LEVEL", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") and new_env.get(var) != value:
                        problems.append(f"{path}: env {var} changed")
    return problems


def _bundle_of(args: list[str]) -> str | None:
    if args[0] == "uninstall":
        return args[1]
    if args[0] == "install":
        return "example-guard" if args[1] == "example-guard" else "mine"
    return None


def run_world(world: World, runner: CliRunner, steps: int) -> list[str]:
    failures: list[str] = []
    for _ in range(steps):
        args = world.command()
        before = world.snapshot()
        try:
            result = runner.invoke(app, args, catch_exceptions=False)
        except BaseException:  # noqa: BLE001 - an exception escaping the CLI is the finding
            failures.append(f"{args}: traceback {traceback.format_exc(limit=-3)}")
            continue
        after = world.snapshot()
        code = result.exit_code
        if code not in (0, 1, 2):
            failures.append(f"{args}: exit {code}")
        if code == 2 and len(result.stderr.strip().splitlines()) != 1:
            failures.append(f"{args}: exit 2 with {len(result.stderr.strip().splitlines())} lines: {result.stderr!r}")
        writes = args[0] in ("install", "uninstall") and code == 0 and "--dry-run" not in args
        if not writes and after != before:
            changed = sorted(set(before.items()) ^ set(after.items()))[:2]
            failures.append(f"{args}: exit {code} but changed {[c[0] for c in changed]}")
        if writes:
            bundle = _bundle_of(args)
            old, new = _foreign(before, bundle), _foreign(after, bundle)
            for path, kept in old.items():
                if path in new and kept - new[path]:
                    failures.append(f"{args}: foreign entries lost from {path}: {dict(kept - new[path])}")
            failures += [f"{args}: {p}" for p in _check_keys(before, after)]
        if writes and args[0] == "install":
            again = runner.invoke(app, args, catch_exceptions=False)
            if again.exit_code != 0 or world.snapshot() != after:
                failures.append(f"{args}: a second identical install exited {again.exit_code} or wrote")
            was_installed = f'"{_bundle_of(args)}"' in "".join(
                s[2].decode("utf-8", "replace") for p, s in before.items() if s[0] == "file" and p.endswith(".hookweave.json"))
            if not was_installed and "--force" not in args:
                undo = ["uninstall", _bundle_of(args), *args[2:6]]
                gone = runner.invoke(app, undo, catch_exceptions=False)
                now = world.snapshot()
                # A record that was there before (another bundle's) is ours to re-serialize.
                diff = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k)
                              and not (k.endswith(".hookweave.json") and k in before))
                if gone.exit_code == 0 and diff:
                    failures.append(f"{args} then {undo}: not back to the bytes before: {diff[:3]}")
    return failures


def test_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attack_report) -> None:
    worlds = attack_size(150, 5000)
    steps = 6
    runner = CliRunner()
    failures: list[str] = []
    for seed in range(worlds):
        r = random.Random(seed)
        world = World(tmp_path / f"w{seed}", r, monkeypatch)
        failures += [f"seed {seed}: {f}" for f in run_world(world, runner, steps)]
    attack_report("campaign (whole CLI)", worlds=worlds, commands=worlds * steps, failures=len(failures))
    assert not failures, "\n".join(failures[:25]) + f"\n({len(failures)} failures)"
