"""Issue 22: real hook settings files from public repositories (tests/data/corpus, each file's
repository, path, commit and licence in SOURCES.tsv), each on its own host, at its own path:
install a bundle, reinstall (nothing written), verify, uninstall, adopt, adopt --undo. The file
comes back byte for byte after each round, and verify agrees with what install and adopt did.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
ROWS = [line.split("\t") for line in (CORPUS / "SOURCES.tsv").read_text().splitlines() if line]
BUNDLE = ('[bundle]\nname = "corpus"\nversion = "1.0.0"\n[[hooks]]\nid = "guard"\nevent = "pre_tool_use"\n'
          'matcher = ["shell"]\ncommand = "echo guard"\n[[hooks]]\nid = "done"\nevent = "stop"\ncommand = "echo done"\n')
# Files adopt does not take, and why (what verify says of them too).
NOT_ADOPTED = {
    "copilot--1password-agent-hooks.json": "hookweave's Copilot file is .github/hooks/hookweave.json; adopt reads that one",
    "factory--comarch-git-byline.json": 'a "hooks" wrapper in hooks.json: Droid runs none of them (verify warns)',
    "factory--mrwogu-promptscript.json": 'a "hooks" wrapper in hooks.json: Droid runs none of them (verify warns)',
}
# Files adopt refuses whole, and its words (nothing is written): a hook it cannot take back as a command.
ADOPT_REFUSES = {
    "codex--chemaclass-agnostic-ai.json": 'a hook of type "mcp_tool"; hookweave adopts command hooks only',
}
# Files hookweave will not edit at all, and the words install and adopt refuse them in (the file is left
# as it was). OpenHands reads events at the top level only while the file has no "hooks" key, so
# hookweave will not add one over an operator's top-level events (hosts/openhands.py check_document);
# verify has nothing to say of such a file (nothing of hookweave's is in it).
NOT_EDITED = {
    "openhands--openhands-openhands-cli.json": 'the events are at the top level (stop); OpenHands reads only "hooks"',
}


def _runs_any(host: str, text: bytes, path: str = "hooks.json") -> bool:
    """Whether the file holds a hook its host would run (a group with handlers, or a flat entry)."""
    from hookweave.core.contract import registry

    known = registry.registry().get(host).native_events
    doc = tomllib.loads(text.decode()) if host == "kimi" else json.loads(text)
    events = doc if host == "factory" and path.endswith("hooks.json") else doc.get("hooks", {})  # Droid's settings.json: "hooks"
    entries = ([e for k, v in events.items() if k in known and isinstance(v, list) for e in v]
               if isinstance(events, dict) else [])
    if host == "kimi":  # [[hooks]] tables, each naming its event
        entries = [e for e in events if isinstance(e, dict) and e.get("event") in known]
    flat = host in ("cursor", "copilot", "windsurf", "kimi")
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
def test_round_trips_on_its_host(row, run, project, home, write_bundle, tmp_path) -> None:
    name, _, path, _, _ = row
    host = name.split("--")[0]
    original = (CORPUS / name).read_bytes()
    target = project / re.sub(r"^.*?/(?=\.\w+/)", "", path)  # templates/x/.claude/settings.json: at .claude/
    scope = "project"
    if host == "kimi":  # Kimi Code reads one user file, $KIMI_CODE_HOME/config.toml, and no project file:
        target, scope = home / ".kimi-code" / "config.toml", "user"  # a repository's .kimi/config.toml goes there
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
    if name in NOT_EDITED:  # a layout hookweave will not edit: verify says so first; install and adopt refuse it
        assert 'hookweave installs only under "hooks"' in before.stdout, before.stdout
        for args in (("install", bundle, "--yes"), ("adopt", "--out", str(tmp_path / "adopted"))):
            result = run(*args, "--host", host)
            assert result.exit_code == 2 and NOT_EDITED[name] in result.stderr, result.stderr
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

    adopt = run("adopt", "--host", host, "--scope", scope, "--out", str(tmp_path / "adopted"))
    if name in ADOPT_REFUSES:
        assert adopt.exit_code == 2 and ADOPT_REFUSES[name] in adopt.stderr and target.read_bytes() == original
        assert not (tmp_path / "adopted").exists()
        return
    if name in NOT_ADOPTED or not _runs_any(host, original, path):
        assert adopt.exit_code == 2 and "nothing to adopt" in adopt.stderr and target.read_bytes() == original
        assert not (tmp_path / "adopted").exists()
        return
    assert adopt.exit_code == 0, adopt.stdout + adopt.stderr
    statuses = _statuses(run, host, r"\S+-\d+")
    assert statuses and all(status == "ok" for status in statuses), statuses
    assert "nothing written" in run("install", str(tmp_path / "adopted"), "--host", host, "--yes").stdout
    assert run("adopt", "--undo", "adopted", "--host", host).exit_code == 0
    assert target.read_bytes() == original  # a group adopt split is one group again (issue 33 item 9)
