"""What verify's order and env findings mean when the host runs the hooks (issue 10, cases 6-8).

Each scenario is built the way the issue tells it, through the CLI, and the verdict is checked
against what the host does (measured facts: shared/HOSTS.md and tests/e2e).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CAP = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
OPERATOR_CLAUDE = '{\n    "model": "opus",\n    "env": {"KEEP": "me"}\n}\n'


def _claude(project: Path, text: str, name: str = "settings.json") -> Path:
    path = project / ".claude" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _env_bundle(write_bundle, value: str, policy: str, name: str = CAP, hooks: str = "") -> str:
    return str(write_bundle(f'[bundle]\nname = "cap"\nversion = "1"\n{hooks}[env.{name}]\n'
                            f'value = "{value}"\npolicy = "{policy}"\n'))


def _json(result) -> dict:
    return json.loads(result.stdout)


def _hooks(result) -> list[dict]:
    return [h for host in _json(result)["hosts"] for f in host["files"] for b in f["bundles"] for h in b["hooks"]]


def _messages(result) -> list[tuple[str, str]]:
    doc = _json(result)
    found = [x for host in doc["hosts"] for x in host["findings"]]
    found += [x for host in doc["hosts"] for f in host["files"] for x in f["findings"]]
    return [(x["level"], x["message"]) for x in found if "hooks at once" not in x["message"]
            and "runs an event's hooks" not in x["message"] and "sequential" not in x["message"]]


# -- case 6: at-least shadowing is judged on the value the host uses ----------------------------------

@pytest.mark.parametrize(
    ("policy", "local", "level", "tail"),
    [
        ("at-least", "50", "note", "uses '50' from local settings, which policy at-least '20' allows"),
        ("at-least", "20", None, ""),
        ("at-least", "0", "note", "uses '0' from local settings, which policy at-least '20' allows"),
        ("at-least", "lots", "note", "uses 'lots' from local settings, which policy at-least '20' allows"),
        ("at-least", "8", "problem", "uses '8' from local settings, which policy at-least '20' does not allow; "
         "change it in local settings"),
        ("if-absent", "8", "note", "uses '8' from local settings, which policy if-absent '20' allows"),
        ("override", "50", "problem", "uses '50' from local settings, which policy override '20' does not allow; "
         "change it in local settings"),
    ],
)
def test_case6_a_higher_scope_value_is_a_problem_only_when_the_policy_would_not_allow_it(
        run, project, write_bundle, policy, local, level, tail) -> None:
    path = _claude(project, OPERATOR_CLAUDE)
    assert run("install", _env_bundle(write_bundle, "20", policy), "--host", "claude").exit_code == 0
    installed = path.read_text(encoding="utf-8")
    assert installed == '{\n    "model": "opus",\n    "env": {"KEEP": "me", "' + CAP + '": "20"}\n}\n'
    _claude(project, json.dumps({"env": {CAP: local}}) + "\n", "settings.local.json")
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == (1 if level == "problem" else 0)
    expected = [] if level is None else [(level, f"{CAP}='20' installed at project scope: Claude Code {tail}")]
    assert _messages(result) == expected
    assert path.read_text(encoding="utf-8") == installed  # verify writes nothing


def test_case6_a_value_the_operator_kept_and_later_lowered_is_a_problem(run, project, write_bundle) -> None:
    path = _claude(project, '{"env": {"' + CAP + '": "80"}}\n')
    bundle = _env_bundle(write_bundle, "20", "at-least")
    assert "kept the operator's value '80', already at least 20" in run("install", bundle, "--host", "claude").stdout
    assert run("verify", "--host", "claude").exit_code == 0
    path.write_text('{"env": {"' + CAP + '": "5"}}\n')
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 1
    assert _messages(result) == [("problem", f"{CAP}: the operator's value was kept at project scope: Claude Code uses "
                                  "'5' from project settings, which policy at-least '20' does not allow; reinstall "
                                  "the bundle to set it")]
    assert run("install", bundle, "--host", "claude").exit_code == 0
    assert path.read_text() == '{"env": {"' + CAP + '": "20"}}\n'
    assert run("verify", "--host", "claude").exit_code == 0


# -- case 7: order on hosts that start an event's hooks at once ---------------------------------------

FIRST = """[bundle]
name = "guard"
version = "1"
[[hooks]]
id = "gate"
event = "{event}"
command = "guard gate"
position = "first"
"""


def _move_ours_last(path: Path, event: str, comments: bool = False) -> None:
    from hookweave.core.formats import jsontext

    data = jsontext.parse(path.read_text(encoding="utf-8"), str(path), comments=True).value
    data["hooks"][event].append(data["hooks"][event].pop(0))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _operator_groups(event: str, *, sequential: bool = False) -> dict:
    group = {"hooks": [{"type": "command", "name": "mine", "command": "operator-hook"}]}
    return {"hooks": {event: [{**group, **({"sequential": True} if sequential else {})}]}}


@pytest.mark.parametrize(
    ("host", "event", "neutral", "user_doc", "level"),
    [
        ("claude", "PreToolUse", "pre_tool_use", None, "note"),
        ("gemini", "BeforeTool", "pre_tool_use", None, "note"),  # parallel, answers OR-merged
        ("gemini", "BeforeTool", "pre_tool_use", "sequential", "problem"),  # a user group orders the project's
        ("gemini", "PreCompress", "pre_compact", None, "problem"),  # parallel, but the later answer wins a field
        ("cursor", "preToolUse", "pre_tool_use", None, "problem"),  # nobody knows: file order is all there is
    ],
)
def test_case7_an_operator_hook_moved_above_our_first_hook(run, project, home, write_bundle, monkeypatch,
                                                           host, event, neutral, user_doc, level) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    folder = {"claude": ".claude", "gemini": ".gemini", "cursor": ".cursor"}[host]
    path = project / folder / ("hooks.json" if host == "cursor" else "settings.json")
    path.parent.mkdir()
    operator = ({"version": 1, "hooks": {event: [{"command": "operator-hook"}]}} if host == "cursor"
                else _operator_groups(event))
    path.write_text(json.dumps(operator, indent=2) + "\n", encoding="utf-8")
    if user_doc:
        (home / ".gemini").mkdir()
        (home / ".gemini" / "settings.json").write_text(json.dumps(_operator_groups(event, sequential=True)))
    bundle = write_bundle(FIRST.format(event=neutral))
    assert run("install", str(bundle), "--host", host).exit_code == 0
    assert run("verify", "--host", host).exit_code == 0
    _move_ours_last(path, event)
    result = run("verify", "--host", host, "--json")
    [hook] = _hooks(result)
    assert (hook["status"], hook["level"]) == ("out-of-order", level)
    assert result.exit_code == (1 if level == "problem" else 0)
    if level == "note":
        assert hook["detail"].endswith(f"starts {event}'s hooks at once, so this changes nothing when they run "
                                       "(reinstall to restore the file order)")
    else:
        assert hook["detail"].endswith(f"runs {event}'s hooks in file order: reinstall the bundle to fix it")


def test_case7_codex_order_among_our_hooks_is_a_note(run, codex_home, project, write_bundle) -> None:
    bundle = write_bundle('[bundle]\nname = "pair"\nversion = "1"\n'
                          '[[hooks]]\nid = "a"\nevent = "stop"\ncommand = "a"\n'
                          '[[hooks]]\nid = "b"\nevent = "stop"\ncommand = "b"\n')
    assert run("install", str(bundle), "--host", "codex", "--scope", "user").exit_code == 0
    _move_ours_last(codex_home / "hooks.json", "Stop")
    hooks = {h["id"]: (h["status"], h["level"]) for h in _hooks(run("verify", "--host", "codex", "--json"))}
    assert hooks == {"a": ("out-of-order", "note"), "b": ("ok", "ok")}  # issue 25: an ok hook is level ok


# -- case 8: env the operator already exports ------------------------------------------------------

@pytest.mark.parametrize(
    ("policy", "exported", "written", "install_note", "verify"),
    [
        ("if-absent", "100", False, "kept the value '100' exported in this shell (policy if-absent)",
         ("note", "the operator's value was kept at project scope: Claude Code uses '100' from the environment "
          "(exported in this shell), which policy if-absent '20' allows")),
        ("at-least", "100", False, "kept the value '100' exported in this shell, already at least 20 (policy at-least)",
         ("note", "the operator's value was kept at project scope: Claude Code uses '100' from the environment "
          "(exported in this shell), which policy at-least '20' allows")),
        ("at-least", "5", True, "set to '20' (was unset; it replaces the value '5' exported in this shell; "
         "policy at-least)", ("note", "'20' installed at project scope replaces the value '5' exported in this "
                              "shell (policy at-least '20')")),
        ("override", "100", True, "set to '20' (was unset; it replaces the value '100' exported in this shell; "
         "policy override)", ("note", "'20' installed at project scope replaces the value '100' exported in this "
                              "shell (policy override '20')")),
    ],
)
def test_case8_claude_install_weighs_the_exported_value(run, project, write_bundle, monkeypatch,
                                                        policy, exported, written, install_note, verify) -> None:
    path = _claude(project, OPERATOR_CLAUDE)
    monkeypatch.setenv(CAP, exported)
    bundle = _env_bundle(write_bundle, "20", policy)
    result = run("install", bundle, "--host", "claude")
    assert result.exit_code == 0
    tail = "; hooks see it only when the agent starts from a shell that exports it" if not written else ""
    assert f"  note: cap: {CAP}: {install_note}{tail}\n" in result.stdout
    after = '{\n    "model": "opus",\n    "env": {"KEEP": "me", "' + CAP + '": "20"}\n}\n' if written else OPERATOR_CLAUDE
    assert path.read_text(encoding="utf-8") == after
    checked = run("verify", "--host", "claude", "--json")
    assert checked.exit_code == 0
    level, message = verify
    assert _messages(checked) == [(level, (f"{CAP}: " if not written else f"{CAP}=") + message)]
    assert run("install", bundle, "--host", "claude").stdout.endswith("already installed; nothing written\n")
    assert run("uninstall", "cap", "--host", "claude").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR_CLAUDE


def test_case8_exported_after_install_is_reported_and_reinstall_leaves_it_to_the_export(
        run, project, write_bundle, monkeypatch) -> None:
    """The issue's scenario: the operator exports 100; Claude's settings env gave hooks the installed 20."""
    path = _claude(project, OPERATOR_CLAUDE)
    bundle = _env_bundle(write_bundle, "20", "at-least")
    run("install", bundle, "--host", "claude")
    monkeypatch.setenv(CAP, "100")
    result = run("verify", "--host", "claude", "--json")
    assert result.exit_code == 1
    assert _messages(result) == [("problem", f"{CAP}='20' installed at project scope replaces the value '100' exported "
                                  "in this shell, which policy at-least '20' keeps (Claude Code's settings env wins "
                                  "over the environment); reinstall the bundle to leave it to that value")]
    assert run("install", bundle, "--host", "claude").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR_CLAUDE
    assert run("verify", "--host", "claude").exit_code == 0
    monkeypatch.delenv(CAP)  # a shell that does not export it: the policy would set it
    lost = run("verify", "--host", "claude", "--json")
    assert lost.exit_code == 1
    assert _messages(lost) == [("problem", f"{CAP}: the operator's value was kept at project scope: Claude Code uses "
                                "no value, which policy at-least '20' does not allow; reinstall the bundle to set it")]


GEMINI_ENV = """[bundle]
name = "cap"
version = "1"
[[hooks]]
id = "log"
event = "session_start"
command = "log"
[env.PROBE_VAR]
value = "{value}"
policy = "{policy}"
"""


@pytest.mark.parametrize(
    ("policy", "value", "written", "install", "verify"),
    [
        ("if-absent", "20", "${PROBE_VAR:-20}", [], []),
        ("if-absent", "a}b", "a}b", [("warning", "PROBE_VAR: exported as '100' in this shell, but Gemini CLI's per-hook "
                                      "env gives the hooks 'a}b': it replaces an exported value, so policy if-absent "
                                      "cannot keep it there")],
         [("note", "PROBE_VAR is exported as '100' in this shell; Gemini CLI's per-hook env gives this bundle's hooks "
           "'a}b' instead")]),
        ("at-least", "20", "20", [("warning", "PROBE_VAR: exported as '100' in this shell, but Gemini CLI's per-hook "
                                   "env gives the hooks '20': it replaces an exported value, so policy at-least "
                                   "cannot keep it there")],
         [("note", "PROBE_VAR is exported as '100' in this shell; Gemini CLI's per-hook env gives this bundle's hooks "
           "'20' instead")]),
        ("override", "20", "20", [("note", "PROBE_VAR: '20' replaces the value '100' exported in this shell "
                                   "(policy override)")],
         [("note", "PROBE_VAR is exported as '100' in this shell; Gemini CLI's per-hook env gives this bundle's hooks "
           "'20' instead")]),
    ],
)
def test_case8_gemini_per_hook_env_and_the_exported_value(run, project, write_bundle, monkeypatch,
                                                          policy, value, written, install, verify) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    monkeypatch.setenv("PROBE_VAR", "100")
    result = run("install", str(write_bundle(GEMINI_ENV.format(value=value, policy=policy))), "--host", "gemini",
                 "--json")
    assert result.exit_code == 0
    [plan] = _json(result)["files"]
    assert [(n["level"], n["message"]) for n in plan["notes"]] == install
    data = json.loads((project / ".gemini" / "settings.json").read_text())
    assert data["hooks"]["SessionStart"][0]["hooks"][0]["env"] == {"PROBE_VAR": written}
    checked = run("verify", "--host", "gemini", "--json")
    assert checked.exit_code == 0
    assert _messages(checked) == verify


def test_case8_gemini_warns_of_a_dollar_it_would_expand(run, write_bundle, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    result = run("install", str(write_bundle(GEMINI_ENV.format(value="x$HOME", policy="override"))),
                 "--host", "gemini", "--json")
    [plan] = _json(result)["files"]
    assert [(n["level"], n["message"]) for n in plan["notes"]] == [
        ("warning", "PROBE_VAR: the value 'x$HOME' holds $, which Gemini CLI replaces from the environment when it "
         "loads settings; hooks may not see it as written")]


# -- the order semantics each host declares ------------------------------------------------------------

def test_every_host_says_what_file_order_means() -> None:
    from hookweave.core.contract.registry import HostRegistry, get_plugin_manager

    registry = HostRegistry(get_plugin_manager(load_entrypoints=False))
    orders = {name: registry.get(name).order for name in registry.names()}
    assert orders == {"claude": "parallel", "codex": "parallel", "cursor": "file", "gemini": "sequential-flag",
                      "copilot": "file", "factory": "file", "qwen": "sequential-flag", "windsurf": "file",
                      "antigravity": "file", "cline": "file", "letta": "file", "openhands": "file", "kimi": "parallel", "openharness": "file",
                      "hermes": "file", "qoder": "sequential-flag"}
    assert {name: registry.get(name).hook_env for name in registry.names()} == {
        "claude": False, "codex": False, "cursor": False, "gemini": True, "copilot": False, "factory": False,
        "qwen": False, "windsurf": False, "antigravity": False, "cline": False, "letta": False, "openhands": False, "kimi": False,
        "openharness": False, "hermes": False, "qoder": False}


@pytest.mark.parametrize(
    ("event", "docs", "holds"),
    [
        ("BeforeTool", {}, False),
        ("BeforeTool", {"project": {"hooks": {"BeforeTool": [{"hooks": []}]}}}, False),
        ("BeforeTool", {"user": {"hooks": {"BeforeTool": [{"sequential": True, "hooks": []}]}}}, True),
        ("BeforeTool", {"system": {"hooks": {"BeforeTool": [{"sequential": True, "hooks": []}]}}}, True),
        ("BeforeTool", {"user": {"hooks": {"AfterTool": [{"sequential": True, "hooks": []}]}}}, False),
        ("BeforeTool", {"user": {"hooks": {"BeforeTool": [{"sequential": "yes", "hooks": []}]}}}, False),
        ("BeforeTool", {"user": {"hooks": {"BeforeTool": "odd"}}, "project": None}, False),
        ("BeforeModel", {}, True),
        ("AfterModel", {}, True),
        ("Notification", {}, True),
        ("BeforeToolSelection", {}, False),
    ],
)
def test_gemini_order_holds_under_sequential_and_for_field_merged_events(event, docs, holds) -> None:
    from hookweave.hosts.gemini import GeminiHost

    assert GeminiHost().order_holds(event, docs) is holds


def test_case8_class_a_lower_scope_value_is_weighed_like_an_exported_one(run, project, home, write_bundle,
                                                                         monkeypatch) -> None:
    """Claude's project env replaces the user scope's the same way it replaces an exported value."""
    monkeypatch.setenv(CAP, "1")  # exported, but the user settings' value wins over it in Claude
    user = home / ".claude" / "settings.json"
    user.parent.mkdir()
    user.write_text('{"env": {"' + CAP + '": "100"}}\n')
    path = _claude(project, OPERATOR_CLAUDE)
    bundle = _env_bundle(write_bundle, "20", "at-least")
    result = run("install", bundle, "--host", "claude")
    assert f"  note: cap: {CAP}: kept the value '100' set in user settings, already at least 20 (policy at-least)\n" \
        in result.stdout
    assert path.read_text(encoding="utf-8") == OPERATOR_CLAUDE
    assert run("verify", "--host", "claude").exit_code == 0
    user.write_text('{"env": {"' + CAP + '": "7"}}\n')  # now the policy raises it
    assert run("verify", "--host", "claude").exit_code == 1
    assert run("install", bundle, "--host", "claude").exit_code == 0
    assert path.read_text(encoding="utf-8") == '{\n    "model": "opus",\n    "env": {"KEEP": "me", "' + CAP + '": "20"}\n}\n'
    checked = run("verify", "--host", "claude", "--json")
    assert checked.exit_code == 0
    assert _messages(checked) == [("note", f"{CAP}='20' installed at project scope replaces the value '7' set in user "
                                   "settings (policy at-least '20')")]
    user.write_text('{"env": {"' + CAP + '": "300"}}\n')  # the operator raises theirs: ours lowers it
    raised = run("verify", "--host", "claude", "--json")
    assert raised.exit_code == 1
    assert _messages(raised) == [("problem", f"{CAP}='20' installed at project scope replaces the value '300' set in "
                                  "user settings, which policy at-least '20' keeps; reinstall the bundle to leave it "
                                  "to that value")]
    assert run("install", bundle, "--host", "claude").exit_code == 0
    assert path.read_text(encoding="utf-8") == OPERATOR_CLAUDE
    assert run("verify", "--host", "claude").exit_code == 0


@pytest.mark.parametrize("sequential", [True, False])
def test_case7_class_gemini_sequential_runs_the_user_scope_before_a_project_first_hook(
        run, project, home, write_bundle, monkeypatch, sequential) -> None:
    """Under sequential Gemini runs system-defaults, user, project, system hooks as one sequence:
    our project-scope first hook runs after the user's hooks, which no file order can change."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps(_operator_groups("BeforeTool", sequential=sequential)))
    assert run("install", str(write_bundle(FIRST.format(event="pre_tool_use"))), "--host", "gemini").exit_code == 0
    result = run("verify", "--host", "gemini", "--json")
    assert result.exit_code == 0
    warnings = [m for level, m in _messages(result) if level == "warning"]
    assert warnings == (["Gemini CLI runs every BeforeTool hook in one sequence, scope by scope (system-defaults, "
                         "user, project, system), so the operator's hooks in user settings run before this first hook"]
                        if sequential else [])
