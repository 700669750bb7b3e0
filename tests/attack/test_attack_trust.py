"""Attack: Codex trust re-keying. Random sequences of install (with or without --trust), upgrade,
uninstall of several bundles, with the operator adding and trusting hooks of their own in between,
in a project hooks.json (the project typed through a symlink half the time; unknown events of odd
shapes), a user hooks.json, and a user config.toml that holds both inline hooks (in either TOML
style, LF or CRLF) and the trust state; CODEX_HOME reached through a symlink half the time.

The oracle is independent of hookweave's trust code: it keys handlers itself (every command in
these files is unique) and checks, after every step:
- every handler trusted before the step that is still there, unchanged, is trusted at its key now,
  with the same entry (``enabled`` and all);
- an operator's handler that was not trusted is not trusted now;
- the operator's orphan key (no handler at its position) is untouched;
- every other key on the file points at a handler whose hash it holds or held (no stale key);
- with --trust, every hook of the bundle just installed is trusted.
At the end every bundle is uninstalled: both files come back byte for byte. On a sample, the real
``codex app-server hooks/list`` must report the same trust as the oracle.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import tomlkit

from hookweave.hosts.codex import trust_hash
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
REPO = Path(__file__).parent.parent.parent
CODEX = os.environ.get("HOOKWEAVE_TEST_CODEX") or str(REPO / ".cache/hosts/codex/node_modules/.bin/codex")
EVENTS = {"Stop": "stop", "PreToolUse": "pre_tool_use", "SessionStart": "session_start"}
NEUTRAL = {"Stop": "stop", "PreToolUse": "pre_tool_use", "SessionStart": "session_start"}
ORPHAN = "stop:99:0"


def _handlers(doc: dict, source: str) -> dict[str, tuple[str, str, dict]]:
    """command -> (key, hash, handler): the oracle's own keying (HOSTS.md 3.2)."""
    out = {}
    for event, groups in (doc.get("hooks") or {}).items():
        if event not in EVENTS:
            continue
        for g, group in enumerate(groups):
            for h, handler in enumerate(group["hooks"]):
                key = f"{source}:{EVENTS[event]}:{g}:{h}"
                out[handler["command"]] = (key, trust_hash(event, group, handler), handler)
    return out


def _state(config: Path) -> dict:
    if not config.exists():
        return {}
    return tomlkit.parse(config.read_text()).unwrap().get("hooks", {}).get("state", {})


def _trusted(state: dict, handlers: dict) -> dict[str, dict]:
    return {c: state[k] for c, (k, digest, _) in handlers.items() if state.get(k, {}).get("trusted_hash") == digest}


def _manifest(name: str, version: int, r: random.Random) -> tuple[str, list[str]]:
    """A bundle: 1-3 hooks; a later version changes, drops or adds some (commands stay unique)."""
    ids = [f"h{i}" for i in range(r.randint(1, 3))]
    text = f'[bundle]\nname = "{name}"\nversion = "{version}.0.0"\n'
    for hook_id in ids:
        event = r.choice(list(NEUTRAL))
        suffix = f" v{version}" if r.random() < 0.5 else ""
        text += f'[[hooks]]\nid = "{hook_id}"\nevent = "{NEUTRAL[event]}"\ncommand = "run-{name}-{hook_id}{suffix}"\n'
    return text, ids


class Sequence:
    def __init__(self, run, write_bundle, home: Path, project: Path, r: random.Random, form: str) -> None:
        self.run, self.write_bundle, self.r, self.form = run, write_bundle, r, form
        self.config = home / ".codex" / "config.toml"
        self.config.parent.mkdir(exist_ok=True)
        if form == "json":
            self.hooks = project / ".codex" / "hooks.json"
            self.hooks.parent.mkdir(exist_ok=True)
            self.scope = ["--scope", "project"]
            if r.random() < 0.5:  # the project as typed through a symlink: Codex keys the physical path
                link = project.parent / f"{project.name}-link"
                link.symlink_to(project)
                self.scope += ["--project", str(link)]
        elif form == "json-user":  # ~/.codex/hooks.json, its trust beside it in ~/.codex/config.toml
            self.hooks, self.scope = self.config.with_name("hooks.json"), ["--scope", "user"]
        else:
            self.hooks, self.scope = self.config, ["--scope", "user"]
        self.inline = r.random() < 0.5  # TOML: the operator writes a group's handlers inline
        self.crlf = form == "toml" and r.random() < 0.3
        self.source = str(self.hooks)  # tmp_path is physical: Codex keys these very paths
        self.project = project
        self.operator_count = 0
        self.operator_edited = False
        self.installed: set[str] = set()
        self.orphan = {"trusted_hash": "sha256:0000", "enabled": False}
        self._write_operator_start()
        self.original = (self.hooks.read_bytes(), self.config.read_bytes())

    def _write_operator_start(self) -> None:
        ops = [self._operator_hook() for _ in range(self.r.randint(0, 3))]
        trusted = [op for op in ops if self.r.random() < 0.7]
        header = f'# operator\n[projects."{self.project}"]\ntrust_level = "trusted"\n'
        if self.inline:
            hooks_toml = "".join(f'\n[[hooks.{e}]]\nhooks = [{{ type = "command", command = "{c}" }}]\n'
                                 for e, c in ops)
        else:
            hooks_toml = "".join(f'\n[[hooks.{e}]]\n[[hooks.{e}.hooks]]\ntype = "command"\ncommand = "{c}"\n'
                                 for e, c in ops)
        if self.form != "toml":
            doc: dict = {"description": "team ☕", "hooks": {}}
            if self.r.random() < 0.4:  # events Codex does not know, of any shape, stay as they are
                doc["hooks"]["FutureEvent"] = self.r.choice([[{"hooks": 5}], 7, [{"hooks": [{"command": "\ud800"}]}]])
            for event, command in ops:
                doc["hooks"].setdefault(event, []).append({"hooks": [{"type": "command", "command": command}]})
            self.hooks.write_text(json.dumps(doc, indent=2) + "\n")
            self.config.write_text(header)
        else:
            self.config.write_text(header + hooks_toml)
        handlers = self._handlers()
        state = "".join(f'\n[hooks.state."{handlers[c][0]}"]\ntrusted_hash = "{handlers[c][1]}"\n' for _, c in trusted)
        state += f'\n[hooks.state."{self.source}:{ORPHAN}"]\ntrusted_hash = "sha256:0000"\nenabled = false\n'
        text = self.config.read_text() + state
        self.config.write_bytes((text.replace("\n", "\r\n") if self.crlf else text).encode())

    def _operator_hook(self) -> tuple[str, str]:
        self.operator_count += 1
        return self.r.choice(list(EVENTS)), f"op-{self.operator_count}"

    def _doc(self) -> dict:
        if self.form != "toml":
            return json.loads(self.hooks.read_text())
        return tomlkit.parse(self.hooks.read_text()).unwrap()

    def _handlers(self) -> dict:
        return _handlers(self._doc(), self.source)

    def operator_adds(self) -> str:
        """The operator appends a hook and trusts it, as Codex's /hooks would."""
        self.operator_edited = True
        event, command = self._operator_hook()
        if self.form != "toml":
            doc = self._doc()
            group = {"hooks": [{"type": "command", "command": command}]}
            doc.setdefault("hooks", {}).setdefault(event, []).append(group)
            self.hooks.write_text(json.dumps(doc, indent=2) + "\n")
        else:
            doc = tomlkit.parse(self.config.read_text())
            doc.setdefault("hooks", tomlkit.table(True)).setdefault(event, tomlkit.aot()).append(
                tomlkit.item({"hooks": [{"type": "command", "command": command}]}))
            self.config.write_text(tomlkit.dumps(doc))
        key, digest, _ = self._handlers()[command]
        doc = tomlkit.parse(self.config.read_text())
        doc["hooks"]["state"][key] = {"trusted_hash": digest}  # type: ignore[index]
        self.config.write_text(tomlkit.dumps(doc))
        return command

    def step(self) -> list[str]:
        """One random step; the invariants it broke (empty: none)."""
        before_handlers, before_state = self._handlers(), _state(self.config)
        trusted_before = _trusted(before_state, before_handlers)
        action = self.r.choice(["install", "install", "uninstall", "operator"])
        name, trust = self.r.choice(["a", "b", "c"]), self.r.random() < 0.6
        if action == "operator":
            added = self.operator_adds()
            now_trusted = {**trusted_before, added: _state(self.config)[self._handlers()[added][0]]}
            return self._check(before_handlers, now_trusted, None, False)
        if action == "uninstall":
            if not self.installed:
                return []
            name = self.r.choice(sorted(self.installed))
            result = self.run("uninstall", name, "--host", "codex", *self.scope)
            self.installed.discard(name)
        else:
            manifest, _ = _manifest(name, self.r.randint(1, 3), self.r)
            args = ["install", str(self.write_bundle(manifest)), "--host", "codex", *self.scope]
            result = self.run(*args, *(["--trust"] if trust else []))
            self.installed.add(name)
        if result.exit_code != 0:
            return [f"{action} {name}: exit {result.exit_code}: {result.output[-300:]}"]
        return self._check(before_handlers, trusted_before, name if action == "install" else None, trust)

    def _check(self, before: dict, trusted_before: dict, installed: str | None, trust: bool) -> list[str]:
        now, state = self._handlers(), _state(self.config)
        broken = []
        for command, entry in trusted_before.items():
            if command in now and now[command][1] == before.get(command, now[command])[1]:
                mine = installed and f"# hookweave:{installed}/" in command
                if not mine and state.get(now[command][0]) != entry:
                    broken.append(f"trust of {command!r} lost: {now[command][0]} holds {state.get(now[command][0])}")
        for command, (key, digest, _) in now.items():
            ours = "# hookweave:" in command
            if not ours and command not in trusted_before and state.get(key, {}).get("trusted_hash") == digest:
                broken.append(f"operator's untrusted {command!r} became trusted")
            just_installed = installed and f"# hookweave:{installed}/" in command
            if just_installed and trust and state.get(key, {}).get("trusted_hash") != digest:
                broken.append(f"{command!r} installed with --trust is not trusted")
        if state.get(f"{self.source}:{ORPHAN}") != self.orphan:
            broken.append("the operator's orphan key changed")
        keys = {key: digest for key, digest, _ in now.values()}
        for key, entry in state.items():
            if key.startswith(self.source + ":") and not key.endswith(ORPHAN):
                if key not in keys:
                    broken.append(f"stale key {key} (no handler there)")
        return broken

    def finish(self) -> list[str]:
        """Uninstall everything: no trace of ours; byte for byte when the operator changed nothing."""
        for name in sorted(self.installed):
            result = self.run("uninstall", name, "--host", "codex", *self.scope)
            if result.exit_code != 0:
                return [f"final uninstall {name}: exit {result.exit_code}"]
        broken = self._check(self._handlers(), _trusted(_state(self.config), self._handlers()), None, False)
        if "# hookweave:" in self.hooks.read_text() + self.config.read_text():
            broken.append("an entry or key of ours is left")
        if not self.operator_edited and (self.hooks.read_bytes(), self.config.read_bytes()) != self.original:
            broken.append("install/uninstall did not give back the operator's bytes")
        return broken


def _codex_agrees(seq: Sequence, home: Path) -> list[str]:
    """The real codex's trust status of every hook equals the oracle's."""
    from hookweave.hosts.codex.appserver import hooks_list

    env = {**os.environ, "HOME": str(home), "CODEX_HOME": os.environ["CODEX_HOME"]}
    listed = hooks_list(CODEX, seq.project, env=env, timeout=20)
    state, handlers = _state(seq.config), seq._handlers()
    broken = [f"codex: {e}" for e in listed["errors"]]
    for hook in listed["hooks"]:
        if hook.get("sourcePath") != seq.source:
            continue
        key, digest, _ = handlers[hook["command"]]
        ours = "trusted" if state.get(key, {}).get("trusted_hash") == digest else "untrusted"
        theirs = {"modified": "untrusted"}.get(hook["trustStatus"], hook["trustStatus"])
        if (hook["key"], theirs) != (key, ours):
            broken.append(f"codex says {hook['key']} {hook['trustStatus']}, the oracle {key} {ours}")
    return broken


@pytest.mark.parametrize("form", ["json", "json-user", "toml"])
def test_trust_follows_every_handler_through_random_sequences(run, write_bundle, home, tmp_path, monkeypatch,
                                                               attack_report, form) -> None:
    r = random.Random(f"trust-{form}")
    sequences, steps_each = attack_size(6, 120), 8
    sample = attack_size(1, 30) if Path(CODEX).is_file() else 0  # sequences checked against the real codex
    asked = 0
    failures: list = []
    steps = 0
    for n in range(sequences):
        project = tmp_path / f"p{n}"
        project.mkdir()
        monkeypatch.chdir(project)
        seq_home = tmp_path / f"h{n}"
        seq_home.mkdir()
        monkeypatch.setenv("HOME", str(seq_home))
        monkeypatch.setenv("CODEX_HOME", str(seq_home / ".codex"))
        seq = Sequence(run, write_bundle, seq_home, project, r, form)
        if form != "json" and r.random() < 0.5:  # CODEX_HOME through a symlink: Codex resolves it
            (seq_home / "codex-link").symlink_to(seq_home / ".codex")
            monkeypatch.setenv("CODEX_HOME", str(seq_home / "codex-link"))
        for step in range(steps_each):
            steps += 1
            broken = seq.step()
            if n < sample and step % 2:
                asked += 1
                broken += _codex_agrees(seq, seq_home)
            failures += [(n, b) for b in broken]
        failures += [(n, b) for b in seq.finish()]
    attack_report(f"trust re-keying ({form})", cases=steps, failures=len(failures), asked_codex=asked)
    assert not failures, failures[:5]
