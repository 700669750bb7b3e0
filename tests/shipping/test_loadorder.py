"""A command's modules loaded before it runs (``quickimport.preload``, from ``cli/loadorder.py``): each
module as ``import`` would have made it, the recorded order what the commands load now, and a
command's output and modules the same with the preload as without it."""

from __future__ import annotations

import importlib
import json
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.files import quickimport
from hookweave.core.files.quickimport import OwnLoader, OwnModules, preload

ROOT = Path(__file__).resolve().parents[2]
PARENT = "hookweave.someone"
SOURCES = {
    "a.py": "X = 1\n",
    "b.py": "from hookweave.someone import a\n\nY = a.X + 1\n",
    "pkg/__init__.py": "from hookweave.someone.pkg import c\n",
    "pkg/c.py": "import sys\n\nZ = __name__, __package__, sys.modules[__name__] is not None\n",
    "broken.py": "X = 1\nraise LookupError('broken at load')\n",
}
NAMES = [f"{PARENT}.a", f"{PARENT}.b", f"{PARENT}.pkg.c", f"{PARENT}.pkg"]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A package of ours (``hookweave.someone``) in ``tmp_path``, compiled; taken out of
    ``sys.modules`` again after the test."""
    monkeypatch.setattr(OwnModules, "_folders", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
        py_compile.compile(str(tmp_path / name), doraise=True)
    parent = type(sys)(PARENT)
    parent.__path__ = [str(tmp_path)]
    sys.modules[PARENT] = parent
    yield tmp_path
    for name in [m for m in sys.modules if m == PARENT or m.startswith(f"{PARENT}.")]:
        del sys.modules[name]


def _made(names: list[str]) -> dict[str, tuple]:
    """What a module is, for comparing two ways of loading it: its spec, attributes and values."""
    out = {}
    for name in names:
        module = sys.modules[name]
        spec = module.__spec__
        out[name] = (type(module.__loader__), module.__loader__ is spec.loader, spec.name, spec.origin, spec.cached,
                     spec.parent, spec.has_location, spec.submodule_search_locations, getattr(spec, "_initializing", False),
                     module.__file__, module.__cached__, module.__package__, getattr(module, "__path__", None),
                     sorted(k for k in vars(module) if not k.startswith("__")), getattr(module, "Y", None),
                     getattr(module, "Z", None), getattr(sys.modules[name.rpartition(".")[0]], name.rpartition(".")[2]) is module)
    return out


def test_preloaded_modules_are_what_import_makes(tree):
    preload(NAMES)
    assert all(isinstance(sys.modules[n].__loader__, OwnLoader) for n in NAMES)
    preloaded = _made(NAMES)
    order = [m for m in sys.modules if m.startswith(f"{PARENT}.")]
    for name in NAMES:
        del sys.modules[name]
    for name in NAMES:
        importlib.import_module(name)
    assert _made(NAMES) == preloaded
    assert order == NAMES  # the order given, each last in sys.modules when loaded, as import leaves it
    assert preloaded[f"{PARENT}.b"][14] == 2 and preloaded[f"{PARENT}.pkg.c"][15] == (f"{PARENT}.pkg.c", f"{PARENT}.pkg", True)


def test_what_it_cannot_load_is_left_to_import(tree):
    loaded = type(sys)(f"{PARENT}.a")
    sys.modules[f"{PARENT}.a"] = loaded
    (tree / "b.py").write_text("Y = 'changed since it was compiled'\n")
    os.utime(tree / "b.py", (1, 1))
    preload([f"{PARENT}.a", f"{PARENT}.b", "hookweave.nobody.x", f"{PARENT}.nothing", f"{PARENT}.pkg.c"])
    assert sys.modules[f"{PARENT}.a"] is loaded  # already loaded: kept
    assert sys.modules[f"{PARENT}.b"].Y == "changed since it was compiled"  # compiled again, as import does
    assert f"{PARENT}.pkg.c" not in sys.modules  # its package is not loaded
    assert not any(m.startswith(("hookweave.nobody", f"{PARENT}.nothing")) for m in sys.modules)


def test_an_error_in_a_module_is_raised_as_import_raises_it(tree):
    with pytest.raises(LookupError, match="broken at load"):
        preload([f"{PARENT}.a", f"{PARENT}.broken", f"{PARENT}.b"])
    assert f"{PARENT}.broken" not in sys.modules and f"{PARENT}.b" not in sys.modules
    assert f"{PARENT}.a" in sys.modules
    with pytest.raises(LookupError, match="broken at load"):
        importlib.import_module(f"{PARENT}.broken")


@pytest.mark.parametrize("switch", ["importtime", "verbose", "env"])
def test_import_tracing_sees_every_module_load(tree, monkeypatch, switch):
    if switch == "importtime":
        monkeypatch.setattr(sys, "_xoptions", {**sys._xoptions, "importtime": True})
    elif switch == "env":
        monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    else:
        monkeypatch.setattr(quickimport, "sys", type("Sys", (), {"flags": type("F", (), {"verbose": 1}),
                                                                 "_xoptions": {}, "modules": sys.modules}))
    preload(NAMES)
    assert not any(m.startswith(f"{PARENT}.") for m in sys.modules)


def test_the_recorded_order_is_what_the_commands_load():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "loadorder"), "--check"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_recorded_module_is_one_the_preload_can_load():
    """Each is found by ``OwnModules``, but those loaded before it is installed (``hookweave.core``)."""
    from hookweave.core.cli.loadorder import ORDER

    assert set(ORDER) == {"status", "verify", "install", "uninstall"}
    first = {"core", "core.files", "core.files.quickimport"}
    for command, names in ORDER.items():
        assert first <= set(names.split()), command
        for name in set(names.split()) - first:
            package = importlib.import_module(f"hookweave.{name}".rpartition(".")[0])
            assert OwnModules.find_spec(f"hookweave.{name}", list(package.__path__)) is not None, (command, name)


PROBE = """
import json, os, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
from hookweave.core.cli import entry
exit_now = os._exit
def noted(code):
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump(sorted(m for m in sys.modules if m.startswith("hookweave.")), out)
    exit_now(code)
os._exit = noted
entry.main()
"""


@pytest.mark.parametrize("argv", [["status"], ["verify", "--host", "claude"], ["install", "example-guard", "--host", "claude"],
                                  ["uninstall", "example-guard", "--host", "claude", "--dry-run"],
                                  ["install", "example-guard", "--host", "codex", "--dry-run"]])
def test_a_command_says_and_loads_the_same_with_the_preload_as_without(tmp_path, argv):
    home, project = tmp_path / "probe-home", tmp_path / "probe-project"
    home.mkdir()
    project.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(HOME=str(home), CLAUDE_CONFIG_DIR=str(home / ".claude"), CODEX_HOME=str(home / ".codex"),
               GEMINI_CLI_HOME=str(home), NO_COLOR="1", PROBE_OUT=str(tmp_path / "loaded.json"))
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run([str(Path(sys.executable).parent / "hooks"), "install", "example-guard", "--host", "claude"],
                   cwd=project, env=env, check=True, capture_output=True)
    runs = []
    for tracing in ([], ["-X", "importtime"]):  # -X importtime: nothing preloaded
        done = subprocess.run([sys.executable, *tracing, "-c", PROBE, json.dumps(argv)], cwd=project, env=env,
                              capture_output=True, text=True, timeout=120)
        stderr = "".join(line for line in done.stderr.splitlines(keepends=True) if not line.startswith("import time:"))
        runs.append((done.returncode, done.stdout, stderr, json.loads((tmp_path / "loaded.json").read_text())))
    assert runs[0][:3] == runs[1][:3]  # the exit code and every word on stdout and stderr
    assert runs[0][0] in (0, 1), runs[0]
    from hookweave.core.cli.loadorder import ORDER

    listed = {f"hookweave.{name}" for name in ORDER[argv[0]].split()}
    if "--dry-run" not in argv and "codex" not in argv:  # a command as recorded: the modules it loads, no more
        assert runs[0][3] == runs[1][3]
    else:  # the preload adds only modules of the order; the rest load as they did
        assert set(runs[1][3]) <= set(runs[0][3]) and set(runs[0][3]) - set(runs[1][3]) <= listed
