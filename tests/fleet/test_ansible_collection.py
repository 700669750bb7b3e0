"""The collection as Galaxy and its users get it (issue 37 item 1): the tarball
``ansible-galaxy collection build`` makes holds the README galaxy.yml names, the LICENSE and a
changelog, names a real repository, carries hookweave's own version, installs with
``ansible-galaxy collection install`` and renders with ``ansible-doc`` from the installed copy.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from hookweave.core import __version__

REPO = Path(__file__).parent.parent.parent
BIN = Path(os.environ.get("HOOKWEAVE_TEST_ANSIBLE_BIN") or Path(sys.executable).parent)  # as tests/fleet/test_ansible.py


def _galaxy(key: str) -> str:
    found = re.search(rf"^{key}: (.+)$", (REPO / "ansible/galaxy.yml").read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"galaxy.yml has no {key}"
    return found.group(1).strip()


def test_one_version_for_the_wheel_and_the_collection() -> None:
    assert _galaxy("version") == __version__
    assert f"## {__version__}\n" in (REPO / "ansible/CHANGELOG.md").read_text(encoding="utf-8")


def test_the_collection_names_the_projects_repository() -> None:
    assert _galaxy("repository") == "https://github.com/hookweave/hookweave"
    assert "OWNER" not in (REPO / "ansible/galaxy.yml").read_text(encoding="utf-8")
    assert (REPO / "ansible/LICENSE").read_bytes() == (REPO / "LICENSE").read_bytes()


def test_the_built_tarball_installs_and_documents_itself(tmp_path: Path, built_collection: dict) -> None:
    """The tarball and its install are the run's one build (tests/fleet/conftest.py): a failed build
    or install fails this test there, with ansible-galaxy's output."""
    pytest.importorskip("ansible", reason="ansible-core is in the test extra: pip install -e '.[test]'")
    controller = tmp_path / "controller"  # ansible's own home: never the real one
    controller.mkdir()
    env = {**os.environ, "HOME": str(controller), "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_COLLECTIONS_PATH": str(built_collection["collections"]),
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("ANSIBLE_CONFIG", None)
    tarball = built_collection["tarball"]
    assert tarball.name == f"hookweave-agents-{__version__}.tar.gz"
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
        manifest = tar.extractfile("MANIFEST.json").read().decode("utf-8")
    assert {"README.md", "LICENSE", "CHANGELOG.md", "plugins/modules/agent_hooks.py",
            "plugins/modules/agent_hooks_info.py", "plugins/module_utils/hookweave_api.py"} <= names, sorted(names)
    assert '"repository": "https://github.com/hookweave/hookweave"' in manifest
    assert f'"version": "{__version__}"' in manifest
    copy = built_collection["copy"]
    assert (copy / "README.md").is_file() and (copy / "LICENSE").is_file()
    modules = ("agent_hooks", "agent_hooks_info")
    # One ansible-doc for both (a start is about 0.9 s of CPU); each module's page is checked on its own.
    doc = subprocess.run([str(BIN / "ansible-doc"), *(f"hookweave.agents.{m}" for m in modules)], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert doc.returncode == 0, doc.stderr
    pages = re.split(r"^> ", doc.stdout, flags=re.MULTILINE)[1:]  # a page starts with "> MODULE name (path)"
    assert len(pages) == len(modules), doc.stdout
    for module, page in zip(modules, pages):
        assert "OPTIONS" in page and "RETURN VALUES" in page, page
        assert str(copy / "plugins/modules" / f"{module}.py") in page  # the installed copy's, not the source's
