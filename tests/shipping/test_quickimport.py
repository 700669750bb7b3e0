"""``core/files/quickimport.py``: our modules found and loaded in one step, each exactly as Python's own
path finder and ``SourceFileLoader`` would have (the spec, the module's file attributes, the code),
and every case it is not sure of left to them."""

from __future__ import annotations

import compileall
import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
import py_compile
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hookweave.core
from hookweave.core.files.quickimport import OwnLoader, OwnModules

PACKAGES = ("hookweave.core", "hookweave.hosts", "hookweave.templates", "hookweave.testing")


def every_module() -> list[tuple[str, list[str]]]:
    """(name, its parent package's ``__path__``) for every module and package of ours on disk."""
    found = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
            parent = importlib.import_module(info.name.rpartition(".")[0])
            found.append((info.name, list(parent.__path__)))
    return found


MODULES = every_module()


def test_every_module_has_the_spec_the_path_finder_gives():
    assert len(MODULES) > 150
    for name, path in MODULES:
        ours, python = OwnModules.find_spec(name, path), importlib.machinery.PathFinder.find_spec(name, path)
        assert ours is not None, name
        assert isinstance(ours.loader, OwnLoader) and type(python.loader) is importlib.machinery.SourceFileLoader
        assert (ours.name, ours.origin, ours.cached, ours.parent, ours.has_location, ours.submodule_search_locations) \
            == (python.name, python.origin, python.cached, python.parent, python.has_location,
                python.submodule_search_locations), name
        assert ours.loader.path == python.loader.path and ours.loader.is_package(name) == python.loader.is_package(name)


def test_our_top_level_packages_have_the_spec_the_finders_give():
    """``hookweave`` is a namespace; in an editable install (the README's) its one entry is
    setuptools' path hook, and our packages are found beside ``core`` as the editable finder maps
    them (pyproject's package-dir); in a wheel, in its folder, as every other module."""
    import hookweave

    for top in ("core", "hosts", "templates", "testing"):
        ours, theirs = OwnModules.find_spec(f"hookweave.{top}", list(hookweave.__path__)), importlib.util.find_spec(f"hookweave.{top}")
        assert (ours.origin, ours.submodule_search_locations, ours.cached) == (
            theirs.origin, list(theirs.submodule_search_locations), theirs.cached), top
    for other in ("tests", "docs", "bench", "scripts", "setup", "nothing"):  # folders and files beside core's
        assert OwnModules.find_spec(f"hookweave.{other}", list(hookweave.__path__)) is None, other


def test_every_module_gets_the_code_python_reads(tmp_path):
    for name, path in MODULES:
        spec = OwnModules.find_spec(name, path)
        ours, python = spec.loader.get_code(name), importlib.machinery.SourceFileLoader(name, spec.origin).get_code(name)
        assert ours == python and ours.co_filename == python.co_filename == spec.origin, name


def test_every_module_read_from_its_bytecode_is_its_source_compiled(tmp_path, monkeypatch):
    """Each module's current bytecode file, read the short way (``SourceFileLoader`` is not asked),
    gives the code its source compiles to, named by its file."""
    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for package in PACKAGES:
        source = Path(importlib.import_module(package).__path__[0])
        copy = tmp_path / package.rpartition(".")[2]
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
        assert compileall.compile_dir(str(copy), quiet=2)
    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "get_code", lambda self, name: pytest.fail(name))
    monkeypatch.setattr(OwnModules, "_folders", {})
    files = [f for f in sorted(tmp_path.rglob("*.py")) if (f.parent if f.name == "__init__.py" else f).stem.isidentifier()]
    assert len(files) > 150
    for file in files:
        package = file.name == "__init__.py"
        spec = OwnModules.find_spec(f"hookweave.copy.{(file.parent if package else file).stem}",
                                    [str(file.parent.parent if package else file.parent)])
        assert spec.origin == str(file) and spec.cached == importlib.util.cache_from_source(str(file)), file
        code = spec.loader.get_code(spec.name)
        assert code == compile(file.read_bytes(), str(file), "exec", dont_inherit=True), file
        assert code.co_filename == str(file)


def test_a_running_command_loads_ours_through_it(tmp_path):
    probe = ("import sys; sys.argv = ['hooks', '--version']\n"
             "from hookweave.core.cli.entry import main\n"
             "import atexit, json\n"
             "from hookweave.core.files.quickimport import OwnLoader\n"
             f"atexit.register(lambda: open({str(tmp_path / 'out')!r}, 'w').write(json.dumps(["
             "[f.__name__ for f in sys.meta_path if isinstance(f, type)], sorted(m for m, v in sys.modules.items() if m.startswith('hookweave.') "
             "and not isinstance(getattr(v, '__spec__', None) and v.__spec__.loader, OwnLoader))])))\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    finders, not_ours = __import__("json").loads((tmp_path / "out").read_text())
    # hookweave.core itself and the finder's module load before it is there; every other one through it
    assert finders[:4] == ["OwnModules", "BuiltinImporter", "FrozenImporter", "PathFinder"] and not_ours == ["hookweave.core", "hookweave.core.files", "hookweave.core.files.quickimport"]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(OwnModules, "_folders", {})
    return tmp_path


def spec_of(name: str, folder: Path):
    return OwnModules.find_spec(f"hookweave.someone.{name}", [str(folder)])


def compiled(source: Path, text: str) -> None:
    source.write_text(text)
    py_compile.compile(str(source), doraise=True)


def test_a_changed_source_is_compiled_again_not_read_from_its_old_bytecode(folder):
    compiled(folder / "m.py", "X = 1\n")
    stat = os.stat(folder / "m.py")
    (folder / "m.py").write_text("X = 2\n")  # the same size, a later mtime
    os.utime(folder / "m.py", ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    namespace: dict = {}
    exec(spec_of("m", folder).loader.get_code("hookweave.someone.m"), namespace)
    assert namespace["X"] == 2


@pytest.mark.parametrize("bad", [b"", b"\0" * 40, "hash-based"])
def test_a_bytecode_file_it_cannot_check_is_left_to_python(folder, bad):
    compiled(folder / "m.py", "X = 1\n")
    pyc = Path(importlib.util.cache_from_source(str(folder / "m.py")))
    if bad == "hash-based":
        (folder / "m.py").write_text("X = 2\n")
        py_compile.compile(str(folder / "m.py"), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    else:
        pyc.write_bytes(bad)
    namespace: dict = {}
    exec(spec_of("m", folder).loader.get_code("hookweave.someone.m"), namespace)
    assert namespace["X"] == (2 if bad == "hash-based" else 1)


def test_a_torn_bytecode_file_fails_as_it_does_in_python(folder):
    compiled(folder / "m.py", "X = 1\n")
    pyc = Path(importlib.util.cache_from_source(str(folder / "m.py")))
    pyc.write_bytes(pyc.read_bytes()[:20])
    for loader in (spec_of("m", folder).loader, importlib.machinery.SourceFileLoader("hookweave.someone.m", str(folder / "m.py"))):
        with pytest.raises(EOFError):
            loader.get_code("hookweave.someone.m")


def test_a_moved_tree_names_its_new_place_in_tracebacks(folder):
    (folder / "a").mkdir()
    compiled(folder / "a" / "m.py", "X = 1\n")
    os.rename(folder / "a", folder / "b")
    code = spec_of("m", folder / "b").loader.get_code("hookweave.someone.m")
    assert code.co_filename == str(folder / "b" / "m.py")


def test_another_bytecode_place_is_python_s_to_find(folder, monkeypatch):
    compiled(folder / "m.py", "X = 1\n")
    monkeypatch.setattr(sys, "pycache_prefix", str(folder / "cache"))
    calls = []
    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "get_code",
                        lambda self, name: calls.append(name) or compile("X = 3", self.path, "exec"))
    namespace: dict = {}
    exec(spec_of("m", folder).loader.get_code("hookweave.someone.m"), namespace)
    assert calls == ["hookweave.someone.m"] and namespace["X"] == 3


def test_what_the_path_finder_would_take_first_is_left_to_it(folder):
    (folder / "ext.py").write_text("")
    (folder / f"ext{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_text("")
    (folder / "pkg.py").write_text("")
    (folder / "pkg").mkdir()
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "space.py").write_text("")
    (folder / "space").mkdir()  # a namespace portion beside a module: the path finder's to weigh
    (folder / "not-a-name.py").write_text("")
    assert spec_of("ext", folder) is None and spec_of("space", folder) is None and spec_of("nothing", folder) is None
    package = spec_of("pkg", folder)
    assert package.submodule_search_locations == [str(folder / "pkg")] and package.origin.endswith("__init__.py")
    assert OwnModules.find_spec("elsewhere.pkg", [str(folder)]) is None  # not ours
    assert OwnModules.find_spec("hookweave.someone.pkg", None) is None  # a top-level name
    assert OwnModules.find_spec("hookweave.someone.pkg", [str(folder), str(folder)]) is None  # two folders


def test_a_module_made_later_is_found_after_invalidate_caches(folder):
    assert spec_of("late", folder) is None
    (folder / "late.py").write_text("")
    assert spec_of("late", folder) is None  # the listing is read once: Python's own finder finds it
    importlib.invalidate_caches()
    assert spec_of("late", folder).origin == str(folder / "late.py")


def test_it_goes_before_python_s_finders_and_after_one_put_first(monkeypatch):
    from hookweave.core.files import quickimport

    first = object()
    monkeypatch.setattr(sys, "meta_path", [first, importlib.machinery.BuiltinImporter, importlib.machinery.PathFinder])
    quickimport.install()
    quickimport.install()
    assert sys.meta_path == [first, OwnModules, importlib.machinery.BuiltinImporter, importlib.machinery.PathFinder]
