"""Ownership at the edges: random operator edits after install (copies of our entries into other
events, positions, groups and scopes, edited copies, ours moved or renamed away, handlers added to
our groups), then a random install, install --force, uninstall or uninstall --force.

The oracle restates the rule independently: ours is, per recorded hook, the entry in the recorded
event that carries our marker with the recorded hash, else the first there with our marker (an edit
of ours). Invariants, checked on the whole parsed file, key order included: every other entry
survives with its value and its order; after an uninstall ours are gone (or, under --force, only
the operator's handlers of an edited one stay); a refused command writes no byte; every other file
is untouched.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from hookweave.core.model.render import marker_in
from tests.conftest import attack_size

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
# host -> (its operator file full of foreign entries, where it goes in the project)
HOSTS = {
    "claude": (DATA / "claude" / "operator.settings.json", ".claude/settings.json"),
    "gemini": (DATA / "gemini" / "operator.settings.json", ".gemini/settings.json"),
    "codex": (DATA / "codex" / "operator.settings.json", ".codex/hooks.json"),
    "cursor": (DATA / "cursor" / "operator.settings.json", ".cursor/hooks.json"),
}
USER = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "codex": ".codex/hooks.json",
        "cursor": ".cursor/hooks.json"}
OTHER = '[bundle]\nname = "other"\nversion = "1"\n[[hooks]]\nid = "x"\nevent = "stop"\ncommand = "other-x"\n'
EVENTS = ["PreToolUse", "PostToolUse", "Stop", "SessionStart", "Notification", "UserPromptSubmit", "FutureEvent",
          "preToolUse", "postToolUse", "stop", "sessionStart"]


def _owner(group):
    if isinstance(group, dict) and "hooks" not in group:  # a flat entry (Cursor)
        return marker_in(group.get("command"))
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return None
    for handler in group["hooks"]:
        found = marker_in(handler.get("command")) if isinstance(handler, dict) else None
        if found:
            return found
    return None


def _c(value) -> str:
    return json.dumps(value, sort_keys=True)


def _ours(hooks: dict, regs: dict) -> dict[str, tuple[str, int]]:
    """The oracle's rule: per recorded hook, its event's entry with our marker and the recorded
    value, else the first there with our marker."""
    out = {}
    for hook_id, (event, value) in regs.items():
        entries = hooks.get(event) if isinstance(hooks.get(event), list) else []
        marked = [i for i, e in enumerate(entries) if _owner(e) == ("guard", hook_id)]
        exact = [i for i in marked if _c(entries[i]) == _c(value)]
        if exact or marked:
            out[hook_id] = (event, (exact or marked)[0])
    return out


def _strip(group):
    if "hooks" not in group:
        return None  # a flat entry holds nothing but ours
    handlers = group["hooks"]
    at = next(i for i, h in enumerate(handlers) if isinstance(h, dict) and marker_in(h.get("command")))
    rest = handlers[:at] + handlers[at + 1:]
    return {**group, "hooks": rest} if rest else None


class Operator:
    """Random edits as an operator (or another program) makes them, saved as Claude saves."""

    def __init__(self, rng: random.Random, regs: dict) -> None:
        self.rng, self.regs, self.n = rng, regs, 0

    def edit(self, data: dict, user: dict) -> str:
        hooks = data["hooks"]
        ours = _ours(hooks, self.regs)
        kind = self.rng.choice(["copy", "copy-edited", "handler-into-theirs", "add-to-ours", "move", "other-scope",
                                "rename", "edit-ours", "copy-into-other-bundle"])
        flat = any("hooks" not in g for gs in hooks.values() for g in gs if isinstance(g, dict))
        if flat and kind in ("handler-into-theirs", "add-to-ours", "copy-into-other-bundle"):
            kind = "copy"  # no groups to put a handler into
        if not ours and kind not in ("rename",):
            kind = "rename"
        self.n += 1
        pick = lambda: ours[self.rng.choice(sorted(ours))]  # noqa: E731
        if kind in ("copy", "copy-edited", "other-scope", "move"):
            event, i = pick()
            group = copy.deepcopy(hooks[event][i])
            if kind == "copy-edited":
                group["matcher"] = f"Edited{self.n}"
            if kind == "move":
                group = hooks[event].pop(i)
            target = user.setdefault("hooks", {}) if kind == "other-scope" else hooks
            to = self.rng.choice(EVENTS)
            entries = target.setdefault(to, [])
            entries.insert(self.rng.randint(0, len(entries)), group)
        elif kind == "handler-into-theirs":
            event, i = pick()
            handler = copy.deepcopy(hooks[event][i]["hooks"][0])
            theirs = [(e, j) for e, gs in hooks.items() for j, g in enumerate(gs) if _owner(g) is None]
            if not theirs:
                return "nothing"
            e, j = self.rng.choice(theirs)
            hooks[e][j]["hooks"].insert(self.rng.randint(0, len(hooks[e][j]["hooks"])), handler)
        elif kind == "copy-into-other-bundle":
            event, i = pick()
            handler = copy.deepcopy(hooks[event][i]["hooks"][0])
            others = [(e, j) for e, gs in hooks.items() for j, g in enumerate(gs) if (_owner(g) or ("",))[0] == "other"]
            if not others:
                return "nothing"
            e, j = others[0]
            hooks[e][j]["hooks"].append(handler)
        elif kind == "add-to-ours":
            event, i = pick()
            handlers = hooks[event][i]["hooks"]
            handlers.insert(self.rng.randint(0, len(handlers)), {"type": "command", "command": f"echo operator {self.n}"})
        elif kind == "edit-ours":
            event, i = pick()
            entry = hooks[event][i]
            (entry if "hooks" not in entry else entry["hooks"][0])["timeout"] = 100 + self.n
        elif kind == "rename":
            old = self.rng.choice(sorted(hooks))
            hooks[f"{old}Renamed{self.n}"] = hooks.pop(old)
        return kind


def _foreign_order(entries: list, skip: set[str]) -> list[str]:
    return [_c(e) for e in entries if _c(e) not in skip]


def _expect_uninstall(before: dict, regs: dict, created: set[str], force: bool) -> dict | None:
    """The file data after uninstall, or None when it must be refused."""
    hooks = before["hooks"]
    ours = _ours(hooks, regs)
    edited = [h for h, (e, i) in ours.items() if _c(hooks[e][i]) != _c(regs[h][1])]
    if edited and not force:
        return None
    after = copy.deepcopy(before)
    for hook_id, (event, i) in sorted(ours.items(), key=lambda kv: -kv[1][1]):
        group = after["hooks"][event][i]
        rest = _strip(group) if hook_id in edited else None
        if rest is None:
            after["hooks"][event].pop(i)
        else:
            after["hooks"][event][i] = rest
    for event in created:
        if after["hooks"].get(event) == []:
            del after["hooks"][event]
    env = after.get("env") if isinstance(after.get("env"), dict) else {}
    if env.get("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") == "20":
        env["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] = "12"
    return after


def _check_install(before: dict, after: dict, regs: dict, installed: bool, force: bool) -> str | None:
    """None when ``after`` is a right result of installing over ``before``, else what is wrong."""
    hooks_b, hooks_a = before["hooks"], after["hooks"]
    ours = _ours(hooks_b, regs) if installed else {}
    rests = []
    for hook_id, (event, i) in ours.items():
        if _c(hooks_b[event][i]) != _c(regs[hook_id][1]):
            rest = _strip(hooks_b[event][i])
            if rest is not None:
                rests.append(_c(rest))
    skip = {_c(v) for _, v in regs.values()} | set(rests)
    for event in set(hooks_b) | set(hooks_a):
        b, a = hooks_b.get(event, []), hooks_a.get(event, [])
        theirs = [e for i, e in enumerate(b) if (event, i) not in ours.values()]
        if _foreign_order(theirs, skip) != _foreign_order(a, skip):
            return f"{event}: the operator's entries changed or moved"
        expected = sorted(_c(e) for i, e in enumerate(b) if (event, i) not in ours.values())
        wanted = [_c(v) for h, (ev, v) in regs.items() if ev == event]
        if not installed:  # an identical entry with our marker is adopted, not doubled
            expected_set = list(expected)
            for w in wanted:
                if w in expected_set:
                    expected_set.remove(w)
            expected = sorted(expected_set)
        expected = sorted(expected + wanted)
        got = sorted(_c(e) for e in a)
        extra = [r for r in rests if r in got]
        for r in extra:
            got.remove(r)
        if got != expected:
            return f"{event}: {len(got)} entries where {len(expected)} were expected"
    return None


def _parse(text: str) -> dict:
    from hookweave.core.formats import jsontext

    return jsontext.parse(text, "settings", comments=True).value


@pytest.mark.attack
@pytest.mark.parametrize("host", sorted(HOSTS))
def test_operator_edits_then_random_commands_keep_every_entry_the_record_does_not_account_for(
    run, write_bundle, project: Path, home: Path, attack_report, monkeypatch, host: str
) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    rng = random.Random(88)
    source, where = HOSTS[host]
    OPERATOR = source.read_text(encoding="utf-8")
    settings = project / where
    settings.parent.mkdir()
    user = home / USER[host]
    user.parent.mkdir()
    other = str(write_bundle(OTHER))
    rounds = attack_size(14, 500)
    cases = failures = refused = 0
    edits: dict[str, int] = {}
    for _ in range(rounds):
        settings.write_text(OPERATOR, encoding="utf-8")
        for p in (settings.with_name(settings.stem + ".hookweave.json"), user):
            p.unlink(missing_ok=True)
        assert run("install", BUNDLE, "--host", host).exit_code == 0
        if rng.random() < 0.5:
            assert run("install", other, "--host", host).exit_code == 0
        data = _parse(settings.read_text(encoding="utf-8"))
        record = json.loads(settings.with_name(settings.stem + ".hookweave.json").read_text(encoding="utf-8"))
        regs = {}
        for h in record["bundles"]["guard"]["hooks"]:
            entry = next(g for g in data["hooks"][h["event"]] if _owner(g) == ("guard", h["id"]))
            regs[h["id"]] = (h["event"], copy.deepcopy(entry))
        created = {p.split("/")[2] for p in record["created"] if p.count("/") == 2}
        installed = True
        operator = Operator(rng, regs)
        for _step in range(rng.randint(1, 4)):
            user_data = _parse(user.read_text(encoding="utf-8")) if user.exists() else {}
            for _ in range(rng.randint(1, 3)):
                kind = operator.edit(data, user_data)
                edits[kind] = edits.get(kind, 0) + 1
            settings.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            if user_data:
                user.write_text(json.dumps(user_data, indent=2) + "\n", encoding="utf-8")
            user_text = user.read_text(encoding="utf-8") if user.exists() else None
            text = settings.read_text(encoding="utf-8")
            op = rng.choice(["install", "install --force", "uninstall", "uninstall --force"])
            args = ["install", BUNDLE] if op.startswith("install") else ["uninstall", "guard"]
            force = op.endswith("--force")
            result = run(*args, "--host", host, *(["--force"] if force else []))
            cases += 1
            try:
                assert result.exit_code in (0, 1), result.output
                assert (user.read_text(encoding="utf-8") if user.exists() else None) == user_text, "another scope written"
                after = _parse(settings.read_text(encoding="utf-8")) if settings.exists() else {}
                if op.startswith("uninstall"):
                    if not installed:
                        assert settings.read_text(encoding="utf-8") == text
                        continue
                    expected = _expect_uninstall(data, regs, created, force)
                    if expected is None:
                        assert result.exit_code == 1, result.output
                        assert settings.read_text(encoding="utf-8") == text
                        refused += 1
                        continue
                    assert result.exit_code == 0, result.output
                    assert json.dumps(after) == json.dumps(expected), f"{op}\nBEFORE {json.dumps(data)}\nAFTER  {json.dumps(after)}\nWANTED {json.dumps(expected)}"
                    installed = False
                else:
                    if result.exit_code == 1:
                        refused += 1
                        assert settings.read_text(encoding="utf-8") == text
                        ours = _ours(data["hooks"], regs) if installed else {}
                        assert force is False, result.output
                        edited = [h for h, (e, i) in ours.items() if _c(data["hooks"][e][i]) != _c(regs[h][1])]
                        unrecorded = not installed and any(_owner(g) and _owner(g)[0] == "guard"
                                                           for gs in data["hooks"].values() for g in gs)
                        assert edited or unrecorded, result.output
                        continue
                    problem = _check_install(data, after, regs, installed, force)
                    assert problem is None, f"{op}: {problem}\nBEFORE {json.dumps(data['hooks'])}\nAFTER {json.dumps(after['hooks'])}\n{installed} {edits}"
                    for key in data:
                        if key not in ("hooks", "env"):
                            assert json.dumps(after[key]) == json.dumps(data[key]), key
                    installed = True
                    rec = json.loads(settings.with_name(settings.stem + ".hookweave.json").read_text(encoding="utf-8"))
                    created = {p.split("/")[2] for p in rec["created"] if p.count("/") == 2}
                data = after
            except AssertionError:
                failures += 1
                raise
    attack_report(f"ownership at the edges ({host})", cases=cases, refused=refused, failures=failures)
    assert failures == 0


# -- issue 8, case 2 on Codex (the other hosts' cases live in their own test files) --------------------

def test_codex_force_install_keeps_a_handler_the_operator_added_to_our_group(run, project: Path) -> None:
    """install --force replaced the whole group, and the operator's handler with it."""
    hooks_json = project / ".codex" / "hooks.json"
    hooks_json.parent.mkdir()
    hooks_json.write_text(HOSTS["codex"][0].read_text(encoding="utf-8"), encoding="utf-8")
    assert run("install", BUNDLE, "--host", "codex").exit_code == 0
    data = _parse(hooks_json.read_text(encoding="utf-8"))
    mine = {"type": "command", "command": "echo operator"}
    ours = next(g for g in data["hooks"]["Stop"] if _owner(g))
    ours["hooks"].append(mine)
    hooks_json.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert run("install", BUNDLE, "--host", "codex").exit_code == 1
    assert run("install", BUNDLE, "--host", "codex", "--force").exit_code == 0
    stop = _parse(hooks_json.read_text(encoding="utf-8"))["hooks"]["Stop"]
    assert stop[1:] == [{"hooks": [mine]}, {"hooks": [{"type": "command", "command": "nightly keepalive-hook # hookweave:guard/keepalive"}]}]
    assert run("uninstall", "guard", "--host", "codex").exit_code == 0
    assert _parse(hooks_json.read_text(encoding="utf-8"))["hooks"]["Stop"][1:] == [{"hooks": [mine]}]
