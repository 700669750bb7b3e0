"""Issue 22: real hook settings files from public repositories (tests/data/corpus, each file's
repository, path, commit and licence in SOURCES.tsv), each on its own host, at its own path:
install a bundle, reinstall (nothing written), verify, uninstall, adopt, adopt --undo. The file
comes back byte for byte after each round, and verify agrees with what install and adopt did.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "data" / "corpus"
ROWS = [line.split("\t") for line in (CORPUS / "SOURCES.tsv").read_text().splitlines() if line]
BUNDLE = ('[bundle]\nname = "corpus"\nversion = "1.0.0"\n[[hooks]]\nid = "guard"\nevent = "pre_tool_use"\n'
          'matcher = ["shell"]\ncommand = "echo guard"\n[[hooks]]\nid = "done"\nevent = "stop"\ncommand = "echo done"\n')
# Files adopt does not take, and why (what verify says of them too).
NOT_ADOPTED = {
    "copilot--1password-agent-hooks.json": "hookweave's Copilot file is .github/hooks/hookweave.json; adopt reads that one",
    "factory--comarch-git-byline.json": 'a "hooks" wrapper in hooks.json: Droid runs none of them (verify warns)',
}


def _runs_any(host: str, text: bytes) -> bool:
    """Whether the file holds a hook its host would run (a group with handlers, or a flat entry)."""
    from hookweave.core.contract import registry

    known = registry.registry().get(host).native_events
    doc = json.loads(text)
    events = doc if host == "factory" else doc.get("hooks", {})
    entries = ([e for k, v in events.items() if k in known and isinstance(v, list) for e in v]
               if isinstance(events, dict) else [])
    flat = host in ("cursor", "copilot", "windsurf")
    return any(isinstance(e, dict) and (flat or e.get("hooks")) for e in entries)


def test_every_corpus_file_has_its_source_and_a_licence_that_allows_it() -> None:
    names = {p.name for p in CORPUS.iterdir() if p.name not in ("SOURCES.tsv", "NOTICE")}
    assert names == {row[0] for row in ROWS}
    for name, repo, path, commit, licence in ROWS:
        assert "/" in repo and path and len(commit) == 40 and licence in ("MIT", "Apache-2.0", "BSD-3-Clause")


def _statuses(run, host: str, ids: str) -> list[str]:
    """The status of each hook whose id matches ``ids``, from verify --json (the text lists only what is not ok)."""
    doc = json.loads(run("verify", "--host", host, "--json").stdout)
    return [h["status"] for r in doc["hosts"] for f in r["files"] for b in f["bundles"] for h in b["hooks"]
            if re.fullmatch(ids, h["id"])]


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_round_trips_on_its_host(row, run, project, write_bundle, tmp_path) -> None:
    name, _, path, _, _ = row
    host = name.split("--")[0]
    original = (CORPUS / name).read_bytes()
    target = project / re.sub(r"^.*?/(?=\.\w+/)", "", path)  # templates/x/.claude/settings.json: at .claude/
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(original)
    bundle = str(write_bundle(BUNDLE))
    before = run("verify", "--host", host)
    assert before.exit_code in (0, 1) and "Traceback" not in before.stdout
    refused = [line.split(": ", 1)[1] for line in before.stdout.splitlines() if "refuses the whole file" in line]
    if refused:  # the host runs none of this file's hooks: install and adopt say so, in the same words
        for args in (("install", bundle, "--yes"), ("adopt", "--out", str(tmp_path / "adopted"))):
            result = run(*args, "--host", host)
            assert result.exit_code == 2 and refused[0] in result.stderr, result.stderr
        assert target.read_bytes() == original
        return

    install = run("install", bundle, "--host", host, "--yes")
    assert install.exit_code == 0, install.stdout + install.stderr
    again = run("install", bundle, "--host", host, "--yes")
    assert again.exit_code == 0 and "nothing written" in again.stdout
    statuses = _statuses(run, host, r"guard|done")
    assert statuses and all(status == "ok" for status in statuses), statuses  # the gates are this machine's
    assert run("uninstall", "corpus", "--host", host, "--yes").exit_code == 0
    assert target.read_bytes() == original

    adopt = run("adopt", "--host", host, "--scope", "project", "--out", str(tmp_path / "adopted"))
    if name in NOT_ADOPTED or not _runs_any(host, original):
        assert adopt.exit_code == 2 and "nothing to adopt" in adopt.stderr and target.read_bytes() == original
        assert not (tmp_path / "adopted").exists()
        return
    assert adopt.exit_code == 0, adopt.stdout + adopt.stderr
    statuses = _statuses(run, host, r"\S+-\d+")
    assert statuses and all(status == "ok" for status in statuses), statuses
    assert "nothing written" in run("install", str(tmp_path / "adopted"), "--host", host, "--yes").stdout
    assert run("adopt", "--undo", "adopted", "--host", host).exit_code == 0
    assert target.read_bytes() == original
