"""hookweave's own modules found and loaded in one step, before Python's general import machinery.

A command imports 70 to 90 of our modules, and each went through every finder on ``sys.meta_path``
(setuptools' hooks, the built-in and frozen importers, then the path finder, which stats the
folder and tries each suffix), then ``SourceFileLoader``'s dozen calls to find, check and read its
bytecode: about 0.1 million instructions a module past its own code, 7 million of a ``verify``
(docs/speed.md, Round 10). ``OwnModules`` answers only for names under ``hookweave.`` whose
package has one folder on disk, from that folder's listing read once; ``OwnLoader`` is
``SourceFileLoader`` reading a current timestamp bytecode file itself (the same checks: magic
number, flags, the source's mtime and size) and handing every other case to ``SourceFileLoader``
(no or stale bytecode, hash-based bytecode, ``-O``, ``PYTHONPYCACHEPREFIX``), which compiles and
writes as it always does. Anything else (a zip, a namespace package, an extension module, a file
made after the folder was listed) is left to Python's finders: answering wrongly would cost a
command, not answering costs nothing. ``tests/shipping/test_quickimport.py`` holds every module's
spec and code to what Python's machinery gives.

In an editable install (the README's), ``hookweave`` is a namespace whose one entry is setuptools'
path hook: ``OwnModules`` finds our four packages beside ``core`` there, as a wheel lays them out.
``preload`` loads a command's modules, in the order it loads them, without ``import``'s machinery
(docs/speed.md, Round 11).
"""

import marshal
import os
import sys
from collections.abc import Iterable
from importlib.machinery import (
    EXTENSION_SUFFIXES, BuiltinImporter, FrozenImporter, ModuleSpec, PathFinder, SourceFileLoader,
)
from importlib.util import MAGIC_NUMBER

import _imp

OURS = "hookweave."
TOP_LEVEL = ("core", "hosts", "templates", "testing")  # pyproject's package-dir: each a folder beside core's
_BESIDE_CORE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_NOT_SOURCE = tuple(EXTENSION_SUFFIXES) + (".pyc",)  # what the path finder would take over a .py


class OwnLoader(SourceFileLoader):
    """``SourceFileLoader`` with a short way through a current bytecode file (``bytecode``, where
    the general rules put it, or ``None``: those rules)."""

    bytecode: str | None = None

    def get_code(self, fullname):
        if self.bytecode is None:
            return super().get_code(fullname)
        try:
            with open(self.bytecode, "rb") as f:
                data = f.read()
            source = os.stat(self.path)
        except OSError:
            return super().get_code(fullname)
        if (data[:8] != MAGIC_NUMBER + b"\0\0\0\0"  # flags 0: checked by timestamp, as this check does
                or int.from_bytes(data[8:12], "little") != int(source.st_mtime) & 0xFFFFFFFF
                or int.from_bytes(data[12:16], "little") != source.st_size & 0xFFFFFFFF):
            return super().get_code(fullname)
        code = marshal.loads(memoryview(data)[16:])  # a torn file raises here, as in SourceFileLoader
        _imp._fix_co_filename(code, self.path)  # as Python does: the tree may have moved since it was compiled
        return code


class OwnModules:
    """The finder, before Python's on ``sys.meta_path``; ``None`` (ask the next one) for anything unsure."""

    _folders: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # folder: (modules, names listed)

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if path is None or not name.startswith(OURS) or len(path) != 1 or not isinstance(path[0], str):
            return None
        folder, tail = path[0], name.rpartition(".")[2]
        if name.count(".") == 1 and not os.path.isabs(folder):
            # ``hookweave`` of an editable install (the README's): a namespace whose one entry is
            # setuptools' path hook, not a folder. Our packages (pyproject's package-dir) sit beside
            # ``core``, as in a wheel; any other name is left to the finders.
            if tail not in TOP_LEVEL:
                return None
            folder = _BESIDE_CORE
        modules, listed = cls._folders.get(folder) or cls._list(folder)
        if tail in listed:  # a folder (a package, as the path finder prefers it), or something odd
            where, file = f"{folder}{os.sep}{tail}", "__init__"
            if not os.path.isfile(f"{where}{os.sep}__init__.py"):
                return None
        elif tail in modules:
            where, file = folder, tail
        else:
            return None
        origin = f"{where}{os.sep}{file}.py"
        loader = OwnLoader(name, origin)
        spec = ModuleSpec(name, loader, origin=origin, is_package=file == "__init__")
        if file == "__init__":
            spec.submodule_search_locations = [where]
        spec.has_location = True  # sets __file__ and __cached__, as the path finder's specs do
        if not sys.flags.optimize and sys.pycache_prefix is None and sys.implementation.cache_tag:  # else: the general rules
            spec.cached = loader.bytecode = f"{where}{os.sep}__pycache__{os.sep}{file}.{sys.implementation.cache_tag}.pyc"
        return spec

    @classmethod
    def _list(cls, folder: str) -> tuple[frozenset[str], frozenset[str]]:
        try:
            names = os.listdir(folder)
        except (OSError, ValueError):
            names = []
        listed = frozenset(names)
        shadowed = {n.partition(".")[0] for n in names if n.endswith(_NOT_SOURCE)}
        modules = frozenset(n[:-3] for n in names if n.endswith(".py") and n[:-3].isidentifier()) - shadowed
        cls._folders[folder] = (modules, listed)
        return modules, listed

    @classmethod
    def invalidate_caches(cls) -> None:
        """``importlib.invalidate_caches()``: files made or removed since are seen."""
        cls._folders.clear()


def install() -> None:
    """Put ``OwnModules`` before Python's own finders, after any finder put first on purpose (a
    ``sitecustomize``'s, a tool's), which keeps its say over our modules."""
    if OwnModules in sys.meta_path:
        return
    python = (BuiltinImporter, FrozenImporter, PathFinder)
    sys.meta_path.insert(next((i for i, f in enumerate(sys.meta_path) if f in python), len(sys.meta_path)), OwnModules)


def preload(names: Iterable[str]) -> None:
    """Load the named modules of ours, in this order, each as ``import`` would (the same spec,
    attributes, code and place in ``sys.modules``) but without ``import``'s machinery: its module
    locks, parent checks and spec set-up cost 0.1 million instructions a module, and a no-op
    install loads 80. ``names`` is the order a command loads them in (``cli/loadorder.py``),
    dependencies first, so each module's own imports find theirs loaded.

    Passed over, for ``import`` to load when first imported: a module already loaded, one whose
    package is not, one ``OwnModules`` does not find, and one whose bytecode the general rules
    place (``-O``, a cache prefix). Stale bytecode is compiled again, as ``import`` does. An error
    in a module's code is raised as ``import`` raises it, the module taken out of ``sys.modules``
    again. ``-X importtime`` and ``-v`` see only what ``import`` loads: with either, this loads
    nothing."""
    if sys.flags.verbose or "importtime" in sys._xoptions or os.environ.get("PYTHONPROFILEIMPORTTIME"):
        return
    modules = sys.modules
    for name in names:
        if name in modules:
            continue
        package, _, tail = name.rpartition(".")
        parent = modules.get(package)
        spec = OwnModules.find_spec(name, getattr(parent, "__path__", None)) if parent is not None else None
        if spec is None or spec.loader.bytecode is None:
            continue
        module = _module_type(name)
        module.__loader__, module.__spec__ = spec.loader, spec  # as importlib's _init_module_attrs sets them
        if spec.submodule_search_locations is None:
            module.__package__ = package
        else:
            module.__package__, module.__path__ = name, spec.submodule_search_locations
        module.__file__, module.__cached__ = spec.origin, spec.cached
        code = spec.loader.get_code(name)
        spec._initializing = True
        modules[name] = module
        try:
            exec(code, module.__dict__)
        except BaseException:
            modules.pop(name, None)
            raise
        finally:
            spec._initializing = False
        module = modules[name] = modules.pop(name)  # last in sys.modules, as import leaves what it loaded
        setattr(parent, tail, module)


_module_type = type(sys)
