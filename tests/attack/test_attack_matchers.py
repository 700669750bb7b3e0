"""Attack (issue 21, item 6): no hook is ever written wider than the tools its bundle asked for.

Hosts: every host of the registry, and beside each one a plugin made from it that lacks one or two
neutral tools (left out, or mapped to ``None``, ``""`` or ``"|"``), so every shape's renderer meets a
tool it does not have: nested groups, flat entries, Codex's regexes, Copilot, Antigravity's ``"*"``,
Windsurf's event per tool, Cline's dispatchers, and the chains of the hosts the runner knows.

Bundles: hooks on ``pre_tool_use`` and ``post_tool_use`` with every non-empty set of neutral tools
(one install per host), then random bundles: random tool sets, no matcher now and then, the hook's
``hosts`` naming the host, a ``[hooks.host.<host>]`` matcher of neutral tools or a native string,
alone or chained. Each installs through the CLI into a fresh project.

Invariants, from the files as written (the dispatcher for Cline; the event's tool for Windsurf;
each member and the registration for a chain): what an entry can match, read as widely as any host
reads it (an unanchored regex in any case; no matcher, ``""`` or ``"*"``: every tool), is exactly
the host's names of the asked tools the host has, never a tool more; a hook none of whose tools the
host has is not written, and the install warns of every hook that lost a tool; a hook whose
``hosts`` or own table names the host and asks for a tool it lacks is refused (exit 2) with nothing
written; a native matcher string is written as it is.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from hookweave.core.contract import registry as plugins
from hookweave.core.contract.hookspecs import hookimpl
from hookweave.core.model import names
from hookweave.core.plan import chain
from hookweave.core.standalone.protocol import HOSTS as CHAINABLE
from hookweave.hosts.cline import ClineHost
from hookweave.hosts.windsurf import WindsurfHost
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
CASES = attack_size(30, 2000)
TOOLS = tuple(names.TOOLS)
SUBSETS = [s for n in range(1, len(TOOLS) + 1) for s in itertools.combinations(TOOLS, n)]
EVENTS = ("pre_tool_use", "post_tool_use")
NATIVE = "Zz_native"  # a host-native matcher string, to be written as it is


def sparse_variants() -> tuple[list[type], dict[str, str]]:
    """A plugin class per registered host, lacking one or two tools; and each one's host of origin."""
    base = plugins.HostRegistry()
    made, origin = [], {}
    for i, name in enumerate(base.names()):
        cls = base.info(name).cls
        drop = [TOOLS[i % len(TOOLS)]] + ([TOOLS[(i + 1) % len(TOOLS)]] if i % 3 == 0 else [])
        tools = {tool: native for tool, native in cls.tools.items() if tool not in drop}
        for tool in drop:  # how a plugin says it lacks a tool, or gets its name wrong: left out, None, "" or "|"
            if i % 4:
                tools[tool] = (None, "", "|")[i % 4 - 1]
        made.append(type(f"Sparse{cls.__name__}", (cls,), {"name": f"{name}-sparse", "tools": tools,
                                                           "title": f"{cls.title} (sparse)"}))
        origin[f"{name}-sparse"] = name
    return made, origin


@pytest.fixture
def hosts(monkeypatch) -> dict[str, str]:
    """Register the sparse plugins beside the built-in hosts; every registered host's origin."""
    made, origin = sparse_variants()

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            for cls in made:
                register(cls)

    def with_sparse():
        pm = plugins.get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="sparse-hosts")
        return plugins.HostRegistry(pm)

    monkeypatch.setattr(plugins, "registry", with_sparse)
    # Each variant names its host's own files, which a real plugin may never do (issue 33 item 7);
    # here each install has a fresh project of its own, so the two never meet in one file.
    monkeypatch.setattr(plugins.HostRegistry, "_check_claims", lambda self: None)
    return {name: origin.get(name, name) for name in plugins.registry().names()}


def manifest(hooks: list[dict], chained: bool) -> str:
    text = '[bundle]\nname = "mx"\nversion = "1.0.0"\n' + ('order = "chain"\n' if chained else "")
    for h in hooks:
        text += f'[[hooks]]\nid = "{h["id"]}"\nevent = "{h["event"]}"\ncommand = "run-{h["id"]}"\n'
        if h["matcher"] is not None:
            text += f"matcher = {json.dumps(list(h['matcher']))}\n"
        if h["hosts"]:
            text += f'hosts = ["{h["host"]}"]\n'
        if h["own"] is not None:
            own = h["own"] if isinstance(h["own"], str) else list(h["own"])
            text += f'[hooks.host."{h["host"]}"]\nmatcher = {json.dumps(own)}\n'
    return text


def natives(host, tool: str) -> tuple[str, ...]:
    """The host's names for a neutral tool, read from its table here (not by the code under test)."""
    native = host.tools.get(tool)
    return tuple(n for n in native.split("|") if n) if isinstance(native, str) else ()


def can_match(matcher, universe: set[str]) -> set[str]:
    """The host's tools an entry's matcher takes, read as widely as any host reads one."""
    if not isinstance(matcher, str) or matcher in ("", "*"):
        return set(universe)
    try:
        return {tool for tool in universe if re.search(matcher, tool, re.IGNORECASE)}
    except re.error:
        return set(universe)


def expected(host, hook: dict) -> tuple[str, set[str] | None]:
    """``("refused" | "skipped" | "written", the host names the entry must match)``."""
    asked = hook["own"] if hook["own"] is not None else hook["matcher"]
    if isinstance(asked, str):  # Windsurf has no matchers: it cannot tell which event a string means
        return ("refused" if hook["hosts"] else "skipped", set()) if isinstance(host, WindsurfHost) else ("written", None)
    explicit = hook["hosts"] or hook["own"] is not None
    kept = [t for t in asked if natives(host, t)] if asked is not None else None
    if asked is not None and len(kept) < len(asked) and explicit:
        return "refused", None
    if kept == []:
        return "skipped", set()
    if host.name.startswith("openharness") and kept is not None and len({n for t in kept for n in natives(host, t)}) > 1:
        return ("refused" if hook["hosts"] else "skipped"), set()  # its globs name one tool
    if isinstance(host, WindsurfHost):
        stems = {host.tools[t] for t in kept} if kept is not None else set()
        if len(stems) != 1:
            return ("refused" if hook["hosts"] else "skipped"), set()
        return "written", stems
    if kept is None:
        return "written", None  # every tool, as asked
    return "written", {n for t in kept for n in natives(host, t)}


def written(host, project: Path) -> list[tuple[str, str, object]]:
    """Every entry of ours as the host will run it: ``(hook id, native event, matcher)``; a chain
    gives one row per member, its matcher the registration's and the member's."""
    settings = host.settings_path("project" if "project" in host.scopes else host.scopes[0], project)
    if isinstance(host, ClineHost):
        from hookweave.hosts.cline import dispatcher as cline_dispatcher

        events = {e: cline_dispatcher.read(e, p.read_text())["hooks"][e]
                  for e, p in host.dispatcher_paths(settings).items() if p.exists()}
    elif settings.exists():
        doc = host.parse(settings.read_text(encoding="utf-8"), str(settings))
        events = doc.get(host.hooks_key, {})
    else:
        events = {}
    rows = []
    for event, entries in events.items():
        for entry in entries:
            owner = host.owner(entry)
            assert owner is not None and owner[0] == "mx", (host.name, entry)
            matcher = entry.get("matcher")
            handler = host.handler_of(entry) or entry
            command = handler.get("command") or handler.get("bash")
            read = chain.members_of(command) if owner[1].startswith(chain.PREFIX) else None
            if read is None:
                rows.append((owner[1], event, matcher))
                continue
            rows += [(member.id, event, (matcher, member.matcher)) for member in read[2]]
    return rows


def run_case(run, host, universe: set[str], project: Path, hooks: list[dict], chained: bool, tally: dict,
             failures: list[str]) -> None:
    project.mkdir(parents=True)
    bundle = project.parent / "bundle"
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text(manifest(hooks, chained), encoding="utf-8")
    wants = {h["id"]: expected(host, h) for h in hooks}
    result = run("install", str(bundle), "--host", host.name, "--project", str(project))
    where = f"{host.name} ({'chained' if chained else 'alone'}, {project.parent.name})"
    if any(kind == "refused" for kind, _ in wants.values()) or all(kind == "skipped" for kind, _ in wants.values()):
        # (a bundle with nothing left for the host is refused too: a mistake that would install silently)
        tally["refused"] += 1
        if (result.exit_code, result.stdout, result.stderr.count("\n")) != (2, "", 1) or any(project.iterdir()):
            failures.append(f"not refused: {where}: exit {result.exit_code} {result.output!r}")
        return
    if result.exit_code != 0:
        failures.append(f"failed: {where}: exit {result.exit_code}: {result.output!r}")
        return
    rows = written(host, project)
    seen: dict[str, list] = {}
    for hook_id, event, matcher in rows:
        seen.setdefault(hook_id, []).append((event, matcher))
    for h in hooks:
        kind, allowed = wants[h["id"]]
        got = seen.get(h["id"], [])
        asked = h["own"] if h["own"] is not None else h["matcher"]
        lost = asked is not None and not isinstance(asked, str) and any(not natives(host, t) for t in asked)
        if lost and f"  warning: mx/{h['id']}: " not in result.stdout:
            failures.append(f"no warning: {where}: {h['id']} lost a tool silently")
        if kind == "skipped":
            tally["skipped"] += 1
            if got:
                failures.append(f"wider: {where}: {h['id']} should be skipped, written as {got}")
            continue
        tally["narrowed"] += lost
        if len(got) != 1:
            failures.append(f"dropped: {where}: {h['id']} written {len(got)} times: {got}")
            continue
        tally["entries"] += 1
        event, matcher = got[0]
        if isinstance(asked, str):  # a native matcher string: as written, alone or as a chain member
            if (matcher[1] if isinstance(matcher, tuple) else matcher) != asked:
                failures.append(f"native changed: {where}: {h['id']}'s {asked!r} written as {matcher!r}")
            continue
        if isinstance(host, WindsurfHost):  # the event names the tool; a chain member may repeat it
            stem = event.split("_", 1)[1]
            registration, own = matcher if isinstance(matcher, tuple) else (matcher, None)
            fits = registration is None and (not own or stem in can_match(own, universe))
            takes = {stem} & universe if fits else {"matcher!"}
        elif isinstance(matcher, tuple):  # a chain member: the registration's matcher and its own
            takes = can_match(matcher[0], universe) & can_match(matcher[1], universe)
        else:
            takes = can_match(matcher, universe)
        want = universe if allowed is None else allowed
        if takes != want:
            kind = "wider" if takes - want else "narrower"
            failures.append(f"{kind}: {where}: {h['id']} ({event}) can match {sorted(takes)}, asked for {sorted(want)}")


def random_hooks(r: random.Random, host_name: str) -> list[dict]:
    hooks = []
    for i in range(r.randint(1, 6)):
        matcher = None if r.random() < 0.1 else r.choice(SUBSETS)
        own = None
        roll = r.random()
        if roll < 0.15:
            own = r.choice(SUBSETS)
        elif roll < 0.22:
            own = NATIVE
        hooks.append({"id": f"h{i}", "event": r.choice(EVENTS), "matcher": matcher, "own": own,
                      "hosts": r.random() < 0.2, "host": host_name})
    return hooks


def test_no_hook_is_written_wider_than_its_tools(run, tmp_path: Path, hosts: dict[str, str], attack_report) -> None:
    registry = plugins.registry()
    universes = {name: {n for t in TOOLS for n in natives(registry.get(origin), t)} for name, origin in hosts.items()}
    tally = {"installs": 0, "entries": 0, "skipped": 0, "narrowed": 0, "refused": 0}
    failures: list[str] = []
    plan: list[tuple[str, list[dict], bool]] = []
    for name in hosts:  # every host, every set of tools, on both tool events
        sweep = [{"id": f"s{i}", "event": EVENTS[i % 2], "matcher": tools, "own": None, "hosts": False, "host": name}
                 for i, tools in enumerate(SUBSETS * 2)] + [
            {"id": "any", "event": "pre_tool_use", "matcher": None, "own": None, "hosts": False, "host": name}]
        plan.append((name, sweep, False))
        if name in CHAINABLE:
            plan.append((name, sweep, True))
    r = random.Random("matchers")
    for _ in range(CASES):
        name = r.choice(sorted(hosts))
        plan.append((name, random_hooks(r, name), name in CHAINABLE and r.random() < 0.3))
    for n, (name, hooks, chained) in enumerate(plan):
        host = registry.get(name)
        run_case(run, host, universes[name], tmp_path / f"case{n}" / "project", hooks, chained, tally, failures)
        tally["installs"] += 1
    attack_report("matchers never wider", cases=len(plan), hosts=len(hosts), tool_sets=len(SUBSETS),
                  failures=len(failures), **tally)
    kinds: dict[str, int] = {}
    for failure in failures:
        kinds[failure.split(":")[0]] = kinds.get(failure.split(":")[0], 0) + 1
    assert failures == [], f"{len(failures)} failures {kinds}, the first:\n" + "\n".join(failures[:8])
