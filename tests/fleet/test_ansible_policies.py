"""Fleet policies of the agent_hooks module (issue 37 item 4): ``on_edited: fail | keep | replace``,
``hosts: detected`` (only the agents found on the machine), and check mode that fails where the real
run fails (a read-only file; a non-root install into a managed layer of root's). Through
ansible-playbook on one machine of tests/fleet/test_ansible.py's fleet, as tests/fleet/test_ansible_native.py.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

pytest.importorskip("ansible", reason="ansible-core is in the test extra: pip install -e '.[test]'")

from tests.fleet.test_ansible import REPO, _snapshot, fleet  # noqa: E402,F401  (fleet: the fixture)
from tests.fleet.test_ansible_native import _cases, _task, unwrapped  # noqa: E402

from hookweave.core.errors import Refused  # noqa: E402
from hookweave.core.usecases import api  # noqa: E402


def test_on_edited_fail_keep_replace(fleet: dict) -> None:
    root = fleet["root"]
    claude = root / "machines/m1/project/.claude/settings.json"
    first, _, out = _task(fleet)
    assert not first.get("failed"), out
    installed = claude.read_text(encoding="utf-8")
    claude.write_text(installed.replace("guard.py #", "guard.py --strict #"), encoding="utf-8")
    edited = _snapshot(root)

    # The three that write nothing in one ansible-playbook run (two starts fewer), each its own item;
    # the contradiction is refused before the files are read, edited or not.
    (failed, kept, contradiction), out = _cases(fleet, [
        {"on_edited": "fail"}, {"on_edited": "keep"}, {"on_edited": "keep", "force": True}])
    assert failed["failed"] and "was edited since it was installed" in failed["msg"], out
    assert not kept.get("failed") and not kept["changed"], out
    assert kept["msg"] == "install: an edited entry kept (on_edited: keep); nothing written"
    assert unwrapped(f"[WARNING]: {claude}: example-guard/destructive-guard was edited since it was installed; "
                     "kept as the operator edited it (on_edited: keep), nothing written on this machine") in unwrapped(out)
    assert _snapshot(root) == edited, "fail or keep wrote"
    assert contradiction["msg"] == "force: true and on_edited: keep contradict each other: drop one", out

    replaced, _, out = _task(fleet, "-e", "hooks_on_edited=replace")
    assert not replaced.get("failed") and replaced["changed"], out
    assert claude.read_text(encoding="utf-8") == installed


def test_hosts_detected_writes_only_where_an_agent_is(fleet: dict) -> None:
    root = fleet["root"]
    bundle = root / "machines/m1/project/guard"  # in the project: a broad choice writes only what a clone can run
    shutil.copytree(REPO / "templates/example-guard", bundle)
    before = _snapshot(root)
    done, _, out = _task(fleet, "-e", '{"hooks_hosts": ["detected"]}', "-e", f"hooks_bundle={bundle}")
    assert not done.get("failed") and done["changed"], out
    after = _snapshot(root)
    written = sorted(k for k in after if after[k] != before.get(k) and after[k] is not None)
    assert written == [f"machines/m1/project/{p}" for p in (  # the machine's agents, nothing for the other ten
        ".claude/settings.hookweave.json", ".claude/settings.json", ".gemini/settings.hookweave.json",
        ".gemini/settings.json")], out
    # Codex is there too, but its file could only name the bundle by this machine's path: left out, said
    assert [note.split(":")[0] for note in done["left_out"]] == ["codex"]
    assert unwrapped("[WARNING]: codex: no variable for the project folder") in unwrapped(out)
    assert unwrapped("hosts: detected leaves it out") in unwrapped(out)


def test_check_mode_fails_where_the_real_run_fails(fleet: dict) -> None:
    claude = fleet["root"] / "machines/m1/project/.claude/settings.json"
    claude.chmod(0o444)
    before = _snapshot(fleet["root"])
    checked, _, out = _task(fleet, "--check")
    real, _, out2 = _task(fleet)
    assert real["failed"] and real["msg"] == f"{claude}: the file is read-only; make it writable (chmod u+w) or " \
        "choose another scope", out2
    assert checked.get("failed") and checked["msg"] == real["msg"], out
    assert _snapshot(fleet["root"]) == before


def test_a_dry_run_of_a_non_root_managed_install_predicts_the_refusal(tmp_path: Path, monkeypatch) -> None:
    """As a user, into a managed folder of root's: the dry run plans it, check_writable refuses it as
    the real run does (run here as root: the user's euid and its missing write permission stand in)."""
    managed = tmp_path / "etc/claude-code"
    managed.mkdir(parents=True)
    managed.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(managed))
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "geteuid", lambda: 1000)
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: False)
    elif managed.stat().st_uid != 0:
        pytest.skip("needs a folder of root's: run as root, or as a user where /etc is root's")
    done = api.install("example-guard", ["claude"], scope="managed", dry_run=True)
    assert done.changed
    with pytest.raises(Refused) as refused:
        done.check_writable()
    assert "the folder is root's, and hookweave runs as uid 1000; run as root (sudo)" in str(refused.value)
    with pytest.raises(Refused) as real:
        api.install("example-guard", ["claude"], scope="managed")
    assert str(real.value) == str(refused.value)
