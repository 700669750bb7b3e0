"""Kimi Code specifics (documented facts, checked in its source, file-level): ``[[hooks]]`` tables of
exactly event, matcher, command and timeout in ~/.kimi-code/config.toml, the operator's file given
back byte for byte, and every table Kimi would refuse (it then loads none of the file's hooks)."""

from __future__ import annotations

from pathlib import Path

from hookweave.core.standalone import protocol

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = (DATA / "kimi" / "operator.config.toml").read_text(encoding="utf-8")
OURS = ('\n[[hooks]]\nevent = "PreToolUse"\nmatcher = "^Bash$"\n'
        'command = "guard-hook --project . # hookweave:guard/one-strike"\ntimeout = 10\n'
        '\n[[hooks]]\nevent = "Stop"\ncommand = "nightly keepalive-hook # hookweave:guard/keepalive"\n'
        '\n[[hooks]]\nevent = "SessionStart"\ncommand = "session-log start # hookweave:guard/session-log"\n')
HEAD = '[bundle]\nname = "k"\nversion = "1"\n'
EXTRA = '\n[[hooks]]\nevent = "Stop"\ncommand = "echo hand-written"\ntype = "command"\n'


def _config(home: Path) -> Path:
    return home / ".kimi-code" / "config.toml"


def _operator(home: Path, text: str = OPERATOR) -> Path:
    path = _config(home)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_operator_file_round_trip_restores_every_byte(run, home: Path) -> None:
    """No --scope: Kimi has no project file, so its one user file; ours go last, each a table of its own."""
    path = _operator(home)
    install = run("install", BUNDLE, "--host", "kimi")
    assert install.exit_code == 0, install.output
    assert "position first is not applied on Kimi Code: hookweave appends its [[hooks]] tables" in install.stdout
    after = (DATA / "kimi" / "operator.after-install.toml").read_text(encoding="utf-8")
    assert after == OPERATOR + OURS
    assert path.read_text(encoding="utf-8") == after
    assert "guard 1.2.0 already installed; nothing written\n" in run("install", BUNDLE, "--host", "kimi").stdout
    verify = run("verify", "--host", "kimi")
    assert verify.exit_code == 0, verify.output
    assert "kimi  user  guard 1.2.0  3 hooks ok  " in verify.stdout
    assert run("uninstall", "guard", "--host", "kimi").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR


def test_crlf_and_no_final_newline_come_back_too(run, home: Path) -> None:
    for text in (OPERATOR.replace("\n", "\r\n"), OPERATOR.rstrip("\n"), OPERATOR.replace("\n", "\r\n").rstrip("\r\n")):
        path = _operator(home, text)
        assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
        written = path.read_bytes().decode("utf-8")
        assert written.startswith(text) and ("\r\n" in written[len(text):]) == ("\r\n" in text)
        assert run("verify", "--host", "kimi").exit_code == 0
        assert run("uninstall", "guard", "--host", "kimi").exit_code == 0
        assert path.read_bytes() == text.encode("utf-8")


def test_a_table_the_operator_adds_after_ours_stays_where_it_is(run, home: Path) -> None:
    path = _operator(home)
    assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
    mine = '\n[[hooks]]\nevent = "Stop"\ncommand = "echo later"\n'
    path.write_text(OPERATOR + OURS + mine, encoding="utf-8")
    assert run("uninstall", "guard", "--host", "kimi").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR + mine


def test_a_file_hookweave_created_goes_again_with_its_folder(run, home: Path) -> None:
    assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
    assert _config(home).read_text(encoding="utf-8") == OURS[1:]
    assert run("uninstall", "guard", "--host", "kimi").exit_code == 0
    assert not _config(home).parent.exists()


def test_several_hosts_without_scope_each_take_their_own_default(run, home: Path, project: Path) -> None:
    result = run("install", BUNDLE, "--host", "cursor", "--host", "kimi")
    assert result.exit_code == 0, result.output
    assert (project / ".cursor" / "hooks.json").exists() and _config(home).read_text(encoding="utf-8") == OURS[1:]
    refused = run("install", BUNDLE, "--host", "kimi", "--scope", "project")
    assert refused.exit_code == 2
    assert refused.stderr == "hooks: --scope project: Kimi Code has no writable scope 'project'; use user\n"


def test_kimi_code_home_moves_the_file(run, home: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KIMI_CODE_HOME", str(tmp_path / "elsewhere"))
    assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
    assert (tmp_path / "elsewhere" / "config.toml").read_text(encoding="utf-8") == OURS[1:]
    assert not _config(home).exists()


def test_verify_says_an_extra_field_keeps_every_hook_from_loading(run, home: Path) -> None:
    path = _operator(home)
    assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
    path.write_text(path.read_text(encoding="utf-8") + EXTRA, encoding="utf-8")
    verify = run("verify", "--host", "kimi")
    assert verify.exit_code == 1
    assert (".kimi-code/config.toml: a [[hooks]] table (event = 'Stop', command = 'echo hand-written'): "
            "field 'type' is not one of event, matcher, command, timeout: Kimi Code loads none of this file's hooks; "
            "fix or remove that table\n") in verify.stdout
    assert run("uninstall", "guard", "--host", "kimi").exit_code == 0  # taking ours out is still allowed
    assert path.read_text(encoding="utf-8") == OPERATOR + EXTRA


def test_install_refuses_a_file_kimi_would_load_no_hook_from(run, home: Path) -> None:
    for bad, said in ((EXTRA, "[[hooks]] #4 (event = 'Stop', command = 'echo hand-written'): field 'type' is not one of "
                              "event, matcher, command, timeout"),
                      ('\n[[hooks]]\nevent = "BeforeTool"\ncommand = "x"\n',
                       "[[hooks]] #4 (event = 'BeforeTool', command = 'x'): event 'BeforeTool' is not one Kimi Code knows"),
                      ('\n[[hooks]]\nevent = "Stop"\ncommand = "x"\ntimeout = 0\n',
                       "[[hooks]] #4 (event = 'Stop', command = 'x'): timeout 0 is not a whole number of seconds from 1 "
                       "to 600"),
                      ('\n[[hooks]]\nevent = "Stop"\ncommand = ""\n', "command is missing or empty")):
        path = _operator(home, OPERATOR + bad)
        result = run("install", BUNDLE, "--host", "kimi")
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr
        assert "Kimi Code would load none of this file's hooks; fix or remove that table" in result.stderr
        assert path.read_text(encoding="utf-8") == OPERATOR + bad
        assert not (path.parent / "config.hookweave.json").exists()


def test_a_hooks_key_that_is_no_array_of_tables_is_refused(run, home: Path) -> None:
    path = _operator(home, '[hooks]\nStop = [{ command = "x" }]\n')
    result = run("install", BUNDLE, "--host", "kimi")
    assert result.exit_code == 2
    assert "config.toml: hooks is a table, not an array of [[hooks]] tables: Kimi Code loads no hook" in result.stderr
    verify = run("verify", "--host", "kimi")
    assert "hooks is a table, not an array of [[hooks]] tables" in verify.stdout
    assert path.read_text(encoding="utf-8") == '[hooks]\nStop = [{ command = "x" }]\n'


def test_a_timeout_past_600_or_an_event_kimi_lacks_is_refused_before_writing(run, write_bundle, home: Path) -> None:
    long = write_bundle(HEAD + '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "x"\ntimeout = 601\n')
    result = run("install", str(long), "--host", "kimi")
    assert result.exit_code == 2 and "timeout: Kimi Code takes timeouts of 1 to 600 s" in result.stderr
    native = write_bundle(HEAD + '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "x"\n[hooks.host.kimi]\n'
                                 'event = "AfterAgent"\n')
    result = run("install", str(native), "--host", "kimi")
    assert result.exit_code == 2 and "AfterAgent" in result.stderr
    assert not _config(home).parent.exists()
    ok = write_bundle(HEAD + '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "x"\ntimeout = 600\n'
                             '[[hooks]]\nid = "b"\nevent = "stop"\ncommand = "y"\n[hooks.host.kimi]\n'
                             'event = "SessionHeartbeat"\n')
    assert run("install", str(ok), "--host", "kimi").exit_code == 0
    assert _config(home).read_text(encoding="utf-8") == (
        '[[hooks]]\nevent = "Stop"\ncommand = "x # hookweave:k/a"\ntimeout = 600\n\n'
        '[[hooks]]\nevent = "SessionHeartbeat"\ncommand = "y # hookweave:k/b"\n')


def test_a_bundle_that_asks_for_order_gets_one_chain_per_event(run, write_bundle, home: Path) -> None:
    """Kimi starts an event's hooks at once, so order only holds through hookweave's chain runner."""
    bundle = write_bundle(HEAD + 'order = "chain"\n[[hooks]]\nid = "a"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
                                 'command = "first"\n[[hooks]]\nid = "b"\nevent = "pre_tool_use"\ncommand = "second"\n')
    path = _operator(home)
    assert run("install", str(bundle), "--host", "kimi").exit_code == 0
    added = path.read_text(encoding="utf-8")[len(OPERATOR):]
    assert added.count("[[hooks]]") == 1 and 'event = "PreToolUse"' in added and "# hookweave:k/chain-pretooluse" in added
    assert (path.parent / "config.hookweave-chain.py").exists()
    assert run("verify", "--host", "kimi").exit_code == 0
    assert run("uninstall", "k", "--host", "kimi").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR and not (path.parent / "config.hookweave-chain.py").exists()


def test_the_protocol_blocks_on_exit_2_and_on_a_json_deny_only() -> None:
    block = protocol.judge("kimi", "PreToolUse", 2, "", "no rm -rf\n")
    assert (block.action, block.reason) == ("block", "no rm -rf")
    deny = protocol.judge("kimi", "PreToolUse", 0,
                          '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "use rg"}}', "")
    assert (deny.action, deny.reason) == ("block", "use rg")
    assert protocol.judge("kimi", "PreToolUse", 1, '{"hookSpecificOutput": {"permissionDecision": "deny"}}', "x"
                          ).action == "error"  # JSON is read on exit 0 only; any other failure lets the call go
    assert protocol.judge("kimi", "PreToolUse", 0, '{"decision": "block", "reason": "r"}', "").action == "allow"
    assert protocol.judge("kimi", "PostToolUse", 2, "", "late").action == "ignored"
    context = protocol.judge("kimi", "UserPromptSubmit", 0, "branch: main\n", "")
    assert (context.action, context.reason) == ("allow", "branch: main")
    assert protocol.judge("kimi", "Stop", 0, "", "", timed_out=True).action == "error"
    assert all(any(n.startswith("unmeasured: Kimi Code") for n in v.notes) for v in (block, deny, context))


def test_an_event_added_to_a_file_without_hooks_makes_the_list() -> None:
    """The matchers attack at full size: an add under an event, where the file had no [[hooks]]
    yet, was a KeyError traceback; the list comes whole."""
    from hookweave.hosts.kimi import shape as kimi_shape

    assert kimi_shape.file_ops({"op": "add", "path": "/hooks/PreToolUse", "value": [{"command": "x"}]}, None) == [
        {"op": "add", "path": "/hooks", "value": [{"event": "PreToolUse", "command": "x"}]}]


def test_a_key_written_twice_is_one_line_in_every_command_and_the_file_untouched(run, home: Path) -> None:
    """Issue 33 item 6: a key twice in one of the operator's [[hooks]] tables (valid to nobody, and
    tomlkit's KeyAlreadyPresent, which has no line, was a traceback) is one line naming file:line and
    the fix in install and uninstall (exit 2), a problem in verify, and status does not fall over."""
    assert run("install", BUNDLE, "--host", "kimi").exit_code == 0
    text = _config(home).read_text(encoding="utf-8") + '\n[[hooks]]\nevent = "Stop"\ncommand = "x"\nevent = "Stop"\n'
    path = _operator(home, text)
    line = text.count("\n")  # the second event, the file's last line
    said = f"{path}:{line}:1: invalid TOML: "
    for args in (("install", BUNDLE, "--host", "kimi"), ("uninstall", "guard", "--host", "kimi")):
        result = run(*args)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
        assert result.stderr.startswith(f"hooks: {said}") and "run the command again" in result.stderr, result.stderr
        assert path.read_text(encoding="utf-8") == text
    verify = run("verify", "--host", "kimi")
    assert verify.exit_code == 1 and said in verify.stdout, verify.output
    status = run("status")
    assert status.exit_code in (0, 1, 2), status.output
    assert path.read_text(encoding="utf-8") == text


NO_HOOKS = '# kept by hand\ndefault_model = "kimi-k2"   # mine\n\n[providers.kimi]\ntype    = "kimi"\n'


def test_an_upgrade_that_moves_every_hook_keeps_tables_not_an_inline_array(run, write_bundle, home: Path) -> None:
    """Issue 33's attack at full size: when every [[hooks]] table was ours and an upgrade moved them
    all to another event, tomlkit left ``hooks = []`` and the new ones joined it as one inline line,
    which the next upgrade refused ("tomlkit cannot make this edit"); now the tables stay tables."""
    path = _operator(home, NO_HOOKS)
    hook = '\n[[hooks]]\nid = "{id}"\nevent = "{event}"\ncommand = "run-{id}"\n{more}'
    first = write_bundle(HEAD + hook.format(id="a", event="post_tool_use", more="") +
                         hook.format(id="b", event="post_tool_use", more=""))
    assert run("install", str(first), "--host", "kimi").exit_code == 0
    moved = write_bundle(HEAD + hook.format(id="a", event="pre_tool_use", more="") +
                         hook.format(id="b", event="pre_tool_use", more=""))
    assert run("install", str(moved), "--host", "kimi").exit_code == 0
    assert path.read_text(encoding="utf-8") == NO_HOOKS + (
        '\n[[hooks]]\nevent = "PreToolUse"\ncommand = "run-a # hookweave:k/a"\n'
        '\n[[hooks]]\nevent = "PreToolUse"\ncommand = "run-b # hookweave:k/b"\n')
    matched = write_bundle(HEAD + hook.format(id="a", event="post_tool_use", more='matcher = ["shell"]\n'))
    done = run("install", str(matched), "--host", "kimi")
    assert done.exit_code == 0, done.output
    assert path.read_text(encoding="utf-8") == NO_HOOKS + (
        '\n[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Bash$"\ncommand = "run-a # hookweave:k/a"\n')
    assert run("uninstall", "k", "--host", "kimi").exit_code == 0
    assert path.read_text(encoding="utf-8") == NO_HOOKS
