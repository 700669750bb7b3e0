"""Attack on the new hosts' files: Copilot's own hooks file, Qwen's commented settings and
Factory's bare hooks.json (events at the top level, read through the plugin's lift) and its
settings.json, each full of the operator's entries in the host's own dialect.

Files: random operator entries on random native events (non-ASCII, quotes, operator fields the
host knows, unknown events and keys), written with indents of 0, 1, 2, 4 or a tab, compact or
not, CRLF line ends, comments between members where the format allows them. Bundles: 1 to 40
hooks over every event the host has, first or last, timeouts from 1 s to 5000 s, matchers of
every neutral tool, argv words with quotes, ``$`` and backticks. Invariants, per case:
- install writes what the plan says (the text read back, and jsonpatch on the data, agree);
- every entry we wrote is ours by ``owner`` and nothing of the operator's is;
- the dialect holds: Copilot entries carry ``bash`` and ``powershell`` ending in the same marker;
  Qwen timeouts are seconds below 1000 and milliseconds from 1000 s (what Qwen 0.24.4 reads);
  Factory's hooks.json never gains a ``"hooks"`` key (Droid would ignore the whole file);
- uninstall gives back the exact bytes (the layout attack's one known limit aside: an empty
  container holding only a line break comes back as ``[]``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hookweave.core.formats import patch
from hookweave.core.model.bundle import Bundle, BundleHook
from hookweave.core.plan.plan import Target, plan_install, plan_uninstall
from hookweave.hosts.copilot import CopilotHost
from hookweave.hosts.factory import FactoryHost
from hookweave.hosts.qwen import QwenHost
from tests.conftest import attack_size
from tests.attack.test_attack_layout import _only_usual_empties_collapsed

pytestmark = pytest.mark.attack
CASES = attack_size(120, 1500)
FILES = {  # name: (host, file name, comments allowed, events at the top level)
    "copilot": (CopilotHost(), "hookweave.json", False, False),
    "qwen": (QwenHost(), "settings.json", True, False),
    "factory-hooks": (FactoryHost(), "hooks.json", False, True),
    "factory-settings": (FactoryHost(), "settings.json", False, False),
}
WORDS = ["audit.sh", "naïve ☕", "it's", '"quoted"', "$HOME/x", "a`b", "C:\\tools\\x.exe", "--flag=1"]


def foreign(host, r: random.Random) -> dict:
    command = " ".join(r.sample(WORDS, r.randint(1, 3)))
    if isinstance(host, CopilotHost):
        entry = {"type": "command", "bash": command}
        if r.random() < 0.5:
            entry["powershell"] = command
        if r.random() < 0.4:
            entry["matcher"] = r.choice(["bash", "edit|create", "view"])
        if r.random() < 0.3:
            entry["timeoutSec"] = r.randint(1, 90)
        return entry
    handler = {"type": "command", "command": command}
    if r.random() < 0.4:
        handler["timeout"] = r.choice([5, 60, 60000])
    if isinstance(host, QwenHost) and r.random() < 0.4:
        handler["name"] = r.choice(["audit", "fmt", "日志"])
    group = {"hooks": [handler] * r.randint(1, 2)}
    if r.random() < 0.5:
        group = {"matcher": r.choice(["Execute", "write_file|edit", ".*"]), **group}
    if isinstance(host, QwenHost) and r.random() < 0.3:
        group["sequential"] = True
    return group


def operator_data(fmt: str, r: random.Random) -> dict:
    host, _, _, bare = FILES[fmt]
    natives = sorted(e for e in host.native_events)
    hooks = {e: [foreign(host, r) for _ in range(r.choice([0, 1, 2, 4]))] for e in r.sample(natives, r.randint(0, 4))}
    if r.random() < 0.2:
        hooks["SomeFutureEvent"] = [{"anything": True}]
    if bare:
        return hooks
    data: dict = {}
    if r.random() < 0.6:
        data["model"] = r.choice(["qwen3-coder", "claude-sonnet", "ünïcode"])
    if fmt == "copilot":
        data["version"] = 1
    if hooks or r.random() < 0.5:
        data["hooks"] = hooks
    if fmt == "qwen" and r.random() < 0.4:
        data.setdefault("hooks", {})["disabled"] = ["audit"]
    if r.random() < 0.5:
        data["ui"] = {"theme": "dark", "greeting": "¡hola ☕!"}
    return data


def render(data: dict, comments: bool, r: random.Random) -> str:
    indent = r.choice([None, 0, 1, 2, 4, "\t"])
    text = json.dumps(data, indent=indent, ensure_ascii=r.random() < 0.3) + ("\n" if r.random() < 0.8 else "")
    if comments and indent not in (None, 0):
        lines = text.split("\n")
        for _ in range(r.randint(1, 4) if len(lines) > 1 else 0):  # "{}" on one line has no place for one
            at = r.randrange(1, len(lines))  # a comment on a line of its own, after a line that opens or ends a member
            if lines[at - 1].rstrip().endswith(("{", "[", ",")):
                lines.insert(at, "  // the operator's note: keep ☕")
        text = "\n".join(lines)
    if r.random() < 0.2:
        text = text.replace("\n", "\r\n")
    return text


def bundle(host, r: random.Random) -> Bundle:
    events = [e for e, native in host.events.items() if native]
    tools = [None, ("shell",), ("write", "edit"), ("read",), ("shell", "write", "edit", "read")]
    hooks = tuple(
        BundleHook(f"h{i}", r.choice(events), r.choice([("tool", f"a{i}", "it's $X", "{project_dir}/a`b"), f"run {i} ☕"]),
                   matcher=r.choice(tools), timeout=r.choice([None, 1, 30, 999, 1000, 5000]),
                   position=r.choice(["first", "last"]))
        for i in range(r.choice([1, 2, 5, 40])))
    return Bundle("guard", "1.0.0", "", hooks, (), Path("/opt/b/hookweave.toml"), Path("/opt/b"), r.random() < 0.3)


def dialect_holds(fmt: str, data: dict) -> None:
    host = FILES[fmt][0]
    for event, entries in data.get("hooks", {}).items():
        for entry in entries if isinstance(entries, list) else []:
            if not host.owner(entry):
                continue
            if fmt == "copilot":
                assert entry["bash"].rsplit(" # ", 1)[1] == entry["powershell"].rsplit(" # ", 1)[1]
            if fmt == "qwen":
                timeout = entry["hooks"][0].get("timeout")
                assert timeout is None or timeout < 1000 or (timeout >= 1_000_000 and timeout % 1000 == 0)


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_new_host_files_round_trip_under_hostile_layouts_and_plans(fmt: str, attack_report) -> None:
    host, name, comments, bare = FILES[fmt]
    path = Path("/p/.dir") / name
    target = Target(host, "project", path, host.record_path(path), f".dir/{name}")
    limits = 0
    for seed in range(CASES):
        r = random.Random(f"{fmt}-{seed}")
        text = render(operator_data(fmt, r), comments, r)
        b = bundle(host, r)
        installed = plan_install(target, text, None, b, force=False)
        old, new = host.parse(text, target.shown), host.parse(installed.new_text, target.shown)
        assert new == installed.new_doc and patch.check_patch(old, installed.ops, new), seed
        owners = sorted(host.owner(e) for es in new.get("hooks", {}).values() if isinstance(es, list)
                        for e in es if host.owner(e))
        wanted = sorted(("guard", h.id) for h in b.hooks)
        assert owners == wanted, seed
        dialect_holds(fmt, new)
        if bare:
            assert "hooks" not in json.loads(installed.new_text), seed
        removed = plan_uninstall(target, installed.new_text, installed.new_record, "guard", force=False)
        if removed.new_text != text:
            assert _only_usual_empties_collapsed(text, removed.new_text), seed
            limits += 1
    attack_report(f"new host files ({fmt})", cases=CASES, failures=0, known_limit=limits)
