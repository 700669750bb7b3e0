"""Manifest parsing: valid bundles come back as frozen data; every fault names file, key and fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.errors import EXIT_BAD_INPUT, BadInput, ParseError
from hookweave.core.model.bundle import BundleHook, EnvVar
from hookweave.core.model.manifest import parse_manifest
from tests.hostnames import LISTED

PATH = Path("bundles/guard/hookweave.toml")
HEAD = '[bundle]\nname = "guard"\nversion = "1.0.0"\n'
HOOK = '[[hooks]]\nid = "h"\nevent = "stop"\ncommand = "true"\n'
EVENTS = "session_start, session_end, user_prompt_submit, pre_tool_use, post_tool_use, stop, subagent_stop, " \
         "pre_compact, notification"
HOOK_KEYS = "id, event, matcher, command, timeout, position, hosts, host, order"
BAD_COMMAND = 'must be a string or a non-empty list of strings; e.g. ["python3", "{bundle_dir}/hook.py"]'


def hook(**fields: str) -> str:
    """A ``[[hooks]]`` table with id, event and command defaults, ``fields`` as raw TOML values."""
    values = {"id": '"h"', "event": '"stop"', "command": '"true"', **fields}
    return "[[hooks]]\n" + "".join(f"{k} = {v}\n" for k, v in values.items() if v is not None)


def test_valid_manifest_with_argv_string_overrides_and_env():
    text = HEAD + 'description = "Blocks rm -rf; café ☕"\n' + hook(
        id='"destructive-guard"', event='"pre_tool_use"', matcher='["shell", "edit"]',
        command='["python3", "{bundle_dir}/guard.py"]', timeout="10", position='"first"',
        hosts='["claude", "gemini"]',
    ) + '[hooks.host.gemini]\nevent = "BeforeTool"\nmatcher = "run_shell_command|replace"\ntimeout = 5\n' + hook(
        id='"tidy"', command='"make tidy && git status --short"'
    ) + '[env.A]\nvalue = "1"\n[env.B_2]\nvalue = 5000\npolicy = "at-least"\nhosts = ["claude"]\n' \
        '[env._C]\nvalue = "x"\npolicy = "override"\n'
    bundle = parse_manifest(text, PATH)
    assert (bundle.name, bundle.version, bundle.description) == ("guard", "1.0.0", "Blocks rm -rf; café ☕")
    assert (bundle.manifest, bundle.directory) == (PATH, PATH.parent)
    assert bundle.hooks == (
        BundleHook(
            id="destructive-guard", event="pre_tool_use", command=("python3", "{bundle_dir}/guard.py"),
            matcher=("shell", "edit"), timeout=10, position="first", hosts=("claude", "gemini"),
            overrides={"gemini": {"event": "BeforeTool", "matcher": "run_shell_command|replace", "timeout": 5}},
        ),
        BundleHook(id="tidy", event="stop", command="make tidy && git status --short"),
    )
    assert bundle.env == (
        EnvVar("A", "1", "if-absent", None),
        EnvVar("B_2", "5000", "at-least", ("claude",)),
        EnvVar("_C", "x", "override", None),
    )


def test_defaults_position_last_policy_if_absent():
    bundle = parse_manifest(HEAD + HOOK + '[env.X]\nvalue = "1"\n', PATH)
    (only,) = bundle.hooks
    assert (only.position, only.matcher, only.timeout, only.hosts, only.overrides) == ("last", None, None, None, {})
    assert bundle.env[0].policy == "if-absent" and bundle.description == ""


@pytest.mark.parametrize("text", [HEAD + HOOK, HEAD + '[env.X]\nvalue = "1"\n'], ids=["hooks-only", "env-only"])
def test_hooks_or_env_alone_is_enough(text):
    assert parse_manifest(text, PATH).name == "guard"


def test_name_of_64_characters_is_accepted():
    assert parse_manifest(HEAD.replace('"guard"', '"' + "a" * 64 + '"') + HOOK, PATH).name == "a" * 64


BAD = [
    ("unknown-top-level", 'bundel = 1\n' + HEAD + HOOK, "manifest.bundel: unknown key; did you mean 'bundle'?"),
    ("unknown-top-level-no-match", 'zzz = 1\n' + HEAD + HOOK,
     "manifest.zzz: unknown key; allowed keys: bundle, hooks, env"),
    ("missing-bundle", HOOK, "bundle: missing; add a [bundle] table with name and version"),
    ("bundle-not-a-table", 'bundle = "guard"\n' + HOOK, "bundle: must be a table, not a string; write it as [bundle]"),
    ("bundle-unknown-key", HEAD + 'verison = "2"\n' + HOOK, "bundle.verison: unknown key; did you mean 'version'?"),
    ("name-with-space", '[bundle]\nname = "My Guard"\nversion = "1"\n' + HOOK,
     "bundle.name: 'My Guard' is not a valid name; use lowercase letters, digits and dashes (up to 64)"),
    ("name-leading-dash", '[bundle]\nname = "-guard"\nversion = "1"\n' + HOOK,
     "bundle.name: '-guard' is not a valid name; use lowercase letters, digits and dashes (up to 64)"),
    ("name-65-chars", f'[bundle]\nname = "{"a" * 65}"\nversion = "1"\n' + HOOK,
     f"bundle.name: '{'a' * 65}' is not a valid name; use lowercase letters, digits and dashes (up to 64)"),
    ("name-missing", '[bundle]\nversion = "1"\n' + HOOK,
     'bundle.name: must be a non-empty string; use lowercase letters, digits and dashes, e.g. "my-guard"'),
    ("version-missing", '[bundle]\nname = "guard"\n' + HOOK,
     'bundle.version: must be a non-empty string; e.g. version = "1.0.0"'),
    ("version-number", '[bundle]\nname = "guard"\nversion = 1\n' + HOOK,
     'bundle.version: must be a non-empty string; e.g. version = "1.0.0"'),
    ("description-number", HEAD + "description = 3\n" + HOOK, "bundle.description: must be a string; quote it"),
    ("hooks-not-array", 'hooks = "x"\n' + HEAD, "hooks: must be an array of tables; write each hook as [[hooks]]"),
    ("hooks-a-table", HEAD + '[hooks]\nid = "h"\n', "hooks: must be an array of tables; write each hook as [[hooks]]"),
    ("unknown-hook-key", HEAD + hook(matchers='["shell"]'), "hooks[0].matchers: unknown key; did you mean 'matcher'?"),
    ("unknown-hook-key-no-match", HEAD + hook(zzzz="1"), f"hooks[0].zzzz: unknown key; allowed keys: {HOOK_KEYS}"),
    ("hook-id-missing", HEAD + hook(id=None),
     'hooks[0].id: must be a non-empty string; use lowercase letters, digits and dashes, e.g. "my-guard"'),
    ("duplicate-id", HEAD + HOOK + hook(event='"session_start"'),
     "hooks[1].id: duplicate id 'h'; give every hook its own id"),
    ("event-missing", HEAD + hook(event=None), "hooks[0] (h).event: missing; add event = ..."),
    ("event-typo", HEAD + hook(event='"pre_tool"'),
     "hooks[0] (h).event: unknown event 'pre_tool'; did you mean 'pre_tool_use'?"),
    ("event-native-name", HEAD + hook(event='"PreToolUse"'),
     "hooks[0] (h).event: unknown event 'PreToolUse'; did you mean 'pre_tool_use'?"),
    ("event-no-match", HEAD + hook(event='"zzz"'), f"hooks[0] (h).event: unknown event 'zzz'; use one of {EVENTS}"),
    ("matcher-native-tool", HEAD + hook(matcher='["Bash"]'),
     "hooks[0] (h).matcher: unknown tool 'Bash'; use shell, write, edit, read, "
     "or a native matcher string in [hooks.host.<host>]"),
    ("matcher-string", HEAD + hook(matcher='"shell"'),
     'hooks[0] (h).matcher: must be a list of tool names; e.g. matcher = ["shell"]'),
    ("position", HEAD + hook(position='"middle"'),
     "hooks[0] (h).position: unknown position 'middle'; use \"first\" or \"last\""),
    ("command-empty-list", HEAD + hook(command="[]"), f"hooks[0] (h).command: {BAD_COMMAND}"),
    ("command-empty-program", HEAD + hook(command='["", "x"]'), f"hooks[0] (h).command: {BAD_COMMAND}"),
    ("command-blank-string", HEAD + hook(command='"  "'),
     "hooks[0] (h).command: must be a non-empty string; give the shell command to run"),
    ("command-line-continuation", HEAD + hook(command='"./run.sh \\\\ "'),
     "hooks[0] (h).command: ends with a line continuation; remove the trailing backslash"),
    ("command-missing", HEAD + hook(command=None), "hooks[0] (h).command: missing; add command = ..."),
    ("host-override-unknown-key", HEAD + HOOK + '[hooks.host.gemini]\nevnt = "BeforeTool"\n',
     "hooks[0] (h).host.gemini.evnt: unknown key; did you mean 'event'?"),
    ("host-override-bad-timeout", HEAD + HOOK + '[hooks.host.gemini]\ntimeout = 0\n',
     "hooks[0] (h).host.gemini.timeout: must be a whole number of seconds above 0; e.g. timeout = 30"),
    ("hosts-not-a-list", HEAD + hook(hosts='"claude"'),
     'hooks[0] (h).hosts: must be a list of host names; e.g. hosts = ["claude", "gemini"]'),
    ("env-bad-name", HEAD + '[env."1ST"]\nvalue = "1"\n',
     "env.1ST: '1ST' is not a valid variable name; use letters, digits and _"),
    ("env-dash-name", HEAD + '[env."MY-VAR"]\nvalue = "1"\n',
     "env.MY-VAR: 'MY-VAR' is not a valid variable name; use letters, digits and _"),
    ("env-unknown-policy", HEAD + '[env.X]\nvalue = "1"\npolicy = "always"\n',
     "env.X.policy: unknown policy 'always'; use if-absent, override, at-least"),
    ("env-at-least-not-a-number", HEAD + '[env.X]\nvalue = "lots"\npolicy = "at-least"\n',
     'env.X.value: at-least needs a whole number; e.g. value = "5000"'),
    ("env-value-bool", HEAD + '[env.X]\nvalue = true\n',
     'env.X.value: must be a string or a whole number; e.g. value = "5000"'),
    ("env-value-missing", HEAD + '[env.X]\npolicy = "override"\n', 'env.X.value: missing; add value = "..."'),
    ("env-unknown-key", HEAD + '[env.X]\nvalue = "1"\npolcy = "override"\n',
     "env.X.polcy: unknown key; did you mean 'policy'?"),
    ("env-plain-value", HEAD + '[env]\nX = "1"\n', "env.X: must be a table, not a string; write it as [env.X]"),
    ("no-hooks-no-env", HEAD, "hooks: the bundle has no hooks and no env; add a [[hooks]] table"),
    ("empty-hooks-and-env", "hooks = []\n" + HEAD + "[env]\n",
     "hooks: the bundle has no hooks and no env; add a [[hooks]] table"),
]
BAD += [
    (f"timeout-{name}", HEAD + hook(timeout=value),
     "hooks[0] (h).timeout: must be a whole number of seconds above 0; e.g. timeout = 30")
    for name, value in [("zero", "0"), ("negative", "-5"), ("bool", "true"), ("string", '"30"'), ("float", "1.5")]
]


@pytest.mark.parametrize("text, message", [pytest.param(t, m, id=i) for i, t, m in BAD])
def test_bad_manifest_names_file_key_and_fix(text, message):
    with pytest.raises(BadInput) as info:
        parse_manifest(text, PATH)
    assert str(info.value) == f"{PATH}: {message}"
    assert type(info.value) is BadInput and info.value.exit_code == EXIT_BAD_INPUT == 2


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomlkit (Python 3.10) words TOML errors differently")
@pytest.mark.parametrize("text, where, reason", [
    (HEAD + '[[hooks]\nid = "h"\n', "4:8", "Expected ']]' at the end of an array declaration"),
    (HEAD + "timeout = \n", "4:11", "Invalid value"),
    ('[bundle]\nname = "guard\n', "2:14", "Illegal character '\\n'"),
])
def test_invalid_toml_is_a_parse_error_with_line_and_column(text, where, reason):
    with pytest.raises(ParseError) as info:
        parse_manifest(text, PATH)
    assert str(info.value) == f"{PATH}:{where}: invalid TOML: {reason}"
    assert info.value.exit_code == EXIT_BAD_INPUT


# -- issue 8, case 4: host-name typos and characters no settings file or shell can carry ---------------

@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD + hook(hosts='["claud"]'), "hooks[0] (h).hosts: unknown host 'claud'; did you mean 'claude'?"),
        (HEAD + hook() + '[hooks.host.gemni]\nevent = "AfterAgent"\n',
         "hooks[0] (h).host.gemni: unknown host 'gemni'; did you mean 'gemini'?"),
        (HEAD + '[env.X]\nvalue = "1"\nhosts = ["claude", "curser"]\n',
         "env.X.hosts: unknown host 'curser'; did you mean 'cursor'?"),
        (HEAD + hook(hosts='["vim"]'),
         f"hooks[0] (h).hosts: unknown host 'vim'; registered hosts: {LISTED}"),
    ],
)
def test_unknown_host_name_is_a_manifest_error_with_a_did_you_mean(run, write_bundle, project, text, message):
    """Issue 8 case 4: hosts = ["claud"] installed 0 hooks with exit 0."""
    folder = write_bundle(text)
    result = run("install", str(folder), "--host", "all")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr == f"hooks: {folder / 'hookweave.toml'}: {message}\n"
    assert list(project.iterdir()) == []


def test_a_plugin_host_counts_as_known(run, write_bundle):
    from hookweave.core.model.manifest import check_hosts

    bundle = parse_manifest(HEAD + hook(hosts='["myagent"]'), PATH)
    check_hosts(bundle, ["claude", "myagent"])
    with pytest.raises(BadInput, match="unknown host 'myagent'"):
        check_hosts(bundle, ["claude"])


@pytest.mark.parametrize(
    ("value", "where", "shown"),
    [
        ('"echo a\\u0000b"', "command", "\\x00"),
        ('["echo", "a\\u0000"]', "command", "\\x00"),
        ('"echo \\u001b[31m"', "command", "\\x1b"),
        ('"echo a\\rb"', "command", "\\r"),
    ],
)
def test_a_control_character_in_a_command_is_refused(run, write_bundle, project, value, where, shown):
    """Issue 8 case 4: a NUL inside a command was written into the settings file."""
    folder = write_bundle(HEAD + hook(command=value))
    result = run("install", str(folder), "--host", "claude")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr == (f"hooks: {folder / 'hookweave.toml'}: hooks[0] (h).{where}: holds the control character "
                             f"{shown}; remove it, or write it as a shell escape\n")
    assert list(project.iterdir()) == []


def test_tab_and_newline_stay_allowed_in_commands():
    bundle = parse_manifest(HEAD + hook(command='"cat <<EOF\\n\\tx\\nEOF"'), PATH)
    assert bundle.hooks[0].command == "cat <<EOF\n\tx\nEOF"


def test_nul_in_an_env_value_or_a_native_matcher_is_refused():
    with pytest.raises(BadInput, match=r"env.X.value: holds a NUL character"):
        parse_manifest(HEAD + '[env.X]\nvalue = "a\\u0000"\n', PATH)
    with pytest.raises(BadInput, match=r"host.claude.matcher: holds the control character \\x00"):
        parse_manifest(HEAD + hook() + '[hooks.host.claude]\nmatcher = "Ba\\u0000sh"\n', PATH)
