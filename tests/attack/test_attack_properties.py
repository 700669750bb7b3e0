"""Property-based attack on every host format: random operator files, bundles and edits.

Drives the same pure planner the CLI uses (plan_install / plan_uninstall), so thousands of cases
run in minutes. Invariants, per case:
- every text written parses in the host's own format;
- foreign entries and their order survive install;
- a second identical install writes no byte;
- install then uninstall with nothing in between gives back the exact bytes;
- after operator edits, uninstall removes all of ours (or refuses, for an edited entry of ours,
  without changing a byte) and keeps every foreign entry and edit.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookweave.core.errors import BadInput
from hookweave.core.formats.patch import canonical
from hookweave.core.model.bundle import Bundle, BundleHook, EnvVar
from hookweave.core.plan.plan import Target, plan_install, plan_uninstall
from hookweave.hosts.claude import ClaudeCodeHost
from hookweave.hosts.codex import CodexHost
from hookweave.hosts.cursor import CursorHost
from hookweave.hosts.gemini import GeminiHost

pytestmark = pytest.mark.attack
FORMATS = {  # name: (host, settings file name, comments allowed)
    "claude": (ClaudeCodeHost(), "settings.json", False),
    "gemini": (GeminiHost(), "settings.json", True),
    "cursor": (CursorHost(), "hooks.json", False),
    "codex-json": (CodexHost(), "hooks.json", False),
    "codex-toml": (CodexHost(), "config.toml", True),
}
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
WORD = st.text("abcxyz-_é☕ '\"$;\\/", min_size=1, max_size=8)


# -- operator documents ----------------------------------------------------------------------------

def foreign_entry(host, r: random.Random) -> dict:
    command = "op-" + "".join(r.choice("abc é☕'\"$;#/") for _ in range(r.randint(1, 12)))
    handler = {"type": "command", "command": command.rstrip("\\")}
    if r.random() < 0.4:
        handler["timeout"] = r.randint(1, 900)
    if isinstance(host, CursorHost):
        return {k: v for k, v in handler.items() if k != "type"} | ({"matcher": "Shell"} if r.random() < 0.3 else {})
    group = {"hooks": [handler]}
    if r.random() < 0.4:
        group = {"matcher": r.choice(["Bash", "^Bash$", "write_file|replace", "*"])} | group
    return group


def operator_data(host, r: random.Random, fmt: str) -> dict:
    data: dict = {}
    if fmt == "codex-json":  # Codex rejects any other root key in hooks.json
        data = {"description": "team ☕"} if r.random() < 0.5 else {}
    for _ in range(r.randint(0, 4) if fmt != "codex-json" else 0):
        data[r.choice(["model", "theme", "café", "ui", "x-y", "permissions"])] = r.choice(
            ["opus", "grüß ☕", 3, 2.5, True, None, [1, "two"], {"nested": {"deep": "é"}}])
    if isinstance(host, ClaudeCodeHost) and r.random() < 0.6:
        data["env"] = {"OP_VAR": "1"} | ({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": str(r.choice([0, 5, 50]))} if r.random() < 0.5 else {})
    if isinstance(host, CursorHost) and r.random() < 0.7:
        data = {"version": 1} | data
    if r.random() < 0.85:
        natives = sorted(e for e in host.events.values() if e)
        data["hooks"] = {event: [foreign_entry(host, r) for _ in range(r.randint(0, 3))]
                         for event in r.sample(natives, r.randint(1, min(4, len(natives))))}
    return data


def render_json(value, r: random.Random, style: dict, depth: int = 0) -> str:
    if isinstance(value, (dict, list)):
        items = list(value.items()) if isinstance(value, dict) else list(value)
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if not items:
            return opening + r.choice(["", " "]) + closing
        def one(item) -> str:
            if isinstance(value, dict):
                return json.dumps(item[0], ensure_ascii=style["ascii"]) + style["sep"] + render_json(item[1], r, style, depth + 1)
            return render_json(item, r, style, depth + 1)
        if r.random() < 0.25:
            return opening + style["item_sep"].join(one(i) for i in items) + closing
        nl, pad = style["nl"], style["unit"] * (depth + 1)
        lines = []
        for i, item in enumerate(items):
            comment = pad + r.choice(["// note é", "/* block ☕ */"]) + nl if style["comments"] and r.random() < 0.2 else ""
            trail = " // after" if style["comments"] and r.random() < 0.15 else ""
            comma = "," if i < len(items) - 1 else ""
            lines.append(comment + pad + one(item) + comma + trail)
        return opening + nl + nl.join(lines) + nl + style["unit"] * depth + closing
    return json.dumps(value, ensure_ascii=style["ascii"])


def render(fmt: str, data: dict, r: random.Random) -> str:
    if fmt == "codex-toml":
        import tomlkit

        from hookweave.core.formats.tomlkitedit import to_item

        doc = tomlkit.document()
        doc.add(tomlkit.comment("operator config ☕"))
        for key, value in data.items():
            if key == "hooks":
                continue
            if value is not None and not (isinstance(value, list) and value and isinstance(value[0], list)):
                doc[key] = value
        hooks = {e: gs for e, gs in (data.get("hooks") or {}).items() if gs}
        if hooks:
            doc.add(tomlkit.nl())
            doc.add(tomlkit.comment("my own hooks"))
            doc["hooks"] = to_item(hooks)
        return tomlkit.dumps(doc)
    comments = FORMATS[fmt][2]
    style = {"unit": r.choice(["  ", "    ", "\t", " "]), "sep": r.choice([": ", ":", " : "]),
             "item_sep": r.choice([", ", ","]), "nl": r.choice(["\n", "\n", "\r\n"]),
             "ascii": r.random() < 0.3, "comments": comments and r.random() < 0.7}
    head = ("// operator file" + style["nl"]) if style["comments"] and r.random() < 0.5 else ""
    bom = "\ufeff" if fmt in ("claude", "gemini") and r.random() < 0.1 else ""
    return bom + head + render_json(data, r, style) + (style["nl"] if r.random() < 0.8 else "")


# -- bundles -----------------------------------------------------------------------------------------

@st.composite
def bundles(draw, host) -> Bundle:
    events = [e for e, native in host.events.items() if native]
    count = draw(st.integers(1, 4))
    hooks = []
    for i in range(count):
        argv = st.lists(WORD, min_size=1, max_size=3).map(lambda a: ("tool", *a))
        shell = WORD.map(lambda w: "run " + w.rstrip("\\"))
        hooks.append(BundleHook(
            id=f"h{i}", event=draw(st.sampled_from(events)), command=draw(st.one_of(argv, shell)),
            matcher=draw(st.one_of(st.none(), st.lists(st.sampled_from(["shell", "write", "edit"]), min_size=1,
                                                        max_size=2, unique=True).map(tuple))),
            timeout=draw(st.one_of(st.none(), st.integers(1, 600))),
            position=draw(st.sampled_from(["first", "last"])),
            order=draw(st.sampled_from([None, None, "chain", "alone"]))))
    env = ()
    if draw(st.booleans()):
        env = (EnvVar("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", str(draw(st.integers(1, 99))),
                      draw(st.sampled_from(["if-absent", "override", "at-least"]))),)
    return Bundle(draw(st.sampled_from(["guard", "keep-alive", "zz"])), "1.0.0", "", tuple(hooks), env,
                  Path("/opt/b d/hookweave.toml"), Path("/opt/b d"), draw(st.booleans()),
                  draw(st.sampled_from(["alone", "chain"])))  # chains: one registration per event


# -- the properties ------------------------------------------------------------------------------

def _target(fmt: str) -> Target:
    host, file_name, _ = FORMATS[fmt]
    path = Path("/p/.dir") / file_name
    return Target(host, "project", path, host.record_path(path), f".dir/{file_name}")


def _foreign(host, data) -> dict[str, list]:
    hooks = (data or {}).get("hooks") or {}
    return {e: [x for x in es if not host.owner(x)] for e, es in hooks.items() if isinstance(es, list) and e != "state"}


def _ours(host, data, bundle: str) -> list:
    return [x for es in ((data or {}).get("hooks") or {}).values() if isinstance(es, list) for x in es
            if (host.owner(x) or ("",))[0] == bundle]


@pytest.mark.parametrize("fmt", list(FORMATS))
@given(data=st.data())
def test_install_uninstall_properties(fmt: str, data, attack_report) -> None:
    host, _, _ = FORMATS[fmt]
    r = random.Random(data.draw(st.integers(0, 2**32)))
    operator = operator_data(host, r, fmt)
    text = render(fmt, operator, r)
    target = _target(fmt)
    parsed = host.parse(text, target.shown) if text.strip() else {}
    as_read = canonical(parsed)  # the plans share this data (kept by the text's identity): never changed
    bundle = data.draw(bundles(host))
    try:
        installed = plan_install(target, text, None, bundle, force=False)
    except BadInput:
        return  # a generated document the host could not load (e.g. TOML with mixed arrays)
    new = host.parse(installed.new_text, target.shown)  # 1. what we write parses in the host's format
    new_as_read = canonical(new)
    if fmt != "codex-toml" and text.strip():  # 1b. one pass writes what one operation at a time writes
        one_by_one = text
        for op in installed.ops:
            one_by_one = host.apply(one_by_one, [op], target.shown)
        assert one_by_one == installed.new_text
    assert _foreign(host, new) | {e: [] for e in _foreign(host, parsed) if e not in _foreign(host, new)} == \
        _foreign(host, parsed) | {e: [] for e in _foreign(host, new) if e not in _foreign(host, parsed)}  # 2.
    again = plan_install(target, installed.new_text, installed.new_record, bundle, force=False)
    assert not again.changed  # 3. a second identical install writes no byte
    removed = plan_uninstall(target, installed.new_text, installed.new_record, bundle.name, force=False)
    assert removed.new_text == text  # 4. byte for byte, comments, BOM and CRLF included
    assert removed.new_record is None
    assert canonical(parsed) == as_read and canonical(new) == new_as_read  # 4b. no plan changed the data it read

    edited_text, edit = _operator_edit(fmt, host, installed.new_text, bundle.name, r, target.shown)
    after = plan_uninstall(target, edited_text, installed.new_record, bundle.name, force=False)
    if edit == "edited ours":
        # 5a. refused: the installer writes nothing when a plan is refused (tests/hosts/test_claude_install.py)
        assert [(f.bundle, f.message) for f in after.refused] == [(bundle.name, "was edited since it was installed")]
    else:
        final = host.parse(after.new_text, target.shown) if after.new_text is not None else {}
        assert _ours(host, final, bundle.name) == []  # 5b. all of ours gone
        assert {e: v for e, v in _foreign(host, final).items() if v} == \
            {e: v for e, v in _foreign(host, host.parse(edited_text, target.shown)).items() if v}  # 5c. foreign kept
    attack_report(f"properties ({fmt})", cases=1)


def _operator_edit(fmt: str, host, text: str, bundle: str, r: random.Random, shown: str) -> tuple[str, str]:
    """An edit an operator (or the host) makes between install and uninstall."""
    data = host.parse(text, shown)
    events = [e for e, es in data.get("hooks", {}).items() if isinstance(es, list) and e != "state"]
    choice = r.choice(["nothing", "foreign hook", "setting", "edited ours", "host rewrite"])
    if choice == "host rewrite" and fmt == "claude":  # Claude re-serializes: JSON.stringify(obj, null, 2)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n", choice
    if choice == "foreign hook" and events:
        event = r.choice(events)
        op = {"op": "add", "path": f"/hooks/{event}/{r.randint(0, len(data['hooks'][event]))}",
              "value": foreign_entry(host, r)}
        return host.apply(text, [op], shown), choice
    if choice == "edited ours":
        for event in events:
            for i, entry in enumerate(data["hooks"][event]):
                if (host.owner(entry) or ("",))[0] == bundle:
                    where = f"/hooks/{event}/{i}" + ("/hooks/0/command" if "hooks" in entry else "/command")
                    command = entry["hooks"][0]["command"] if "hooks" in entry else entry["command"]
                    new = re.sub(r" # hookweave:", " --edited # hookweave:", command, count=1)
                    return host.apply(text, [{"op": "replace", "path": where, "value": new}], shown), choice
    if choice == "setting":
        key = "/description" if fmt == "codex-json" else "/zz-operator"
        return host.apply(text, [{"op": "add", "path": key, "value": "added later ☕"}], shown), choice
    return text, "nothing"
