"""Attack on layout fidelity: odd but valid JSON / JSONC layouts, and random plans into them.

Files: mixed line ends, tabs, empties written every way (``{ }``, ``[\\t]``, ``{\\n\\n}``), tabs, line
breaks and comments around colons, comments everywhere, trailing blanks, no final newline, deep
nesting, huge strings, escaped keys (``"\\u0068ooks"`` is ``hooks``), duplicate keys. Plans: up to
dozens of hooks over several events, with env. Invariants, per case:
- install then uninstall with nothing between gives back the exact bytes (known limit: an empty
  container we insert into that holds only a line break and its own line's indentation, such as
  ``"Stop": [`` + line break + ``]``, comes back as ``[]``; counted apart, nothing else may differ);
- what install writes parses in the host's format, and equals the planned data (and jsonpatch,
  applying the same operations to the data, agrees);
- every splice we write uses the line end of the lines around it, plain ``": "``-like key
  separators (never a tab, line break or comment copied from an oddity) and, for new lines, the
  indentation unit of the file (the nearest well-formed sibling);
- in a layout without oddities, the plan applied in one pass writes the very text of its
  operations applied one at a time.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from hookweave.core.formats import jsonedit, jsonlayout, patch
from hookweave.core.model.bundle import Bundle, BundleHook, EnvVar
from hookweave.core.plan.plan import Target, plan_install, plan_uninstall
from hookweave.hosts.claude import ClaudeCodeHost
from hookweave.hosts.codex import CodexHost
from hookweave.hosts.cursor import CursorHost
from hookweave.hosts.gemini import GeminiHost
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
FORMATS = {  # name: (host, file name, comments allowed)
    "claude": (ClaudeCodeHost(), "settings.json", False),
    "gemini": (GeminiHost(), "settings.json", True),
    "cursor": (CursorHost(), "hooks.json", False),
    "codex-json": (CodexHost(), "hooks.json", False),
}
CASES = attack_size(300, 2500)
_EMPTY_WITH_BREAK = re.compile(r"([\[{])(\r?\n[ \t]*)([\]}])")


def _only_usual_empties_collapsed(text: str, result: str) -> bool:
    """Whether ``result`` is ``text`` with some ``[\n<its own indent>]`` written ``[]`` (the known
    limit, for the empties we inserted into) and no other difference."""
    at = done = 0
    for m in _EMPTY_WITH_BREAK.finditer(text):
        if m.group(2).lstrip("\r\n") != jsonlayout.indent_of(text, m.start()):
            continue  # a hand-made empty: it must come back as it was
        same = text[done : m.start()]
        if not result.startswith(same, at):
            return False
        at += len(same)
        for shape in (m.group(), m.group(1) + m.group(3)):
            if result.startswith(shape, at):
                at += len(shape)
                break
        else:
            return False
        done = m.end()
    return result[at:] == text[done:]


class Layout:
    """One file's odd but valid layout: a unit, a usual separator, and how often each oddity shows."""

    def __init__(self, r: random.Random, comments: bool) -> None:
        self.r, self.comments = r, comments
        self.unit = r.choice(["  ", "    ", "\t", " "])
        self.sep = r.choice([": ", ":", " : "])
        self.mixed = r.random() < 0.3  # some lines end in CRLF, others in LF
        self.nl_main = r.choice(["\n", "\r\n"])
        self.odd = r.choice([0.0, 0.05, 0.2])  # how often an oddity replaces the usual

    def nl(self) -> str:
        return self.r.choice(["\n", "\r\n"]) if self.mixed and self.r.random() < 0.3 else self.nl_main

    def maybe(self) -> bool:
        return self.r.random() < self.odd

    def key(self, key: str) -> str:
        if self.maybe() and key.isascii() and key:
            i = self.r.randrange(len(key))  # an escaped letter: "\u0068ooks" is the key "hooks"
            return '"' + json.dumps(key[:i])[1:-1] + f"\\u{ord(key[i]):04x}" + json.dumps(key[i + 1 :])[1:-1] + '"'
        return json.dumps(key, ensure_ascii=self.r.random() < 0.3)

    def colon(self, indent: str) -> str:
        if not self.maybe():
            return self.sep
        odd = [":\t", "\t:\t", ":" + self.nl() + indent + self.unit, " :" + self.nl() + indent]
        if self.comments:
            odd += [" /* k */ : ", ": /* v */ ", ": // v" + self.nl() + indent + self.unit]
        return self.r.choice(odd)

    def empty(self, opening: str, closing: str, indent: str, flat: bool) -> str:
        shapes = ["", " ", "\t"] + ([] if flat else [self.nl() + indent, self.nl() * 2 + indent, " " + self.nl() + " "])
        if self.comments and not flat:
            shapes += [" /* none */ ", self.nl() + indent + self.unit + "// none" + self.nl() + indent]
        return opening + (self.r.choice(shapes) if self.maybe() or self.r.random() < 0.4 else "") + closing

    def trail(self) -> str:
        blank = self.r.choice([" ", "\t", "  "]) if self.maybe() else ""
        return blank + (self.r.choice([" // after", " /* after */"]) if self.comments and self.maybe() else "")

    def above(self, pad: str) -> str:
        return pad + self.r.choice(["// note é", "/* block ☕ */"]) + self.nl() if self.comments and self.maybe() else ""


def render(value, lay: Layout, indent: str = "", flat: bool = False) -> str:
    """``value`` as text in ``lay``; ``flat``: on one line (inside a one-line container of a file
    without oddities; with them, a one-line container may hold many-line ones)."""
    r = lay.r
    if not isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=r.random() < 0.2)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
    if isinstance(value, dict) and "__dup__" in value:  # a duplicated key: JSON.parse keeps the last
        items = [(k, v) for k, v in items if k != "__dup__"]
        items.insert(0, (value["__dup__"][0], value["__dup__"][1]))
    if not items:
        return lay.empty(opening, closing, indent, flat)
    pad = indent + lay.unit

    def member(key, item, flat: bool = False) -> str:
        head = "" if key is None else lay.key(key) + lay.colon(pad)
        return head + render(item, lay, pad, flat)

    if flat or r.random() < 0.2:
        flat = lay.odd == 0 or r.random() < 0.5
        return opening + r.choice([", ", ",", ",\t"]).join(member(k, v, flat) for k, v in items) + closing
    out = opening + lay.trail()
    for i, (key, item) in enumerate(items):
        hand = " " if lay.maybe() and i else ""  # an entry indented by hand
        out += lay.nl() + lay.above(pad) + pad + hand + member(key, item)
        out += ("," if i < len(items) - 1 else "") + lay.trail()
    return out + lay.nl() + indent + closing


def foreign(host, r: random.Random) -> dict:
    handler = {"type": "command", "command": "op-" + "".join(r.choice("abé☕'\"$;#/\\") for _ in range(r.randint(1, 9)))}
    if isinstance(host, CursorHost):
        return {"command": handler["command"]}
    return {"matcher": r.choice(["Bash", "*"]), "hooks": [handler]} if r.random() < 0.5 else {"hooks": [handler]}


def operator_file(fmt: str, host, r: random.Random) -> dict:
    data: dict = {}
    if fmt != "codex-json":
        for key in r.sample(["model", "théme", "ui", "permissions", "x/y~z"], r.randint(0, 3)):
            data[key] = r.choice(["opus", 3, None, [], {}, {"a": [1, {"b": {}}]}, "é" * r.choice([3, 20_000])])
        if r.random() < 0.2:
            deep: object = "bottom"
            for _ in range(r.randint(20, 120)):
                deep = [deep] if r.random() < 0.5 else {"d": deep}
            data["deep"] = deep
    if isinstance(host, ClaudeCodeHost) and r.random() < 0.5:
        data["env"] = {"OP_VAR": "1"} if r.random() < 0.7 else {}
    if isinstance(host, CursorHost) and r.random() < 0.7:
        data = {"version": 1} | data
    if r.random() < 0.85:
        natives = sorted(e for e in host.events.values() if e)
        data["hooks"] = {e: [foreign(host, r) for _ in range(r.choice([0, 0, 1, 3]))]
                         for e in r.sample(natives, r.randint(1, min(4, len(natives))))}
    shadowed = [k for k in ("model", "hooks", "env") if k in data]
    if fmt != "codex-json" and shadowed and r.random() < 0.2:  # a first copy that JSON.parse drops
        data["__dup__"] = (r.choice(shadowed), "first copy, shadowed")
    return data


def bundle(host, r: random.Random) -> Bundle:
    events = r.sample([e for e, native in host.events.items() if native], r.randint(1, 3))
    hooks = tuple(BundleHook(f"h{i}", r.choice(events), ("tool", f"a{i}", "é ☕"), position=r.choice(["first", "last"]),
                             timeout=r.choice([None, 30])) for i in range(r.choice([1, 2, 5, 20, 60])))
    env = (EnvVar("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", str(r.randint(1, 99)), r.choice(["if-absent", "override"])),) \
        if r.random() < 0.5 else ()
    return Bundle("guard", "1.0.0", "", hooks, env, Path("/opt/b/hookweave.toml"), Path("/opt/b"), False)


def check_splices(text: str, splices: list, unit: str | None) -> int:
    """Each splice's new text: the line end around it, plain separators, the file's indent unit."""
    for start, _, new in splices:
        nl = jsonlayout.line_break_at(text, start)
        assert new.count("\n") == new.count(nl), (nl, new)  # every break is the local one
        for key_sep in re.findall(r'"(?:[^"\\]|\\.)*"(\s*:\s*)', new):
            assert re.fullmatch(r" *: *", key_sep), repr(key_sep)
        indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in new.split(nl)[1:] if line.strip()]
        if unit and len(indents) > 1:
            base = min(indents, key=len)
            assert all(i.startswith(base) and i[len(base):] == unit * (len(i[len(base):]) // len(unit)) for i in indents)
    return len(splices)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_layout_fidelity(fmt: str, attack_report, monkeypatch) -> None:
    host, file_name, comments = FORMATS[fmt]
    path = Path("/p/.dir") / file_name
    target = Target(host, "project", path, host.record_path(path), f".dir/{file_name}")
    recorded: list = []
    real_splice_all = jsonedit._splice_all
    monkeypatch.setattr(jsonedit, "_splice_all", lambda t, s: (recorded.append((t, s)), real_splice_all(t, s))[1])
    splices = limits = 0
    for seed in range(CASES):
        r = random.Random(f"{fmt}-{seed}")
        lay = Layout(r, comments)
        text = render(operator_file(fmt, host, r), lay) + (lay.nl() if r.random() < 0.7 else "")
        b = bundle(host, r)
        recorded.clear()
        installed = plan_install(target, text, None, b, force=False)
        new = host.parse(installed.new_text, target.shown)
        old = host.parse(text, target.shown)
        assert patch.check_patch(old, installed.ops, new)
        for before, spliced in recorded:
            shown = re.search(r"\n" + re.escape(lay.unit) + r'["{\[]', text)  # an all-inline file shows none
            splices += check_splices(before, spliced, lay.unit if lay.odd == 0 and not lay.mixed and shown else None)
        if lay.odd == 0 and not lay.mixed:  # (with oddities, one pass styles every entry from the
            one_by_one = text                 # operator's siblings, one at a time also from ours)
            for op in installed.ops:
                one_by_one = host.apply(one_by_one, [op], target.shown)
            assert one_by_one == installed.new_text, seed
        removed = plan_uninstall(target, installed.new_text, installed.new_record, "guard", force=False)
        if removed.new_text != text:  # the known limit, and only it
            assert _only_usual_empties_collapsed(text, removed.new_text), seed
            limits += 1
    attack_report(f"layout fidelity ({fmt})", cases=CASES, splices=splices, known_limit=limits, failures=0)
