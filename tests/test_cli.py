"""The CLI contract: exit codes, exact messages, --dry-run, --json, and never a prompt without a TTY."""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostnames import LISTED, SCOPES, TITLES

SMALL = '[bundle]\nname = "tiny"\nversion = "0.1.0"\n[[hooks]]\nid = "stop-note"\nevent = "stop"\ncommand = "echo bye"\n'


def test_dry_run_prints_diff_and_patch_and_writes_nothing(run, project: Path, write_bundle) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n    "model": "opus"\n}\n')
    result = run("install", str(write_bundle(SMALL)), "--host", "claude", "--dry-run", "--patch")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "claude project .claude/settings.json: would install tiny 0.1.0 (1 hook)\n"
        "--- a/.claude/settings.json\n"
        "+++ b/.claude/settings.json\n"
        "@@ -1,3 +1,15 @@\n"
        " {\n"
        '-    "model": "opus"\n'
        '+    "model": "opus",\n'
        '+    "hooks": {\n'
        '+        "Stop": [\n'
        "+            {\n"
        '+                "hooks": [\n'
        "+                    {\n"
        '+                        "type": "command",\n'
        '+                        "command": "echo bye # hookweave:tiny/stop-note"\n'
        "+                    }\n"
        "+                ]\n"
        "+            }\n"
        "+        ]\n"
        "+    }\n"
        " }\n"
        "JSON Patch (RFC 6902) for .claude/settings.json:\n"
        "[\n"
        "  {\n"
        '    "op": "add",\n'
        '    "path": "/hooks",\n'
        '    "value": {\n'
        '      "Stop": [\n'
        "        {\n"
        '          "hooks": [\n'
        "            {\n"
        '              "type": "command",\n'
        '              "command": "echo bye # hookweave:tiny/stop-note"\n'
        "            }\n"
        "          ]\n"
        "        }\n"
        "      ]\n"
        "    }\n"
        "  }\n"
        "]\n"
        "record settings.hookweave.json would be written\n"
        "dry run: nothing written\n"
    )
    assert settings.read_text() == '{\n    "model": "opus"\n}\n'
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_uninstall_dry_run_writes_nothing(run, project: Path, write_bundle) -> None:
    run("install", str(write_bundle(SMALL)), "--host", "claude")
    settings = project / ".claude" / "settings.json"
    before = settings.read_text()
    result = run("uninstall", "tiny", "--host", "claude", "--dry-run", "--patch")
    assert result.exit_code == 0
    assert "+++ /dev/null\n" in result.stdout and '"op": "remove"' in result.stdout
    assert settings.read_text() == before


def test_json_output_reports_changed_and_operations(run, write_bundle) -> None:
    bundle = str(write_bundle(SMALL))
    first = json.loads(run("install", bundle, "--host", "claude", "--json").stdout)
    assert first["changed"] is True and first["command"] == "install"
    (file,) = first["files"]
    assert (file["host"], file["scope"], file["path"], file["changed"]) == ("claude", "project", ".claude/settings.json", True)
    assert [op["op"] for op in file["operations"]] == ["add"]
    second = json.loads(run("install", bundle, "--host", "claude", "--json").stdout)
    assert second["changed"] is False
    gone = json.loads(run("uninstall", "tiny", "--host", "claude", "--json").stdout)
    assert gone["changed"] is True and gone["files"][0]["actions"] == ["removed tiny 0.1.0"]


def test_json_error_is_one_document_and_exit_code(run) -> None:
    result = run("install", "no-such-bundle", "--host", "claude", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": "no bundle 'no-such-bundle': not a path, and not a template (templates: example-guard)",
        "exit_code": 2,
    }


def test_no_host_without_a_terminal_is_an_error_not_a_prompt(run, write_bundle, monkeypatch) -> None:
    import questionary

    monkeypatch.setattr(questionary, "checkbox", lambda *a, **k: (_ for _ in ()).throw(AssertionError("prompted")))
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 2
    assert result.stderr == (
        "hooks: install: --host is required without a terminal; e.g. --host claude "
        f"(registered: {LISTED}, or all)\n"
    )
    assert run("uninstall", "tiny").exit_code == 2


def test_unknown_host_and_missing_project(run, write_bundle) -> None:
    bundle = str(write_bundle(SMALL))
    result = run("install", bundle, "--host", "vim")
    assert (result.exit_code, result.stderr) == (2, f"hooks: unknown host 'vim'; registered hosts: {LISTED} (or all)\n")
    result = run("install", bundle, "--host", "claude", "--project", "nowhere")
    assert (result.exit_code, result.stderr) == (2, "hooks: --project nowhere: no such folder; create it or pass an existing one\n")


def test_host_all_installs_into_every_registered_host(run, project: Path, write_bundle) -> None:
    assert run("install", str(write_bundle(SMALL)), "--host", "all").exit_code == 0
    assert (project / ".claude" / "settings.json").is_file()


def test_bad_manifest_exits_2_and_writes_nothing(run, project: Path, write_bundle) -> None:
    bundle = write_bundle(SMALL.replace('event = "stop"', 'event = "on_stop"'))
    result = run("install", str(bundle), "--host", "claude")
    assert result.exit_code == 2
    assert result.stderr == (
        f"hooks: {bundle / 'hookweave.toml'}: hooks[0] (stop-note).event: unknown event 'on_stop'; "
        "did you mean 'stop'?\n"
    )
    assert not (project / ".claude").exists()


def test_template_by_name_and_manifest_in_cwd(run, project: Path) -> None:
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("claude project .claude/settings.json: installed example-guard 1.0.0 (2 hooks)\n")
    (project / "hookweave.toml").write_text(SMALL)
    assert run("install", "--host", "claude").stdout.startswith(
        "claude project .claude/settings.json: installed tiny 0.1.0 (1 hook)\n"
    )
    assert run("status").stdout == (  # issue 25: columns aligned
        "claude  project  example-guard 1.0.0  (2 hooks, 1 env)  .claude/settings.json\n"
        "claude  project  tiny 0.1.0           (1 hook, 0 env)   .claude/settings.json\n"
    )


def test_uninstall_of_a_bundle_not_installed_changes_nothing(run) -> None:
    result = run("uninstall", "ghost", "--host", "claude")
    assert result.exit_code == 1  # issue 13 case 4: nothing removed is a failure, not "ok"
    assert result.stdout == ""
    assert result.stderr == "hooks: ghost is not installed at claude project; installed: nothing\n"


def test_uninstall_at_the_wrong_scope_names_the_right_one(run, write_bundle) -> None:
    run("install", str(write_bundle(SMALL)), "--host", "claude", "--scope", "local")
    result = run("uninstall", "tiny", "--host", "claude")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "hooks: tiny is not installed at claude project; it is installed at claude local: pass --scope local\n"


def test_verify_and_status_with_nothing_installed(run) -> None:
    assert run("verify").stdout == f"nothing installed: {', '.join(TITLES)}\nverify: ok\n"
    assert run("status").stdout == "nothing installed\n"
    assert json.loads(run("status", "--json").stdout) == {"installed": [], "findings": []}


def test_hosts_lists_origin_and_scopes(run) -> None:
    result = run("hosts", "--json")
    assert json.loads(result.stdout)["hosts"] == [
        {"name": name, "title": title, "origin": "built-in",
         "scopes": list(SCOPES[name]), "detected": False}
        for name, title in TITLES.items()]
    name_w, title_w = max(map(len, TITLES)), max(map(len, TITLES.values()))
    scopes_w = max(len(", ".join(s)) for s in SCOPES.values()) + len("scopes: ")
    assert run("hosts").stdout == "".join(  # issue 25: every column aligned, the last too
        f"{name:<{name_w}}  {title:<{title_w}}  built-in  {'scopes: ' + ', '.join(SCOPES[name]):<{scopes_w}}  (not detected)\n"
        for name, title in TITLES.items())


def test_version(run) -> None:
    from importlib.metadata import version

    assert run("--version").stdout == f"hookweave {version('hookweave')}\n"


def test_several_hosts_one_plan_shown_whole_in_dry_run(run, write_bundle, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    result = run("install", str(write_bundle(SMALL)), "--host", "claude", "--host", "gemini", "--dry-run", "--patch")
    assert result.exit_code == 0
    assert "+++ b/.claude/settings.json\n" in result.stdout and "+++ b/.gemini/settings.json\n" in result.stdout
    assert result.stdout.count("JSON Patch (RFC 6902)") == 2


def test_a_bad_file_on_one_host_means_nothing_is_written_anywhere(run, project: Path, write_bundle) -> None:
    (project / ".gemini").mkdir()
    (project / ".gemini" / "settings.json").write_text('{"hooks": [}')
    result = run("install", str(write_bundle(SMALL)), "--host", "all")
    assert result.exit_code == 2
    assert result.stderr.startswith("hooks: .gemini/settings.json:1:12: ")
    assert not (project / ".claude").exists() and not (project / ".cursor").exists()


def test_a_failed_write_on_one_host_puts_the_others_back(run, project: Path, write_bundle, monkeypatch) -> None:
    from hookweave.core.files import fileio

    claude = project / ".claude" / "settings.json"
    claude.parent.mkdir()
    claude.write_text('{\n  "model": "opus"\n}\n')
    real = fileio.write_text

    def disk_full_for_cursor(path, text, expected, **kwargs):
        if path.parts[-2:] == (".cursor", "hooks.json") and text is not None:  # the records are written by then
            raise OSError(28, "No space left on device", str(path))
        return real(path, text, expected, **kwargs)

    monkeypatch.setattr(fileio, "write_text", disk_full_for_cursor)
    result = run("install", str(write_bundle(SMALL)), "--host", "claude", "--host", "cursor")
    assert (result.exit_code, result.stderr) == (
        1, "hooks: .cursor/hooks.json: could not write it (No space left on device); every file was put back as it was\n")
    assert claude.read_text() == '{\n  "model": "opus"\n}\n'
    assert sorted(p.name for p in claude.parent.iterdir()) == ["settings.json"]


def _host(name: str):
    return registry().get(name)


def test_verify_finds_the_hosts_once_with_no_plugin_installed(run, monkeypatch) -> None:
    """Its report asks whether every host was verified: with the built-in hosts only, the registry
    it began with answers (finding the plugins again was a registry of its own, ~1 M instructions)."""
    from hookweave.core.contract import registry as plugins

    made = []
    real = plugins.HostRegistry.__init__
    monkeypatch.setattr(plugins.HostRegistry, "__init__", lambda self, *a, **k: made.append(self) or real(self, *a, **k))
    assert run("install", "example-guard", "--host", "claude").exit_code == 0
    made.clear()
    result = run("verify", "--host", "claude")
    assert result.exit_code == 0 and len(made) == 1, result.output
