"""The documentation site (issue 25): its tables come from the code, its pages are all reachable,
and the README's links to it hold. ``mkdocs build --strict`` in .ci/run checks every link and anchor."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hookweave.core.contract.registry import registry
from hookweave.core.verify import catalogue
from tests.doctables import render, tables

REPO = Path(__file__).parent.parent.parent
DOCS = REPO / "docs"


def _pages() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}


def test_every_marker_names_a_table_and_every_table_is_used() -> None:
    asked = [name for text in _pages().values() for name in tables.MARKER.findall(text)]
    assert set(asked) == set(tables.TABLES), "a marker names no table, or a table is on no page"


def test_the_committed_tables_are_the_code_s() -> None:
    """A plugin author reading docs/PLUGINS.md raw (GitHub, an editor) sees the tables the site
    shows: each sits committed under its marker, as the code renders it today."""
    for name, text in _pages().items():
        for marker in tables.MARKER.finditer(text):
            assert marker.group(0).endswith(f"<!-- end generated: {marker.group(1)} -->"), \
                f"docs/{name}: the {marker.group(1)} table is not committed; run python docs/_build/tables.py"
        assert render(text) == text, f"docs/{name}: a table differs from the code; run python docs/_build/tables.py"
    plugins = _pages()["PLUGINS.md"]
    assert "| neutral event |" in plugins and "| neutral tool |" in plugins


def test_the_host_tables_have_every_registered_host() -> None:
    names = registry().names()
    hosts = tables.hosts_table()
    events, tools = tables.events_table(), tables.tools_table()
    heads = [line for line in (events + tools).splitlines() if line.startswith("| neutral ")]
    for name in names:
        assert f"[`{name}`](hosts.md#{name})" in hosts
        assert [head.endswith(f" {name} |") or f" {name} | " in head for head in heads].count(True) == 2, name
    for start in range(0, len(names), tables.HOSTS_PER_TABLE):  # a few agents to a table, so it fits the column
        some = names[start:start + tables.HOSTS_PER_TABLE]
        assert "| neutral event | " + " | ".join(some) + " |" in events
        assert "| pre_tool_use | " + " | ".join((registry().get(n).events.get("pre_tool_use") or "none") for n in some) \
            + " |" in events
    claude = registry().get("claude")
    assert "`{project}/.claude/settings.json`" in hosts and claude.title in hosts


def _statuses_given() -> set[str]:
    """Every status literal that verify's modules give a HookStatus or assign to ``status``."""
    found: set[str] = set()
    for path in (REPO / "core" / "verify").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "HookStatus" and len(node.args) > 3:
                if isinstance(node.args[3], ast.Constant):
                    found.add(node.args[3].value)
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple):
                for target, value in zip(node.targets[0].elts, node.value.elts):
                    if getattr(target, "id", None) == "status" and isinstance(value, ast.Constant):
                        found.add(value.value)
    return found


def test_the_catalogue_lists_every_status_verify_gives() -> None:
    given = _statuses_given()
    assert {"ok", "missing", "modified", "duplicated", "out-of-order"} <= given  # the scan still sees them
    assert given == {status for status, _, _ in catalogue.STATUSES}
    assert [level for level, _, _ in catalogue.LEVELS] == ["problem", "warning", "note"]


def test_every_page_is_in_the_nav() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for name in _pages():
        assert re.search(rf": {re.escape(name)}$", nav, re.MULTILINE), f"{name} is not in mkdocs.yml's nav"


def test_the_readmes_links_lead_to_pages() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert len(links) > 10
    for link in links:
        assert (REPO / link).is_file(), link
