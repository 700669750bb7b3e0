"""The README's host table has one line per registered host, from the registry (issue 21: no
hand-written lists), and the hosts page has each host's section with its proof (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

from hookweave.core.contract.registry import registry

REPO = Path(__file__).parent.parent.parent


def hosts_table() -> str:
    hosts = registry()
    rows = [f"| `{name}` | {hosts.get(name).title} | {', '.join(hosts.get(name).scopes)} |" for name in hosts.names()]
    return "\n".join(["| host | agent | scopes |", "|---|---|---|", *rows])


def test_the_readme_has_a_line_for_every_registered_host() -> None:
    found = re.search(r"<!-- hosts: [^>]*-->\n(.*?)\n<!-- /hosts -->", (REPO / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    assert found, "README lost its <!-- hosts --> markers"
    assert found.group(1) == hosts_table(), f"put this in the README:\n{hosts_table()}"


def test_every_registered_host_has_its_section_and_its_proof() -> None:
    """Issue 23: each host in ``hooks hosts`` has a section on the hosts page, with files, format and proof."""
    text = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## [^\n]*\{#([a-z0-9-]+)\}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL))
    for name in registry().names():
        assert name in sections, f"docs/hosts.md has no section for {name}"
        for field in ("**Scopes and files:**", "**Format:**", "**What hookweave takes care of:**", "**Proof:**"):
            assert field in sections[name], f"{name}: no {field}"
