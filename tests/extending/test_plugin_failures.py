"""A broken plugin never breaks the tool (issue 21 item 4): it is skipped with one warning that names
it and how to stop loading it; every other host works; exit codes and ``--json`` are unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostnames import NAMES

HEAD = ("from pathlib import Path\n"
        "from hookweave.core.contract.hookspecs import hookimpl\n"
        "from hookweave.core.contract.shapes import NestedGroupsHost\n"
        "from hookweave.core.contract.description import Description\n\n")
GOOD_CLASS = ("class Good(NestedGroupsHost):\n    name = 'good'\n    title = 'Good'\n"
              "    events = {'stop': 'Stop'}\n"
              "    def settings_path(self, scope, project):\n        return project / '.good' / 'settings.json'\n\n")
REGISTER = "@hookimpl\ndef hookweave_register_hosts(register):\n    register({})\n"
DESCRIPTION = ("D = Description(name={name!r}, title='Described', files={{'project': '{{project}}/.d/settings.json'}}, "
               "events={events!r}{extra})\n")

CASES = {  # a broken plugin: its source, and what its warning says
    "raises on import": ("raise RuntimeError('plugin exploded')\n", "failed to load (RuntimeError: plugin exploded)"),
    "its hook raises": (HEAD + "@hookimpl\ndef hookweave_register_hosts(register):\n    1 / 0\n",
                        "hookweave_register_hosts failed (ZeroDivisionError: division by zero)"),
    "a typo in the hook's name": (HEAD + "@hookimpl\ndef hookweave_register_host(register):\n    pass\n",
                                  "is not a valid plugin (PluginValidationError"),
    "an unknown neutral event": (HEAD + GOOD_CLASS.replace("{'stop': 'Stop'}", "{'stopp': 'Stop'}") + REGISTER.format("Good"),
                                 "events: 'stopp' not a neutral name"),
    "an unknown neutral tool": (HEAD + GOOD_CLASS.replace("    events", "    tools = {'shel': 'Bash'}\n    events")
                                + REGISTER.format("Good"), "tools: 'shel' not a neutral name"),
    "an unknown order": (HEAD + GOOD_CLASS.replace("    events", "    order = 'random'\n    events") + REGISTER.format("Good"),
                         "order 'random' is not one of parallel, file, sequential-flag"),
    "a name outside [a-z0-9-]": (HEAD + GOOD_CLASS.replace("'good'", "'Good_Agent'") + REGISTER.format("Good"),
                                 "name 'Good_Agent' is not lowercase letters, digits and dashes"),
    "an empty title": (HEAD + GOOD_CLASS.replace("'Good'", "'  '") + REGISTER.format("Good"), "title is empty"),
    "a settings path that fails": (HEAD + GOOD_CLASS.replace("return project / '.good' / 'settings.json'", "raise KeyError(scope)")
                                   + REGISTER.format("Good"), "settings_path('user') fails: KeyError: 'user'"),
    "a bad description": (HEAD + DESCRIPTION.format(name="bad", events={"stop": "Stop"}, extra=", order='random'")
                          + REGISTER.format("D"), "description 'bad': order: 'random' is not one of parallel, file, sequential-flag, unknown"),
    "a description with no file": (HEAD + "D = Description(name='nofile', title='T', files={}, events={'stop': 'Stop'})\n"
                                    + REGISTER.format("D"), "description 'nofile': files: names no settings file"),
    # issue 33 item 7: sys.exit() at import killed every command; a plugin naming Claude's file or
    # record found Claude's hooks "already installed", and its uninstall took them (and the record) out
    "sys.exit() at import": ("import sys\nsys.exit(3)\n", "failed to load (SystemExit: 3)"),
    # issue 35 item 5: the deprecated paths at the top of core/ are gone; the warning names the new home
    "an import path removed": ("from hookweave.core.host import NestedGroupsHost\n",
                               "failed to load (ModuleNotFoundError: No module named 'hookweave.core.host': "
                               "hookweave.core.host moved to hookweave.core.contract.host (Host) and "
                               "hookweave.core.contract.shapes)"),
    "a name removed from hookweave.core": ("from hookweave.core import paths\n",
                                           "__init__.py): hookweave.core.paths moved to hookweave.core.files.paths); skipped"),
    "sys.exit() in its hook": (HEAD + "import sys\n@hookimpl\ndef hookweave_register_hosts(register):\n    sys.exit()\n",
                               "hookweave_register_hosts failed (SystemExit)"),
    "Claude's project file": (HEAD + DESCRIPTION.format(name="thief", events={"stop": "Stop"}, extra="").replace(
        ".d/settings.json", ".claude/settings.json") + REGISTER.format("D"),
        "host 'thief' names /nonexistent-hookweave-project/.claude/settings.json as its project settings file, which "
        "is Claude Code's project settings file: a plugin may never claim another agent's file or record"),
    "Claude's record as its file": (HEAD + DESCRIPTION.format(name="thief", events={"stop": "Stop"}, extra="").replace(
        ".d/settings.json", ".claude/settings.hookweave.json") + REGISTER.format("D"),
        "names /nonexistent-hookweave-project/.claude/settings.hookweave.json as its project settings file, which "
        "is Claude Code's project record"),
    "Claude's user file, by a class": (HEAD + GOOD_CLASS.replace("project / '.good' / 'settings.json'",
                                                              "Path.home() / '.claude' / 'settings.json'")
                                       + REGISTER.format("Good"), "which is Claude Code's user settings file"),
}
ENTRIES = {  # an entry point naming something that registers no host: its value, and what the warning says
    "a number": ("N = 42\n", "broken_plugin:N", "names int 42, which is neither a Description, a Host subclass nor "
                 "a module with a hookweave_register_hosts function"),
    "a function": ("def f():\n    pass\n", "broken_plugin:f", "names function broken_plugin.f, which is neither"),
    "a module without the hook": ("X = 1\n", "broken_plugin", "names module broken_plugin, which is neither"),
}


def _site(tmp_path: Path, source: str, entry: str = "broken_plugin") -> Path:
    site = tmp_path / "site"
    meta = site / "broken_dist-2.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-dist\nVersion: 2.0\n")
    (meta / "entry_points.txt").write_text(f"[hookweave]\nbroken = {entry}\n")
    (site / "broken_plugin.py").write_text(source)
    return site


def _hooks(tmp_path: Path, site: Path, *args: str, **more: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site), "NO_COLOR": "1", **more}
    return subprocess.run([sys.executable, "-c", "from hookweave.core.cli.entry import main; main()", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_plugin_leaves_every_other_host_working(tmp_path: Path, case: str) -> None:
    source, said = CASES[case]
    _skipped_with_one_warning(tmp_path, _site(tmp_path, source), said)


@pytest.mark.parametrize("case", sorted(ENTRIES))
def test_an_entry_point_that_names_no_host_is_skipped_saying_so(tmp_path: Path, case: str) -> None:
    source, entry, said = ENTRIES[case]
    _skipped_with_one_warning(tmp_path, _site(tmp_path, source, entry=entry), said)


def _skipped_with_one_warning(tmp_path: Path, site: Path, said: str) -> None:
    """Claude's install and verify work, with one warning naming the plugin, its distribution, why and
    how to stop it; ``hosts`` and ``doctor`` say the same and list no host of the plugin's."""
    (tmp_path / "proj").mkdir()
    done = _hooks(tmp_path, site, "install", "example-guard", "--host", "claude", "--project", "proj")
    assert done.returncode == 0, done.stderr
    [warning] = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert said in warning and "broken-dist 2.0" in warning, warning
    assert warning.endswith("(set HOOKWEAVE_DISABLE_PLUGINS=broken to stop loading it)"), warning
    assert "Traceback" not in done.stderr
    listed = _hooks(tmp_path, site, "hosts", "--json")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)["hosts"]) == len(NAMES)  # one JSON document
    assert listed.stderr == warning + "\n"
    verify = _hooks(tmp_path, site, "verify", "--host", "claude", "--project", "proj", "--json")
    assert verify.returncode == 0 and json.loads(verify.stdout)["problems"] == 0
    doctor = _hooks(tmp_path, site, "doctor")
    assert doctor.returncode == 0 and "Traceback" not in doctor.stderr and warning in doctor.stderr
    quiet = subprocess.run([sys.executable, "-c", "from hookweave.core.cli.entry import main; main()", "hosts"],
                           cwd=tmp_path, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(site), "HOOKWEAVE_DISABLE_PLUGINS": "broken"})
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_description_named_by_its_entry_point_is_a_host(tmp_path: Path) -> None:
    """A plugin can be data alone: the entry point names a ``Description``, no hook function."""
    source = HEAD + DESCRIPTION.format(name="described", events={"stop": "Stop", "pre_tool_use": "PreToolUse", "session_start": "SessionStart"},
                                       extra=", tools={'shell': 'Bash'}, timeout_unit='ms'")
    site = _site(tmp_path, source, entry="broken_plugin:D")
    listed = _hooks(tmp_path, site, "hosts", "--json")
    assert listed.returncode == 0 and listed.stderr == ""
    described = next(h for h in json.loads(listed.stdout)["hosts"] if h["name"] == "described")
    assert described["origin"] == "broken-dist 2.0" and described["title"] == "Described"
    (tmp_path / "proj").mkdir()
    bundle = Path(__file__).parent.parent / "data" / "claude" / "bundle"
    done = _hooks(tmp_path, site, "install", str(bundle), "--host", "described", "--project", "proj")
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "proj" / ".d" / "settings.json").read_text())
    assert written["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    assert written["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] == 10_000  # milliseconds
    assert _hooks(tmp_path, site, "verify", "--host", "described", "--project", "proj").returncode == 0
    gone = _hooks(tmp_path, site, "uninstall", "guard", "--host", "described", "--project", "proj")
    assert gone.returncode == 0 and not (tmp_path / "proj" / ".d").exists()


def test_a_variable_holding_dotdot_names_one_file_for_every_command(tmp_path: Path, home: Path) -> None:
    """Issue 33 item 7: ``${DX_HOME}`` = ``<home>/a/../b``, where ``a`` does not exist: install wrote
    ``<home>/b/settings.json`` (making ``a`` on its way), then status and uninstall looked through
    the missing ``a`` and found nothing; into the operator's own file, install said it "changed
    while hookweave was working". Now install, status, verify and uninstall name the same file."""
    source = HEAD + ("D = Description(name='dx', title='DX', files={'user': '${DX_HOME:-~/.dx}/settings.json'}, "
                     "events={'stop': 'Stop', 'pre_tool_use': 'PreToolUse', 'session_start': 'SessionStart'}, "
                     "tools={'shell': 'Bash'})\n")
    site = _site(tmp_path, source, entry="broken_plugin:D")
    bundle = str(Path(__file__).parent.parent / "data" / "claude" / "bundle")
    where = {"DX_HOME": f"{home}/a/../b"}
    settings = home / "b" / "settings.json"
    for operator in (None, '{\n  "theirs": 1\n}\n'):
        if operator is not None:
            settings.parent.mkdir()
            settings.write_text(operator)
        done = _hooks(tmp_path, site, "install", bundle, "--host", "dx", "--scope", "user", **where)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        status = _hooks(tmp_path, site, "status", **where)
        assert "dx  user  guard 1.2.0  (3 hooks, 0 env)  home/b/settings.json" in status.stdout, status.stdout
        assert "dx user home/b/settings.json: installed guard 1.2.0 (3 hooks)" in done.stdout  # shown from tmp_path
        assert _hooks(tmp_path, site, "verify", "--host", "dx", **where).returncode == 0
        gone = _hooks(tmp_path, site, "uninstall", "guard", "--host", "dx", "--scope", "user", **where)
        assert gone.returncode == 0, gone.stderr
        if operator is None:
            assert sorted(home.iterdir()) == []  # the file and the folder install made, gone again
        else:
            assert settings.read_text() == operator and sorted(p.name for p in home.iterdir()) == ["b"]


def test_a_plugin_naming_claudes_file_never_touches_claudes_hooks(tmp_path: Path) -> None:
    """Issue 33 item 7: ``{project}/.claude/settings.json`` as a plugin's own file found Claude's hooks
    "already installed", and its uninstall took them and Claude's record out. Now the plugin is
    skipped, saying why, and every command on it is an unknown host that writes nothing."""
    source = HEAD + DESCRIPTION.format(name="thief", extra=", tools={'shell': 'Bash', 'edit': 'Edit', 'write': 'Write'}, env_key='env'", events={
        "stop": "Stop", "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "session_start": "SessionStart"}).replace(
        ".d/settings.json", ".claude/settings.json")
    site = _site(tmp_path, source, entry="broken_plugin:D")
    (tmp_path / "proj").mkdir()
    assert _hooks(tmp_path, tmp_path / "nothing", "install", "example-guard", "--host", "claude",
                  "--project", "proj").returncode == 0
    claude = tmp_path / "proj" / ".claude"
    before = {p.name: p.read_bytes() for p in claude.iterdir()}
    for args in (("install", "example-guard"), ("uninstall", "example-guard"), ("verify",)):
        done = _hooks(tmp_path, site, *args, "--host", "thief", "--project", "proj")
        assert done.returncode == 2 and "unknown host 'thief'" in done.stderr, done.stderr
        assert ("warning: plugin broken (broken-dist 2.0): host 'thief' names /nonexistent-hookweave-project/.claude/"
                "settings.json as its project settings file, which is Claude Code's project settings file") in done.stderr
        assert {p.name: p.read_bytes() for p in claude.iterdir()} == before
