"""The documentation's table generator (``docs/_build/tables.py``, a MkDocs hook), loaded for the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PATH = Path(__file__).parent.parent / "docs" / "_build" / "tables.py"
_spec = importlib.util.spec_from_file_location("hookweave_doctables", PATH)
tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tables)
render = tables.render
