"""GitHub Copilot CLI, the real binary (1.0.102) offline: a BYOK provider pointed at the mock's
Chat Completions (``COPILOT_OFFLINE``, no built-in MCP servers, no telemetry). Our own file in
``.github/hooks`` fires once per event next to the operator's file, none after uninstall; a hook
also installed in Claude's project settings fires twice, as verify warns; so does one installed at
user and project scope, as verify says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from newhosts import COPILOT_PACKAGE_CACHE
from realhosts import HOSTS, ids, run_agent, write_operator_file


@pytest.fixture
def copilot(mock, home: Path, project: Path):
    binary = HOSTS / "copilot" / "node_modules" / ".bin" / "copilot"
    if not binary.is_file():
        pytest.skip("copilot is not installed: run scripts/install-hosts copilot (needs node and npm)")
    env = {"HOME": str(home), "COPILOT_OFFLINE": "1", "COPILOT_AUTO_UPDATE": "false",
           "COPILOT_PROVIDER_BASE_URL": f"{mock.url}/v1", "COPILOT_PROVIDER_TYPE": "openai",
           "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_MODEL": "mock", **COPILOT_PACKAGE_CACHE}
    trust(home, project)
    argv = [str(binary), "-p", "run the echo", "--allow-all-tools", "--disable-builtin-mcps",
            "--disable-client-telemetry"]
    return lambda: run_agent(argv, project, env)


def trust(home: Path, project: Path, folders: list[str] | None = None) -> Path:
    """Copilot's config.json as it writes it, trusting ``folders`` (the project by default)."""
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("// This file is managed automatically.\n"
                      + json.dumps({"trustedFolders": [str(project)] if folders is None else folders}) + "\n")
    return config


def _operator_file(project: Path, probe) -> tuple[Path, str]:
    hooks = {event: [{"type": "command", "bash": probe.command(f"op-{event}")}]
             for event in ("sessionStart", "preToolUse", "agentStop")}
    return write_operator_file(project / ".github" / "hooks" / "team.json",
                               json.dumps({"version": 1, "hooks": hooks}, indent=2) + "\n")


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """Copilot runs shared by the tests of this module whose scenarios sit side by side in one
    project, by name: built by whichever test needs one first, inside that test's own HOME and
    project (its fixtures, so nothing_left_running covers the runs); the others read the same
    record. Each test asserts only its own facts (a Copilot start is about 4 s of CPU)."""
    return {}


def _shared(cache: dict, name: str, build) -> dict:
    if name not in cache:
        cache[name] = build()
    return cache[name]


INLINE_HEADER = "// User settings belong in settings.json.\n// This file is managed automatically.\n"


def _inline_files(project: Path, home: Path) -> dict[str, tuple[Path, str]]:
    return {"user": (home / ".copilot" / "settings.json", INLINE_HEADER),
            "project": (project / ".github" / "copilot" / "settings.json", ""),
            "local": (project / ".github" / "copilot" / "settings.local.json", INLINE_HEADER)}


def _ours_and_claudes(run, copilot, probe, project, home) -> dict:
    """Our bundle beside the operator's file: run once; then, with the same bundle in Claude's project
    settings and the inline ``hooks`` of Copilot's three settings files added, run again (the run both
    tests ask about, each of its own hooks); then, the inline files gone and ours uninstalled, a last run."""
    team, original = _operator_file(project, probe)
    assert run("install", probe.bundle(), "--host", "copilot").exit_code == 0
    found = {"verify_ours": run("verify", "--verbose", "--host", "copilot").exit_code}
    copilot()
    found["ours"] = probe.calls()
    inline = _inline_files(project, home)
    for where, (path, head) in inline.items():
        hooks = {"sessionStart": [{"type": "command", "bash": probe.command(f"inline-{where}")}]}
        write_operator_file(path, head + json.dumps({"hooks": hooks}, indent=2) + "\n")
    assert run("install", probe.bundle(), "--host", "claude").exit_code == 0
    found["verify_claude"] = run("verify", "--verbose", "--host", "claude").stdout
    found["verify_copilot"] = run("verify", "--verbose", "--host", "copilot").stdout
    copilot()
    found["both"] = sorted(probe.calls(), key=lambda c: c["start"])
    for path, _ in inline.values():
        path.unlink()
    assert run("uninstall", "probe", "--host", "copilot", "--host", "claude").exit_code == 0
    found["team_back"] = team.read_text() == original
    found["hooks_folder"] = sorted(p.name for p in team.parent.iterdir())
    copilot()
    return {**found, "after_uninstall": probe.calls()}


def test_our_file_fires_once_next_to_the_operators_and_is_gone_after_uninstall(run, copilot, probe, project, home,
                                                                               shared_runs) -> None:
    found = _shared(shared_runs, "ours+claude", lambda: _ours_and_claudes(run, copilot, probe, project, home))
    assert found["verify_ours"] == 0
    calls = found["ours"]
    assert ids(calls) == ["op-agentStop", "op-preToolUse", "op-sessionStart", "probe-pre", "probe-start", "probe-stop"]
    assert {c["tool"] for c in calls if c["id"] in ("probe-pre", "op-preToolUse")} == {None}  # camelCase payload
    # The same bundle in Claude's project settings: Copilot runs those hooks as well.
    assert ("  warning: probe/stop: fires twice in Copilot CLI: it runs the copies in Claude Code's project settings "
            "and its own project file; keep one of them\n") in found["verify_copilot"]
    # measured on 1.0.102: twice each, the pre hook too (Claude's "Bash" matcher matches Copilot's bash);
    # the inline hooks of the run shared with the next test are that test's
    assert ids([c for c in found["both"] if not c["id"].startswith("inline-")]) == [
        "op-agentStop", "op-preToolUse", "op-sessionStart", "probe-pre", "probe-pre", "probe-start", "probe-start",
        "probe-stop", "probe-stop"]
    assert found["team_back"]
    assert found["hooks_folder"] == ["team.json"]
    assert ids(found["after_uninstall"]) == ["op-agentStop", "op-preToolUse", "op-sessionStart"]


def test_an_untrusted_project_is_a_problem_and_copilot_really_skips_it(run, copilot, probe, project, home) -> None:
    _operator_file(project, probe)
    run("install", probe.bundle(), "--host", "copilot")
    trust(home, project, ["/somewhere/else"])
    verify = run("verify", "--verbose", "--host", "copilot")
    assert verify.exit_code == 1 and "the project folder is not trusted by Copilot" in verify.stdout
    copilot()
    assert probe.calls() == []


def test_the_same_bundle_at_user_and_project_scope_runs_twice_as_verify_says(run, copilot, probe, project) -> None:
    assert run("install", probe.bundle(), "--host", "copilot", "--scope", "user").exit_code == 0
    assert run("install", probe.bundle(), "--host", "copilot", "--scope", "project").exit_code == 0
    verify = run("verify", "--verbose", "--host", "copilot")
    assert verify.exit_code == 1
    assert ("  problem: probe/start: installed at user and project scope; Copilot CLI runs the copies in user and "
            "project each, so it fires 2 times per sessionStart: uninstall it from all but one scope\n") in verify.stdout
    copilot()  # measured on 1.0.102: no de-duplication across its hook files
    assert ids(probe.calls()) == ["probe-pre", "probe-pre", "probe-start", "probe-start", "probe-stop", "probe-stop"]


def test_claude_project_and_inline_hooks_run_in_copilot_as_verify_says(run, copilot, probe, project, home,
                                                                       shared_runs) -> None:
    """One run: our hook installed natively and in Claude's project settings fires twice in Copilot,
    as verify says from Claude's side; the inline ``hooks`` of ~/.copilot/settings.json (with the
    JSONC header Copilot writes there) and .github/copilot/settings.json run too, after the hooks
    folders and Claude's files; settings.local.json with a comment is skipped, as verify warns."""
    found = _shared(shared_runs, "ours+claude", lambda: _ours_and_claudes(run, copilot, probe, project, home))
    assert ("  warning: probe/start: fires twice in Copilot CLI: it runs the copies in Claude Code's project settings "
            "and its own project file; keep one of them\n") in found["verify_claude"]
    assert ("  warning: .github/copilot/settings.local.json: inline hooks: it holds a comment, and Copilot CLI "
            "(measured on 1.0.102) then runs none of its inline hooks; remove the comments\n"
            ) in found["verify_copilot"]
    starts = [(c["id"], c["event"]) for c in found["both"]
              if c["id"] in ("probe-start", "op-sessionStart") or c["id"].startswith("inline")]
    # measured on 1.0.102: the user's inline hooks first, then .github/hooks (its files in no order we
    # rely on), then Claude's project settings (a snake_case payload naming SessionStart), then the
    # project's inline hooks; never the commented settings.local.json
    assert starts[0] == ("inline-user", None)
    assert sorted(starts[1:3]) == [("op-sessionStart", None), ("probe-start", None)]
    assert starts[3:] == [("probe-start", "SessionStart"), ("inline-project", None)]


@pytest.mark.parametrize("which", ["parent", "sibling"])
def test_a_trusted_parent_runs_the_project_hooks_a_sibling_does_not_as_verify_says(run, copilot, probe, project,
                                                                                  home, which) -> None:
    """Measured on 1.0.102: trustedFolders holding a parent of the project trusts it; a sibling
    whose name starts with the project's (``<project>2``) does not. verify says the same."""
    run("install", probe.bundle(), "--host", "copilot")
    trust(home, project, [str(project.parent) if which == "parent" else f"{project}2"])
    verify = run("verify", "--verbose", "--host", "copilot")
    said_untrusted = "the project folder is not trusted by Copilot" in verify.stdout
    copilot()
    ran = probe.calls() != []
    assert ran is (which == "parent") and said_untrusted is (which == "sibling"), (which, ids(probe.calls()))
