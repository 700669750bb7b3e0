"""The house in layers (issue 20): the import contracts hold, a wrong import breaks them, the
sources install writes into a project stand alone, and the rooms stay small and labelled."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent.parent
CORE = REPO / "core"
LAYERS = ("cli", "usecases", "verify", "runtime", "plan", "reading", "contract", "model", "formats", "files",
          "standalone")


def _lint_imports(root: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    """``lint-imports`` with the repository's contracts, on the tree at ``root`` (imported from
    ``pythonpath`` alone when given: no editable install, no other copy of hookweave)."""
    if pythonpath is None:
        script = "from importlinter.cli import lint_imports_command; lint_imports_command()"
        return subprocess.run([sys.executable, "-c", script, "--no-cache"], cwd=root, capture_output=True, text=True)
    # -S: no site, so no editable-install finder; the standard library and site-packages by path only
    paths = [str(pythonpath), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    script = (f"import sys; sys.path[:0] = {paths!r}; sys.argv[1:] = ['--no-cache']\n"
              "from importlinter.cli import lint_imports_command; lint_imports_command()")
    return subprocess.run([sys.executable, "-S", "-c", script], cwd=root, capture_output=True, text=True)


def test_the_import_contracts_hold() -> None:
    done = _lint_imports(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout


@pytest.fixture()
def scratch(tmp_path: Path) -> Path:
    """A copy of the package as a plain tree (``hookweave/core``, ``/hosts``, ``/testing``) with the contracts."""
    for part in ("core", "hosts", "testing"):
        shutil.copytree(REPO / part, tmp_path / "hookweave" / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _append(path: Path, code: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code + "\n", encoding="utf-8")


def test_the_scratch_copy_is_clean_before_it_is_broken(scratch: Path) -> None:
    done = _lint_imports(scratch, scratch)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("module, code, broken", [
    # an upward import hidden in a function body: text formats reaching for the CLI
    ("core/formats/jsontext.py", "def _late():\n    from hookweave.core.cli import app  # noqa: F401",
     "hookweave.core.formats is not allowed to import hookweave.core.cli"),
    # a built-in host reaching past the registry into verify
    ("hosts/claude/__init__.py", "def _late():\n    from hookweave.core.verify import hostreport  # noqa: F401",
     "hookweave.hosts is not allowed to import hookweave.core.verify"),
    # verify and runtime do not know each other
    ("core/verify/registrations.py", "def _late():\n    from hookweave.core.runtime import hookrun  # noqa: F401",
     "hookweave.core.verify is not allowed to import hookweave.core.runtime"),
    # a circle inside one package: chains already imports reports, which would import chains
    ("core/verify/reports.py", "def _late():\n    from hookweave.core.verify import chains  # noqa: F401",
     "No import circles between the modules or packages of one package BROKEN"),
    # what install writes into a project must stand alone
    ("core/standalone/chainrun.py", "def _late():\n    from hookweave.core import errors  # noqa: F401",
     "What install writes into a project imports nothing of hookweave outside its own"),
])
def test_a_wrong_import_breaks_the_build(scratch: Path, module: str, code: str, broken: str) -> None:
    _append(scratch / "hookweave" / module, code)
    done = _lint_imports(scratch, scratch)
    assert done.returncode == 1, done.stdout + done.stderr
    assert broken in " ".join(done.stdout.split()), done.stdout


def test_the_standalone_sources_import_only_the_standard_library() -> None:
    """Each file of ``core/standalone`` imports the standard library, and its own package only
    under the guards that the runner file skips (there the files share one namespace and
    ``PROTOCOL_SOURCE`` is set)."""
    stdlib = set(sys.stdlib_module_names)
    for path in sorted((CORE / "standalone").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)  # loaded as a package module
                   and ("globals()" in ast.unparse(branch.test) or "PROTOCOL_SOURCE is None" in ast.unparse(branch.test))
                   for node in ast.walk(branch)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                if name.startswith("hookweave."):
                    assert name.startswith("hookweave.core.standalone.") and id(node) in guarded, (path.name, name)
                else:
                    assert name.split(".")[0] in stdlib | {"__future__"}, (path.name, name)


def test_the_written_programs_run_with_nothing_of_hookweave(tmp_path: Path) -> None:
    """The chain runner file and a Cline dispatcher, as install writes them, run under
    ``python3 -I -S`` in a folder with no hookweave anywhere on the path."""
    from hookweave.core.plan import chain
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    runner = tmp_path / "runner.py"
    runner.write_text(chain.runner_text(), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-I", "-S", str(runner), "claude", "PreToolUse",
                           "one", "5", "", "echo 'blocked by one' >&2; exit 2"],
                          input=b"{}", capture_output=True, cwd=tmp_path, env=env)
    assert (done.returncode, done.stderr) == (2, b"blocked by one\n")
    dispatcher = tmp_path / "PreToolUse"
    dispatcher.write_text(cline_dispatcher.render("PreToolUse", [
        {"command": "echo '{\"cancel\": true, \"errorMessage\": \"no\"}'"}], 0), encoding="utf-8")
    done = subprocess.run([sys.executable, "-I", "-S", str(dispatcher)], input=b"{}", capture_output=True,
                          cwd=tmp_path, env=env)
    assert (done.returncode, done.stdout) == (0, b'{"cancel": true, "errorMessage": "no"}\n')


def test_each_agent_and_each_kind_of_test_is_in_one_place() -> None:
    """A newcomer finds one agent's code in one module or package of hosts/, and the tests of a
    kind (attacks, hosts, runner, formats, fleet, shipping, extending, e2e) in one folder of tests/,
    with at most 40 test modules left at its top (issue 35 item 5)."""
    modules = [p.stem for p in (REPO / "hosts").glob("*.py") if p.stem != "__init__"]
    packages = [p.name for p in (REPO / "hosts").iterdir() if (p / "__init__.py").is_file()]
    shared = {"extension_folders"}  # Gemini's and Qwen's extensions share one layout
    for name in modules:
        owner = name.split("_")[0]
        assert name in shared or owner not in packages, f"hosts/{name}.py belongs in hosts/{owner}/"
        assert name in shared or "_" not in name, f"hosts/{name}.py: one agent's modules go in a package"
    top = sorted(p.name for p in (REPO / "tests").glob("test_*.py"))
    assert len(top) <= 40, top
    assert not [name for name in top if name.startswith("test_attack_")], "attacks live in tests/attack/"


def test_core_has_a_few_rooms_each_labelled_with_its_layer() -> None:
    top = sorted(p.name for p in CORE.glob("*.py"))
    assert top == ["__init__.py", "errors.py"]  # the old import paths went in issue 35 (pluginmanager.MOVED)
    assert sorted(p.name for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(LAYERS)
    for layer in LAYERS:
        doc = ast.get_docstring(ast.parse((CORE / layer / "__init__.py").read_text(encoding="utf-8")))
        assert doc and doc.startswith(f'Layer "{layer}"'), layer


def test_no_module_is_much_over_300_lines() -> None:
    """Modules of one idea (STYLE.md): the longest, core/formats/jsontext.py, is one span parser."""
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines())
             for p in [*CORE.rglob("*.py"), *(REPO / "hosts").rglob("*.py")]}
    assert max(sizes.values()) <= 320, sorted(sizes.items(), key=lambda item: -item[1])[:3]
