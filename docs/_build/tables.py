"""MkDocs hook: the documentation's tables of hosts, events, tools, verify's statuses and the hook
protocol, generated from the code when the site is built, never copied by hand.

A page asks for a table with a marker line, ``<!-- generated: NAME -->``, and the table sits
committed under it, up to ``<!-- end generated: NAME -->``: a plugin author reading the raw
markdown (on GitHub, in an editor) sees the table too. ``python docs/_build/tables.py`` writes
them again after a change to the code; ``on_page_markdown`` renders them fresh when the site is
built, and tests/shipping/test_docs.py fails while a committed one differs. The tables list the
built-in hosts only, whatever plugins the machine has. Sources: the host registry (``hookweave.core.contract.registry``),
verify's catalogue (``hookweave.core.verify.catalogue``) and the protocol table
(``hookweave.core.runtime.protocoltable``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hookweave.core.contract.registry import registry
from hookweave.core.model import names
from hookweave.core.verify import catalogue

MARKER = re.compile(  # the marker, and the committed table up to its end marker when there is one
    r"^<!-- generated: ([a-z-]+) -->(?:\n(?:(?!<!-- ).*\n|<!-- (?!end generated: ).*\n)*?<!-- end generated: \1 -->)?$",
    re.MULTILINE)

ORDER = {  # Description.order, in words
    "parallel": "all at once",
    "file": "in file order",
    "sequential-flag": "at once, or in file order under `sequential`",
    "unknown": "not documented",
}


def _hosts() -> list:
    hosts = registry()
    return [hosts.get(name) for name in hosts.names() if hosts.info(name).origin == "built-in"]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join([_row(head), _row(["---"] * len(head)), *(_row(r) for r in rows)]) + "\n"


def _path(path: object) -> str:
    if isinstance(path, str):
        return f"`{path}`"
    return ", ".join(f"{platform}: `{p}`" for platform, p in path.items())  # one path per platform


def _format(host, description) -> str:
    paths = [p for p in description.files.values() if isinstance(p, str)]
    if all(p.endswith(".toml") for p in paths):
        return "TOML"
    return {"json": "strict JSON", "jsonc": "JSONC (comments kept)"}.get(description.format, description.format)


def hosts_table() -> str:
    rows = []
    for host in _hosts():
        described = getattr(type(host), "description", None)
        if described is None:  # a plugin class without a description: what the class says
            rows.append([f"`{host.name}`", host.title, ", ".join(host.scopes), "", "", ORDER.get(host.order, host.order)])
            continue
        files = "<br>".join(f"{scope}{' (read only)' if scope in described.read_only else ''}: {_path(p)}"
                            for scope, p in described.files.items())
        rows.append([f"[`{host.name}`](hosts.md#{host.name})", host.title, ", ".join(host.scopes), files,
                     _format(host, described), ORDER.get(host.order, host.order)])
    return _table(["host", "agent", "scopes written", "files (lowest precedence first)", "format",
                   "an event's hooks run"], rows)


def _neutral(key: str, known: tuple[str, ...]) -> list[str]:
    seen = list(known)
    for host in _hosts():
        seen += [name for name in getattr(host, key) if name not in seen]
    return seen


HOSTS_PER_TABLE = 4  # a column per agent: four (and the neutral name) fit the text column unbroken


def _names_table(key: str, known: tuple[str, ...], first: str) -> str:
    """The neutral names against each host's, as tables of a few hosts each, one after another."""
    hosts = _hosts()
    neutrals = _neutral(key, known)
    tables = []
    for start in range(0, len(hosts), HOSTS_PER_TABLE):
        some = hosts[start:start + HOSTS_PER_TABLE]
        rows = []
        for neutral in neutrals:
            cells = []
            for host in some:
                native = dict(getattr(host, key)).get(neutral)
                cells.append(", ".join(native.split("|")) if native else "none")
            rows.append([neutral, *cells])
        tables.append(_table([first, *(h.name for h in some)], rows))
    return "\n".join(tables)


def events_table() -> str:
    return _names_table("events", tuple(names.EVENTS), "neutral event")


def tools_table() -> str:
    return _names_table("tools", tuple(names.TOOLS), "neutral tool")


def statuses_table() -> str:
    return _table(["status", "level", "at run time"], [[f"`{s}`", level, meaning] for s, level, meaning in catalogue.STATUSES])


def levels_table() -> str:
    return _table(["level", "verify exits", "means"], [[f"**{level}**", code, meaning] for level, code, meaning in catalogue.LEVELS])


def protocol_table() -> str:
    from hookweave.core.runtime import protocoltable

    return protocoltable.markdown()


TABLES: dict[str, Callable[[], str]] = {
    "hosts": hosts_table, "events": events_table, "tools": tools_table,
    "statuses": statuses_table, "levels": levels_table, "protocol": protocol_table,
}


def render(markdown: str) -> str:
    """The page with each marker's table written fresh under it, up to its end marker (added where
    missing); an unknown name fails the build."""
    def table(found: re.Match) -> str:
        name = found.group(1)
        # blank lines around the table: Markdown ends a table only at one
        return f"<!-- generated: {name} -->\n\n{TABLES[name]().rstrip(chr(10))}\n\n<!-- end generated: {name} -->"

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **_: object) -> str:
    return render(markdown)


if __name__ == "__main__":  # python docs/_build/tables.py: the committed tables written again from the code
    from pathlib import Path

    for page in sorted((Path(__file__).parent.parent).glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if MARKER.search(text) and render(text) != text:
            page.write_text(render(text), encoding="utf-8")
            print(f"wrote {page.name}")
