"""Hermes Agent (hermes-agent 0.19.0's code; run in tests/e2e/test_hermes_real.py): YAML settings kept
byte for byte, commands run with no shell, its consent list as a gate, user scope only."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path


TEMPLATES = Path(__file__).parent.parent.parent / "templates"
GUARD = TEMPLATES / "example-guard"
OPERATOR = """\
# Hermes config, kept by hand
model:
  default: "anthropic/claude-sonnet-4"   # the one I like
  provider: 'openrouter'
defaults: &defaults
  timeout: 30
terminal:
  <<: *defaults
  backend: local

hooks:
  pre_tool_call:
    - matcher: "terminal"
      command: "~/.hermes/agent-hooks/block-rm.sh"   # mine
      timeout: 10
# the end
"""


def _config() -> Path:
    return Path(os.environ["HERMES_HOME"]) / "config.yaml"


def _operator_file(text: str = OPERATOR) -> Path:
    path = _config()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_example_guard_goes_into_an_operators_commented_yaml_and_uninstall_gives_every_byte_back(run) -> None:
    path = _operator_file()
    installed = run("install", "example-guard", "--host", "hermes", "--scope", "user")
    assert installed.exit_code == 0, installed.output
    guard = f"sh -c 'python3 {GUARD}/guard.py' hookweave # hookweave:example-guard/destructive-guard"
    stop = f"sh -c 'python3 {GUARD}/clean_tree.py' hookweave # hookweave:example-guard/clean-tree"
    assert path.read_text() == OPERATOR.replace(
        "hooks:\n  pre_tool_call:\n",
        f'hooks:\n  pre_tool_call:\n    - command: "{guard}"\n      matcher: terminal\n      timeout: 10\n').replace(
        "# the end\n", f'# the end\n  on_session_end:\n    - command: "{stop}"\n      timeout: 30\n')  # ruamel keeps a
    # comment after a block's last line with that line, so the new event follows it
    assert run("uninstall", "example-guard", "--host", "hermes", "--scope", "user").exit_code == 0
    assert path.read_text() == OPERATOR


def test_the_marker_never_reaches_the_programs_arguments(run, tmp_path: Path) -> None:
    """Hermes splits a command with shlex and runs it with no shell (``_spawn``): the program gets
    only its own words; the marker is the words of the ``sh -c`` hookweave writes around it."""
    bundle = tmp_path / "argv"
    bundle.mkdir()
    (bundle / "show.py").write_text("import json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    (bundle / "hookweave.toml").write_text('[bundle]\nname = "argv"\nversion = "1.0.0"\n[[hooks]]\nid = "show"\n'
                                           'event = "pre_tool_use"\ncommand = ["python3", "{bundle_dir}/show.py", '
                                           '"a b", "$HOME"]\n')
    assert run("install", str(bundle), "--host", "hermes", "--scope", "user").exit_code == 0
    command = _hermes_hooks()["pre_tool_call"][0]["command"]
    assert command.startswith(f"sh -c 'python3 {bundle}/show.py ") and command.endswith(" hookweave # hookweave:argv/show")
    ran = subprocess.run(shlex.split(os.path.expanduser(command)), capture_output=True, text=True, shell=False)
    assert json.loads(ran.stdout) == ["a b", "$HOME"]


def test_verify_reads_the_consent_list_as_a_gate(run) -> None:
    _operator_file()
    assert "written, but verify would fail" in run("install", "example-guard", "--host", "hermes", "--scope", "user").stdout
    said = run("verify", "--host", "hermes")
    allowlist = _config().with_name("shell-hooks-allowlist.json")
    assert said.exit_code == 1 and (
        f"  problem: Hermes Agent runs a hook only once it is allowed ({allowlist}), and has not been allowed "
        "example-guard/destructive-guard (pre_tool_call), example-guard/clean-tree (on_session_end): it skips them; "
        "start hermes once at a terminal and answer yes, or run it with --accept-hooks (or HERMES_ACCEPT_HOOKS=1, or "
        "hooks_auto_accept: true in config.yaml)\n") in said.stdout
    hooks = {event: entries for event, entries in _hermes_hooks().items()}
    approvals = [{"event": event, "command": e["command"], "approved_at": "2026-11-28T00:00:00Z"}
                 for event, entries in hooks.items() for e in entries]  # as _record_approval writes them
    allowlist.write_text(json.dumps({"approvals": approvals}, indent=2, sort_keys=True))
    assert run("verify", "--host", "hermes").exit_code == 0


def _hermes_hooks() -> dict:
    from hookweave.core.formats import yamledit

    return yamledit.parse(_config().read_text(), "config.yaml")["hooks"]


def test_adopt_refuses_saying_why(run) -> None:
    path = _operator_file()
    done = run("adopt", "--host", "hermes", "--scope", "user", "--event", "pre_tool_use", "--name", "mine")
    assert done.exit_code == 2 and path.read_text() == OPERATOR
    assert done.stderr == (f"hooks: {path}: Hermes Agent runs a hook's words with no shell, and hookweave's marker "
                           "needs its command wrapped in sh -c, where a shell would read its $, quotes and patterns "
                           "otherwise; adopt cannot keep the operator's command as it runs, so write the hook into a "
                           "bundle's manifest and install that\n")


def test_a_yaml_file_it_cannot_write_back_unchanged_is_refused_and_left_alone(run) -> None:
    mixed = "model:\n  default: mock\nterminal:\n      backend: local\ntoolsets:\n- web\n  # odd\n"
    path = _operator_file(mixed)
    done = run("install", "example-guard", "--host", "hermes", "--scope", "user")
    assert done.exit_code == 2 and path.read_text() == mixed
    assert "hookweave cannot write this YAML back unchanged" in done.stderr


def test_a_timeout_above_300_seconds_is_refused() -> None:
    from hookweave.hosts.hermes import HermesHost

    assert HermesHost.timeout_max == 300


def test_an_event_a_description_leaves_out_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """A plugin's ``events`` without ``stop``: its stop hook is not on that agent, as with a tool it lacks."""
    site = tmp_path / "site"
    meta = site / "nostop-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: nostop\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text("[hookweave]\nnostop = nostop_plugin:NOSTOP\n")
    (site / "nostop_plugin.py").write_text(
        "from hookweave.core.contract.description import Description\n"
        "NOSTOP = Description(name='nostop', title='No Stop', files={'user': '~/.nostop/settings.json'},\n"
        "                     events={'pre_tool_use': 'PreToolUse'}, tools={'shell': 'Bash'})\n")
    done = subprocess.run([sys.executable, "-c", "from hookweave.core.cli.entry import main; main()", "install",
                           "example-guard", "--host", "nostop", "--scope", "user"],
                          env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "  warning: example-guard/clean-tree: skipped: No Stop has no stop event (its description names none)\n" \
        in done.stdout
    command = f"python3 {GUARD}/guard.py # hookweave:example-guard/destructive-guard"
    assert (Path(os.environ["HOME"]) / ".nostop" / "settings.json").read_text() == json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command,
                                                                  "timeout": 10}]}]}}, indent=2) + "\n"


def test_install_warns_that_an_exit_code_blocks_nothing_here(run) -> None:
    done = run("install", "example-guard", "--host", "hermes", "--scope", "user")
    assert ("  warning: example-guard/destructive-guard: Hermes Agent ignores exit codes: a hook that blocks on "
            "pre_tool_call by exiting 2 protects nothing there, it blocks only by what it prints (hooks check "
            "example-guard --host hermes shows what each hook does)\n") in done.stdout


def test_the_protocol_reads_stdout_json_whatever_the_exit_code() -> None:
    from hookweave.core.standalone import protocol

    def judged(event: str, code: int, out: str, err: str = "") -> tuple:
        verdict = protocol.judge("hermes", event, code, out, err)
        return verdict.action, verdict.reason

    assert judged("pre_tool_call", 2, "", "reason") == ("allow", "")
    assert judged("pre_tool_call", 0, '{"decision": "block", "reason": "r"}') == ("block", "r")
    assert judged("pre_tool_call", 1, '{"action": "block", "message": "m"}') == ("block", "m")
    assert judged("pre_tool_call", 0, '{"decision": "block"}') == ("block", "Blocked by shell hook.")
    assert judged("pre_tool_call", 0, '{"decision": "deny", "reason": "r"}') == ("allow", "")
    assert judged("pre_verify", 0, '{"decision": "block", "reason": "run the tests"}') == ("block", "run the tests")
    assert judged("pre_llm_call", 0, '{"context": "today is Friday"}') == ("allow", "")
    assert judged("on_session_end", 0, '{"decision": "block", "reason": "r"}') == ("ignored", "")


def test_check_runs_each_hook_with_no_shell_and_judges_it_as_hermes_does(run, tmp_path: Path) -> None:
    """``hooks check`` starts the command's own words (as ``_spawn`` does) with Hermes's payload:
    the shipped guard blocks by its JSON; a guard that only exits 2 is a problem here."""
    bundle = tmp_path / "exit2"
    bundle.mkdir()
    (bundle / "guard.sh").write_text('case "$(cat)" in *"rm -rf"*) echo no >&2; exit 2;; esac\n')
    (bundle / "hookweave.toml").write_text('[bundle]\nname = "exit2"\nversion = "1.0.0"\n[[hooks]]\nid = "guard"\n'
                                           'event = "pre_tool_use"\nmatcher = ["shell"]\n'
                                           'command = ["sh", "{bundle_dir}/guard.sh"]\n')
    for name, action in (("example-guard", "block"), (str(bundle), "allow")):
        done = run("check", name, "--host", "hermes", "--json")
        report = json.loads(done.stdout)
        runs = {r["payload"]: r for r in report["hooks"][0]["runs"]}
        assert runs["a destructive command"]["action"] == action, done.stdout
        assert runs["an ordinary shell command"]["action"] == "allow"
        assert done.exit_code == (0 if action == "block" else 1)


def test_install_matches_the_golden_file_and_uninstall_gives_back_every_byte(run) -> None:
    """tests/data/hermes: the operator's file, and what installing the contract bundle makes of it."""
    data = Path(__file__).parent.parent / "data"
    before = (data / "hermes" / "operator.yaml").read_text()
    path = _operator_file(before)
    assert run("install", str(data / "claude" / "bundle"), "--host", "hermes", "--scope", "user").exit_code == 0
    assert path.read_text() == (data / "hermes" / "operator.after-install.yaml").read_text()
    assert run("uninstall", "guard", "--host", "hermes", "--scope", "user").exit_code == 0
    assert path.read_text() == before


def test_a_config_of_comments_only_takes_the_hooks_after_them_and_gets_them_back(run) -> None:
    comments = "# Hermes config: nothing set yet\n\n# model: later\n"
    path = _operator_file(comments)
    assert run("install", "example-guard", "--host", "hermes", "--scope", "user").exit_code == 0
    guard = f"sh -c 'python3 {GUARD}/guard.py' hookweave # hookweave:example-guard/destructive-guard"
    stop = f"sh -c 'python3 {GUARD}/clean_tree.py' hookweave # hookweave:example-guard/clean-tree"
    assert path.read_text() == comments + (f'hooks:\n  pre_tool_call:\n    - command: "{guard}"\n      matcher: terminal\n'
                                           f'      timeout: 10\n  on_session_end:\n    - command: "{stop}"\n'
                                           "      timeout: 30\n")
    assert run("uninstall", "example-guard", "--host", "hermes", "--scope", "user").exit_code == 0
    assert path.read_text() == comments
