"""Compiled code kept across the ansible module runs of the fleet tests (tests/fleet/conftest.py).

Each Ansible module runs as an AnsiballZ payload: a new Python that imports ``ansible.module_utils``
from a zip, and Python's ``zipimport`` compiles every source it imports from a zip, every time (it
reads a ``.pyc`` only from inside the zip, which AnsiballZ never puts there). That compile was about
half of a module run's CPU (0.54 s of user time, 0.25-0.35 with the code kept) and the fleet tests
make hundreds of module runs. Here the code compiled from a zip's source is kept in
``HOOKWEAVE_TEST_ZIP_CODE``, by the source's hash and the interpreter's bytecode version, so every
later run of the same source loads it instead. The code is what ``compile`` made of those bytes;
only its file name is set to the new run's zip path, as ``importlib`` does for bytecode it loads
from ``__pycache__`` (``_imp._fix_co_filename``). Without that variable (any other program that
finds this file on ``PYTHONPATH``), nothing changes.
"""

import os

_folder = os.environ.get("HOOKWEAVE_TEST_ZIP_CODE")

if _folder:
    import _imp
    import hashlib
    import importlib.util
    import marshal
    import zipimport

    _compile = zipimport._compile_source
    _version = importlib.util.MAGIC_NUMBER.hex()

    def _compile_source(pathname, source):
        kept = os.path.join(_folder, f"{_version}-{hashlib.sha256(source).hexdigest()}")
        try:
            with open(kept, "rb") as handle:
                code = marshal.loads(handle.read())
        except (OSError, EOFError, ValueError, TypeError):
            code = _compile(pathname, source)  # a syntax error raises here, as without the cache
            partial = f"{kept}.{os.getpid()}"
            try:
                os.makedirs(_folder, exist_ok=True)
                with open(partial, "wb") as handle:
                    handle.write(marshal.dumps(code))
                os.replace(partial, kept)  # whole or absent: a concurrent run reads one or the other
            except OSError:
                pass
            return code
        _imp._fix_co_filename(code, pathname)
        return code

    zipimport._compile_source = _compile_source
