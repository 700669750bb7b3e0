"""Issue 5, security: argv reaches the hook exactly through each host's own shell, hostile names and
bundle paths are refused, files we create are no more open than the settings beside them, and
Codex trust is written for our hooks only, and only with consent."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomlkit

from hookweave.core.cli import prompts
from hookweave.core.model.render import marker_in
from hookweave.hosts.codex import CodexHost, handler_keys, trust_hash

DATA = Path(__file__).parent / "data"
HOSTILE = [
    "with space", "it's", 'say "hi"', "$HOME", "${HOME}", "`touch PWNED`", "$(touch PWNED)", "; touch PWNED",
    "&& touch PWNED", "|| touch PWNED", "| tee PWNED", "> PWNED", "line1\nline2", "*", "?", "[a]", "-n", "--help",
    "", " ", "\\", "tab\there", "#hash", "~", "!", "a'b\"c$d`e\\f", "é☕",
    "$GEMINI_PROJECT_DIR", "$GEMINI_CWD", "$GEMINI_PLANS_DIR", "$GEMINI_SESSION_ID", "$CLAUDE_PROJECT_DIR", "$PWD",
]
SHELLS = {"claude": ["sh", "-c"], "codex": ["bash", "-lc"], "cursor": ["bash", "-c"], "gemini": ["bash", "-c"]}
SETTINGS = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "cursor": ".cursor/hooks.json",
            "gemini": ".gemini/settings.json"}
GEMINI_PLANS, GEMINI_SESSION = "/tmp/plans dir", "session 'one'"


@pytest.fixture
def verdict(attack_report):
    """Report one security case (failed unless ``actual == expected``), then assert it."""

    def check(actual: object, expected: object) -> None:
        attack_report("security", cases=1, failures=int(actual != expected))
        assert actual == expected

    return check


def _gemini_quote(s: str) -> str:
    """shell-quote's ``quote([s])``, which Gemini CLI uses to escape what it substitutes."""
    if s == "":
        return "''"
    if re.search(r'["\s\\]', s) and "'" not in s:
        return "'" + s + "'"
    if re.search(r"[\"'\s]", s):
        return '"' + re.sub(r'(["\\$`!])', r"\\\1", s) + '"'
    return re.sub(r"([A-Za-z]:)?([#!\"$&'()*,:;<=>?@\[\\\]^`{|}])", r"\1\\\2", s)


def _run_as_host(host: str, command: str, project: Path, home: Path) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "CLAUDE_PROJECT_DIR": str(project),
           "CURSOR_PROJECT_DIR": str(project), "GEMINI_PROJECT_DIR": str(project)}
    if host == "gemini":  # Gemini substitutes these in the text itself, in this order (HOSTS.md 4.4)
        for name, value in [("GEMINI_PROJECT_DIR", project), ("GEMINI_CWD", project), ("GEMINI_PLANS_DIR", GEMINI_PLANS),
                            ("GEMINI_SESSION_ID", GEMINI_SESSION), ("CLAUDE_PROJECT_DIR", project)]:
            command = command.replace(f"${name}", _gemini_quote(str(value)))
    return subprocess.run([*SHELLS[host], command], cwd=project, env=env, capture_output=True, text=True, timeout=60)


def _commands(doc: object) -> dict[str, str]:
    """Every command string hookweave wrote into a settings document, by hook id."""
    found: dict[str, str] = {}
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key == "command" and marker_in(value):
                found[marker_in(value)[1]] = value
            found.update(_commands(value))
    elif isinstance(doc, list):
        for value in doc:
            found.update(_commands(value))
    return found


@pytest.mark.attack
@pytest.mark.parametrize("host", sorted(SHELLS))
def test_argv_arrives_exactly_through_the_hosts_shell(run, tmp_path: Path, home: Path, host: str, verdict) -> None:
    bundle = tmp_path / "bundle 'b' \"c\" $d `e` & f; g"
    bundle.mkdir()
    printer = bundle / "print-argv"
    printer.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    printer.chmod(0o755)
    project = tmp_path / "proj 'p' \"q\" $HOME `x` ; touch PWNED"
    project.mkdir()
    argv = ["{bundle_dir}/print-argv", *HOSTILE, "{project_dir}", "{project_dir}/x y", "pre{project_dir}post"]
    (bundle / "hookweave.toml").write_text(
        '[bundle]\nname = "sec"\nversion = "1"\n[[hooks]]\nid = "argv"\nevent = "stop"\n'
        f"command = [{', '.join(json.dumps(a) for a in argv)}]\n"
        '[[hooks]]\nid = "string"\nevent = "session_start"\n'
        "command = '{bundle_dir}/print-argv one \"two three\" {project_dir}'\n", encoding="utf-8")
    result = run("install", str(bundle), "--host", host, "--project", str(project))
    assert result.exit_code == 0, result.output
    commands = _commands(json.loads((project / SETTINGS[host]).read_text(encoding="utf-8")))
    wanted = {"argv": [*HOSTILE, str(project), f"{project}/x y", f"pre{project}post"],
              "string": ["one", "two three", str(project)]}
    got = {}
    for hook_id, command in sorted(commands.items()):
        done = _run_as_host(host, command, project, home)
        got[hook_id] = (done.returncode, done.stderr, done.stdout.count("\n"), json.loads(done.stdout or "null"))
    pwned = sorted(str(p) for p in tmp_path.rglob("PWNED"))
    expected = {hook_id: (0, "", 1, argv) for hook_id, argv in wanted.items()}
    verdict((got, pwned), (expected, []))


NAMES = ["../x", "a/b", "a b", "Guard", "a" * 65, "gärd", "ｇuard", "guard\n", "-guard", "guard;rm", "..", "a\tb"]


@pytest.mark.attack
@pytest.mark.parametrize("where", ["bundle.name", "hooks[0].id"])
@pytest.mark.parametrize("name", NAMES + [""])
def test_hostile_bundle_names_and_hook_ids_are_refused(run, write_bundle, project, where, name, verdict) -> None:
    bundle_name, hook_id = (name, "stop-note") if where == "bundle.name" else ("guard", name)
    bundle = write_bundle(f'[bundle]\nname = {json.dumps(bundle_name)}\nversion = "1"\n'
                          f'[[hooks]]\nid = {json.dumps(hook_id)}\nevent = "stop"\ncommand = "echo"\n')
    result = run("install", str(bundle), "--host", "all")
    if name:
        why = f"{name!r} is not a valid name; use lowercase letters, digits and dashes (up to 64)"
    else:
        why = 'must be a non-empty string; use lowercase letters, digits and dashes, e.g. "my-guard"'
    message = f"hooks: {bundle / 'hookweave.toml'}: {where}: {why}\n"
    verdict((result.exit_code, result.stderr, sorted(project.iterdir())), (2, message, []))


@pytest.mark.attack
def test_longest_name_is_accepted_and_an_env_name_with_a_newline_is_not(run, write_bundle, project, verdict) -> None:
    longest = "a" * 64
    ok = run("install", str(write_bundle(f'[bundle]\nname = "{longest}"\nversion = "1"\n'
                                         f'[[hooks]]\nid = "{longest}"\nevent = "stop"\ncommand = "echo"\n')),
             "--host", "claude")
    bundle = write_bundle('[bundle]\nname = "env"\nversion = "1"\n[env."CAP\\n"]\nvalue = "1"\n')
    bad = run("install", str(bundle), "--host", "claude")
    message = (f"hooks: {bundle / 'hookweave.toml'}: env.\"CAP\\n\": 'CAP\\n' is not a valid variable name; "
               "use letters, digits and _\n")
    verdict((ok.exit_code, bad.exit_code, bad.stderr), (0, 2, message))


@pytest.mark.attack
@pytest.mark.parametrize("char", ["\n", "\t", "\x1b", "\x7f", "\r"])
def test_bundle_folder_with_a_control_character_is_refused(run, tmp_path, project, write_bundle, char, verdict) -> None:
    folder = tmp_path / f"evil{char}bundle"
    folder.mkdir()
    (folder / "hookweave.toml").write_text((DATA / "claude" / "bundle" / "hookweave.toml").read_text())
    result = run("install", str(folder), "--host", "all")
    shown = str(folder / "hookweave.toml").replace(char, char.encode("unicode_escape").decode())
    message = (f"hooks: {shown}: the bundle's path holds a control character ({char!r}), which would go into every "
               "{bundle_dir} command; move the bundle to a folder whose path has none\n")
    verdict((result.exit_code, result.stderr, sorted(project.iterdir())), (2, message, []))


@pytest.mark.attack
def test_bundle_path_with_dot_dot_is_resolved_as_the_kernel_reads_it(run, tmp_path, project, verdict) -> None:
    real = tmp_path / "deep" / "guard"
    real.mkdir(parents=True)
    (real / "hookweave.toml").write_text('[bundle]\nname = "guard"\nversion = "1"\n[[hooks]]\nid = "x"\n'
                                         'event = "stop"\ncommand = ["{bundle_dir}/x.py"]\n')
    (real / "x.py").write_text("#!/bin/sh\n")
    (real / "x.py").chmod(0o755)
    (tmp_path / "link").symlink_to(tmp_path / "deep" / "inner", target_is_directory=True)
    (tmp_path / "deep" / "inner").mkdir()
    result = run("install", "../link/../guard", "--host", "claude")  # lexically tmp/guard, really tmp/deep/guard
    command = _commands(json.loads((project / ".claude" / "settings.json").read_text()))["x"]
    verdict((result.exit_code, command), (0, f"{real}/x.py # hookweave:guard/x"))


@pytest.mark.attack
@pytest.mark.parametrize("mode", [0o600, 0o640, None], ids=["0600", "0640", "new"])
def test_a_new_record_is_no_more_open_than_its_settings_file(run, project, mode, verdict) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    if mode is not None:
        settings.write_text("{}\n")
        settings.chmod(mode)
    old = os.umask(0o022)
    try:
        result = run("install", str(DATA / "claude" / "bundle"), "--host", "claude")
    finally:
        os.umask(old)
    record = project / ".claude" / "settings.hookweave.json"
    modes = (settings.stat().st_mode & 0o777, record.stat().st_mode & 0o777)
    expected = (mode, mode) if mode is not None else (0o644, 0o644)  # a new settings file: the umask's
    verdict((result.exit_code, modes), (0, expected))


# -- Codex trust ------------------------------------------------------------------------------------

HOOKS_JSON = (DATA / "codex" / "operator.settings.json").read_text(encoding="utf-8")
CONFIG_TOML = (DATA / "codex" / "operator.config.toml").read_text(encoding="utf-8")
BUNDLE = str(DATA / "claude" / "bundle")


@pytest.fixture
def codex(home: Path, project: Path) -> tuple[Path, Path]:
    """Project hooks.json full of operator hooks; the user config trusts the project and one of them."""
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(HOOKS_JSON, encoding="utf-8")
    pre = f"{hooks}:pre_tool_use:0:0"
    digest = trust_hash("PreToolUse", {"matcher": "^Bash$"}, {"command": "/opt/op.sh", "timeout": 30})
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n\n[hooks.state."{pre}"]\n'
                      f'trusted_hash = "{digest}"\n')
    return hooks, config


def _state(config: Path) -> dict:
    return tomlkit.parse(config.read_text()).unwrap().get("hooks", {}).get("state", {})


def _ours(hooks: Path) -> dict[str, str]:
    doc = json.loads(hooks.read_text(encoding="utf-8"))
    return {key: digest for key, mine, digest, _ in handler_keys(doc, hooks, CodexHost().owner) if mine}


@pytest.mark.attack
def test_codex_install_without_trust_writes_no_trust(run, codex, verdict) -> None:
    hooks, config = codex
    before = config.read_bytes()
    result = run("install", BUNDLE, "--host", "codex")
    verdict((result.exit_code, config.read_bytes(), len(_ours(hooks))), (0, before, 3))


@pytest.mark.attack
def test_codex_trust_prompt_answered_no_writes_no_trust(run, codex, monkeypatch, verdict) -> None:
    import questionary

    class Answer:
        def __init__(self, value):
            self.value = value

        def unsafe_ask(self):
            return self.value

    asked: list[str] = []
    monkeypatch.setattr(prompts, "interactive", lambda: True)
    monkeypatch.setattr(questionary, "checkbox", lambda *a, **k: Answer(["codex"]))
    monkeypatch.setattr(questionary, "select", lambda *a, **k: Answer("project"))
    question = "Codex runs only hooks you trust. Mark these hooks trusted in Codex?"
    monkeypatch.setattr(questionary, "confirm", lambda message, **k: asked.append(message) or Answer(message != question))
    before = codex[1].read_bytes()
    result = run("install", BUNDLE)
    # the trust question comes before the preview (issue 13), so the preview shows what it writes
    verdict((result.exit_code, asked, codex[1].read_bytes(), len(_ours(codex[0]))),
            (0, [question, "Write these changes?"], before, 3))


@pytest.mark.attack
def test_codex_trust_covers_our_hooks_only_through_install_and_uninstall(run, codex, verdict) -> None:
    hooks, config = codex
    operator_state = _state(config)
    trusted = run("install", BUNDLE, "--host", "codex", "--trust")
    after_install, ours = _state(config), {key: {"trusted_hash": d} for key, d in _ours(hooks).items()}
    # the operator adds an untrusted hook after ours; our uninstall shifts it, and must not trust it
    doc = json.loads(hooks.read_text(encoding="utf-8"))
    doc["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "operator-later"}]})
    hooks.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    removed = run("uninstall", "guard", "--host", "codex")
    verdict((trusted.exit_code, removed.exit_code, after_install, len(ours), _state(config)),
            (0, 0, {**operator_state, **ours}, 3, operator_state))


@pytest.mark.attack
def test_codex_trust_into_inline_toml_hooks_adds_only_our_keys(run, home: Path, verdict) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CONFIG_TOML, encoding="utf-8")
    before = _state(config)
    result = run("install", BUNDLE, "--host", "codex", "--scope", "user", "--trust")
    doc = tomlkit.parse(config.read_text()).unwrap()
    ours = {key: {"trusted_hash": d} for key, mine, d, _ in handler_keys(doc, config, CodexHost().owner) if mine}
    verdict((result.exit_code, _state(config), len(ours)), (0, {**before, **ours}, 3))
