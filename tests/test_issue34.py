"""Issue 34: verify true to what each agent really runs (items 2 to 5), through the ``hooks`` CLI.
The real agents' side of each is in tests/e2e (test_letta_real, test_auggie_real, test_claude_real,
test_codex_real)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = ('[bundle]\nname = "probe"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
         'matcher = ["shell"]\ncommand = "echo pre"\n')


def _problems(result) -> list[str]:
    return [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("problem:")]


# -- item 2: Letta, a value its merge cannot spread -------------------------------------------------

@pytest.mark.parametrize(("scope", "event", "value", "shown"), [
    ("local", "PostToolUse", {}, "an object"), ("project", "Notification", 3, "3"), ("user", "Stop", True, "true")])
def test_letta_a_value_its_merge_cannot_spread_is_a_problem_in_any_file(scope, event, value, shown, run,
                                                                       write_bundle, project, home) -> None:
    assert run("install", str(write_bundle(PROBE)), "--host", "letta").exit_code == 0
    path = {"local": project / ".letta" / "settings.local.json", "project": project / ".letta" / "settings.json",
            "user": home / ".letta" / "settings.json"}[scope]
    doc = json.loads(path.read_text()) if path.exists() else {}
    doc.setdefault("hooks", {})[event] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    result = run("verify", "--host", "letta")
    shown_path = {"local": ".letta/settings.local.json", "project": ".letta/settings.json",
                  "user": str(home / ".letta" / "settings.json")}[scope]
    assert result.exit_code == 1
    assert _problems(result) == [f"problem: {shown_path}: /hooks/{event} is {shown}, not a list: Letta Code fails to "
                                 "merge its settings on it and runs no hook at all, in every file; make it a list of "
                                 "hook groups or remove it"]


def test_letta_false_zero_and_null_read_as_no_hooks(run, write_bundle, home) -> None:
    assert run("install", str(write_bundle(PROBE)), "--host", "letta").exit_code == 0
    user = home / ".letta" / "settings.json"
    user.parent.mkdir()
    user.write_text(json.dumps({"hooks": {"Stop": False, "Notification": 0, "PreCompact": None, "disabled": False}}))
    assert run("verify", "--host", "letta").exit_code == 0


# -- item 2: Auggie, a matcher JavaScript's new RegExp() refuses ------------------------------------

AUGGIE = Path(__file__).parent / "plugin" / "hookweave-auggie" / "hookweave_auggie" / "__init__.py"
HOOKS = str(Path(sys.executable).parent / "hooks")
STAR = ('/hooks/PreToolUse/0/matcher: "*" is not a regex Auggie CLI takes (Nothing to repeat): it drops the file\'s '
        'whole PreToolUse list for it, so none of those hooks run; write a JavaScript regex (".*" for every tool) or '
        'leave the matcher out')


@pytest.fixture
def auggie(tmp_path: Path, project: Path):
    """``auggie(*args, code=0)``: the ``hooks`` command with the Auggie description plugin on its path,
    laid out as pip installs it; returns (stdout, stderr)."""
    site = tmp_path / "site"
    meta = site / "hookweave_auggie-0.1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: hookweave-auggie\nVersion: 0.1.0\n")
    (meta / "entry_points.txt").write_text("[hookweave]\nauggie = hookweave_auggie:AUGGIE\n")
    (site / "hookweave_auggie.py").write_text(AUGGIE.read_text())
    (project / ".git").mkdir()  # Auggie's project is the git root

    def call(*args: str, code: int = 0) -> tuple[str, str]:
        done = subprocess.run([HOOKS, *args, "--host", "auggie"], cwd=project, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(site)}, timeout=60)
        assert done.returncode == code, done.stdout + done.stderr
        return done.stdout, done.stderr

    return call


def _operator(settings: Path, event: str, matcher: object) -> None:
    doc = json.loads(settings.read_text()) if settings.exists() else {}
    doc.setdefault("hooks", {}).setdefault(event, []).insert(0, {"matcher": matcher, "hooks": [
        {"type": "command", "command": "echo op"}]})
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(doc, indent=2) + "\n")


def test_auggie_a_star_matcher_beside_ours_is_a_problem(auggie, write_bundle, project) -> None:
    auggie("install", str(write_bundle(PROBE)))
    settings = project / ".augment" / "settings.json"
    _operator(settings, "PreToolUse", "*")
    out, _ = auggie("verify", code=1)
    assert [line.strip() for line in out.splitlines() if line.strip().startswith(("problem", "warning"))] == [
        f"problem: .augment/settings.json: {STAR}"]
    auggie("uninstall", "probe")  # taking ours out of a dropped list is no harm: uninstall goes on
    assert json.loads(settings.read_text()) == {"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": "echo op"}]}]}}


def test_auggie_install_refuses_a_list_auggie_drops_and_warns_of_another(auggie, write_bundle, project) -> None:
    settings = project / ".augment" / "settings.json"
    _operator(settings, "PreToolUse", "*")
    before = settings.read_text()
    _, err = auggie("install", str(write_bundle(PROBE)), code=2)
    assert err == f"hooks: .augment/settings.json: {STAR}\n" and settings.read_text() == before
    settings.unlink()
    _operator(settings, "PostToolUse", 3)
    out, _ = auggie("install", str(write_bundle(PROBE)))
    said = ("/hooks/PostToolUse/0/matcher: 3 is not a regex Auggie CLI takes (not a string): it drops the file's "
            "whole PostToolUse list for it")
    assert f"  warning: {said}" in out
    verified, _ = auggie("verify")  # another event's list: the operator's loss, not ours
    assert f"warning: .augment/settings.json: {said}" in verified


@pytest.mark.parametrize("matcher", ["launch-process", "^view$|^save-file$", ".*", "(?<n>a)\\k<n>", "a{,3}", "]"])
def test_auggie_a_matcher_javascript_takes_is_no_finding(matcher, auggie, write_bundle, project) -> None:
    auggie("install", str(write_bundle(PROBE)))
    _operator(project / ".augment" / "settings.json", "PreToolUse", matcher)
    out, _ = auggie("verify")
    assert "is not a regex" not in out


KNOWN = ["*", "+", "?", "launch-process", "^launch-process$", "Bash|Edit", "a**", "a*?", "{2}", "a{2}{3}", "a{3,2}",
         "a{,3}", "{", "}", "]", "(", ")", "(?=a)*", "(?<=a)*", "(?<n>a)\\k<n>", "(?<n>a)\\k<m>", "\\k<x>",
         "(?<n>a)(?<n>b)", "(?i)a", "(?P<n>a)", "[z-a]", "[\\d-z]", "[]", "[^]", "[a", "a\\", "[\\", "\\b*", "^*",
         "a|*", "[\\x41-\\x40]", "[\\c1-\\c0]", "mcp__.*", "(?<a", "(?<n>a)[\\k<m>]", "x{2,}?*"]


def test_js_regex_error_says_what_node_says(tmp_path: Path) -> None:
    """On the patterns above and 3000 random ones over regex syntax, the same answer as Node's
    ``new RegExp`` (which Auggie calls), message and all."""
    import random
    import shutil

    from hookweave.core.model.jsregex import js_regex_error

    if not shutil.which("node"):
        pytest.skip("node is not installed")
    rng = random.Random(34)
    patterns = KNOWN + ["".join(rng.choice("a*+?{}()[]^$|\\-:=!<>,019bdkcx.") for _ in range(rng.randint(1, 7)))
                        for _ in range(3000)]
    (tmp_path / "patterns.json").write_text(json.dumps(patterns))
    script = ("const out = {}; for (const p of require(process.argv[1])) { try { new RegExp(p); out[p] = null } "
              "catch (e) { out[p] = e.message.replace(/^Invalid regular expression: \\/.*\\/: /s, '') } } "
              "console.log(JSON.stringify(out))")
    node = json.loads(subprocess.run(["node", "-e", script, str(tmp_path / "patterns.json")], capture_output=True,
                                     text=True, check=True).stdout)
    differ = {p: (said, js_regex_error(p)) for p, said in node.items() if js_regex_error(p) != said}
    assert differ == {}
    assert sum(said is not None for said in node.values()) > 1000  # both kinds, many of each


# -- item 2: Claude, managed hooks under the switches that stop the rest ----------------------------

@pytest.mark.parametrize("switch", ["project", "managed"])
def test_claude_managed_hooks_run_under_a_switch_that_stops_the_rest(switch, run, write_bundle, project,
                                                                      tmp_path) -> None:
    assert run("install", str(write_bundle(PROBE)), "--host", "claude", "--scope", "managed").exit_code == 0
    if switch == "project":
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text('{"disableAllHooks": true}\n')
        cause = "project settings set disableAllHooks"
    else:
        (tmp_path / "managed" / "managed-settings.json").write_text('{"allowManagedHooksOnly": true}\n')
        cause = "managed settings set allowManagedHooksOnly"
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0 and f"  note: {cause}: Claude runs only managed hooks, and hookweave's are all at " \
        "managed scope, so they run\n" in result.stdout
    assert run("install", str(write_bundle(PROBE.replace('"probe"', '"team"'))), "--host", "claude").exit_code == 0
    result = run("verify", "--host", "claude")
    fix = "; remove the key or set it to false" if switch == "project" else ""
    assert result.exit_code == 1 and _problems(result) == [
        f"problem: {cause}: Claude runs only managed hooks: hookweave's at project scope do not run, those at "
        f"managed scope do{fix}"]


# -- item 4: Codex, the same bundle at user and project scope in an untrusted project --------------

def test_codex_an_untrusted_projects_copy_is_a_warning_when_the_user_copy_runs(run, write_bundle, home) -> None:
    """The project copy installed without --trust: Codex loads no .codex/ here, so its hooks' trust
    decides nothing; the user copy runs once, as asked (measured: tests/e2e/test_codex_real.py)."""
    (home / ".codex").mkdir()
    (Path.cwd() / ".git").mkdir()
    bundle = str(write_bundle(PROBE))
    assert run("install", bundle, "--host", "codex", "--scope", "user", "--trust").exit_code == 0
    assert run("install", bundle, "--host", "codex", "--scope", "project").exit_code == 0
    result = run("verify", "--host", "codex")
    assert result.exit_code == 0, result.stdout
    assert [line for line in result.stdout.splitlines() if line.startswith(("  problem", "  warning"))] == [
        "  warning: this project is not trusted in the user config.toml, so Codex ignores .codex/ here: hookweave's "
        "project copies do not run, and the user layer's copies of them run instead"]


# -- item 5: Claude's PreSkillShellCommand answers, in check ---------------------------------------

SKILL = ('[bundle]\nname = "skill"\nversion = "1.0.0"\n[[hooks]]\nid = "gate"\nevent = "pre_tool_use"\n'
         'command = "cat {bundle_dir}/answer.json"\n[hooks.host.claude]\nevent = "PreSkillShellCommand"\n')


@pytest.mark.parametrize(("answer", "action", "note"), [
    ({"permissionDecision": "allow"}, "allow", "allow adds nothing: the command runs unless another hook refuses it"),
    ({"permissionDecision": "deny", "permissionDecisionReason": "no"}, "block", None),
    ({"permissionDecision": "ask"}, "block", "ask keeps a skill's shell command from running, as deny does"),
    ({"permissionDecision": "defer"}, "block", "defer keeps a skill's shell command from running, as deny does"),
    ({"permissionDecision": "allow", "updatedInput": {"command": "ls -l"}}, "block",
     "updatedInput is never applied to a skill's shell command: any value keeps it from running"),
    ({"updatedInput": {}}, "block", "updatedInput is never applied to a skill's shell command: any value keeps it "
                                    "from running"),
])
def test_claude_pre_skill_shell_command_answers_as_its_schema_says(answer, action, note, run, write_bundle,
                                                                    tmp_path) -> None:
    """Read in 2.1.332's bundle, not run (documents only): allow adds nothing, deny, ask and defer all
    keep the command from running, and so does any updatedInput."""
    reply = json.dumps({"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", **answer}})
    bundle = write_bundle(SKILL, **{"answer.json": reply})
    payload = tmp_path / "skill.json"
    payload.write_text(json.dumps({"hook_event_name": "PreSkillShellCommand", "session_id": "s", "cwd": str(tmp_path),
                                   "transcript_path": str(tmp_path / "t.jsonl"), "tool_name": "Bash",
                                   "tool_input": {"command": "ls"}, "tool_use_id": "t", "command_name": "skill"}))
    result = run("check", str(bundle), "--host", "claude", "--payload", str(payload), "--json")
    [hook] = json.loads(result.stdout)["hooks"]
    [ran] = hook["runs"]
    assert ran["action"] == action, ran
    assert (note in ran["notes"]) if note else not any("skill" in n for n in ran["notes"]), ran["notes"]


# -- item 3: the arguable cases, decided ------------------------------------------------------------

def test_claude_verify_says_managed_hooks_run_first_where_the_managed_layer_has_hooks(run, write_bundle) -> None:
    order = "Claude runs an event's managed hooks first, all at once, and starts the user, project and local ones"
    assert run("install", str(write_bundle(PROBE)), "--host", "claude").exit_code == 0
    assert order not in run("verify", "--verbose", "--host", "claude").stdout
    assert run("install", str(write_bundle(PROBE.replace('"probe"', '"fleet"'))), "--host", "claude",
               "--scope", "managed").exit_code == 0
    blocked = ('; on PreToolUse, not at all for a tool call a managed hook blocks (exit 2, permissionDecision "deny" or '
               'decision "block"; "ask" does not stop them)')
    said = run("verify", "--verbose", "--host", "claude").stdout
    assert f"  note: {order} only after the last managed one has ended{blocked}\n" in said  # both on PreToolUse
    assert run("uninstall", "probe", "--host", "claude").exit_code == 0
    said = run("verify", "--verbose", "--host", "claude").stdout
    assert f"  note: {order} only after the last managed one has ended\n" in said  # the managed layer alone


def test_claude_verify_says_a_managed_block_ends_the_call_only_where_layers_share_pre_tool_use(run, write_bundle,
                                                                                              home) -> None:
    """Measured on 2.1.332 (tests/e2e/test_managed_block_real.py): a managed PreToolUse block keeps the
    user and project PreToolUse hooks of that call from running; said only where both layers have one."""
    stop = PROBE.replace('event = "pre_tool_use"\nmatcher = ["shell"]\n', 'event = "stop"\n')
    assert run("install", str(write_bundle(stop)), "--host", "claude", "--scope", "managed").exit_code == 0
    assert run("install", str(write_bundle(PROBE.replace('"probe"', '"team"'))), "--host", "claude",
               "--scope", "user").exit_code == 0
    assert "a managed hook blocks" not in run("verify", "--verbose", "--host", "claude").stdout  # Stop vs PreToolUse
    assert run("install", str(write_bundle(PROBE.replace('"probe"', '"fleet"'))), "--host", "claude",
               "--scope", "managed").exit_code == 0
    notes = [line for line in run("verify", "--verbose", "--host", "claude").stdout.splitlines()
             if "managed hooks first" in line]
    assert notes == ["  note: Claude runs an event's managed hooks first, all at once, and starts the user, project and "
                     "local ones only after the last managed one has ended; on PreToolUse, not at all for a tool call a "
                     'managed hook blocks (exit 2, permissionDecision "deny" or decision "block"; "ask" does not stop '
                     "them)"]
    prompt = PROBE.replace('event = "pre_tool_use"\nmatcher = ["shell"]\n', 'event = "user_prompt_submit"\n')
    for name, scope in (("fleet-prompt", "managed"), ("team-prompt", "user")):
        assert run("install", str(write_bundle(prompt.replace('"probe"', f'"{name}"'))), "--host", "claude",
                   "--scope", scope).exit_code == 0
    assert ("; on PreToolUse and UserPromptSubmit, not at all for a tool call or prompt a managed hook blocks (exit 2"
            in run("verify", "--verbose", "--host", "claude").stdout)


def test_check_takes_an_openharness_payload_as_openharness_sends_it(run, write_bundle, tmp_path) -> None:
    """OpenHarness 0.1.9 names the event in ``event`` (no hook_event_name): the payload it sent, as
    sent, is one ``hooks check --payload`` reads (tests/e2e/test_openharness_real.py feeds it a real one)."""
    sent = tmp_path / "sent.json"
    sent.write_text(json.dumps({"tool_name": "bash", "tool_input": {"command": "rm -rf /"}, "event": "pre_tool_use"}))
    bundle = write_bundle(PROBE.replace('"echo pre"', '"exit 2"'))
    result = run("check", str(bundle), "--host", "openharness", "--payload", str(sent), "--json")
    [hook] = json.loads(result.stdout)["hooks"]
    assert [(r["payload"], r["action"]) for r in hook["runs"]] == [("your payload sent.json", "block")]


@pytest.mark.parametrize(("host", "matcher", "named"), [
    ("claude", "Bash|run_shell_command", "run_shell_command"), ("gemini", "^Bash$", "Bash"),
    ("codex", "Write|Read", "Write or Read"), ("claude", "Bash|Grep|mcp__x__y", None), ("claude", "edit", None),
    ("claude", "run_.*", None)])
def test_a_native_matcher_naming_another_agents_tool_is_warned_of(host, matcher, named, run, write_bundle,
                                                                   project) -> None:
    """Another agent's tool name in a host's own matcher never fires there; a name no built-in agent
    has (Grep, an MCP tool), one this agent has in another case, or a regex are not judged."""
    (project / ".git").mkdir()
    bundle = write_bundle(PROBE.replace('matcher = ["shell"]\n', "") + f'[hooks.host.{host}]\nmatcher = "{matcher}"\n')
    result = run("install", str(bundle), "--host", host)
    assert result.exit_code == 0, result.stdout
    warned = [line for line in result.stdout.splitlines() if "another agent's tool name" in line]
    title = {"claude": "Claude Code", "gemini": "Gemini CLI", "codex": "Codex"}[host]
    assert warned == ([f"  warning: probe/pre: {named}: another agent's tool name, not one {title} has, so this hook "
                       f"never fires on {'them' if ' or ' in named else 'it'} there (hooks (pre).host.{host}.matcher in "
                       f"{bundle}/hookweave.toml); use {title}'s name, or a neutral tool list"] if named else [])


# -- item 5: a managed block ends Claude's call, in check --installed ------------------------------

def test_check_installed_runs_no_other_layers_hook_after_a_claude_managed_block(run, write_bundle) -> None:
    """The managed hook blocks every call (exit 2), the project's would stop the session: Claude never
    starts the project's for a call the managed one blocked (tests/e2e/test_managed_block_real.py), so
    the managed block decides and the project hook is named as not run, not as the stronger answer."""
    fleet = PROBE.replace('"probe"', '"fleet"').replace('"echo pre"', '"echo no >&2; exit 2"')
    team = PROBE.replace('"probe"', '"team"').replace('"echo pre"', '"cat {bundle_dir}/answer.json"')
    assert run("install", str(write_bundle(fleet)), "--host", "claude", "--scope", "managed").exit_code == 0
    assert run("install", str(write_bundle(team, **{"answer.json": '{"continue": false}'})), "--host", "claude",
               "--scope", "project").exit_code == 0
    text = run("check", "--installed", "--host", "claude", "--runs", "1").stdout
    together = [line for line in text.splitlines() if line.startswith("together")]
    assert len(together) == 6 and all(line.endswith(": BLOCKS (decided by fleet/pre (managed)); not run: team/pre "
                                                    "(project), as the agent starts no other hook of a call a managed "
                                                    "hook blocks") for line in together), text
    checked = json.loads(run("check", "--installed", "--host", "claude", "--runs", "1", "--json").stdout)
    assert {(c["action"], c["decided_by"], tuple(c["hooks"]), tuple(c["not_run"])) for c in checked["combined"]} == {
        ("block", "fleet/pre (managed)", ("fleet/pre (managed)",), ("team/pre (project)",))}
    # and a call waits for the managed round, then the others' (tests/e2e/test_managed_real.py): added, not the slowest
    [wait] = checked["events"]
    assert (wait["order"], wait["wait"]) == ("managed-first", "slowest of each round")
    assert abs(wait["wait_ms"]["max"] - sum(h["latency"]["max_ms"] for h in checked["hooks"])) < 0.2
    assert "the host starts the managed ones at once and the others at once after the last of those ends: the " \
        "slowest of each, added" in text
    assert run("install", str(write_bundle(fleet.replace("exit 2", "exit 0"))), "--host", "claude",
               "--scope", "managed").exit_code == 0  # the managed hook lets calls through: the project one answers
    combined = json.loads(run("check", "--installed", "--host", "claude", "--runs", "1", "--json").stdout)["combined"]
    assert {(c["action"], c["decided_by"], c["not_run"] == []) for c in combined} == {("stop", "team/pre (project)", True)}


# -- item 3: a managed folder moved by a variable the agent does not read --------------------------

def test_verify_names_a_variable_of_hookweaves_that_moved_the_managed_scope(run, write_bundle, monkeypatch,
                                                                             tmp_path) -> None:
    """hookweave's own variable moved the managed folder (the tests' fixture does, as an image might);
    Claude reads no such variable (measured: tests/e2e/test_managed_real.py), so verify says where
    each of them looks. Linux's fixed folder."""
    monkeypatch.setattr(sys, "platform", "linux")
    moved = tmp_path / "moved"
    host, variable, fixed, title = "claude", "HOOKWEAVE_CLAUDE_MANAGED_DIR", "/etc/claude-code", "Claude Code"
    monkeypatch.setenv(variable, str(moved))
    assert run("install", str(write_bundle(PROBE)), "--host", host, "--scope", "user").exit_code == 0
    assert variable not in run("verify", "--host", host).stdout  # nothing of ours in the moved folder
    assert run("install", str(write_bundle(PROBE.replace('"probe"', '"fleet"'))), "--host", host,
               "--scope", "managed").exit_code == 0
    verify = run("verify", "--host", host)
    assert verify.exit_code == 0, verify.stdout
    assert [line for line in verify.stdout.splitlines() if variable in line] == [
        f"  note: {variable} is set in this shell: hookweave reads and writes {title}'s managed scope in {moved}; "
        f"{title} does not read that variable and looks only in {fixed}, so the hooks there run only where {moved} "
        f"is {fixed} to {title} (a container or a mount)"]
