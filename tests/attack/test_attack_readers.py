"""Attack: who else reads these files. Random installs of one bundle across Claude (user, project,
local), Copilot CLI (user, project) and Cursor (user, project), a random matcher on its tool hook,
and random signs of which agents are in use here (Copilot's config, a .cursor or .vscode folder).

The oracle is the documented and measured table, written out here independently of core/verify/readers.py:
Copilot CLI runs its own files and Claude's project and local settings (measured, 1.0.102); Cursor
its own and Claude's three files (if "Include third-party configs" is on: "may fire"); VS Code
Claude's three files and Copilot's two, every matcher ignored. An agent is named when it looks in
use (our hook in its files, or its folder here). verify --json must carry exactly: a note naming the
agents when more than one runs a hook and one of them reads it from another host's file, "fires/may fire N times in <agent>" when an agent runs N > 1
copies and at least one is another host's file, one warning per matcher VS Code ignores; and no
byte may change.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tests.conftest import attack_size

pytestmark = pytest.mark.attack

PLACES = [("claude", "user"), ("claude", "project"), ("claude", "local"), ("copilot", "user"),
          ("copilot", "project"), ("cursor", "user"), ("cursor", "project")]
READS = {  # agent: (its host or None, places it runs, documented-and-measured)
    "Claude Code": ("claude", {("claude", s) for s in ("user", "project", "local")}, True),
    "Copilot CLI": ("copilot", {("copilot", "user"), ("copilot", "project"), ("claude", "project"),
                                ("claude", "local")}, True),
    "Cursor": ("cursor", {("cursor", "user"), ("cursor", "project"), ("claude", "user"), ("claude", "project"),
                          ("claude", "local")}, False),
    "VS Code": (None, {("claude", "user"), ("claude", "project"), ("claude", "local"), ("copilot", "user"),
                       ("copilot", "project")}, False),
}
NATIVE = {"shell": {"claude": "Bash", "copilot": "bash", "cursor": "Shell"},
          "edit": {"claude": "Edit|MultiEdit", "copilot": "edit", "cursor": "Write"}}


def _bundle(folder: Path, matcher: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    tools = f"matcher = {json.dumps(matcher)}\n" if matcher else ""
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "rd"\nversion = "1.0.0"\n'
        f'[[hooks]]\nid = "gate"\nevent = "pre_tool_use"\n{tools}command = ["gate-hook"]\n'
        '[[hooks]]\nid = "end"\nevent = "stop"\ncommand = "end-hook"\n')
    return folder


def _expected(chosen: list[tuple[str, str]], used: set[str], matchers: dict[str, str]) -> set:
    out: set = set()
    for hook in ("gate", "end"):
        names, crossed = [], False
        for agent, (own, reads, sure) in READS.items():
            ran = [p for p in chosen if p in reads]
            if not ran or agent not in used:
                continue
            names.append(agent)
            crossed = crossed or any(host != own for host, _ in ran)
            if len(ran) > 1 and any(host != own for host, _ in ran):
                out.add((hook, "times", agent, len(ran), sure))
            if agent == "VS Code" and hook == "gate":
                out |= {(hook, "ignored", agent, m) for m in {matchers.get(h) for h, _ in ran} if m}
        if len(names) > 1 and crossed:
            out.add((hook, "agents", tuple(sorted(names))))
    return out


def _found(reports: list[dict]) -> set:
    out: set = set()
    for host in reports:
        for f in host["findings"]:
            m = f["message"]
            if (t := re.match(r"(fires|may fire) (twice|\d+ times) in (.+?)( if .*)?: it runs", m)):
                n = 2 if t[2] == "twice" else int(t[2].split()[0])
                out.add((f["hook"], "times", t[3], n, t[1] == "fires"))
            elif (t := re.match(r"(.+) ignores the matcher `(.+?)` in ", m)):
                out.add((f["hook"], "ignored", t[1], t[2]))
            elif (t := re.match(r"runs in \d+ agents: (.+)$", m)):
                agents = [re.sub(r" \(if .*\)$", "", a) for a in t[1].split(", ")]
                out.add((f["hook"], "agents", tuple(sorted(agents))))
    return out


def _snapshot(*roots: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for root in roots for p in sorted(root.rglob("*")) if p.is_file()}


def test_verify_counts_every_agent_that_runs_each_hook(run, tmp_path, monkeypatch, attack_report) -> None:
    cases = attack_size(30, 400)
    rng = random.Random(1414)
    failures = 0
    monkeypatch.setenv("PATH", str(tmp_path / "no-agents-on-path"))  # detect() sees no agent program
    for case in range(cases):
        home, project = tmp_path / f"h{case}", tmp_path / f"p{case}"
        project.mkdir(parents=True)
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
        monkeypatch.setenv("COPILOT_HOME", str(home / ".copilot"))
        monkeypatch.chdir(project)
        tools = rng.choice([[], ["shell"], ["shell", "edit"]])
        bundle = _bundle(tmp_path / f"b{case}", tools)
        chosen = [p for p in PLACES if rng.random() < 0.35] or [rng.choice(PLACES)]
        signs = {"Copilot CLI": rng.random() < 0.4, "Cursor": rng.random() < 0.3, "VS Code": rng.random() < 0.5}
        if signs["Copilot CLI"]:
            (home / ".copilot").mkdir(parents=True)
            (home / ".copilot" / "config.json").write_text(json.dumps({"trustedFolders": [str(project)]}))
        if signs["Cursor"]:
            (project / ".cursor").mkdir()
        if signs["VS Code"]:
            (project / ".vscode").mkdir()
        for host, scope in chosen:
            result = run("install", str(bundle), "--host", host, "--scope", scope)
            assert result.exit_code == 0, result.output
        hosts = {h for h, _ in chosen}
        used = {agent for agent, (own, _, _) in READS.items() if own in hosts or signs.get(agent)}
        matchers = {host: "|".join(NATIVE[t][host] for t in tools) for host in ("claude", "copilot", "cursor")}
        before = _snapshot(home, project)
        verify = run("verify", "--json", *[w for h in sorted(hosts) for w in ("--host", h)])
        assert _snapshot(home, project) == before
        reports = [r for r in json.loads(verify.stdout)["hosts"]]
        want = _expected(chosen, used, matchers)
        for report in reports:  # each host's section carries the whole judgement of the hooks in its files
            if _found([report]) != want:
                failures += 1
                print(f"case {case}: {chosen} in use {sorted(used)} tools {tools} ({report['host']}):\n"
                      f"  want {sorted(want)}\n  got  {sorted(_found([report]))}")
    attack_report("who else reads these files", cases=cases, failures=failures)
    assert failures == 0
