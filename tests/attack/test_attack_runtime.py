"""Attack: what verify's env and order findings mean at run time (issue 10, cases 6-8).

Env (Claude): random worlds of a policy and a bundle value, operator values at every scope
(user, project, local, managed), a value exported in the shell install runs in, install at a
random scope, then operator edits at any scope and another export in the shell verify runs in.
The oracle models Claude independently (settings env per key, managed > local > project > user,
all of them over the environment) and the policies from the README. It checks:
- install writes the bundle's value exactly when the policy would replace the value the host
  would use without it (the file's own, else a lower scope's, else the exported one); a file it
  does not change keeps every byte; install, then uninstall, gives the file back byte for byte;
- verify exits 1 exactly when the host will use a value the policy would not allow, or ours
  replaces a value the policy would have kept; every finding is one line;
- verify's fix works: after a reinstall only a higher scope's value can still be a problem.

Order: random operator groups around a bundle of 1-3 hooks (first/last) on Claude, Codex,
Gemini (parallel, sequential in the project or user file, order-free or field-merged events) and
Cursor, then a random reordering of the event by the operator. The oracle says whether the
arrangement breaks the positions or the declared order (positions only where the host honours
them), and whether order holds at run time there. verify's status, level and exit code must
agree; on hosts that place hooks, a reinstall repairs the order and keeps every operator entry.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.conftest import attack_size

pytestmark = pytest.mark.attack
VAR = "HOOKWEAVE_ATTACK_VAR"
SCOPES = ("user", "project", "local", "managed")  # Claude's precedence, lowest first
POOL = ["20", "5", "100", "0", "-1", "lots", "", "020", "19", "21", "99999999999999999999999", " 7 ", "ünï"]


# -- the oracle: Claude and the policies, written from the README, not from hookweave ------------------

def _whole(text: str) -> int | None:
    text = text.strip()
    digits = text.lstrip("-")
    return int(text) if digits.isascii() and digits.isdigit() else None


def _keeps(policy: str, value: str, found: str | None) -> bool:
    """Whether the policy leaves the operator's ``found`` alone."""
    if found is None or policy == "override":
        return False
    if policy == "if-absent":
        return True
    number = _whole(found)
    return number is None or number <= 0 or number >= int(value)


def _allows(policy: str, value: str, found: str | None) -> bool:
    return found == value or _keeps(policy, value, found)


def _used(values: dict[str, str | None], exported: str | None, scopes=SCOPES) -> str | None:
    for scope in reversed(scopes):
        if values.get(scope) is not None:
            return values[scope]
    return exported


# -- env worlds ----------------------------------------------------------------------------------------

def _path(project: Path, home: Path, managed: Path, scope: str) -> Path:
    return {"user": home / ".claude" / "settings.json", "project": project / ".claude" / "settings.json",
            "local": project / ".claude" / "settings.local.json", "managed": managed / "managed-settings.json"}[scope]


def _write(path: Path, value: str | None, r: random.Random) -> None:
    """An operator's settings file, half the time with non-ASCII written as \\u escapes (a value
    install replaces must come back in that spelling: ``core/plan/spelling.py``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    env = {"OTHER": "kept"} | ({VAR: value} if value is not None else {})
    doc = {"model": "opus", "env": env} if r.random() < 0.7 else {"env": env, "permissions": {"allow": ["Bash(ls:*)"]}}
    ascii_only = r.random() < 0.5
    path.write_text(json.dumps(doc, indent=r.choice([2, 4]), ensure_ascii=ascii_only) + "\n", encoding="utf-8")


def _env_value(path: Path) -> str | None:
    return json.loads(path.read_text(encoding="utf-8")).get("env", {}).get(VAR) if path.exists() else None


def _one_line(result) -> bool:
    doc = json.loads(result.stdout)
    messages = [f["message"] for h in doc["hosts"] for f in h["findings"]]
    messages += [f["message"] for h in doc["hosts"] for x in h["files"] for f in x["findings"]]
    return all("\n" not in m and "\r" not in m for m in messages)


def _env_world(seed: int, run, project: Path, home: Path, managed: Path, write_bundle, monkeypatch) -> list[str]:
    r = random.Random(seed)
    failures: list[str] = []
    policy = r.choice(["if-absent", "override", "at-least"])
    value = r.choice(["20", "0", "-3", "007", "12345678901234567890"]) if policy == "at-least" else r.choice(POOL[:8])
    bundle = str(write_bundle(f'[bundle]\nname = "envw"\nversion = "1"\n[env.{VAR}]\n'
                              f'value = {json.dumps(value)}\npolicy = "{policy}"\n'))
    scope = r.choice(SCOPES[:3])
    values = {s: (r.choice(POOL + [value]) if r.random() < 0.35 else None) for s in SCOPES}
    for s in SCOPES:
        if values[s] is not None or s == scope or r.random() < 0.3:
            _write(_path(project, home, managed, s), values[s], r)
    exported = r.choice(POOL + [value]) if r.random() < 0.5 else None
    monkeypatch.delenv(VAR, raising=False)
    if exported is not None:
        monkeypatch.setenv(VAR, exported)
    target = _path(project, home, managed, scope)
    before = target.read_text(encoding="utf-8")
    where = f"seed {seed}: {policy} {value!r} at {scope}, values {values}, exported {exported!r}"

    # install: write exactly when the policy replaces what the host would use without us
    inherited = values[scope] if values[scope] is not None else _used(values, exported, SCOPES[: SCOPES.index(scope)])
    applied = inherited is None or not _keeps(policy, value, inherited)
    result = run("install", bundle, "--host", "claude", "--scope", scope)
    if result.exit_code != 0:
        return [f"{where}: install exit {result.exit_code}: {result.output}"]
    if _env_value(target) != (value if applied else values[scope]):
        failures.append(f"{where}: install left {_env_value(target)!r}, oracle applied={applied}")
    if _env_value(target) == values[scope] and target.read_text(encoding="utf-8") != before:
        failures.append(f"{where}: install changed a file it had nothing to change in")
    if "nothing written" not in run("install", bundle, "--host", "claude", "--scope", scope).stdout:
        failures.append(f"{where}: a second install wrote something")
    if r.random() < 0.25:  # the short path: install, uninstall, byte for byte
        run("uninstall", "envw", "--host", "claude", "--scope", scope)
        if target.read_text(encoding="utf-8") != before:
            failures.append(f"{where}: uninstall did not give the file back")
        return failures

    # the operator edits a scope or two, and verify runs in a shell that may export something else
    now = {s: _env_value(_path(project, home, managed, s)) for s in SCOPES}
    for _ in range(r.choice([0, 1, 2])):
        s = r.choice(SCOPES)
        now[s] = r.choice(POOL + [value, None])
        _write(_path(project, home, managed, s), now[s], r)
    if r.random() < 0.5:
        exported = r.choice(POOL + [value, None])
        monkeypatch.delenv(VAR, raising=False)
        if exported is not None:
            monkeypatch.setenv(VAR, exported)
    used = _used(now, exported)
    if applied and now[scope] == value and used == value:
        prior = values[scope]
        below = prior if prior is not None else _used(now, exported, SCOPES[: SCOPES.index(scope)])
        problem = prior is None and below is not None and below != value and _keeps(policy, value, below)
    elif applied and used == value:
        problem = False
    else:
        problem = not _allows(policy, value, used)
    verify = run("verify", "--host", "claude", "--json")
    where += f"; then {now}, exported {exported!r}"
    if verify.exit_code != (1 if problem else 0):
        failures.append(f"{where}: verify exit {verify.exit_code}, oracle problem={problem}: {verify.stdout}")
    if not _one_line(verify):
        failures.append(f"{where}: a finding of more than one line")

    # verify's fix: a reinstall leaves a problem only where a higher scope sets a value
    run("install", bundle, "--host", "claude", "--scope", scope)
    now = {s: _env_value(_path(project, home, managed, s)) for s in SCOPES}
    higher = next((now[s] for s in reversed(SCOPES[SCOPES.index(scope) + 1:]) if now[s] is not None), None)
    stuck = higher is not None and not _allows(policy, value, higher)
    again = run("verify", "--host", "claude", "--json")
    if again.exit_code != (1 if stuck else 0):
        failures.append(f"{where}: after reinstall verify exit {again.exit_code}, oracle stuck={stuck}: {again.stdout}")
    return failures


def test_env_policy_against_the_value_the_host_uses(run, project, home, tmp_path, write_bundle, monkeypatch,
                                                   attack_report) -> None:
    managed = tmp_path / "managed"
    worlds = attack_size(120, 5000)
    failures: list[str] = []
    for seed in range(worlds):
        for path in [home / ".claude", project / ".claude", managed]:
            for f in path.glob("*") if path.exists() else ():
                f.unlink()
        failures += _env_world(seed, run, project, home, managed, write_bundle, monkeypatch)
    attack_report("env policy against the host's value", cases=worlds, failures=len(failures))
    assert not failures, "\n".join(failures[:5])


# -- order worlds -----------------------------------------------------------------------------------

HOSTS = {  # host: (settings file, event, neutral event, nested groups)
    "claude": (".claude/settings.json", "PreToolUse", "pre_tool_use", True),
    "codex": (".codex/hooks.json", "Stop", "stop", True),
    "gemini": (".gemini/settings.json", "BeforeTool", "pre_tool_use", True),
    "gemini-merged": (".gemini/settings.json", "PreCompress", "pre_compact", True),
    "cursor": (".cursor/hooks.json", "preToolUse", "pre_tool_use", False),
}


def _operator_entry(host: str, n: int, nested: bool, sequential: bool) -> dict:
    handler = {"type": "command", "command": f"operator-{n}"}
    if not nested:
        return {"command": f"operator-{n}"}
    group = {"hooks": [handler]}
    return {**group, "sequential": True} if sequential else group


def _arrangement_broken(items: list, positions: dict[str, str], declared: list[str], positional: bool) -> bool:
    """items: hook id for ours, None for the operator's."""
    foreign = [i for i, x in enumerate(items) if x is None]
    ours = [(i, x) for i, x in enumerate(items) if x is not None]
    if positional and foreign:
        if any(positions[x] == "first" and i > foreign[0] for i, x in ours):
            return True
        if any(positions[x] == "last" and i < foreign[-1] for i, x in ours):
            return True
    keys = [(positions[x] == "last" and positional, declared.index(x)) for _, x in ours]  # Codex: appended as declared
    return keys != sorted(keys)


def _order_world(seed: int, run, project: Path, home: Path, write_bundle, monkeypatch, codex_home: Path) -> list[str]:
    r = random.Random(seed)
    kind = r.choice(list(HOSTS))
    host = kind.split("-")[0]
    rel, event, neutral, nested = HOSTS[kind]
    path = (codex_home / "hooks.json") if host == "codex" else project / rel
    count = r.choice([0, 1, 2, 3])
    sequential_project = host == "gemini" and count > 0 and r.random() < 0.3  # on the operator's first group
    sequential_user = host == "gemini" and r.random() < 0.2
    operators = [_operator_entry(host, n, nested, sequential_project and n == 0) for n in range(count)]
    doc = {"version": 1} if host == "cursor" else {}
    doc["hooks"] = {event: operators}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    user = home / ".gemini" / "settings.json"
    if sequential_user:
        user.parent.mkdir(exist_ok=True)
        user.write_text(json.dumps({"hooks": {event: [_operator_entry(host, 9, True, True)]}}))
    elif user.exists():
        user.unlink()
    ids = [f"h{i}" for i in range(r.choice([1, 2, 3]))]
    positions = {i: r.choice(["first", "last"]) for i in ids}
    manifest = '[bundle]\nname = "orderw"\nversion = "1"\n' + "".join(
        f'[[hooks]]\nid = "{i}"\nevent = "{neutral}"\ncommand = "cmd {i}"\nposition = "{positions[i]}"\n' for i in ids)
    scope = ["--scope", "user"] if host == "codex" else []
    where = f"seed {seed}: {kind}, {len(operators)} operator entries, positions {positions}"
    if run("install", str(write_bundle(manifest)), "--host", host, *scope).exit_code != 0:
        return [f"{where}: install failed"]
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = data["hooks"][event]
    r.shuffle(entries)  # the operator reorders the event
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    def ours(entry: dict) -> str | None:
        commands = [h["command"] for h in entry.get("hooks", [])] if nested else [entry["command"]]
        found = [c.split("# hookweave:orderw/")[1] for c in commands if "# hookweave:orderw/" in c]
        return found[0] if found else None

    items = [ours(e) for e in entries]
    positional = host != "codex"
    broken = _arrangement_broken(items, positions, ids, positional)
    holds = host == "cursor" or (host == "gemini" and (kind == "gemini-merged" or sequential_project or sequential_user))
    verify = run("verify", "--host", host, "--json")
    hooks = [h for f in json.loads(verify.stdout)["hosts"][0]["files"] for b in f["bundles"] for h in b["hooks"]]
    flagged = [h for h in hooks if h["status"] == "out-of-order"]
    failures = []
    if bool(flagged) != broken:
        failures.append(f"{where}: arrangement {items}: verify flagged {[h['id'] for h in flagged]}, oracle broken={broken}")
    if any(h["level"] != ("problem" if holds else "note") for h in flagged):
        failures.append(f"{where}: levels {[h['level'] for h in flagged]}, oracle order holds={holds}")
    if host != "codex" and verify.exit_code != (1 if broken and holds else 0):
        failures.append(f"{where}: arrangement {items}: verify exit {verify.exit_code}, broken={broken} holds={holds}")
    if positional:
        run("install", str(write_bundle(manifest)), "--host", host, *scope)
        after = json.loads(path.read_text(encoding="utf-8"))["hooks"][event]
        theirs = [e for e in entries if ours(e) is None]
        if [e for e in after if ours(e) is None] != theirs:
            failures.append(f"{where}: reinstall changed the operator's entries or their order")
        if _arrangement_broken([ours(e) for e in after], positions, ids, True):
            failures.append(f"{where}: reinstall did not repair the order: {[ours(e) for e in after]}")
    run("uninstall", "orderw", "--host", host, *scope)
    return failures


def test_order_verdict_after_operator_reorderings(run, project, home, codex_home, write_bundle, monkeypatch,
                                                  attack_report) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    worlds = attack_size(120, 5000)
    failures: list[str] = []
    for seed in range(worlds):
        failures += _order_world(seed, run, project, home, write_bundle, monkeypatch, codex_home)
    attack_report("order verdict per host after reordering", cases=worlds, failures=len(failures))
    assert not failures, "\n".join(failures[:5])
