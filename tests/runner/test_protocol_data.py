"""An answer protocol given as data in a third-party description (issue 35, item 1): ``hooks check``
judges the plugin's hooks by it, a chain installs with the plugin's row in its runner and
``hooks check --installed`` passes on it, a hook that blocks only by exiting 2 is reported where
the data says no exit code blocks, and admission names the field of a mistake."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.contract.admission import checked_description
from hookweave.core.contract.description import Description
from hookweave.core.errors import BadInput
from hookweave.core.plan import chain
from hookweave.core.standalone.protocol_data import filled

# An agent shaped unlike Claude: its own file, event and tool names and project variable; no exit
# code blocks, stdout is read as JSON after any exit, {"verdict": "deny"} blocks with "why" the reason.
PROTOCOL = {"block_exit_codes": [], "json_exit_codes": "any", "block": {"verdict": "deny"}, "ask": {"verdict": "ask"},
            "reason": ["why"], "context": ["note"], "blocking_events": ["before_tool"], "later_hooks": "run",
            "payload": "stdin"}
PLUGIN = """from hookweave.core.contract.description import Description
GUARDIAN = Description(name="guardian", title="Guardian", files={{"project": "{{project}}/.guardian/hooks.json"}},
                       events={{"pre_tool_use": "before_tool", "session_start": "on_start"}},
                       tools={{"shell": "Bash", "edit": "Write"}},
                       project_variable="GUARDIAN_PROJECT", order="file", protocol={protocol!r})
"""
# Blocks a destructive command the way Guardian reads a block: a JSON verdict on stdout.
GUARD = """import json, os, sys
payload = json.loads(os.environ["GUARDIAN_PAYLOAD"]) if "GUARDIAN_PAYLOAD" in os.environ else json.load(sys.stdin)
if str((payload.get("tool_input") or {}).get("command", "")).startswith("rm -rf"):
    print(json.dumps({"verdict": "deny", "why": "no rm -rf here"}))
"""
MANIFEST = """[bundle]
name = "{name}"
version = "1.0.0"
order = "{order}"
[[hooks]]
id = "log"
event = "pre_tool_use"
command = ["sh", "{{bundle_dir}}/log.sh"]
[[hooks]]
id = "guard"
event = "pre_tool_use"
command = ["python3", "{{bundle_dir}}/guard.py"]
[[hooks]]
id = "edits"
event = "pre_tool_use"
matcher = ["edit"]
command = ["sh", "{{bundle_dir}}/log.sh", "edit"]
"""


def _site(tmp_path: Path, protocol: dict = PROTOCOL) -> Path:
    site = tmp_path / "site"
    meta = site / "guardian-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: guardian\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text("[hookweave]\nguardian = guardian_plugin:GUARDIAN\n")
    (site / "guardian_plugin.py").write_text(PLUGIN.format(protocol=protocol))
    return site


def _hooks(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from hookweave.core.cli.entry import main; main()", *args],
                          env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)


def _bundle(project: Path, tmp_path: Path, name: str, order: str) -> Path:
    bundle = project / "hooks" / name
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(MANIFEST.format(name=name, order=order))
    (bundle / "log.sh").write_text(f'echo "${{1:-log}} $GUARDIAN_PROJECT" >> {tmp_path}/chain.log\n')
    (bundle / "guard.py").write_text(GUARD)
    return bundle


def _actions(report: dict) -> dict[str, dict[str, str]]:
    return {h["hook"]: {r["payload"]: r["action"] for r in h["runs"]} for h in report["hooks"]}


def test_check_judges_a_plugins_hooks_by_its_data_protocol(project: Path, tmp_path: Path) -> None:
    site = _site(tmp_path)
    _bundle(project, tmp_path, "guards", "alone")
    checked = _hooks(site, "check", "hooks/guards", "--host", "guardian", "--json", "--runs", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    actions = _actions(report)
    assert set(actions) == {"guards/log", "guards/guard", "guards/edits"} and actions["guards/edits"] == {}
    assert set(actions["guards/log"].values()) == {"allow"}
    assert {name for name, action in actions["guards/guard"].items() if action != "allow"} == {"a destructive command"}
    assert actions["guards/guard"]["a destructive command"] == "block"
    assert report["problems"] == 0
    assert (tmp_path / "chain.log").read_text().split()[1] == str(project)  # its own project variable, set


def test_a_chain_on_a_data_protocol_installs_and_check_installed_passes(project: Path, tmp_path: Path) -> None:
    site = _site(tmp_path)
    _bundle(project, tmp_path, "pair", "chain")
    installed = _hooks(site, "install", "hooks/pair", "--host", "guardian")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    runner = (project / ".guardian" / "hooks.hookweave-chain.py").read_text()
    table = ast.literal_eval(runner.split("\nPROTOCOL = ", 1)[1].split("\n\nRUNNER = ", 1)[0])
    assert table == chain.protocol_text() + f"\n\nDATA['guardian'] = {filled({**PROTOCOL, 'title': 'Guardian'})!r}\n"
    checked = _hooks(site, "check", "--installed", "--host", "guardian", "--json", "--runs", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (hook,) = json.loads(checked.stdout)["hooks"]
    actions = {r["payload"]: r["action"] for r in hook["runs"]}
    assert {name for name, action in actions.items() if action != "allow"} == {"a destructive command"}
    assert actions["a destructive command"] == "block"
    # the log member ran for every payload, the member whose matcher names edits for none (all shell calls)
    assert (tmp_path / "chain.log").read_text().splitlines() == [f"log {project}"] * len(actions)
    verified = _hooks(site, "verify", "--host", "guardian")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_payload_in_a_variable_reaches_the_hooks_under_check_and_in_a_chain(project: Path, tmp_path: Path) -> None:
    """``payload = "env:NAME"``: the agent gives the payload in a variable and nothing on stdin; check
    gives it so, and the chain runner reads it there to apply each member's matcher (the members get
    it on stdin too, as OpenHarness' do)."""
    site = _site(tmp_path, {**PROTOCOL, "payload": "env:GUARDIAN_PAYLOAD"})
    bundle = _bundle(project, tmp_path, "pair", "chain")
    (bundle / "guard.py").write_text(GUARD.replace(' if "GUARDIAN_PAYLOAD" in os.environ else json.load(sys.stdin)',
                                                   ""))  # the variable only
    assert _hooks(site, "install", "hooks/pair", "--host", "guardian").returncode == 0
    checked = _hooks(site, "check", "--installed", "--host", "guardian", "--json", "--runs", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (hook,) = json.loads(checked.stdout)["hooks"]
    actions = {r["payload"]: r["action"] for r in hook["runs"]}
    assert {name for name, action in actions.items() if action != "allow"} == {"a destructive command"}
    assert (tmp_path / "chain.log").read_text().splitlines() == [f"log {project}"] * len(actions)


EXIT_ONLY = """[bundle]
name = "exit-only"
version = "1.0.0"
[[hooks]]
id = "deny-all"
event = "pre_tool_use"
command = ["sh", "-c", "echo no >&2; exit 2"]
"""


def test_a_hook_that_blocks_only_by_exit_code_is_reported_where_the_data_ignores_exit_codes(
        project: Path, tmp_path: Path) -> None:
    site = _site(tmp_path)
    bundle = project / "hooks" / "exit-only"
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(EXIT_ONLY)
    installed = _hooks(site, "install", "hooks/exit-only", "--host", "guardian")
    assert installed.returncode == 0, installed.stderr
    assert "Guardian ignores exit codes: a hook that blocks on before_tool by exiting 2 protects nothing there" \
        in installed.stdout + installed.stderr
    checked = _hooks(site, "check", "--installed", "--host", "guardian", "--json", "--runs", "1")
    (hook,) = json.loads(checked.stdout)["hooks"]
    assert {r["action"] for r in hook["runs"]} == {"allow"}
    assert "Guardian ignores exit codes: exit 2 blocks nothing" in hook["runs"][0]["notes"]
    fixes = {p["fix"] for r in hook["runs"] for p in r["pitfalls"]} | {p.get("fix") for p in hook.get("pitfalls", [])}
    assert 'to block on Guardian: print {"verdict": "deny"} on stdout' in fixes


def _described(protocol: object) -> Description:
    return Description(name="guardian", title="Guardian", files={"project": "{project}/.guardian/hooks.json"},
                       events={"pre_tool_use": "before_tool"}, protocol=protocol)


@pytest.mark.parametrize(("protocol", "message"), [
    ({"blok": {}}, "protocol.blok: not a field of a data protocol; use block_exit_codes, json_exit_codes, block"),
    ({"block_exit_codes": 2, "blocking_events": ["before_tool"]},
     "protocol.block_exit_codes: 2 is not a list of exit codes (0-255), e.g. [2]; [] when no exit code blocks"),
    ({"block": {"verdict": {"no": 1}}, "blocking_events": ["before_tool"]},
     "protocol.block: 'verdict': {'no': 1} is not a JSON value or a list of them, e.g. {\"decision\": \"block\"}"),
    ({}, "protocol.blocking_events: list the agent's events where a block counts, e.g. [\"PreToolUse\"]"),
    ({"blocking_events": ["PreToolUse"]},
     "protocol.blocking_events: 'PreToolUse' is not one of the agent's events (events, native_events)"),
    ({"blocking_events": ["before_tool"], "payload": "argv"}, "protocol.payload: 'argv' is not stdin or env:NAME"),
    ({"blocking_events": ["before_tool"], "said": {"blocked": "x"}},
     "protocol.said: give the wording of any of exit_block, elsewhere, later_run, later_skipped, exit_ignored, "
     "failed, unread as text"),
    ({"blocking_events": ["before_tool"], "said": {"failed": "{tool} failed"}},
     "protocol.said.failed: the only blanks are {event}, {code} and {who}"),
    ({"blocking_events": ["before_tool"], "block_exit_codes": []},
     "protocol: nothing blocks; give block_exit_codes (e.g. [2]) or block (e.g. {\"decision\": \"block\"})"),
])
def test_admission_names_the_field_of_a_data_protocols_mistake(protocol: dict, message: str) -> None:
    with pytest.raises(BadInput) as raised:
        checked_description(_described(protocol))
    assert str(raised.value).startswith(f"description 'guardian': {message}")


PLUGINS = (Path(__file__).parent.parent.parent / "docs" / "PLUGINS.md").read_text(encoding="utf-8")


def test_every_data_protocol_field_is_documented_and_the_yaml_example_is_admitted() -> None:
    from hookweave.core.contract.describe import host_class
    from hookweave.core.standalone.protocol_data import DEFAULTS

    assert all(f"| `{field}` |" in PLUGINS for field in DEFAULTS)
    example = PLUGINS.split("# hookweave_yamlagent/__init__.py\n", 1)[1].split("```", 1)[0]
    space: dict = {}
    exec(example, space)
    checked_description(space["YAMLAGENT"])
    host = host_class(space["YAMLAGENT"])
    assert host.exit_codes == "ignored" and host.blocking_events == frozenset({"pre_tool_call"})
    assert host.answer_protocol(host) == "yamlagent" and host.protocol_data["later_hooks"] == "run"


UNMEASURED = "unmeasured: Windsurf facts come from its documentation, never from a run"


@pytest.mark.parametrize(("event", "code", "out", "err", "verdict"), [
    ("pre_run_command", 2, "", "no\n", ("block", "no", None, (UNMEASURED, "exit 2 blocks a pre-hook's action"))),
    ("post_run_command", 2, "", "no", ("error", "no", None, (UNMEASURED, "exit 2 cannot block post_run_command: "
                                                              "only pre-hooks block"))),
    ("pre_write_code", 1, "x", "oops", ("error", "oops", None, (UNMEASURED, "a failed hook does not block: "
                                                                 "Windsurf goes on"))),
    ("pre_write_code", 0, '{"decision": "block"}\n', "", ("ignored", '{"decision": "block"}', None, (
        UNMEASURED, "stdout is shown to the user with show_output, never to the model; only exit 2 blocks"))),
    ("pre_user_prompt", -9, "", "", ("error", "", None, ("ended by signal 9", UNMEASURED,
                                                        "a failed hook does not block: Windsurf goes on"))),
    ("pre_read_code", 0, "  ", "", ("allow", "", None, (UNMEASURED,))),
])
def test_windsurf_is_judged_by_its_row_of_data(event: str, code: int, out: str, err: str, verdict: tuple) -> None:
    from hookweave.core.standalone import protocol
    from hookweave.core.standalone.protocol_data import BUILTIN

    assert "windsurf" in BUILTIN and "windsurf" not in protocol._JUDGES
    assert tuple(protocol.judge("windsurf", event, code, out, err)) == verdict
    assert tuple(protocol.judge("windsurf", event, code, out, err, timed_out=True)) == \
        ("error", "hook timed out", None, ("timed out", UNMEASURED))


def test_the_contract_kit_passes_on_a_plugin_with_a_data_protocol(tmp_path: Path) -> None:
    """A plugin author's own run of ``hookweave.testing`` (its tests in a subprocess, as theirs run): the
    chain cases run on the data protocol (exit 2 blocks here) instead of being skipped or failing."""
    site = _site(tmp_path, {"block": {"verdict": "deny"}, "reason": ["why"], "blocking_events": ["before_tool"],
                            "later_hooks": "skipped"})
    (tmp_path / "test_guardian.py").write_text("from hookweave.testing import HostContract\n\n\n"
                                               "class TestGuardian(HostContract):\n    hosts = ['guardian']\n")
    ran = subprocess.run([sys.executable, "-m", "pytest", "-v", "-n", "0", "-p", "no:cacheprovider", "--rootdir",
                          str(tmp_path), "-c", os.devnull, "test_guardian.py"], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(site)})
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "test_a_chain_runs_in_order_and_the_first_block_wins[guardian] PASSED" in ran.stdout
    assert "test_check_answers_for_every_hook[guardian] PASSED" in ran.stdout


def test_the_contract_kit_skips_check_only_for_a_plugin_with_no_protocol(tmp_path: Path) -> None:
    """A plugin that names no answer protocol: ``hooks check`` refuses it (exit 2, saying why), and the
    kit's check case is skipped with those words instead of failing; every other case still runs."""
    site = _site(tmp_path, "")
    (tmp_path / "test_guardian.py").write_text("from hookweave.testing import HostContract\n\n\n"
                                               "class TestGuardian(HostContract):\n    hosts = ['guardian']\n")
    ran = subprocess.run([sys.executable, "-m", "pytest", "-v", "-rs", "-n", "0", "-p", "no:cacheprovider", "--rootdir",
                          str(tmp_path), "-c", os.devnull, "test_guardian.py"], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(site)})
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "test_check_answers_for_every_hook[guardian] SKIPPED" in ran.stdout
    assert "not in hookweave's protocol table" in ran.stdout
    assert "test_round_trip_gives_back_every_byte[guardian-none] PASSED" in ran.stdout


def _yaml_site(tmp_path: Path) -> Path:
    """docs/PLUGINS.md's YAML agent, installed as a plugin's distribution would be (a site folder)."""
    example = PLUGINS.split("# hookweave_yamlagent/__init__.py\n", 1)[1].split("```", 1)[0]
    site = tmp_path / "site"
    meta = site / "yamlagent-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: yamlagent\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text("[hookweave]\nyamlagent = yamlagent_plugin:YAMLAGENT\n")
    (site / "yamlagent_plugin.py").write_text(example)
    return site


YAML_BUNDLE = """[bundle]
name = "g"
version = "1.0.0"
[[hooks]]
id = "guard"
event = "pre_tool_use"
matcher = ["shell"]
command = ["python3", "{bundle_dir}/guard.py"]
"""
OPERATOR = "# my agent\nmodel: local  # keep\n"


def test_the_yaml_example_installs_check_judges_it_and_uninstall_gives_every_byte_back(
        project: Path, tmp_path: Path) -> None:
    """docs/PLUGINS.md's second example as a plugin: its YAML file keeps the operator's comments, and
    ``hooks check`` sends Claude-shaped payloads under its own event and tool names (``terminal``)."""
    site = _yaml_site(tmp_path)
    config = Path(os.environ["HOME"]) / ".yamlagent" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(OPERATOR)
    bundle = project / "hooks" / "g"
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(YAML_BUNDLE)
    (bundle / "guard.py").write_text(GUARD.replace('"verdict": "deny", "why"', '"decision": "block", "reason"'))
    installed = _hooks(site, "install", "hooks/g", "--host", "yamlagent")
    assert installed.returncode == 0, installed.stderr
    assert config.read_text() == OPERATOR + (
        "hooks:\n  pre_tool_call:\n"
        f"    - command: \"sh -c 'python3 {bundle}/guard.py' hookweave # hookweave:g/guard\"\n"
        "      matcher: terminal\n")
    checked = _hooks(site, "check", "hooks/g", "--host", "yamlagent", "--json", "--runs", "1")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (hook,) = json.loads(checked.stdout)["hooks"]
    actions = {r["payload"]: r["action"] for r in hook["runs"]}
    assert {name for name, action in actions.items() if action != "allow"} == {"a destructive command"}
    assert hook["event"] == "pre_tool_call" and hook["matcher"] == "terminal"
    assert _hooks(site, "uninstall", "g", "--host", "yamlagent").returncode == 0
    assert config.read_text() == OPERATOR


def test_the_contract_kit_passes_on_the_yaml_plugin_of_the_docs(tmp_path: Path) -> None:
    """Issue 35's last test: docs/PLUGINS.md's YAML agent (``runs = "exec"``, a data protocol), as a
    plugin author runs ``hookweave.testing`` on it: no case fails; adopt is skipped with the product's
    reason (an agent without a shell), no tab spelling is tried (YAML forbids it)."""
    site = _yaml_site(tmp_path)
    (tmp_path / "test_yamlagent.py").write_text("from hookweave.testing import HostContract\n\n\n"
                                                "class TestYamlAgent(HostContract):\n    hosts = ['yamlagent']\n")
    ran = subprocess.run([sys.executable, "-m", "pytest", "-v", "-rs", "-n", "0", "-p", "no:cacheprovider", "--rootdir",
                          str(tmp_path), "-c", os.devnull, "test_yamlagent.py"], cwd=tmp_path, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(site)})
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "test_round_trip_gives_back_every_byte[yamlagent-comments] PASSED" in ran.stdout
    assert "tabs" not in ran.stdout
    assert "test_check_answers_for_every_hook[yamlagent] PASSED" in ran.stdout
    assert " FAILED" not in ran.stdout


def test_each_host_gets_the_runner_of_its_own_protocol_row_in_one_process() -> None:
    """Install plans one runner text per chain, remembered per texts: a data protocol's runner holds
    its row, the built-ins' runner none, in whatever order one process asks for them."""
    from hookweave.core.contract.describe import host_class

    described = _described(PROTOCOL)
    checked_description(described)
    guardian = host_class(described)()
    plain, own, again = chain.runner_text(), chain.runner_text(guardian), chain.runner_text()
    def table(runner: str) -> str:
        return ast.literal_eval(runner.split("\nPROTOCOL = ", 1)[1].split("\n\nRUNNER = ", 1)[0])

    assert plain == again and table(plain) == chain.protocol_text()
    assert table(own) == chain.protocol_text() + f"\n\nDATA['guardian'] = {filled({**PROTOCOL, 'title': 'Guardian'})!r}\n"
    assert chain.pristine(plain) and chain.pristine(own)
