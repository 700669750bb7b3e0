"""The README names every registered host, from the registry (issue 21: no hand-written lists)."""

from __future__ import annotations

import re
from pathlib import Path

from hookweave.core.contract.registry import registry

README = Path(__file__).parent.parent / "README.md"


def hosts_sentence() -> str:
    hosts = registry()
    items = [f"**{hosts.get(name).title}** (`{name}`)" for name in hosts.names()]
    return (f"Hosts: {', '.join(items[:-1])} and {items[-1]}, each a plugin; new hosts plug in through the "
            "`hookweave` entry-point group (see [Writing a host plugin](#writing-a-host-plugin)).")


def test_the_readme_names_every_registered_host() -> None:
    found = re.search(r"<!-- hosts: [^>]*-->\n(.*?)\n<!-- /hosts -->", README.read_text(encoding="utf-8"), re.DOTALL)
    assert found, "README lost its <!-- hosts --> markers"
    assert " ".join(found.group(1).split()) == hosts_sentence(), f"put this in the README:\n{hosts_sentence()}"


def test_every_registered_host_has_its_row_and_its_proof() -> None:
    """Issue 23: each host in ``hooks hosts`` has a row in the hosts table and one in the proof table."""
    text = README.read_text(encoding="utf-8")
    files = set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.MULTILINE))
    proof_table = text.split("| host | proof |", 1)[1].split("\n\n", 1)[0]
    proven = {name for row in re.findall(r"^\| ([a-z0-9, -]+) \|", proof_table, re.MULTILINE) for name in row.split(", ")}
    names = set(registry().names())
    assert names <= files, f"no row in the hosts table: {sorted(names - files)}"
    assert names <= proven, f"no proof row: {sorted(names - proven)}"
