"""Attack on the Windsurf and Antigravity files (documented facts; no binary runs here).

Windsurf: random operator hooks.json files (flat entries with ``command``, ``powershell``,
``show_output``, ``working_directory``; unknown events and top-level keys), random layouts (indents
0, 1, 2, 4, a tab, compact, CRLF), bundles of 1 to 40 hooks over every neutral event and every
matcher, catch-all and mixed tool hooks included. Invariants: the text read back and jsonpatch on
the data agree; ours are exactly the hooks with one Windsurf event (the others are skipped with a
warning), each under the event its tools name, carrying ``command`` only (no timeout or matcher key
the documentation does not name); uninstall gives back the bytes.

Antigravity: random files of named hooks as agy 1.1.25 loads them (grouped and flat events, prompt
hooks with a model, ``enabled``, event names in any case, unknown events and keys, 32-bit timeouts
at both ends), random layouts, bundles with timeouts up to 2**31 - 1. Invariants: every operator
named hook keeps its value and its place; the installed file is one agy loads (never make a valid
file invalid) and has no duplicate key; uninstall gives back the bytes. Then each file is broken by
one of the changes agy is known to drop a whole file for: install must refuse it and write nothing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hookweave.core.errors import BadInput
from hookweave.core.formats import jsontext, patch
from hookweave.core.model.bundle import Bundle, BundleHook
from hookweave.core.plan.plan import Target, plan_install, plan_uninstall
from hookweave.hosts.antigravity import shape as antigravity_shape
from hookweave.hosts.antigravity import AntigravityHost
from hookweave.hosts.windsurf import WindsurfHost
from tests.conftest import attack_size
from tests.attack.test_attack_layout import _only_usual_empties_collapsed
from tests.attack.test_attack_new_hosts import WORDS, render

pytestmark = pytest.mark.attack
CASES = attack_size(150, 2000)
TOOLS = [None, ("shell",), ("write",), ("edit",), ("write", "edit"), ("read",), ("shell", "read"),
         ("shell", "write", "edit", "read")]
WS_STEMS = {"shell": "run_command", "write": "write_code", "edit": "write_code", "read": "read_code"}


def _command(r: random.Random) -> str:
    return " ".join(r.sample(WORDS, r.randint(1, 3)))


def _bundle(host, r: random.Random, timeouts: list) -> Bundle:
    events = [e for e, native in host.events.items() if native]
    hooks = tuple(
        BundleHook(f"h{i}", r.choice(events), r.choice([("tool", f"a{i}", "it's $X", "{project_dir}/a`b"), f"run {i} ☕"]),
                   matcher=r.choice(TOOLS), timeout=r.choice(timeouts), position=r.choice(["first", "last"]))
        for i in range(r.choice([1, 2, 5, 40])))
    return Bundle("guard", "1.0.0", "", hooks, (), Path("/opt/b/hookweave.toml"), Path("/opt/b"), r.random() < 0.3)


# -- Windsurf ----------------------------------------------------------------------------------

def _windsurf_entry(r: random.Random) -> dict:
    entry: dict = {}
    if r.random() < 0.85:
        entry["command"] = _command(r)
    if "command" not in entry or r.random() < 0.3:
        entry["powershell"] = "& " + _command(r)
    if r.random() < 0.4:
        entry["show_output"] = r.random() < 0.5
    if r.random() < 0.2:
        entry["working_directory"] = r.choice(["tools", "ünï/dir", "."])
    return entry


def _windsurf_file(r: random.Random) -> dict:
    host = WindsurfHost()
    natives = sorted(host.native_events)
    hooks = {e: [_windsurf_entry(r) for _ in range(r.choice([0, 1, 2, 4]))] for e in r.sample(natives, r.randint(0, 5))}
    if r.random() < 0.2:
        hooks["pre_future_event"] = {"anything": [1, 2.50]}
    data: dict = {"team": "platform ☕"} if r.random() < 0.4 else {}
    if hooks or r.random() < 0.5:
        data["hooks"] = hooks
    return data


def _windsurf_events(hook: BundleHook) -> str | None:
    """The event the documentation gives a neutral hook, or None where it has no one event."""
    simple = {"user_prompt_submit": "pre_user_prompt", "stop": "post_cascade_response"}
    if hook.event in simple:
        return simple[hook.event]
    if hook.event not in ("pre_tool_use", "post_tool_use"):
        return None
    stems = {WS_STEMS[t] for t in hook.matcher or ()}
    return f"{hook.event.split('_')[0]}_{stems.pop()}" if len(stems) == 1 else None


def test_windsurf_files_round_trip_and_tool_hooks_land_under_their_event(attack_report) -> None:
    host = WindsurfHost()
    path = Path("/p/.windsurf/hooks.json")
    target = Target(host, "project", path, host.record_path(path), ".windsurf/hooks.json")
    skipped = limits = 0
    for seed in range(CASES):
        r = random.Random(f"windsurf-{seed}")
        text = render(_windsurf_file(r), False, r)
        b = _bundle(host, r, [None, 1, 30, 5000])
        installed = plan_install(target, text, None, b, force=False)
        old, new = host.parse(text, target.shown), host.parse(installed.new_text, target.shown)
        assert new == installed.new_doc and patch.check_patch(old, installed.ops, new), seed
        placed = {host.owner(e): event for event, es in new.get("hooks", {}).items() if isinstance(es, list)
                  for e in es if host.owner(e)}
        wanted = {("guard", h.id): _windsurf_events(h) for h in b.hooks}
        assert placed == {k: v for k, v in wanted.items() if v}, seed
        warned = {f.hook for f in installed.findings if f.level == "warning" and "one event per kind of tool" in f.message}
        assert warned == {h.id for h in b.hooks if h.event.endswith("tool_use") and wanted[("guard", h.id)] is None}
        skipped += len(warned)
        for event, entries in new["hooks"].items() if placed else ():
            for entry in entries if isinstance(entries, list) else ():
                assert not host.owner(entry) or list(entry) == ["command"], seed
        removed = plan_uninstall(target, installed.new_text, installed.new_record, "guard", force=False)
        if removed.new_text != text:
            assert _only_usual_empties_collapsed(text, removed.new_text), seed
            limits += 1
    attack_report("windsurf files", cases=CASES, failures=0, skipped_hooks=skipped, known_limit=limits)


# -- Antigravity -------------------------------------------------------------------------------

def _agy_handler(r: random.Random) -> dict:
    if r.random() < 0.15:
        handler = {"type": "prompt", "prompt": r.choice(["Times are UTC.", "naïve ☕"])}
        if r.random() < 0.5:
            handler["model"] = "gemini-3-pro"
        return handler
    handler = {"command": _command(r)} if r.random() < 0.3 else {"type": "command", "command": _command(r)}
    if r.random() < 0.4:
        handler["timeout"] = r.choice([0, -1, 5, 60, 2**31 - 1, -(2**31)])
    if r.random() < 0.1:
        handler["env"] = {"X": "1"}  # discarded by agy, loads
    return handler


def _agy_named_hook(r: random.Random) -> dict:
    hook: dict = {}
    for event in r.sample(["PreToolUse", "posttooluse", "PreInvocation", "PostInvocation", "Stop", "stop",
                           "SessionStart", "SessionEnd"], r.randint(0, 3)):
        if event.lower() in antigravity_shape.GROUPED:
            hook[event] = [{"matcher": r.choice(["run_command", "*", "", "view_file|write_to_file"]),
                            "hooks": [_agy_handler(r) for _ in range(r.randint(0, 2))]} for _ in range(r.randint(0, 2))]
        else:
            hook[event] = [_agy_handler(r) for _ in range(r.randint(0, 2))]
    if r.random() < 0.3:
        hook["enabled"] = r.random() < 0.5
    return hook


def _agy_file(r: random.Random) -> dict:
    names = ["shell-audit", "lint-on-stop", "naïve ☕", "hookweave-old", "HookWeave", "timetable"]
    return {name: _agy_named_hook(r) for name in r.sample(names, r.randint(0, 4))}


BREAKS = [  # one change agy drops the whole file for [3P skillsaw, agy 1.1.25], on a file of one named hook
    lambda h: h.update({"Stop": [{"command": "x", "timeout": 1.5}]}),
    lambda h: h.update({"Stop": [{"command": "x", "timeout": 2**31}]}),
    lambda h: h.update({"Stop": [{"command": "x", "timeout": "5"}]}),
    lambda h: h.update({"Stop": [{"type": "COMMAND", "command": "x"}]}),
    lambda h: h.update({"Stop": [{"type": "command", "command": "x", "model": "m"}]}),
    lambda h: h.update({"PreInvocation": [{"type": "prompt", "prompt": "p", "command": "x"}]}),
    lambda h: h.update({"PreToolUse": [{"matcher": ["run_command"], "hooks": []}]}),
    lambda h: h.update({"PreToolUse": [{"matcher": "*", "hooks": {"command": "x"}}]}),
    lambda h: h.update({"PostToolUse": [{"matcher": "*", "hooks": ["x"]}]}),
    lambda h: h.update({"Stop": {"command": "x"}}),
    lambda h: h.update({"Stop": ["make lint"]}),
    lambda h: h.update({"enabled": "yes"}),
]


def test_antigravity_files_keep_every_named_hook_and_stay_loadable(attack_report) -> None:
    host = AntigravityHost()
    path = Path("/p/.agents/hooks.json")
    target = Target(host, "project", path, host.record_path(path), ".agents/hooks.json")
    limits = refused = 0
    for seed in range(CASES):
        r = random.Random(f"agy-{seed}")
        data = _agy_file(r)
        text = render(data, False, r)
        b = _bundle(host, r, [None, 1, 30, 5000, 2**31 - 1])
        installed = plan_install(target, text, None, b, force=False)
        old, new = host.parse(text, target.shown), host.parse(installed.new_text, target.shown)
        assert new == installed.new_doc and patch.check_patch(old, installed.ops, new), seed
        assert antigravity_shape.problem(new) is None, seed  # agy loads what we wrote
        keys = jsontext.parse(installed.new_text, target.shown).root.keys
        assert len(keys) == len(set(keys)), seed  # Go would keep only the last of a duplicate
        assert [k for k in keys if k != "hookweave"] == list(data) and {k: new[k] for k in data} == data, seed
        owners = sorted(host.owner(e) for es in new.get("hookweave", {}).values() if isinstance(es, list)
                        for e in es if host.owner(e))
        assert owners == sorted(("guard", h.id) for h in b.hooks if host.events.get(h.event)), seed
        removed = plan_uninstall(target, installed.new_text, installed.new_record, "guard", force=False)
        if removed.new_text != text:
            assert _only_usual_empties_collapsed(text, removed.new_text), seed
            limits += 1
        broken = {**data, "broken": {}}
        r.choice(BREAKS)(broken["broken"])
        with pytest.raises(BadInput, match="Antigravity drops this whole file"):
            plan_install(target, render(broken, False, r), None, b, force=False)
        refused += 1
    attack_report("antigravity files", cases=CASES, failures=0, refused_breaks=refused, known_limit=limits)
