"""Issue 11 item 5: ``hooks adopt`` takes the operator's hand-written hooks into a bundle.

Whole-file golden tests on all four hosts (five file kinds): the settings file after adopt differs
from the original only by hookweave's marker at the end of each adopted command (the expected text
is made by replacing each command literal in the original, an oracle independent of the editor);
verify lists them; installing the written manifest writes nothing; ``--undo`` gives back the
original bytes; ``uninstall`` takes them out. Then bad input, and install's hand-written duplicates.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "adopt"

# host, settings file in the project, data file, [(command literal in the file, the id it gets)]
CASES = {
    "claude": ("claude", ".claude/settings.json", "claude.settings.json", [
        ('"python3 ~/bin/guard.py"', "pre-tool-use-1"), ("\"echo 'edit' >> /tmp/log\"", "pre-tool-use-2"),
        ('"cat <<\'EOF\'\\nhi\\nEOF"', "pre-tool-use-3"), ('"echo fail"', "posttoolusefailure-1"),
        ('"say done # spoken"', "stop-1")]),
    "gemini": ("gemini", ".gemini/settings.json", "gemini.settings.json", [
        ('"node ~/g.js"', "pre-tool-use-1"), ('"echo x"', "pre-tool-use-2"), ('"notify-send done"', "stop-1")]),
    "cursor": ("cursor", ".cursor/hooks.json", "cursor.hooks.json", [
        ('"./audit.sh"', "beforeshellexecution-1"), ('"echo done"', "stop-1"),
        ('"npx prettier --write"', "afterfileedit-1")]),
    "codex-json": ("codex", ".codex/hooks.json", "codex.hooks.json", [
        ('"echo codex"', "pre-tool-use-1"), ('"echo start"', "session-start-1")]),
    "codex-toml": ("codex", ".codex/config.toml", "codex.config.toml", [
        ("'echo \"codex\"'", "pre-tool-use-1"), ('"echo stop"', "stop-1")]),
}


def _marked(literal: str, hook_id: str, name: str = "mine") -> str:
    """The literal with the marker inside its closing quote (a new line for a multi-line command)."""
    sep = "\\n" if "\\n" in literal else " "
    return literal[:-1] + f"{sep}# hookweave:{name}/{hook_id}" + literal[-1]


def _setup(project: Path, case: str) -> tuple[str, Path, str, str]:
    host, rel, data, commands = CASES[case]
    path = project / rel
    path.parent.mkdir(parents=True)
    original = (DATA / data).read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    expected = original
    for literal, hook_id in commands:
        assert expected.count(literal) == 1
        expected = expected.replace(literal, _marked(literal, hook_id))
    return host, path, original, expected


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", list(CASES))
def test_adopt_marks_only_the_commands_and_round_trips(run, project, tmp_path, case, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    host, path, original, expected = _setup(project, case)
    out = tmp_path / "bundle"
    result = run("adopt", "--host", host, "--name", "mine", "--out", str(out))
    assert result.exit_code == 0, result.output
    n = len(CASES[case][3])
    assert f"adopted {n} hooks into mine ({out}/hookweave.toml)" in result.stdout
    assert path.read_text(encoding="utf-8") == expected
    verify = run("verify", "--host", host, "--json")
    [file] = [f for f in json.loads(verify.stdout)["hosts"][0]["files"] if f["scope"] == "project"]
    hooks = [(h["id"], h["status"]) for h in file["bundles"][0]["hooks"]]
    assert hooks == [(hook_id, "ok") for _, hook_id in CASES[case][3]]
    before = _files(tmp_path)
    again = run("install", str(out), "--host", host)
    assert again.exit_code == 0 and "mine 1.0.0 already installed; nothing written" in again.stdout, again.output
    assert _files(tmp_path) == before
    undo = run("adopt", "--undo", "mine", "--host", host)
    assert undo.exit_code == 0, undo.output
    assert path.read_text(encoding="utf-8") == original
    assert not path.with_name(path.stem + ".hookweave.json").exists()
    assert (out / "hookweave.toml").exists()  # the manifest stays: adopt --force writes it again


def test_adopt_writes_a_manifest_that_says_everything(run, project, tmp_path) -> None:
    _setup(project, "claude")
    assert run("adopt", "--host", "claude", "--name", "mine").exit_code == 0
    assert (project / "hookweave.toml").read_text(encoding="utf-8") == '''\
# Written by `hooks adopt` from Claude Code project settings: the operator's own hooks, in file order.
# Undo with `hooks adopt --undo mine` (same --host and --scope).

[bundle]
name = "mine"
version = "1.0.0"
description = "Hooks adopted from Claude Code project settings"

[[hooks]]
id = "pre-tool-use-1"
event = "pre_tool_use"
hosts = ["claude"]
command = "python3 ~/bin/guard.py"
timeout = 10

[hooks.host.claude]
matcher = "Bash"
handler = { statusMessage = "guarding…" }

[[hooks]]
id = "pre-tool-use-2"
event = "pre_tool_use"
hosts = ["claude"]
command = "echo 'edit' >> /tmp/log"

[hooks.host.claude]
matcher = "Edit|Write"
handler = { async = true }

[[hooks]]
id = "pre-tool-use-3"
event = "pre_tool_use"
hosts = ["claude"]
command = "cat <<'EOF'\\nhi\\nEOF"

[hooks.host.claude]
handler = { timeout = 1.5 }
group = { matcher = "" }

[[hooks]]
id = "posttoolusefailure-1"
hosts = ["claude"]
command = "echo fail"

[hooks.host.claude]
event = "PostToolUseFailure"
handler = { if = "Bash(git *)" }

[[hooks]]
id = "stop-1"
event = "stop"
hosts = ["claude"]
command = "say done # spoken"
'''


def test_adopt_gemini_manifest_keeps_names_milliseconds_and_sequential(run, project, monkeypatch) -> None:
    _setup(project, "gemini")
    assert run("adopt", "--host", "gemini", "--name", "mine", "--event", "pre_tool_use").exit_code == 0
    text = (project / "hookweave.toml").read_text(encoding="utf-8")
    assert text.split("[[hooks]]", 1)[1] == '''
id = "pre-tool-use-1"
event = "pre_tool_use"
hosts = ["gemini"]
command = "node ~/g.js"

[hooks.host.gemini]
matcher = "run_shell_command"
handler = { name = "guard", timeout = 1500 }
group = { sequential = true }

[[hooks]]
id = "pre-tool-use-2"
event = "pre_tool_use"
hosts = ["gemini"]
command = "echo x"
timeout = 5

[hooks.host.gemini]
handler = { env = { A = "b" } }
omit = ["name"]
'''


def test_adopt_one_event_then_uninstall_takes_exactly_those(run, project) -> None:
    _, path, original, _ = _setup(project, "claude")
    assert run("adopt", "--host", "claude", "--name", "mine", "--event", "Stop").exit_code == 0
    assert path.read_text() == original.replace('"say done # spoken"', '"say done # spoken # hookweave:mine/stop-1"')
    assert run("uninstall", "mine", "--host", "claude").exit_code == 0
    assert path.read_text() == original.replace(
        '"Stop": [{"hooks": [{"type": "command", "command": "say done # spoken"}]}]', '"Stop": []')


def test_adopt_dry_run_and_json_write_nothing(run, project, tmp_path) -> None:
    _setup(project, "cursor")
    before = _files(tmp_path)
    dry = run("adopt", "--host", "cursor", "--name", "mine", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert dry.stdout.startswith("would write hookweave.toml:\n# Written by `hooks adopt` from Cursor project")
    assert '+\t\t"beforeShellExecution": [ { "command": "./audit.sh # hookweave:mine/beforeshellexecution-1" } ],\n' \
        in dry.stdout
    assert dry.stdout.endswith("dry run: nothing written\n")
    as_json = run("adopt", "--host", "cursor", "--name", "mine", "--dry-run", "--json")
    doc = json.loads(as_json.stdout)
    assert (doc["command"], doc["dry_run"], doc["changed"]) == ("adopt", True, True)
    assert doc["manifest"]["path"] == str(project / "hookweave.toml") and doc["manifest"]["written"] is False
    assert doc["manifest"]["text"] == dry.stdout.split(":\n", 1)[1].split("\ncursor project")[0] + "\n"
    assert doc["files"][0]["operations"][0] == {
        "op": "replace", "path": "/hooks/beforeShellExecution/0/command",
        "value": "./audit.sh # hookweave:mine/beforeshellexecution-1"}
    assert _files(tmp_path) == before


def test_codex_trust_follows_the_adopted_hook_and_comes_back_on_undo(run, project, home) -> None:
    from hookweave.hosts.codex import trust_hash

    _, path, original, _ = _setup(project, "codex-json")
    group = json.loads(original)["hooks"]["PreToolUse"][0]
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    key = f"{path}:pre_tool_use:0:0"
    config_text = (f'# mine\n[projects."{project}"]\ntrust_level = "trusted"\n\n[hooks.state."{key}"]\n'
                   f'trusted_hash = "{trust_hash("PreToolUse", group, group["hooks"][0])}"  # trusted in /hooks\n')
    config.write_text(config_text)
    assert run("adopt", "--host", "codex", "--name", "mine").exit_code == 0
    marked = json.loads(path.read_text())["hooks"]["PreToolUse"][0]
    assert config.read_text() == config_text.replace(trust_hash("PreToolUse", group, group["hooks"][0]),
                                                     trust_hash("PreToolUse", marked, marked["hooks"][0]))
    verify = run("verify", "--host", "codex")
    assert "mine/pre-tool-use-1: not trusted" not in verify.stdout
    assert "mine/session-start-1: not trusted" in verify.stdout  # never trusted: adopt does not trust it
    assert run("adopt", "--undo", "mine", "--host", "codex").exit_code == 0
    assert (path.read_text(), config.read_text()) == (original, config_text)


# -- bad input: one line, exit 2, no byte written ---------------------------------------------------

BAD = [
    ("claude", '{"hooks": {"Stop": []}}', ["--event", "stop"],
     ".claude/settings.json: no hand-written hooks under Stop; nothing to adopt: name another --event or --scope"),
    ("claude", '{"hooks": {}}', ["--event", "BeforeTool"],
     "--event BeforeTool: Claude Code has no such event; use a neutral name"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x # hookweave:other/a"}]}]}}', [],
     ".claude/settings.json: no hand-written hooks in it (1 entry is a bundle's already); nothing to adopt: name "
     "another --event or --scope"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}, {"type": "prompt", "prompt": "ok?"}]}]}}', [],
     '.claude/settings.json: /hooks/Stop/0/hooks/1: a hook of type "prompt"; hookweave adopts command hooks only: '
     "adopt the other events with --event"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "ok?"}]}]}}', [],
     '.claude/settings.json: /hooks/Stop/0/hooks/0: a hook of type "prompt"; hookweave adopts command hooks only: '
     "adopt the other events with --event"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cd {project_dir}"}]}]}}', [],
     ".claude/settings.json: /hooks/Stop/0/hooks/0/command: holds {project_dir}, which a manifest would fill in; "
     'write it another way (e.g. {""project_dir}), then adopt'),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a \\\\"}]}]}}', [],
     ".claude/settings.json: /hooks/Stop/0/hooks/0/command: ends with a line continuation, which would swallow "
     "hookweave's marker; remove it, then adopt"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a\\u001b[0m"}]}]}}', [],
     ".claude/settings.json: /hooks/Stop/0/hooks/0/command: holds the control character \\x1b; remove it, then adopt"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "timeout": null}]}]}}', [],
     ".claude/settings.json: /hooks/Stop/0/hooks/0/timeout: null, which a manifest cannot hold; remove the key or "
     "give it a value, then adopt"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}', ["--name", "Mine!"],
     "--name Mine!: not a valid bundle name; use lowercase letters, digits and dashes"),
    ("claude", '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}', ["--host", "gemini"],
     "adopt: name one --host; a manifest is written from one host's settings file"),
    ("claude", "{,}", [], ".claude/settings.json:1:2:"),
]


@pytest.mark.parametrize("host, text, args, message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_adopt_bad_input_is_one_line_and_writes_nothing(run, project, tmp_path, host, text, args, message) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    before = _files(tmp_path)
    result = run("adopt", "--host", host, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"hooks: {message}") and result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == "" and _files(tmp_path) == before


def test_adopt_refuses_an_existing_manifest_and_an_installed_name(run, project, tmp_path) -> None:
    _setup(project, "claude")
    (project / "hookweave.toml").write_text("# the tool author's\n")
    before = _files(tmp_path)
    result = run("adopt", "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, "hooks: hookweave.toml: a manifest is there already; pass --out "
                                                    "with another folder, or --force to replace it\n")
    assert _files(tmp_path) == before
    assert run("adopt", "--host", "claude", "--name", "mine", "--out", "a").exit_code == 0
    before = _files(tmp_path)
    result = run("adopt", "--host", "claude", "--name", "mine", "--out", "b")
    assert result.exit_code == 2
    assert result.stderr.startswith("hooks: .claude/settings.json: a bundle named mine is installed here already")
    assert _files(tmp_path) == before
    undo = run("adopt", "--undo", "nope", "--host", "claude")
    assert (undo.exit_code, undo.stderr) == (2, "hooks: .claude/settings.json: no bundle named nope is installed here; "
                                                "`hooks status` lists them\n")


# -- install: a hook the operator already wrote by hand ----------------------------------------------

GUARD = ('[bundle]\nname = "guard"\nversion = "1.0.0"\n[[hooks]]\nid = "check"\nevent = "pre_tool_use"\n'
         'matcher = ["shell"]\ncommand = "python3 ~/bin/guard.py"\ntimeout = 10\n')


def test_install_refuses_a_hand_written_duplicate_and_names_adopt(run, project, tmp_path, write_bundle) -> None:
    _, path, original, _ = _setup(project, "claude")
    bundle = write_bundle(GUARD)
    before = _files(tmp_path)
    result = run("install", str(bundle), "--host", "claude")
    assert result.exit_code == 1
    assert result.stderr == (
        "hooks: .claude/settings.json: guard/check is already at /hooks/PreToolUse/0 by hand (the same command and "
        "matcher), so it would run twice: remove that one, or take it under hookweave first with `hooks adopt --host "
        "claude --scope project --event PreToolUse` (`hooks uninstall adopted` then takes it out, and the adopted "
        "manifest keeps it); nothing written. Keep the operator's version, or rerun with --force to replace it with "
        "the bundle's version\n")
    assert _files(tmp_path) == before
    forced = run("install", str(bundle), "--host", "claude", "--force")
    assert forced.exit_code == 0 and "note: guard/check: replaced the hand-written copy at /hooks/PreToolUse/0" \
        in forced.stdout
    line = ('      {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 ~/bin/guard.py", "timeout": 10, '
            '"statusMessage": "guarding…"}]},\n')
    assert line in original
    after = path.read_text()
    assert after.replace('"command": "python3 ~/bin/guard.py # hookweave:guard/check"', '"command": "X"') != after
    assert line not in after and after.count("hookweave:guard/check") == 1


def test_install_after_adopt_and_uninstall_of_the_adopted_is_no_duplicate(run, project, write_bundle) -> None:
    _, path, _, _ = _setup(project, "claude")
    bundle = write_bundle(GUARD)
    assert run("adopt", "--host", "claude", "--event", "PreToolUse", "--out", "own").exit_code == 0
    assert run("uninstall", "adopted", "--host", "claude").exit_code == 0
    assert "guard.py" not in path.read_text()
    assert run("install", str(bundle), "--host", "claude").exit_code == 0
    assert path.read_text().count("python3 ~/bin/guard.py") == 1


def test_install_same_command_other_matcher_is_not_a_duplicate(run, project, write_bundle) -> None:
    _setup(project, "claude")
    result = run("install", str(write_bundle(GUARD.replace('["shell"]', '["edit"]'))), "--host", "claude")
    assert result.exit_code == 0, result.output


# -- the manifest's host-native keys, used by hand too ----------------------------------------------

def test_host_native_keys_render_on_a_fresh_install(run, project, write_bundle) -> None:
    bundle = write_bundle('[bundle]\nname = "g"\nversion = "1.0.0"\n[[hooks]]\nid = "fail"\nhosts = ["claude"]\n'
                          'command = "echo fail"\n[hooks.host.claude]\nevent = "PostToolUseFailure"\nmatcher = "Bash"\n'
                          'handler = { statusMessage = "…", async = true, timeout = 2.5 }\ngroup = { note = [1, "x"] }\n'
                          'omit = ["type"]\n')
    # Claude refuses a whole file for a hook without "type" (measured): omit must not make one
    refused = run("install", str(bundle), "--host", "claude")
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (f'hooks: {bundle}/hookweave.toml: hooks (fail).host.claude.omit: a hook without "type" '
                              'Claude Code refuses the whole file for it and runs none of its hooks; take "type" out of omit\n')
    assert not (project / ".claude").exists()
    bundle.joinpath("hookweave.toml").write_text(bundle.joinpath("hookweave.toml").read_text().replace('omit = ["type"]\n', 'omit = ["timeout"]\n'))
    assert run("install", str(bundle), "--host", "claude").exit_code == 0
    assert (project / ".claude" / "settings.json").read_text() == '''\
{
  "hooks": {
    "PostToolUseFailure": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "echo fail # hookweave:g/fail",
            "statusMessage": "…",
            "async": true,
            "timeout": 2.5
          }
        ],
        "note": [
          1,
          "x"
        ]
      }
    ]
  }
}
'''


@pytest.mark.parametrize("table, message", [
    ('handler = { command = "x" }', "hooks[0] (a).host.claude.handler.command: is written by hookweave; set the "
                                     "hook's command instead"),
    ('group = { hooks = [] }', "hooks[0] (a).host.claude.group.hooks: is written by hookweave; set the hook's hooks "
                               "instead"),
    ("handler = { when = 1979-05-27 }", "hooks[0] (a).host.claude.handler.when: holds a date, which no settings "
                                        "file can; remove it"),
    ('handler = { x = nan }', "hooks[0] (a).host.claude.handler.x: holds nan, which no settings file can; remove it"),
    ('omit = "type"', 'hooks[0] (a).host.claude.omit: must be a list of handler keys other than command; e.g. omit '
                      '= ["type"]'),
    ('handler = 3', "hooks[0] (a).host.claude.handler: must be a table; write handler = { key = value }"),
])
def test_host_native_keys_are_checked(run, project, write_bundle, table, message) -> None:
    bundle = write_bundle('[bundle]\nname = "g"\nversion = "1.0.0"\n[[hooks]]\nid = "a"\nevent = "stop"\n'
                          f'command = "x"\n[hooks.host.claude]\n{table}\n')
    result = run("install", str(bundle), "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, f"hooks: {bundle}/hookweave.toml: {message}\n")
    assert not (project / ".claude").exists()


def test_a_hook_without_event_needs_hosts_whose_table_names_one(run, write_bundle) -> None:
    bundle = write_bundle('[bundle]\nname = "g"\nversion = "1.0.0"\n[[hooks]]\nid = "a"\ncommand = "x"\n'
                          '[hooks.host.claude]\nevent = "PostToolUseFailure"\n')
    result = run("install", str(bundle), "--host", "claude")
    assert (result.exit_code, result.stderr) == (2, f"hooks: {bundle}/hookweave.toml: hooks[0] (a).event: missing; "
                                                    "add event = ...\n")


def test_cursor_adopt_adds_version_and_undo_takes_it_away(run, project) -> None:
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir()
    original = '{\n  "hooks": {"stop": [{"command": "echo done"}]}\n}\n'
    path.write_text(original)
    assert run("adopt", "--host", "cursor", "--name", "mine").exit_code == 0
    assert path.read_text() == ('{\n  "hooks": {"stop": [{"command": "echo done # hookweave:mine/stop-1"}]},\n'
                                '  "version": 1\n}\n')
    assert run("adopt", "--undo", "mine", "--host", "cursor").exit_code == 0
    assert path.read_text() == original


@pytest.mark.parametrize("args, message", [
    (["--event", "a\nb"], "hooks: --event a\\nb: Claude Code has no such event"),
    (["--name", "a\nb"], "hooks: --name a\\nb: not a valid bundle name"),
    (["--undo", "a\nb"], "hooks: .claude/settings.json: no bundle named a\\nb is installed here"),
])
def test_adopt_messages_stay_one_line(run, project, tmp_path, args, message) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a"}]}]}}')
    before = _files(tmp_path)
    result = run("adopt", "--host", "claude", *args)
    assert result.exit_code == 2 and result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert _files(tmp_path) == before


# -- an agent that runs a command with no shell character without a shell (Auggie: runs = "argv") --------------

@pytest.fixture
def argv_agent(monkeypatch):
    """A described host that splits such a command on spaces, registered as a plugin's would be."""
    from hookweave.core.contract import registry as registries
    from hookweave.core.contract.admission import host_class_of
    from hookweave.core.contract.description import Description
    from hookweave.core.contract.hookspecs import hookimpl

    agent = host_class_of(Description(name="splitter", title="Splitter", events={"stop": "Stop"}, runs="argv",
                                      files={"project": "{project}/.split/hooks.json"}, protocol="claude"))

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(agent)

    def with_agent():
        pm = registries.get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="splitter")
        return registries.HostRegistry(pm)

    monkeypatch.setattr(registries, "registry", with_agent)
    return "splitter"


def test_adopt_on_an_argv_agent_marks_as_install_renders_and_undo_gives_the_bytes_back(run, project, argv_agent):
    """The marker after a plain command would be arguments to an agent that splits it on spaces: adopt
    puts it after `` ;`` (the agent then runs a shell, where it is a comment), as install renders it,
    so the manifest installs as is; ``--undo`` takes both off again."""
    path = project / ".split" / "hooks.json"
    path.parent.mkdir()
    original = '{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}\n}\n'
    path.write_text(original)
    result = run("adopt", "--host", argv_agent, "--name", "mine", "--out", "own")
    assert result.exit_code == 0, result.output
    assert path.read_text() == original.replace('"say done"', '"say done ; # hookweave:mine/stop-1"')
    assert run("verify", "--host", argv_agent).exit_code == 0
    again = run("install", "own", "--host", argv_agent)
    assert again.exit_code == 0 and "already installed; nothing written" in again.stdout, again.output
    assert run("adopt", "--undo", "mine", "--host", argv_agent).exit_code == 0
    assert path.read_text() == original


@pytest.mark.parametrize("command, message", [
    ('echo \\"a b\\"', "Splitter runs it without a shell (it holds none of | & ; > < $ `), and hookweave's "
                       "marker needs one, which would read its quotes, spacing or patterns otherwise; end it with "
                       "';', then adopt"),
    ("ls *.py", "Splitter runs it without a shell"),
    ("say  twice", "Splitter runs it without a shell"),
    ("say done ;", "ends with ' ;', which hookweave's marker adds on Splitter, so --undo could not give it back; "
                   "remove it, then adopt"),
])
def test_adopt_on_an_argv_agent_refuses_what_a_shell_would_read_otherwise(run, project, tmp_path, argv_agent,
                                                                          command, message):
    path = project / ".split" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "%s"}]}]}}' % command)
    before = _files(tmp_path)
    result = run("adopt", "--host", argv_agent)
    assert result.exit_code == 2
    where = ".split/hooks.json: /hooks/Stop/0/hooks/0/command"
    assert result.stderr.startswith(f"hooks: {where}: {message}"), result.stderr
    assert _files(tmp_path) == before


def test_adopt_on_an_argv_agent_keeps_a_command_it_runs_in_a_shell_as_is(run, project, argv_agent):
    path = project / ".split" / "hooks.json"
    path.parent.mkdir()
    original = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say \\"a  b\\" | tee log"}]}]}}'
    path.write_text(original)
    assert run("adopt", "--host", argv_agent, "--name", "mine").exit_code == 0
    assert path.read_text() == original.replace('tee log"', 'tee log # hookweave:mine/stop-1"')
    assert run("adopt", "--undo", "mine", "--host", argv_agent).exit_code == 0
    assert path.read_text() == original


def test_install_on_an_argv_agent_finds_the_hand_written_copy(run, project, tmp_path, write_bundle, argv_agent):
    """Install renders a plain command with `` ;`` before the marker there; the operator's copy has
    neither, and is still the same hook: it would run twice."""
    path = project / ".split" / "hooks.json"
    path.parent.mkdir()
    path.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}\n')
    bundle = write_bundle('[bundle]\nname = "b"\nversion = "1.0.0"\n[[hooks]]\nid = "h"\nevent = "stop"\n'
                          'command = "say done"\n')
    before = _files(tmp_path)
    result = run("install", str(bundle), "--host", argv_agent)
    assert result.exit_code == 1 and "b/h is already at /hooks/Stop/0 by hand" in result.stderr, result.output
    assert _files(tmp_path) == before
