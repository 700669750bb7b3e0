"""Files we only read: managed settings and drop-ins, Gemini system files and trust list, Cursor's
enterprise file, other scopes' settings that gates and verify look at. Each holds wrong-shape JSON
of every kind; invariants: no traceback, verify's verdict or exit 2 with one line, the file we only
read is never written, and every check runs before the first byte of an install is written.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from tests.conftest import attack_size

BUNDLE = ('[bundle]\nname = "guard"\nversion = "1"\n[[hooks]]\nid = "k"\nevent = "stop"\ncommand = "k"\n'
          '[env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP]\nvalue = "5"\npolicy = "at-least"\n')
# host -> files it only reads (relative to tmp_path), for a project-scope install
READ_ONLY = {
    "claude": ["managed/managed-settings.json", "managed/managed-settings.d/10-fleet.json",
               "home/.claude/settings.json", "project/.claude/settings.local.json"],
    "gemini": ["gemini-system/system-defaults.json", "gemini-system/settings.json",
               "home/.gemini/trustedFolders.json", "home/.gemini/settings.json"],
    "cursor": ["cursor-managed/hooks.json", "project/.claude/settings.json", "home/.claude/settings.json",
               "home/.cursor/hooks.json"],
}
# where the hosts' gates, verify and env shadowing look inside those files
GATE_PATHS = [
    (), ("hooks",), ("hooks", "Stop"), ("hooks", "Stop", 0), ("hooks", "Stop", 0, "hooks"), ("hooks", "stop"),
    ("hooks", "stop", 0), ("hooks", "AfterAgent"), ("hooks", "AfterAgent", 0, "hooks", 0), ("env",), ("env", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"),
    ("disableAllHooks",), ("allowManagedHooksOnly",), ("hooksConfig",), ("hooksConfig", "enabled"),
    ("hooksConfig", "disabled"), ("hooksConfig", "disabled", 0), ("security",), ("security", "folderTrust"),
    ("security", "folderTrust", "enabled"), ("version",), ("{project}",),
]
WRONG = [[], [None], 5, -1, 1.5, "x", "", None, True, False, {}, {"a": [1, {"b": None}]}, ["guard/k", 5],
         [{"hooks": 5}], [{"hooks": [5, "x", {"command": 5}]}], {"command": "k # hookweave:guard/k"},
         "TRUST_FOLDER", "\ud800", "9" * 5000]


def _put(doc: object, path: tuple, value: object, project: Path) -> object:
    """``doc`` with ``value`` placed at ``path``, creating objects and lists on the way."""
    if not path:
        return value
    key = path[0] if not isinstance(path[0], str) else path[0].replace("{project}", str(project))
    if isinstance(key, int):
        node = doc if isinstance(doc, list) else []
        node = node + [{}] * (key + 1 - len(node))
        node[key] = _put(node[key], path[1:], value, project)
        return node
    node = dict(doc) if isinstance(doc, dict) else {}
    node[key] = _put(node.get(key), path[1:], value, project)
    return node


def _cases(rng: random.Random, n: int):
    places = [(host, place) for host, where in sorted(READ_ONLY.items()) for place in where]
    every = list(itertools.product(places, GATE_PATHS, range(len(WRONG))))
    rng.shuffle(every)
    for (host, place), path, w in every[:n]:
        yield host, place, path, WRONG[w]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _one_line(result) -> bool:
    return result.stderr.count("\n") <= 1 and "Traceback" not in result.output


@pytest.mark.attack
def test_wrong_shapes_in_files_we_only_read(run, write_bundle, tmp_path: Path, project: Path, attack_report) -> None:
    rng = random.Random(8)
    bundle = str(write_bundle(BUNDLE))
    n = attack_size(120, len(READ_ONLY) * 4 * len(GATE_PATHS) * len(WRONG))
    cases = failures = refused = 0
    written: dict[str, bytes] = {}
    for host, place, path, wrong in _cases(rng, n):
        cases += 1
        target = tmp_path / place
        target.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(_put({"model": "x"}, path, wrong, project), ensure_ascii=True) + "\n"
        target.write_text(text, encoding="utf-8")
        before = _snapshot(tmp_path)
        try:
            results = []
            for args in (("install", bundle, "--host", host), ("verify", "--host", host),
                         ("install", bundle, "--host", host, "--force"), ("uninstall", "guard", "--host", host)):
                result = run(*args)
                results.append(result)
                assert result.exit_code in (0, 1, 2), (args, result.output)
                assert _one_line(result), (args, result.output)
                assert target.read_text(encoding="utf-8") == text, (args, "a file we only read was written")
                if args[0] != "verify" and result.exit_code:
                    refused += 1
            if results[0].exit_code == 2:
                assert _snapshot(tmp_path) == before, "exit 2 after writing"
        except AssertionError:
            failures += 1
            raise
        finally:
            for p in project.rglob("*hookweave.json"):
                p.unlink()
            target.unlink()
            for rel in (".claude/settings.json", ".gemini/settings.json", ".cursor/hooks.json"):
                p = project / rel
                if p.exists() and p != target:
                    p.unlink()
    attack_report("files we only read", cases=cases, failures=failures, refused=refused)
    assert failures == 0


# -- issue 8, case 8: the examples ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["[]", "5", '"x"', "null"])
def test_a_managed_drop_in_that_is_not_an_object_is_reported_not_a_crash(run, write_bundle, tmp_path, project, shape):
    """A drop-in with a list at the top crashed verify, and install AFTER writing the settings file."""
    drop_in = tmp_path / "managed" / "managed-settings.d" / "10-fleet.json"
    drop_in.parent.mkdir(parents=True)
    drop_in.write_text(shape)
    kind = {"[]": "a list", "5": "a number", '"x"': "a string", "null": "null"}[shape]
    result = run("install", str(write_bundle(BUNDLE)), "--host", "claude")
    assert result.exit_code == 0, result.output
    verify = run("verify", "--host", "claude")  # every scope, managed too: a problem there
    assert verify.exit_code == 1, verify.output
    assert (f"  problem: {drop_in}: the top level must be a JSON object, not {kind} (Claude Code refuses to start "
            "while a managed settings file does not parse, and runs no hooks)\n") in verify.stdout
    assert drop_in.read_text() == shape


def test_a_managed_file_that_is_a_number_is_reported_not_a_crash(run, write_bundle, tmp_path):
    managed = tmp_path / "managed" / "managed-settings.json"
    managed.parent.mkdir()
    managed.write_text("5")
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude").exit_code == 0
    verify = run("verify", "--host", "claude", "--scope", "project")  # managed read for gates only: a note
    assert verify.exit_code == 0, verify.output
    assert f"  note: {managed}: the top level must be a JSON object, not a number" in verify.stdout


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"hooksConfig": 5}, "hooksConfig should be an object"),
        ({"hooksConfig": {"disabled": "guard/k"}}, "hooksConfig.disabled should be a list of hook names"),
        ({"hooksConfig": {"enabled": "false"}}, "hooksConfig.enabled should be true or false"),
        ({"security": []}, "security should be an object"),
        ({"security": {"folderTrust": {"enabled": 0}}},
         "security.folderTrust.enabled should be true or false; Gemini reads 0 as false, and may reject the file"),
    ],
)
def test_gemini_gate_settings_of_the_wrong_type_are_reported(run, write_bundle, tmp_path, monkeypatch, setting, message):
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    system = tmp_path / "gemini-system" / "settings.json"
    system.parent.mkdir()
    system.write_text(json.dumps(setting))
    assert run("install", str(write_bundle(BUNDLE)), "--host", "gemini").exit_code == 0
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 0, verify.output
    tail = "" if "Gemini reads" in message else "; hookweave reads it as unset, and Gemini may reject the file"
    assert f"  warning: system settings: {message}{tail}: fix it\n" in verify.stdout
    assert system.read_text() == json.dumps(setting)


def test_a_disabled_list_given_as_a_string_is_not_read_letter_by_letter(run, write_bundle, tmp_path, monkeypatch):
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    system = tmp_path / "gemini-system" / "settings.json"
    system.parent.mkdir()
    system.write_text('{"hooksConfig": {"disabled": "guard/k"}}')
    run("install", str(write_bundle(BUNDLE)), "--host", "gemini")
    assert "listed in hooksConfig.disabled" not in run("verify", "--host", "gemini").stdout


def test_gates_are_checked_before_anything_is_written(run, write_bundle, project, monkeypatch):
    """installer.install computed gates after writing: a crash there left files written."""
    from hookweave.hosts.claude import ClaudeCodeHost

    def boom(self, docs, scopes, project):
        raise RuntimeError("gate failed")

    monkeypatch.setattr(ClaudeCodeHost, "gates", boom)
    with pytest.raises(RuntimeError):
        run("install", str(write_bundle(BUNDLE)), "--host", "claude")
    assert list(project.iterdir()) == []


def test_install_gates_see_the_file_as_it_will_be(run, write_bundle, project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"disableAllHooks": true}\n')
    result = run("install", str(write_bundle(BUNDLE)), "--host", "claude", "--dry-run")
    assert "project settings set disableAllHooks" in result.stdout
    assert settings.read_text() == '{"disableAllHooks": true}\n'


def test_a_trust_list_that_is_a_list_is_reported(run, write_bundle, home):
    trusted = home / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir()
    trusted.write_text('["/"]')
    assert run("install", str(write_bundle(BUNDLE)), "--host", "gemini").exit_code == 0
    verify = run("verify", "--host", "gemini")
    assert verify.exit_code == 1
    assert (f"  problem: {trusted} is not a JSON object: Gemini stops at start and runs nothing; "
            "fix the file\n") in verify.stdout
    assert trusted.read_text() == '["/"]'
