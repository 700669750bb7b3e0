"""Attack: gates judged on the merged settings. Random combinations of every gate of every layer
each host reads, a bundle installed at a random scope, then install's and verify's verdicts held
against an oracle written from the measured host rules (HOSTS.md, issue 10), independent of
hookweave's gate code:

- Claude: ``disableAllHooks`` / ``allowManagedHooksOnly`` (true, false, odd values) at user,
  project, local, managed and a managed drop-in; ``strictPluginOnlyCustomization`` in managed.
- Codex: ``[features] hooks`` / ``codex_hooks`` at the system, user, repository-root and project
  layers, project and root trust entries (trusted, untrusted, none), root markers (a git HEAD, an
  empty .git folder, a .git file, none). Where the real binary is installed, ``codex features
  list`` must agree with the oracle on every case whose system layer is empty.
- Gemini: ``hooksConfig.enabled`` (true, false, 0, null, "false") and ``security.folderTrust.enabled``
  at system-defaults, user, project, system; trust rules on the project, its parent, grandparent,
  a child and a sibling, spelled plainly, with a trailing slash or through ``..``; the trust
  variables of the environment.

Invariants: verify exits 1 exactly when the oracle says our hooks will not run (and 0 otherwise),
install reports a gate problem exactly then too, with the same words as verify, and uninstall
gives every file back byte for byte.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from tests.conftest import attack_size

pytestmark = pytest.mark.attack
BUNDLE = ('[bundle]\nname = "guard"\nversion = "1"\n[[hooks]]\nid = "k"\nevent = "stop"\ncommand = "k"\n')
REPO = Path(__file__).parent.parent.parent
CODEX = os.environ.get("HOOKWEAVE_TEST_CODEX") or str(REPO / ".cache/hosts/codex/node_modules/.bin/codex")
ABSENT = object()


def _world(base: Path, n: int, monkeypatch) -> tuple[Path, Path, Path]:
    """A fresh home, project (two folders below a root) and system folder for case ``n``."""
    case = base / f"case{n}"
    home, root = case / "home", case / "root"
    project = root / "mid" / "project"
    for folder in (home, project):
        folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(case / "managed"))
    monkeypatch.setenv("HOOKWEAVE_CODEX_SYSTEM_DIR", str(case / "codex-system"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(case / "gemini-system" / "system-defaults.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(case / "gemini-system" / "settings.json"))
    monkeypatch.setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", str(home / ".gemini" / "trustedFolders.json"))
    monkeypatch.chdir(project)
    return case, home, project


def _put(path: Path, text: str, files: dict[Path, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    files[path] = text


def _check(run, host: str, scope: str, blocked: bool, files: dict[Path, str], extra: list[str] = ()) -> list[str]:
    """Install, verify and uninstall; the broken invariants, described."""
    broken = []
    bundle = files.pop("bundle")
    install = run("install", str(bundle), "--host", host, "--scope", scope, *extra, "--json")
    if install.exit_code != 0:
        return [f"install exited {install.exit_code}: {install.stderr.strip()}"]
    problems = [p["message"] for f in json.loads(install.stdout)["files"] for p in f["problems"]]
    verify = run("verify", "--host", host)
    if verify.exit_code != (1 if blocked else 0):
        broken.append(f"verify exited {verify.exit_code}, the host {'runs nothing' if blocked else 'runs the hooks'}:"
                      f" {verify.stdout}")
    if bool(problems) != blocked:
        broken.append(f"install problems {problems}, the host {'runs nothing' if blocked else 'runs the hooks'}")
    broken += [f"install said {p!r}, verify did not" for p in problems if f"  problem: {p}\n" not in verify.stdout]
    if run("uninstall", "guard", "--host", host, "--scope", scope).exit_code != 0:
        broken.append("uninstall failed")
    broken += [f"{path} changed" for path, text in files.items() if path.read_text(encoding="utf-8") != text]
    return broken


# -- Claude ----------------------------------------------------------------------------------------

CLAUDE_VALUES = [ABSENT, True, False, ABSENT, True, False, "yes", None]
MANAGED_VALUES = [ABSENT] * 5 + [True, False, "yes", None]  # policy set rarely, or nothing else would run
STRICT = [ABSENT, ABSENT, True, False, ["hooks"], ["skills"], ["skills", "hooks"], "hooks"]


def _claude_oracle(docs: dict[str, dict], managed: dict) -> bool:
    """Whether Claude 2.1.197 runs no non-managed hook (functions K7r/Xce)."""
    if managed.get("disableAllHooks") is True or managed.get("allowManagedHooksOnly") is True:
        return True
    strict = managed.get("strictPluginOnlyCustomization")
    if strict is True or (isinstance(strict, list) and "hooks" in strict):
        return True
    merged = None
    for scope in ("user", "project", "local"):
        if isinstance(docs[scope].get("disableAllHooks"), bool):
            merged = docs[scope]["disableAllHooks"]
    if isinstance(managed.get("disableAllHooks"), bool):
        merged = managed["disableAllHooks"]
    return merged is True


def test_claude_gates_follow_the_merged_settings(run, tmp_path, monkeypatch, attack_report) -> None:
    rng = random.Random(1001)
    cases, failures, stopped = attack_size(60, 600), [], 0
    for n in range(cases):
        case, home, project = _world(tmp_path, n, monkeypatch)
        files: dict = {"bundle": _bundle(case)}
        paths = {"user": home / ".claude" / "settings.json", "project": project / ".claude" / "settings.json",
                 "local": project / ".claude" / "settings.local.json"}
        docs = {}
        for scope, path in paths.items():
            docs[scope] = _pick(rng, {"disableAllHooks": CLAUDE_VALUES, "allowManagedHooksOnly": CLAUDE_VALUES})
            if docs[scope] or rng.random() < 0.3:
                _put(path, json.dumps({"model": "opus", **docs[scope]}, indent=rng.choice([2, 4])) + "\n", files)
        main = _pick(rng, {"disableAllHooks": MANAGED_VALUES, "allowManagedHooksOnly": MANAGED_VALUES,
                           "strictPluginOnlyCustomization": STRICT})
        drop = _pick(rng, {"disableAllHooks": MANAGED_VALUES, "allowManagedHooksOnly": MANAGED_VALUES})
        if main:
            _put(case / "managed" / "managed-settings.json", json.dumps(main), files)
        if drop:
            _put(case / "managed" / "managed-settings.d" / "10-fleet.json", json.dumps(drop), files)
        scope = rng.choice(["user", "project", "local"])
        before = files.pop(paths[scope], None)  # the file we install into changes; uninstall gives it back
        blocked = _claude_oracle(docs, {**main, **drop})
        stopped += blocked
        broken = _check(run, "claude", scope, blocked, files)
        after = paths[scope].read_text() if paths[scope].exists() else None
        broken += [] if after == before else [f"{paths[scope]} not restored"]
        failures += [f"case {n} (install at {scope}; {docs}, managed {main}, drop-in {drop}): {b}" for b in broken]
    attack_report("gates: Claude merged settings", cases=cases, hooks_stopped=stopped, failures=len(failures))
    assert 0 < stopped < cases  # both verdicts were exercised
    assert not failures, "\n".join(failures[:5])


def _pick(rng: random.Random, choices: dict[str, list]) -> dict:
    picked = {key: rng.choice(values) for key, values in choices.items()}
    return {k: v for k, v in picked.items() if v is not ABSENT}


def _bundle(case: Path) -> Path:
    folder = case / "bundle"
    folder.mkdir(parents=True)
    (folder / "hookweave.toml").write_text(BUNDLE)
    return folder


# -- Codex -----------------------------------------------------------------------------------------

FEATURES = [None, None, {"hooks": True}, {"hooks": False}, {"codex_hooks": False}, {"codex_hooks": True},
            {"hooks": True, "codex_hooks": False}, {"hooks": False, "codex_hooks": True}, {"apps": False}]
TRUST = [None, "trusted", "untrusted"]
MARKERS = ["head", "head", "empty", "file", "none"]


def _toml_features(features: dict | None) -> str:
    if features is None:
        return ""
    return "[features]\n" + "".join(f"{k} = {str(v).lower()}\n" for k, v in features.items())


def _codex_oracle(system, user, root_layer, project_layer, trust: dict, marker: str) -> tuple[bool, bool]:
    """``(blocked, project trusted)`` by codex 0.169's measured rules: a root is a .git file or a
    .git folder with HEAD; a layer loads when its folder, else the root, is trusted; [features]
    tables merge key by key, later layers winning, then hooks decides before codex_hooks."""
    has_root = marker in ("head", "file")

    def trusted(folder: str) -> bool:
        level = trust.get(folder) or (trust.get("root") if has_root else None)
        return level == "trusted"

    loaded = [system, user]
    if has_root and root_layer is not ABSENT and trusted("root"):
        loaded.append(root_layer)
    if project_layer is not ABSENT and trusted("project"):
        loaded.append(project_layer)
    merged: dict = {}
    for features in loaded:
        merged.update(features or {})
    value = merged.get("hooks", merged.get("codex_hooks", True))
    return value is False, trusted("project")


def test_codex_features_follow_every_loaded_layer(run, tmp_path, monkeypatch, attack_report) -> None:
    rng = random.Random(2002)
    cases, failures, compared, stopped = attack_size(60, 600), [], 0, 0
    real = Path(CODEX).is_file() and not Path("/etc/codex").exists()
    for n in range(cases):
        case, home, project = _world(tmp_path, n, monkeypatch)
        root = case / "root"
        files: dict = {"bundle": _bundle(case)}
        system, user = rng.choice([None, None, None, *FEATURES]), rng.choice(FEATURES)
        root_layer = rng.choice([ABSENT, *FEATURES])
        project_layer = rng.choice([ABSENT, *FEATURES])
        trust = {"root": rng.choice(TRUST), "project": rng.choice(TRUST)}
        marker = rng.choice(MARKERS)
        if marker == "head":
            _put(root / ".git" / "HEAD", "ref: refs/heads/main\n", files)
        elif marker == "empty":
            (root / ".git").mkdir()
        elif marker == "file":
            _put(root / ".git", "gitdir: /nowhere\n", files)
        if system is not None:
            _put(case / "codex-system" / "config.toml", _toml_features(system), files)
        entries = "".join(f'\n[projects."{root if k == "root" else project}"]\ntrust_level = "{v}"\n'
                          for k, v in trust.items() if v)
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text(f"# the operator's\n{_toml_features(user)}{entries}")
        for folder, layer in ((root, root_layer), (project, project_layer)):
            if layer is not ABSENT:
                _put(folder / ".codex" / "config.toml", _toml_features(layer) or "# nothing\n", files)
        blocked, _ = _codex_oracle(system, user, root_layer, project_layer, trust, marker)
        stopped += blocked
        broken = _check(run, "codex", "user", blocked, files, ["--trust"])
        if real and system is None:
            compared += 1
            listed = subprocess.run([CODEX, "features", "list"], cwd=project, capture_output=True, text=True, timeout=60,
                                    env={"PATH": os.environ["PATH"], "HOME": str(home), "CODEX_HOME": str(home / ".codex")})
            line = next((ln.split() for ln in listed.stdout.splitlines() if ln.startswith("hooks ")), None)
            if line is None or (line[-1] == "false") != blocked:
                broken.append(f"codex features list says {line}, the oracle {'off' if blocked else 'on'}")
        failures += [f"case {n} (system {system}, user {user}, root {root_layer}, project {project_layer}, trust "
                     f"{trust}, marker {marker}): {b}" for b in broken]
    attack_report("gates: Codex features over layers", cases=cases, hooks_stopped=stopped,
                  compared_with_codex=compared, failures=len(failures))
    assert 0 < stopped < cases
    assert not failures, "\n".join(failures[:5])


# -- Gemini ----------------------------------------------------------------------------------------

ENABLED = [ABSENT, ABSENT, True, False, 0, None, "false"]
PARENT = {"grandparent": "case", "parent": "grandparent", "project": "parent", "child": "project", "sibling": "parent"}
HOLDS_PROJECT = {"case", "grandparent", "parent", "project"}  # the project and the folders above it
LEVELS = ["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"]
ENVIRONMENTS = [{}, {}, {}, {"GEMINI_CLI_TRUST_WORKSPACE": "true"}, {"GEMINI_CLI_TRUST_WORKSPACE": "false"},
                {"GEMINI_CLI_TRUST_WORKSPACE": "1"}, {"GEMINI_RESTRICTED_MODE": "true"}]


def _js_on(value) -> bool:
    """``value ?? true`` as a JavaScript condition."""
    return True if value is ABSENT or value is None else bool(value)


def _last(docs: list[dict], key: str):
    value = ABSENT
    for doc in docs:
        if key in doc:
            value = doc[key]
    return value


def _gemini_oracle(folders: dict[str, Path], rules: list[tuple[str, str, str]], env: dict,
                   trust_settings: list[dict], enabled_settings: dict[str, dict]) -> bool:
    """Whether Gemini 0.61 runs none of our hooks (checkPathTrust, isPathTrusted, loadSettings)."""
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        trusted = False
    elif env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true" or not _js_on(_last(trust_settings, "folderTrust")):
        trusted = True
    else:
        by_folder: dict[str, str] = {}
        for where, _, level in rules:  # every spelling names the same folder: the later entry wins
            by_folder[where] = level
        best = None
        for where, level in by_folder.items():
            folder = PARENT[where] if level == "TRUST_PARENT" else where
            if folder in HOLDS_PROJECT and (best is None or len(str(folders[where])) > len(str(folders[best[0]]))):
                best = (where, level)
        trusted = best is not None and best[1] != "DO_NOT_TRUST"
    if not trusted:
        return True
    return not _js_on(_last([enabled_settings[s] for s in ("system-defaults", "user", "project", "system")], "enabled"))


def test_gemini_trust_and_enabled_follow_the_merged_settings(run, tmp_path, monkeypatch, attack_report) -> None:
    rng = random.Random(3003)
    cases, failures, stopped = attack_size(60, 600), [], 0
    for n in range(cases):
        case, home, project = _world(tmp_path, n, monkeypatch)
        folders = {"grandparent": project.parent.parent, "parent": project.parent, "project": project,
                   "child": project / "child", "sibling": project.parent / "sibling"}
        files: dict = {"bundle": _bundle(case)}
        rules = []
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            where = rng.choice(list(folders))
            spelling = rng.choice(["plain", "plain", "slash", "dots"])
            text = {"plain": str(folders[where]), "slash": f"{folders[where]}/",
                    "dots": f"{folders[where].parent}/x/../{folders[where].name}"}[spelling]
            rules.append((where, text, rng.choice(LEVELS)))
        if rules or rng.random() < 0.2:
            _put(home / ".gemini" / "trustedFolders.json", json.dumps({t: lv for _, t, lv in rules}, indent=2), files)
        env = rng.choice(ENVIRONMENTS)
        for name in ("GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_RESTRICTED_MODE"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        where = {"system-defaults": case / "gemini-system" / "system-defaults.json",
                 "user": home / ".gemini" / "settings.json", "project": project / ".gemini" / "settings.json",
                 "system": case / "gemini-system" / "settings.json"}
        enabled, folder_trust = {}, {}
        for scope, path in where.items():
            enabled[scope] = _pick(rng, {"enabled": ENABLED})
            folder_trust[scope] = _pick(rng, {"folderTrust": ENABLED})
            doc = {**({"hooksConfig": enabled[scope]} if enabled[scope] else {}),
                   **({"security": {"folderTrust": {"enabled": folder_trust[scope]["folderTrust"]}}}
                      if folder_trust[scope] else {})}
            if doc:
                _put(path, "// the operator's\n" + json.dumps(doc) + "\n", files)
        scope = rng.choice(["user", "project"])
        before = files.pop(where[scope], None)
        trust_settings = [folder_trust[s] for s in ("system-defaults", "user", "system")]
        blocked = _gemini_oracle(folders, rules, env, trust_settings, enabled)
        stopped += blocked
        broken = _check(run, "gemini", scope, blocked, files)
        after = where[scope].read_text() if where[scope].exists() else None
        broken += [] if after == before else [f"{where[scope]} not restored"]
        failures += [f"case {n} (install at {scope}; rules {rules}, env {env}, enabled {enabled}, folder trust "
                     f"{folder_trust}): {b}" for b in broken]
    attack_report("gates: Gemini trust and hooksConfig", cases=cases, hooks_stopped=stopped, failures=len(failures))
    assert 0 < stopped < cases
    assert not failures, "\n".join(failures[:5])

