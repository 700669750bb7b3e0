"""The collection speaks Ansible (issue 37 item 3): absolute paths in messages, diff headers and
``installed[].path``; the module's own words (``force: true``, ``scope:``, ``become: true``) where
hookweave's command says --force, --scope, sudo; hookweave's warnings as Ansible's [WARNING]s; a
diff and a count of written files that include the records (a version bump changes only those);
``bundle`` a path (``~``), ``scope`` with choices, ``hosts: []`` refused. Run through
ansible-playbook on one machine of tests/fleet/test_ansible.py's fleet.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("ansible", reason="ansible-core is in the test extra: pip install -e '.[test]'")

from tests.fleet.test_ansible import REPO, _play, _snapshot, make_fleet  # noqa: E402
from tests.fleet.test_ansible import fleet  # noqa: E402,F401  (the fixture)


def unwrapped(text: str) -> str:
    """Text with no whitespace: ansible-core 2.17 wraps a [WARNING] at 80 columns (a path split at a
    hyphen), 2.19 does not; scripts/fleet-ci runs these tests on both."""
    return re.sub(r"\s+", "", text)


def _task(fleet: dict, *args: str, info: bool = False) -> tuple[dict, dict | None, str]:
    """tests/ansible/task.yml on m1: the task's registered result, verify's (``info``), and the output."""
    result = fleet["root"] / "result.json"  # both results, written by the play's last task
    result.unlink(missing_ok=True)
    extra = ["-e", f"result_file={result}"] + (["-e", "with_info=true"] if info else [])
    done = _play(fleet, "task.yml", "--limit", "m1", *extra, *args)
    assert result.is_file(), done.stdout + done.stderr
    both = json.loads(result.read_text(encoding="utf-8"))
    return both["hooks"], both["verified"] if info else None, done.stdout + done.stderr


def _cases(fleet: dict, cases: list[dict]) -> tuple[list[dict], str]:
    """tests/ansible/cases.yml on m1: one agent_hooks task per case (its options), in one run, in that
    order; each case's registered result (``item``: its options) and the output."""
    result, given = fleet["root"] / "result.json", fleet["root"] / "cases.json"
    result.unlink(missing_ok=True)
    given.write_text(json.dumps({"cases": cases, "result_file": str(result)}), encoding="utf-8")
    done = _play(fleet, "cases.yml", "--limit", "m1", "-e", f"@{given}")
    out = done.stdout + done.stderr
    assert result.is_file(), out
    results = json.loads(result.read_text(encoding="utf-8"))["results"]
    assert [r["item"] for r in results] == cases, out
    return results, out


def test_paths_words_warnings_and_records(fleet: dict) -> None:
    root = fleet["root"]
    home, project = root / "machines/m1/home", root / "machines/m1/project"
    shutil.copytree(REPO / "templates/example-guard", home / "guard")
    manifest = home / "guard/hookweave.toml"

    first, verified, out = _task(fleet, "-e", "hooks_bundle=~/guard", info=True)  # ~: the machine's home
    assert not first.get("failed"), out
    assert first["msg"] == "install: 7 files written"  # 3 settings files, their 3 records, Codex's config.toml
    assert sorted(i["path"] for i in verified["installed"]) == [
        f"{project}/.claude/settings.json", f"{project}/.codex/hooks.json", f"{project}/.gemini/settings.json"]
    # hookweave's warning (the bundle is outside the project) reaches Ansible's [WARNING], path absolute
    assert unwrapped(f"[WARNING]: {project}/.claude/settings.json: {{bundle_dir}} is {home}/guard, a path on this "
                     "machine") in unwrapped(out)

    manifest.write_text(manifest.read_text(encoding="utf-8").replace('version = "1.0.0"', 'version = "1.1.0"'),
                        encoding="utf-8")
    bumped, _, out = _task(fleet, "-e", "hooks_bundle=~/guard", "--diff")
    assert not bumped.get("failed") and bumped["changed"], out
    assert bumped["msg"] == "install: 3 files written", out  # the three records, nothing else
    for record in (".claude/settings.hookweave.json", ".codex/hooks.hookweave.json", ".gemini/settings.hookweave.json"):
        assert f"--- {project}/{record}\n+++ {project}/{record}\n" in out, out
    assert '-      "version": "1.0.0"' in out and '+      "version": "1.1.0"' in out, out

    claude = project / ".claude/settings.json"
    text = claude.read_text(encoding="utf-8")
    claude.write_text(text.replace("guard.py #", "guard.py --strict #"), encoding="utf-8")
    before = _snapshot(root)
    refused, _, out = _task(fleet, "-e", "hooks_bundle=~/guard")
    assert refused["failed"], out
    assert refused["msg"] == (
        f"{claude}: example-guard/destructive-guard was edited since it was installed; nothing written. Keep the "
        "operator's version, or rerun with force: true to replace it with the bundle's version")
    assert _snapshot(root) == before


BAD_OPTIONS = [  # a case's options for the task (tests/ansible/cases.yml), and what its message must say
    ({"scope": "everywhere"}, "value of scope must be one of: user, project, local, managed, got: everywhere"),
    ({"hosts": []}, "hosts is empty: name the agents (claude, codex, gemini, ...), or all, or detected (only the "
     "agents found on the machine)"),
    ({"scope": "user", "bundle": "/nonexistent/guard"}, "/nonexistent/guard"),
]


@pytest.fixture(scope="module")
def bad_options(tmp_path_factory: pytest.TempPathFactory, built_collection: dict) -> dict:
    """Every case of BAD_OPTIONS as one item of one task, in one ansible-playbook run on a fleet of its
    own (a start and a result file, not one of each per case: about 1.7 s of CPU a case); each test
    reads its own item's result. ``wrote``: whether the run changed any file of the machines."""
    fleet = make_fleet(tmp_path_factory.mktemp("bad-options"), built_collection)
    before = _snapshot(fleet["root"])
    results, out = _cases(fleet, [options for options, _ in BAD_OPTIONS])
    return {"results": results, "out": out, "wrote": _snapshot(fleet["root"]) != before}


@pytest.mark.parametrize("case", range(len(BAD_OPTIONS)), ids=lambda case: "-".join(BAD_OPTIONS[case][0]))
def test_bad_options_fail_in_the_modules_words(bad_options: dict, case: int) -> None:
    options, message = BAD_OPTIONS[case]
    result = bad_options["results"][case]
    assert result["failed"] and message in result["msg"], bad_options["out"]
    assert "--" not in result["msg"], result["msg"]
    assert not bad_options["wrote"], "a refused task wrote"


def test_hookweaves_flags_in_the_modules_words() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("hookweave_api", REPO / "ansible/plugins/module_utils/hookweave_api.py")
    api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(api)
    assert api.words("/etc/claude-code: the folder is root's, and hookweave runs as uid 1000; run as root (sudo), "
                     "or choose another scope") == ("/etc/claude-code: the folder is root's, and hookweave runs as "
                                                    "uid 1000; run as root (become: true), or choose another scope")
    assert api.words("it is installed at /home/a/.claude/settings.json: pass --scope user") == \
        "it is installed at /home/a/.claude/settings.json: pass scope: user"
    assert api.words("run hooks install with --trust, or trust it in Codex's /hooks; reinstall with `--force`") == \
        "run hooks install with trust: true, or trust it in Codex's /hooks; reinstall with force: true"
