"""Attack: ownership when our own record is missing or foreign (issue 22, class 3).

Install a bundle (and, at random, a second one) on Claude, Codex and Cursor into files full
of the operator's entries, then spoil the bookkeeping: the record deleted, replaced by a record
of another bundle only, or kept; the marked entries hand-edited, copied under other events, or a
handler of the operator's put into our group. Then ``uninstall`` without and with ``--by-marker``
(also with ``--host all`` over every host).

Oracles, on the whole file text: without the flag, a file with our marked entries and no record
of the bundle is named (exit 1 when nothing anywhere was removed, a warning beside a removal on
another host), and not a byte is written; with it, every entry with this bundle's marker is gone,
every entry without it (the other bundle's, the operator's, the operator's handler from our group)
stays with its value and order, and the text is byte for byte the text of that edit.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import app
from hookweave.core.model.render import marker_in
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
DATA = Path(__file__).parent.parent / "data"
HOSTS = {
    "claude": (DATA / "claude" / "operator.settings.json", ".claude/settings.json", ".claude/settings.hookweave.json"),
    "codex": (DATA / "codex" / "operator.settings.json", ".codex/hooks.json", ".codex/hooks.hookweave.json"),
    "cursor": (DATA / "cursor" / "operator.settings.json", ".cursor/hooks.json", ".cursor/hooks.hookweave.json"),
}
BUNDLE = ('[bundle]\nname = "{n}"\nversion = "1"\n[[hooks]]\nid = "a"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
          'command = "{n}-a"\n[[hooks]]\nid = "s"\nevent = "stop"\ncommand = "{n}-s"\n')


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def _strip_marked(value, name: str):
    """The oracle: ``value`` without the handlers carrying ``name``'s marker (empty groups and
    events dropped, as the editor drops them)."""
    hooks = value.get("hooks")
    if not isinstance(hooks, dict):
        return value
    out = {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            out[event] = entries
            continue
        kept = []
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
                handlers = [h for h in entry["hooks"] if not (marker_in(h.get("command")) or ("",))[0] == name]
                if handlers:
                    kept.append({**entry, "hooks": handlers} if len(handlers) != len(entry["hooks"]) else entry)
                elif not entry["hooks"]:
                    kept.append(entry)
            elif not (isinstance(entry, dict) and (marker_in(entry.get("command")) or ("",))[0] == name):
                kept.append(entry)
        if kept or not entries:
            out[event] = kept
    result = dict(value)
    if out or not hooks:
        result["hooks"] = out
    else:
        del result["hooks"]
    return result


def _spoil(rng: random.Random, host: str, path: Path) -> None:
    doc = json.loads(path.read_text())
    hooks = doc.get("hooks", {})
    ours = [(e, i) for e, entries in hooks.items() if isinstance(entries, list) for i, x in enumerate(entries)
            if "hookweave:b/" in json.dumps(x)]
    kind = rng.choice(["none", "edit", "copy", "handler"])
    if not ours or kind == "none":
        return
    event, i = rng.choice(ours)
    entry = json.loads(json.dumps(hooks[event][i]))
    text = json.dumps(entry)
    if kind == "edit":
        hooks[event][i] = json.loads(text.replace("b-", "edited-b-", 1))
    elif kind == "copy":
        hooks.setdefault("SessionStart" if host != "cursor" else "sessionStart", []).append(entry)
    elif kind == "handler" and "hooks" in entry:
        hooks[event][i]["hooks"].append({"type": "command", "command": "operator-added"})
    path.write_text(json.dumps(doc, indent=2) + "\n")


def test_uninstall_by_marker_when_the_record_is_lost(tmp_path, project, write_bundle, attack_report, monkeypatch):
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    rng = random.Random(2222)
    ours, other = write_bundle(BUNDLE.format(n="b")), write_bundle(BUNDLE.format(n="other"))
    cases = attack_size(60, 1200)
    failures: list[str] = []
    for case in range(cases):
        host = rng.choice(list(HOSTS))
        source, rel, rec = HOSTS[host]
        for child in project.iterdir():
            __import__("shutil").rmtree(child)
        settings, record = project / rel, project / rec
        settings.parent.mkdir(parents=True)
        settings.write_text(source.read_text())
        with_other = rng.random() < 0.5
        if with_other:
            assert _run("install", str(other), "--host", host).exit_code == 0
        assert _run("install", str(ours), "--host", host).exit_code == 0
        _spoil(rng, host, settings)
        lost = rng.choice(["deleted", "other-only", "kept"])
        if lost == "deleted":
            record.unlink()
        elif lost == "other-only":
            data = json.loads(record.read_text())
            data["bundles"].pop("b")
            if not data["bundles"]:
                record.unlink()
            else:
                record.write_text(json.dumps(data, indent=2) + "\n")
        hosts = ["--host", "all"] if rng.random() < 0.3 else ["--host", host]
        before, before_record = settings.read_text(), record.read_text() if record.exists() else None
        plain = _run("uninstall", "b", *hosts)
        if lost != "kept":
            if plain.exit_code != 1 or "--by-marker" not in plain.output or settings.read_text() != before:
                failures.append(f"case {case} {host} {lost}: without the flag: exit {plain.exit_code} {plain.output!r}")
                continue
            flagged = _run("uninstall", "b", *hosts, "--by-marker")
            want = _strip_marked(json.loads(before), "b")
            got = json.loads(settings.read_text()) if settings.exists() else {}
            if flagged.exit_code != 0 or got != want:
                failures.append(f"case {case} {host} {lost}: --by-marker: exit {flagged.exit_code} {flagged.output!r}"
                                f"\n got {got}\n want {want}")
            elif (record.read_text() if record.exists() else None) != before_record:
                failures.append(f"case {case} {host} {lost}: the record changed")
    attack_report("records lost, uninstall by marker", cases=cases, failures=len(failures))
    assert not failures, f"{len(failures)} of {cases}:\n" + "\n".join(failures[:4])


def test_by_marker_keeps_the_text_byte_for_byte(project):
    """Install into a hand-formatted file, delete the record, uninstall --by-marker: the file's
    text is exactly what it was (the entries install added were the only change)."""
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    text = '{\n\t"model":"opus" ,\n\t"hooks" : {\n\t\t"Stop" : [ {"hooks":[{"type":"command","command":"mine"}]} ]\n\t}\n}'
    settings.write_text(text)
    assert _run("install", "example-guard", "--host", "claude").exit_code == 0
    (project / ".claude" / "settings.hookweave.json").unlink()
    refused = _run("uninstall", "example-guard", "--host", "claude")
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1 and "--by-marker" in refused.stderr
    done = _run("uninstall", "example-guard", "--host", "claude", "--by-marker")
    assert done.exit_code == 0, done.output
    env = ',\n\t"env":{\n\t\t"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"20"\n\t}'
    assert settings.read_text() == text[:-2] + env + text[-2:]  # the env value stays: it may be the operator's
