"""The collection as users get it, built and installed once for the whole run.

``ansible-galaxy collection build`` and ``collection install`` cost two ansible starts (about 2 s of
CPU) and gave the same files to every fleet test that made them for itself. Here they run once a
run: the first worker to need them builds under a lock in the run's shared temp folder, the others
(xdist workers) wait and use that copy. The tests only read it: each play has its own machines,
homes and ansible temp folders; ansible-test, which writes into the collection, gets its own copy.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent.parent
# The ansible-core under test: this environment's, or another's (scripts/fleet-ci runs these files on
# the oldest and newest it supports); the modules run under this Python, which has hookweave.
BIN = Path(os.environ.get("HOOKWEAVE_TEST_ANSIBLE_BIN") or Path(sys.executable).parent)


def _galaxy(env: dict[str, str], *args: str) -> None:
    done = subprocess.run([str(BIN / "ansible-galaxy"), "collection", *args], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"ansible-galaxy collection {args[0]}: {done.stdout}{done.stderr}"


def _build_and_install(root: Path) -> None:
    controller = root / "controller"  # ansible's own home: never the real one
    controller.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANSIBLE_")}
    env.update(HOME=str(controller), ANSIBLE_NOCOLOR="1", ANSIBLE_COLLECTIONS_PATH=str(root / "installed"),
               PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    _galaxy(env, "build", str(REPO / "ansible"), "--output-path", str(root / "dist"))
    tarball = next((root / "dist").glob("hookweave-agents-*.tar.gz"))
    _galaxy(env, "install", str(tarball), "-p", str(root / "installed"))


@pytest.fixture(scope="session")
def built_collection(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Path]:
    """The tarball ansible-galaxy builds (``tarball``) and its installed copy: ``collections`` for
    ANSIBLE_COLLECTIONS_PATH, ``copy`` the installed collection's folder."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the run's folder, above each xdist worker's own
    root = shared / "built-collection"
    with open(shared / "built-collection.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker builds; the others wait for its copy
        if not (root / "done").is_file():
            if root.exists():
                raise RuntimeError(f"{root}: the build failed in another worker; its error is in that test")
            root.mkdir()
            _build_and_install(root)
            (root / "done").write_text("built and installed\n", encoding="utf-8")
    return {"tarball": next((root / "dist").glob("hookweave-agents-*.tar.gz")), "collections": root / "installed",
            "copy": root / "installed/ansible_collections/hookweave/agents"}


ZIP_CODE = Path(__file__).parent / "zipcode"  # a sitecustomize.py alone: what it does, it says


@pytest.fixture(scope="module", autouse=True)
def module_code_kept(tmp_path_factory: pytest.TempPathFactory, worker_id: str):
    """Every Python a fleet test starts (ansible, and through it each module run) keeps the code it
    compiles from an AnsiballZ zip for the next run of the same source (zipcode/sitecustomize.py):
    one folder for the run's workers. Module-scoped and autouse, so it is set before the fixtures
    that build each test's environment from ``os.environ``."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ZIP_CODE), os.environ.get("PYTHONPATH")])))
        patch.setenv("HOOKWEAVE_TEST_ZIP_CODE", str(shared / "ansiballz-code"))
        yield
