"""Issue 8, Codex: trust keys that follow every moved handler, canonical paths, both
representations of a layer, TOML edited byte for byte, odd files Codex itself ignores or rejects,
and a codex binary whose answers are untrusted input. Whole-file golden texts throughout."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from hookweave.hosts.codex import trust_hash

DATA = Path(__file__).parent.parent / "data"
HOOKS_JSON = (DATA / "codex" / "operator.settings.json").read_text(encoding="utf-8")
CONFIG_TOML = (DATA / "codex" / "operator.config.toml").read_text(encoding="utf-8")
SAY_DONE = trust_hash("Stop", {}, {"command": "say done", "statusMessage": "bye"})


def _bundle(write_bundle, name: str, *commands: str, version: str = "1.0.0") -> str:
    hooks = "".join(f'[[hooks]]\nid = "h{i}"\nevent = "stop"\ncommand = "{c}"\n' for i, c in enumerate(commands))
    return str(write_bundle(f'[bundle]\nname = "{name}"\nversion = "{version}"\n{hooks}'))


def _stop_hash(command: str) -> str:
    return trust_hash("Stop", {}, {"command": command})


@pytest.fixture
def project_hooks(codex_home: Path, project: Path) -> Path:
    """A trusted project whose .codex/hooks.json holds the operator's hooks, one of them trusted."""
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(HOOKS_JSON, encoding="utf-8")
    (codex_home / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n\n'
        f'[hooks.state."{hooks}:stop:0:0"]\ntrusted_hash = "{SAY_DONE}"\n')
    return hooks


# -- 1: every handler a removal shifts is re-keyed, ours of other bundles included ----------------

def test_uninstalling_the_first_bundle_rekeys_the_second(run, write_bundle, project_hooks, codex_home, project) -> None:
    alpha = _bundle(write_bundle, "alpha", "echo alpha")
    beta = _bundle(write_bundle, "beta", "echo beta")
    config = codex_home / "config.toml"
    before = config.read_text()
    assert run("install", alpha, "--host", "codex", "--trust").exit_code == 0
    assert run("install", beta, "--host", "codex", "--trust").exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    beta_hash = _stop_hash("echo beta # hookweave:beta/h0")
    assert config.read_text() == (before + f'\n[hooks.state."{project_hooks}:stop:1:0"]\n'
                                  f'trusted_hash = "{beta_hash}"\n')
    assert run("verify", "--host", "codex").exit_code == 0
    assert run("uninstall", "beta", "--host", "codex").exit_code == 0
    assert config.read_text() == before and project_hooks.read_text(encoding="utf-8") == HOOKS_JSON


def test_an_upgrade_that_drops_a_hook_rekeys_the_hooks_after_it(run, write_bundle, project_hooks, codex_home) -> None:
    config = codex_home / "config.toml"
    before = config.read_text()
    two = _bundle(write_bundle, "alpha", "echo one", "echo two")
    assert run("install", two, "--host", "codex", "--trust").exit_code == 0
    # The operator adds and trusts a hook of their own after ours, as Codex's /hooks would.
    doc = json.loads(project_hooks.read_text(encoding="utf-8"))
    doc["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "later"}]})
    project_hooks.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    config.write_text(config.read_text() + f'\n[hooks.state."{project_hooks}:stop:3:0"]\n'
                      f'trusted_hash = "{_stop_hash("later")}"\n')
    v2 = _bundle(write_bundle, "alpha", "echo two", version="2.0.0")  # h0 is now "echo two"; h1 goes
    assert run("install", v2, "--host", "codex").exit_code == 0
    # "echo one" became "echo two" (changed: its trust goes, no --trust); h1 left; "later" moved 3 -> 2
    assert config.read_text() == (before + f'\n[hooks.state."{project_hooks}:stop:2:0"]\n'
                                  f'trusted_hash = "{_stop_hash("later")}"\n')


# -- 2: our entries are found in whichever representation holds them --------------------------------

def test_inline_toml_install_is_found_after_a_hooks_json_appears(run, codex_home) -> None:
    config = codex_home / "config.toml"
    config.write_text(CONFIG_TOML)
    guard = str(DATA / "claude" / "bundle")
    assert run("install", guard, "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    installed = config.read_text()
    (codex_home / "hooks.json").write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "op"}]}]}}\n')
    status = run("status", "--host", "codex")
    assert status.exit_code == 0 and "guard 1.2.0" in status.stdout, status.stdout
    verify = run("verify", "--host", "codex", "--scope", "user")
    assert "both hooks.json and config.toml" in verify.stdout and "missing" not in verify.stdout
    again = run("install", str(DATA / "claude" / "bundle"), "--host", "codex", "--scope", "user", "--trust")
    assert again.exit_code == 0 and config.read_text() == installed
    assert run("uninstall", "guard", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_text() == CONFIG_TOML
    assert (codex_home / "hooks.json").read_text() == (
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "op"}]}]}}\n')


# -- 3: trust keys name the folder the way Codex does: physical path, CODEX_HOME resolved ----------

@pytest.mark.parametrize("spelling", ["symlink", "dotdot"])
def test_trust_keys_use_the_physical_project_path(run, write_bundle, codex_home, tmp_path, spelling) -> None:
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(real)
    typed = str(tmp_path / "link") if spelling == "symlink" else str(real / "sub" / ".." )
    config = codex_home / "config.toml"
    config.write_text(f'[projects."{real}"]\ntrust_level = "trusted"\n')
    bundle = _bundle(write_bundle, "alpha", "echo alpha")
    assert run("install", bundle, "--host", "codex", "--project", typed, "--trust").exit_code == 0
    assert config.read_text() == (f'[projects."{real}"]\ntrust_level = "trusted"\n\n'
                                  f'[hooks.state."{real}/.codex/hooks.json:stop:0:0"]\n'
                                  f'trusted_hash = "{_stop_hash("echo alpha # hookweave:alpha/h0")}"\n')
    assert run("verify", "--host", "codex", "--project", typed).exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex", "--project", typed).exit_code == 0
    assert config.read_text() == f'[projects."{real}"]\ntrust_level = "trusted"\n'


def test_uninstall_removes_trust_keyed_by_an_old_spelling(run, write_bundle, codex_home, tmp_path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    config = codex_home / "config.toml"
    config.write_text(f'[projects."{real}"]\ntrust_level = "trusted"\n')
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--project", str(real),
               "--trust").exit_code == 0
    # what hookweave wrote before it canonicalized: the path as typed
    config.write_text(config.read_text().replace(f"{real}/.codex", f"{tmp_path}/link/.codex"))
    assert run("uninstall", "alpha", "--host", "codex", "--project", str(tmp_path / "link")).exit_code == 0
    assert config.read_text() == f'[projects."{real}"]\ntrust_level = "trusted"\n'


# -- 4: a read-only user config.toml blocks only a change to it --------------------------------------

def test_read_only_user_config_blocks_only_changes_to_it(run, write_bundle, project_hooks, codex_home) -> None:
    config = codex_home / "config.toml"
    before = config.read_text()
    config.chmod(0o444)
    bundle = _bundle(write_bundle, "alpha", "echo alpha")
    assert run("install", bundle, "--host", "codex").exit_code == 0
    assert "# hookweave:alpha/h0" in project_hooks.read_text(encoding="utf-8")
    refused = run("install", bundle, "--host", "codex", "--trust")
    assert (refused.exit_code, refused.stderr) == (2, f"hooks: {config}: the file is read-only; make it writable "
                                                      "(chmod u+w) or choose another scope\n")
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert project_hooks.read_text(encoding="utf-8") == HOOKS_JSON and config.read_text() == before
    assert stat.S_IMODE(config.stat().st_mode) == 0o444


# -- 5: what we create for trust goes with our last trust entry --------------------------------------

def test_trust_file_and_folder_we_created_go_with_the_last_bundle(run, write_bundle, home, project) -> None:
    alpha, beta = _bundle(write_bundle, "alpha", "echo alpha"), _bundle(write_bundle, "beta", "echo beta")
    assert run("install", alpha, "--host", "codex", "--trust").exit_code == 0
    assert run("install", beta, "--host", "codex", "--trust").exit_code == 0
    config = home / ".codex" / "config.toml"
    source = project / ".codex" / "hooks.json"
    assert config.read_text() == (
        "# Created by hookweave for Codex hook trust; hookweave deletes it (and this folder) "
        "once it holds nothing else.\n"
        f'[hooks.state."{source}:stop:0:0"]\ntrusted_hash = "{_stop_hash("echo alpha # hookweave:alpha/h0")}"\n\n'
        f'[hooks.state."{source}:stop:1:0"]\ntrusted_hash = "{_stop_hash("echo beta # hookweave:beta/h0")}"\n')
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert config.exists()
    assert run("uninstall", "beta", "--host", "codex").exit_code == 0
    assert sorted(p.name for p in home.iterdir()) == [] and sorted(project.iterdir()) == []


def test_a_created_trust_file_the_operator_wrote_into_stays(run, write_bundle, home) -> None:
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust").exit_code == 0
    config = home / ".codex" / "config.toml"
    header, rest = config.read_text().split("\n", 1)
    config.write_text(f'{header}\nmodel = "o3"\n{rest}')  # a root key goes before the first table
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert config.read_text() == (
        "# Created by hookweave for Codex hook trust; hookweave deletes it (and this folder) "
        "once it holds nothing else.\n"
        'model = "o3"\n')


# -- 6: a [hooks.state] table the operator had stays, comments and all ------------------------------

def test_operators_empty_state_table_and_its_comments_survive(run, write_bundle, codex_home, project) -> None:
    config = codex_home / "config.toml"
    original = (f'# mine\n[projects."{project}"]\ntrust_level = "trusted"\n\n[hooks.state]\n'
                "# Codex writes trust here\n# (managed by hand)\n\n[tui]\nnotifications = true\n")
    config.write_text(original)
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust").exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert config.read_text() == original


# -- 7: inline arrays and CRLF files come back byte for byte ----------------------------------------

def _project_config_round_trip(run, write_bundle, project: Path, original: str, installed: str) -> None:
    """Install bundle alpha into a project config.toml holding ``original``: the file becomes
    ``installed``, and uninstall gives ``original`` back byte for byte."""
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(original)
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex").exit_code == 0
    assert config.read_text() == installed
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert config.read_text() == original


def test_inline_array_of_hooks_round_trips(run, write_bundle, codex_home, project) -> None:
    _project_config_round_trip(
        run, write_bundle, project,
        'hooks.Stop = [ {hooks = [{type = "command", command = "say done"}]} ]\n',
        'hooks.Stop = [ {hooks = [{type = "command", command = "say done"}]}, '
        '{hooks = [{type = "command", command = "echo alpha # hookweave:alpha/h0"}]} ]\n')


def test_crlf_config_toml_keeps_its_line_ending(run, write_bundle, codex_home) -> None:
    config = codex_home / "config.toml"
    original = CONFIG_TOML.replace("\n", "\r\n")
    config.write_bytes(original.encode())
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--scope", "user",
               "--trust").exit_code == 0
    text = config.read_bytes().decode()
    assert "\n" not in text.replace("\r\n", "") and "hookweave:alpha/h0" in text
    assert run("uninstall", "alpha", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_bytes() == original.encode()


# -- 8: an array of tables split by another table ---------------------------------------------------

SPLIT = ('[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "one"\n\n'
         '[tui]\nnotifications = true\n\n'
         '[[hooks.PreToolUse]]\nmatcher = "^Edit$"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "two"\n')


def test_array_of_tables_split_by_another_table(run, write_bundle, codex_home) -> None:
    config = codex_home / "config.toml"
    config.write_text(SPLIT)
    bundle = write_bundle('[bundle]\nname = "alpha"\nversion = "1"\n[[hooks]]\nid = "g"\nevent = "pre_tool_use"\n'
                          'command = "guard"\n')
    result = run("install", str(bundle), "--host", "codex", "--scope", "user", "--trust")
    assert result.exit_code == 0, result.output
    pre = trust_hash("PreToolUse", {}, {"command": "guard # hookweave:alpha/g"})
    assert config.read_text() == SPLIT + (
        '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "guard # hookweave:alpha/g"\n\n'
        f'[hooks.state."{config}:pre_tool_use:2:0"]\ntrusted_hash = "{pre}"\n')
    assert run("verify", "--host", "codex", "--scope", "user").exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_text() == SPLIT


# -- 9, 10: what Codex ignores we leave alone; what Codex cannot read we refuse ---------------------

ODD = ('{"hooks": {"FutureEvent": [{"hooks": 5}], "Later": 7, "Stop": [{"x": "\\ud800", "hooks": '
       '[{"type": "command", "command": "say done", "statusMessage": "bye"}]}]}}\n')


def test_unknown_events_and_unknown_fields_of_any_shape_are_left_alone(run, write_bundle, codex_home, project) -> None:
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(ODD)
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    bundle = _bundle(write_bundle, "alpha", "echo alpha")
    install = run("install", bundle, "--host", "codex", "--trust")
    assert install.exit_code == 0, install.output
    assert json.loads(hooks.read_text())["hooks"]["FutureEvent"] == [{"hooks": 5}]
    assert run("verify", "--host", "codex").exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex").exit_code == 0
    assert hooks.read_text() == ODD


@pytest.mark.parametrize(("handler", "group", "where"), [
    ({"command": "op \ud800"}, {}, "/hooks/Stop/0/hooks/0/command"),
    ({"command": "op", "statusMessage": "\udfff"}, {}, "/hooks/Stop/0/hooks/0/statusMessage"),
    ({"command": "op", "commandWindows": "\ud800"}, {}, "/hooks/Stop/0/hooks/0/commandWindows"),
    ({"command": "op", "x_unknown": ["ok", {"deep": "\ud800"}]}, {}, "/hooks/Stop/0/hooks/0/x_unknown/1/deep"),
    ({"command": "op", "\ud800\n": 1}, {}, "/hooks/Stop/0/hooks/0/\\ud800\\u000a"),
    ({"command": "op"}, {"matcher": "\ud800"}, "/hooks/Stop/0/matcher"),
])
def test_a_lone_surrogate_codex_cannot_read_is_refused(run, write_bundle, codex_home, project, handler, group,
                                                       where) -> None:
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    text = json.dumps({"hooks": {"Stop": [{**group, "hooks": [{"type": "command", **handler}]}]}})  # as \\u escapes
    hooks.write_text(text)
    config = codex_home / "config.toml"
    config.write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    result = run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        f"hooks: .codex/hooks.json: {where}: holds a lone surrogate (an unpaired \\ud800-\\udfff escape), so Codex "
        "cannot read the file and runs none of its hooks; fix that string\n"))
    assert hooks.read_text() == text and sorted(p.name for p in hooks.parent.iterdir()) == ["hooks.json"]
    assert config.read_text() == f'[projects."{project}"]\ntrust_level = "trusted"\n'


def test_verify_reports_a_lone_surrogate_that_appeared_after_install(run, write_bundle, codex_home, project) -> None:
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust").exit_code == 0
    hooks = project / ".codex" / "hooks.json"
    doc = json.loads(hooks.read_text())
    doc["hooks"]["Stop"].insert(0, {"hooks": [{"type": "command", "command": "op \udc80"}]})
    hooks.write_text(json.dumps(doc))  # ensure_ascii: the surrogate goes in as its escape
    verify = run("verify", "--host", "codex")
    assert verify.exit_code == 1
    assert ("  problem: .codex/hooks.json: /hooks/Stop/0/hooks/0/command holds a lone surrogate: Codex cannot read "
            "the file and runs none of its hooks; fix that string\n") in verify.stdout


# -- 11: a codex binary's answers are untrusted input with a real deadline --------------------------

def _fake_codex(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "fake-codex"
    script.write_text(f"#!{sys.executable}\nimport sys, time, json\n{body}\n")
    script.chmod(0o755)
    return script


LISTED = ('{"id": 2, "result": {"data": [{"hooks": [{"key": "k", "command": "echo alpha # hookweave:alpha/h0", '
          '"trustStatus": "untrusted"}], "warnings": [], "errors": []}]}}')


@pytest.mark.parametrize(("name", "body", "finding"), [
    ("banner", f"print('Codex app-server 0.169 ready', flush=True)\nsys.stdin.readline()\n"
               f"print('{{\"id\": 1, \"result\": {{}}}}', flush=True)\nsys.stdin.readline(); sys.stdin.readline()\n"
               f"print({LISTED!r}, flush=True)",
     "  problem: alpha/h0: codex app-server reports it untrusted (k)\n"),
    ("non-object", "print('[1, 2]', flush=True)\nprint('{\"id\": 1, \"result\": 5}', flush=True)\n"
                   "print('{\"id\": 2, \"result\": [\"x\"]}', flush=True)",
     '  warning: could not ask codex app-server: codex app-server answered hooks/list with something else: ["x"]\n'),
    ("silent", "time.sleep(60)",
     "  warning: could not ask codex app-server: codex app-server did not answer in time\n"),
    ("partial", "sys.stdout.write('{\"id\": 1, '); sys.stdout.flush(); time.sleep(60)",
     "  warning: could not ask codex app-server: codex app-server did not answer in time\n"),
    ("exits", "sys.exit(3)",
     "  warning: could not ask codex app-server: codex app-server stopped before it answered\n"),
])
def test_verify_survives_any_codex_binary(run, write_bundle, codex_home, project, tmp_path, monkeypatch,
                                          name, body, finding) -> None:
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust").exit_code == 0
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(_fake_codex(tmp_path, body)))
    if name in ("silent", "partial"):
        monkeypatch.setenv("HOOKWEAVE_CODEX_TIMEOUT", "1")
    started = time.monotonic()
    verify = run("verify", "--host", "codex")
    assert time.monotonic() - started < 5
    assert verify.exit_code == (1 if "problem" in finding else 0)
    assert finding in verify.stdout


def test_a_silent_codex_binary_costs_verify_a_few_seconds_by_default(run, write_bundle, codex_home, project,
                                                                      tmp_path, monkeypatch) -> None:
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--trust").exit_code == 0
    # a grandchild that keeps stdout open must not keep us waiting either
    monkeypatch.setenv("HOOKWEAVE_CODEX_BIN", str(_fake_codex(tmp_path, "import os\nos.fork()\ntime.sleep(120)")))
    started = time.monotonic()
    verify = run("verify", "--host", "codex")
    assert 4 < time.monotonic() - started < 8
    assert verify.exit_code == 0 and "did not answer in time" in verify.stdout


# -- 12: a project path that cannot be a TOML key is refused before the first byte -----------------

@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_non_utf8_project_path_with_trust_is_refused_before_writing(run, write_bundle, home, tmp_path) -> None:
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/proj-\xff"))
    folder.mkdir()
    result = run("install", _bundle(write_bundle, "alpha", "echo alpha"), "--host", "codex", "--project", str(folder),
                 "--trust")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not UTF-8" in result.stderr, result.stderr
    assert list(folder.iterdir()) == [] and list(home.iterdir()) == []


# -- 7, more: new entries look like their neighbours; spacing round-trips -----------------------------

def test_new_entries_are_written_like_their_sibling(run, write_bundle, codex_home, project) -> None:
    _project_config_round_trip(
        run, write_bundle, project,
        '# team hooks\n[[hooks.Stop]]\nhooks = [{ type = "command", command = "say done" }]\n\n[tui]\nx = 1\n',
        '# team hooks\n[[hooks.Stop]]\nhooks = [{ type = "command", command = "say done" }]\n\n'
        '[[hooks.Stop]]\nhooks = [{type = "command", command = "echo alpha # hookweave:alpha/h0"}]\n\n[tui]\nx = 1\n')


@pytest.mark.parametrize("original", [
    # the operator's trust table sits between two others with no blank lines around it
    '[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:1111"\n[tui]\nnotifications = true\n',
    # the file ends in a blank line
    '[tui]\nnotifications = true\n\n',
])
def test_trust_state_round_trips_byte_for_byte_whatever_the_spacing(run, write_bundle, codex_home, original) -> None:
    config = codex_home / "config.toml"
    config.write_text(original)
    bundle = _bundle(write_bundle, "alpha", "echo alpha")
    assert run("install", bundle, "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert "hookweave:alpha/h0" in (codex_home / "hooks.json").read_text()
    assert run("uninstall", "alpha", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_text() == original


# -- 2, more: what an earlier hookweave left in both representations ------------------------------------

def test_hooks_recorded_in_both_representations_are_pointed_out(run, write_bundle, codex_home) -> None:
    config = codex_home / "config.toml"
    config.write_text(CONFIG_TOML)
    alpha, beta = _bundle(write_bundle, "alpha", "echo alpha"), _bundle(write_bundle, "beta", "echo beta")
    assert run("install", alpha, "--host", "codex", "--scope", "user").exit_code == 0
    # what an earlier hookweave did once a hooks.json had appeared: the next bundle went there
    (codex_home / "hooks.json").write_text('{"hooks": {}}\n')
    (codex_home / "config.hookweave.json").rename(codex_home / "keep.json")
    assert run("install", beta, "--host", "codex", "--scope", "user").exit_code == 0
    (codex_home / "keep.json").rename(codex_home / "config.hookweave.json")
    verify = run("verify", "--host", "codex", "--scope", "user")
    assert ("  warning: " + f"{config} also holds hooks from hookweave, which this hookweave does not read while "
            "hooks.json holds some; uninstall the bundles here, then those in config.toml are found\n") in verify.stdout
    assert run("uninstall", "beta", "--host", "codex", "--scope", "user").exit_code == 0
    assert run("uninstall", "alpha", "--host", "codex", "--scope", "user").exit_code == 0
    assert config.read_text() == CONFIG_TOML
