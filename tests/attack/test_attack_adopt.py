"""Attack, issue 11 item 5: ``hooks adopt`` on generated settings files of four hosts.

Each case is a settings file written with its own whitespace (one line, tabs, spaces around every
token), Gemini comments between tokens, foreign top-level keys, events the host does not know,
another bundle's marked entries, and hand-written hooks of several events with odd commands
(here-documents, trailing blanks, quotes, ``#``, unicode), native matchers (``""``, regexes), timeouts
(whole, fractional, Gemini milliseconds) and extra keys (``statusMessage``, ``async``, ``if``, nested
values). The file is written twice from one seed: as is, and with the marker each adopted command
should gain. Invariants:

- adopt: the settings file equals the marked rendering exactly (every other byte the same);
- install of the written manifest writes no byte; verify lists every adopted hook ``ok`` in order;
- ``adopt --undo``: the original bytes, and no record left;
- adopt, then ``uninstall``: the data is the original without the adopted entries; then install
  of the written manifest and ``--undo``: the original data again;
- one unadoptable entry anywhere (a group of two holding a prompt hook, null, ``{bundle_dir}``, a control character, a
  prompt hook, a trailing backslash): exit 2, one line, no byte written anywhere.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.conftest import attack_size

SETTINGS = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
            "codex": ".codex/hooks.json"}
EVENTS = {"claude": ["PreToolUse", "PostToolUse", "Stop", "PostToolUseFailure", "SessionStart"],
          "gemini": ["BeforeTool", "AfterAgent", "BeforeModel", "SessionStart"],
          "cursor": ["preToolUse", "beforeShellExecution", "stop", "afterFileEdit"],
          "codex": ["PreToolUse", "Stop", "SessionStart", "PermissionRequest"]}
NEUTRAL = {"PreToolUse": "pre-tool-use", "PostToolUse": "post-tool-use", "Stop": "stop", "SessionStart": "session-start",
           "BeforeTool": "pre-tool-use", "AfterAgent": "stop", "preToolUse": "pre-tool-use", "stop": "stop",
           "UserPromptSubmit": "user-prompt-submit"}
COMMANDS = ["echo hi", "python3 ~/bin/x.py --flag 'a b'", 'printf "%s\\n" "$HOME"', "cat <<'EOF'\nline\nEOF",
            "a && b || c; d", "echo '#not a comment'", "say done # spoken", "  padded  ", "tab\there",
            "é☕ ünïcode", "echo $(date) `id`", "exit 2", "echo { }", "x\\y", "node -e \"console.log('\\\\')\""]
MATCHERS = ["Bash", "Edit|Write", "^mcp__.*", "", "*", "ünï", 'a"b', "\\d+", "run_shell_command"]
BAD = ["group of two", "null", "{bundle_dir}", "control", "prompt", "backslash"]


def _entry(r: random.Random, host: str, command: str) -> dict:
    handler: dict = {}
    if host != "cursor" and (r.random() < 0.8 or host in ("claude", "gemini")):
        handler["type"] = "command"  # Claude refuses a file with an untyped handler, Gemini skips it (tests/e2e)
    if host == "gemini" and r.random() < 0.6:
        handler["name"] = r.choice(["guard", "my hook", "a/b"])
    handler["command"] = command
    if r.random() < 0.5:
        handler["timeout"] = r.choice([1, 30, 600, 1.5, 2500, 3000]) if host == "gemini" else r.choice([1, 30, 1.5])
    for key, value in (("statusMessage", "checking…"), ("async", True), ("if", "Bash(git *)"),
                       ("custom", {"n": [1, 2.5, False, "x"], "deep": {"k": "v"}})):
        if r.random() < 0.2:
            handler[key] = value
    if host == "cursor":
        if r.random() < 0.5:
            handler["matcher"] = r.choice(MATCHERS)
        return handler
    group: dict = {}
    if r.random() < 0.7:
        group["matcher"] = r.choice(MATCHERS)
    if r.random() < 0.15:
        group["sequential" if host == "gemini" else "note"] = True
    group["hooks"] = [handler]
    if r.random() < 0.5:  # the handlers first, then the matcher: key order is the operator's
        group = {"hooks": group.pop("hooks"), **group}
    return group


def _document(r: random.Random, host: str) -> tuple[dict, list[tuple[str, int]]]:
    """The file's data, and ``(event, index)`` of each hand-written entry in file order."""
    hooks: dict = {}
    found: list[tuple[str, int]] = []
    for event in r.sample(EVENTS[host], r.randint(1, len(EVENTS[host]))):
        entries = []
        for _ in range(r.randint(1, 4)):
            if r.random() < 0.15:  # another bundle's entry: not adopted
                command = f"echo other # hookweave:other/h{r.randint(1, 9)}"
                entries.append(_entry(r, host, command))
                continue
            found.append((event, len(entries)))
            entries.append(_entry(r, host, r.choice(COMMANDS)))
        hooks[event] = entries
    if r.random() < 0.3:
        hooks["SomethingNew"] = {"kept": [1, "as is"]}  # an event no host knows: never touched
    doc: dict = {"version": 1} if host == "cursor" else {}
    if host == "codex":
        if r.random() < 0.5:
            doc["description"] = "the operator's"
    elif r.random() < 0.7:
        doc["model"] = "x"
        doc["permissions"] = {"allow": ["Bash(ls:*)"], "deny": []}
    doc["hooks"] = hooks
    return doc, found


class Writer:
    """JSON text with this case's own whitespace and (for JSONC) comments, the same for equal seeds."""

    def __init__(self, seed: str, comments: bool) -> None:
        self.r = random.Random(seed)
        self.comments = comments
        self.style = self.r.choice(["one-line", "indent", "tabs", "loose"])

    def gap(self, depth: int) -> str:
        comment = " /* c */" if self.comments and self.r.random() < 0.2 else ""
        if self.style == "one-line":
            return comment + " " * self.r.randint(0, 1)
        line = "// note\n" if self.comments and self.r.random() < 0.2 else "\n"
        unit = "\t" if self.style == "tabs" else " " * (2 if self.style == "indent" else 3)
        return comment + (" " if line.startswith("//") else "") + line + unit * depth

    def dump(self, value, depth: int = 0) -> str:
        if isinstance(value, dict):
            if not value:
                return "{}"
            colon = self.r.choice([": ", ":", " : "])
            body = ",".join(self.gap(depth + 1) + json.dumps(k, ensure_ascii=False) + colon + self.dump(v, depth + 1)
                            for k, v in value.items())
            return "{" + body + self.gap(depth) + "}"
        if isinstance(value, list):
            if not value:
                return "[]"
            return "[" + ",".join(self.gap(depth + 1) + self.dump(v, depth + 1) for v in value) + self.gap(depth) + "]"
        return json.dumps(value, ensure_ascii=self.r.random() < 0.3)


def _text(doc: dict, seed: str, host: str) -> str:
    head = "// the operator's settings\n" if host == "gemini" else ""
    return head + Writer(seed, host == "gemini").dump(doc) + "\n"


def _marked(host: str, doc: dict, found: list[tuple[str, int]], name: str) -> dict:
    out = json.loads(json.dumps(doc))
    counts: dict[str, int] = {}
    for event, index in found:
        stem = NEUTRAL.get(event, event.lower())
        counts[stem] = counts.get(stem, 0) + 1
        entry = out["hooks"][event][index]
        handler = entry if host == "cursor" else entry["hooks"][0]
        command = handler["command"]
        handler["command"] = command + ("\n" if "\n" in command else " ") + f"# hookweave:{name}/{stem}-{counts[stem]}"
    return out


def _sorted(doc: dict) -> dict:
    hooks = {e: sorted(json.dumps(x, sort_keys=True) for x in v) if isinstance(v, list) else v for e, v in doc["hooks"].items()}
    return {**doc, "hooks": hooks}


def _has_other(doc: dict) -> bool:
    return "hookweave:other/" in json.dumps(doc)


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.attack
@pytest.mark.parametrize("host", list(SETTINGS))
def test_adopt_generated_files(run, project, tmp_path, attack_report, host, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    path = project / SETTINGS[host]
    path.parent.mkdir(parents=True)
    cases, failures = attack_size(6, 150), []
    for i in range(cases):
        r = random.Random(f"adopt-{host}-{i}")
        doc, found = _document(r, host)
        seed = f"{host}-{i}-text"
        original, expected = _text(doc, seed, host), _text(_marked(host, doc, found, "mine"), seed, host)
        path.write_text(original, encoding="utf-8")
        path.with_name(path.stem + ".hookweave.json").unlink(missing_ok=True)  # a failed case's
        out = tmp_path / f"bundle{i}"
        wrong = []
        adopted = run("adopt", "--host", host, "--name", "mine", "--out", str(out))
        if not found:  # only another bundle's entries: nothing to adopt, and nothing written
            if adopted.exit_code != 2 or "no hand-written hooks in it" not in adopted.stderr or out.exists():
                failures.append((i, "nothing to adopt", adopted.output))
            continue
        if adopted.exit_code != 0 or path.read_text(encoding="utf-8") != expected:
            failures.append((i, "adopt", adopted.output, path.read_text(encoding="utf-8"), expected))
            continue
        before = _files(tmp_path)
        again = run("install", str(out), "--host", host)
        wrong += [] if again.exit_code == 0 and _files(tmp_path) == before else ["install of the manifest wrote"]
        verify = json.loads(run("verify", "--host", host, "--json").stdout)
        [file] = [f for f in verify["hosts"][0]["files"] if f["scope"] == "project"]
        statuses = [h["status"] for b in file["bundles"] if b["name"] == "mine" for h in b["hooks"]]
        wrong += [] if statuses == ["ok"] * len(found) else [f"verify said {statuses}"]
        undo = run("adopt", "--undo", "mine", "--host", host)
        record = path.with_name(path.stem + ".hookweave.json")
        if undo.exit_code != 0 or path.read_text(encoding="utf-8") != original or record.exists():
            wrong.append("undo did not give the original bytes back")
        assert run("adopt", "--host", host, "--name", "mine", "--out", str(out), "--force").exit_code == 0
        assert run("uninstall", "mine", "--host", host).exit_code == 0
        left = json.loads(json.dumps(doc))
        for event, index in sorted(found, reverse=True):
            left["hooks"][event].pop(index)
        from hookweave.core.formats import jsontext

        now = jsontext.load(path.read_text(encoding="utf-8"), str(path), comments=host == "gemini")
        wrong += [] if now == left else ["uninstall left other data than the original without the adopted"]
        # and back: the manifest renders them again, --undo makes them hand-written (the data as it
        # was; the bytes are the host's rendering now, and an other bundle's entry may now come first)
        back = run("install", str(out), "--host", host).exit_code + run("adopt", "--undo", "mine", "--host", host).exit_code
        now = jsontext.load(path.read_text(encoding="utf-8"), str(path), comments=host == "gemini")
        if back or _sorted(now) != _sorted(doc) or (now != doc and not _has_other(doc)):
            wrong.append("install of the manifest and --undo did not give the original data back")
        if wrong:
            failures.append((i, wrong, doc))
    attack_report(f"adopt round trips ({host})", cases=cases, failures=len(failures))
    assert not failures, failures[:2]


def _bad_entry(r: random.Random, host: str, kind: str) -> dict:
    entry = _entry(r, host, "echo ok")
    handler = entry if host == "cursor" else entry["hooks"][0]
    if kind == "group of two":
        if host == "cursor":
            handler["type"] = "prompt"  # a flat host has no groups: another unadoptable kind instead
        else:
            entry["hooks"].append({"type": "prompt", "prompt": "ok?"})  # adopted split, but for this one
    elif kind == "null":
        handler["timeout"] = None
    elif kind == "{bundle_dir}":
        handler["command"] = "cd {bundle_dir} && run"
    elif kind == "control":
        handler["command"] = "echo \x1b[1m bold"
    elif kind == "prompt":
        handler["type"] = "prompt"
    else:
        handler["command"] = "echo a \\"
    return entry


@pytest.mark.attack
@pytest.mark.parametrize("host", list(SETTINGS))
def test_adopt_refuses_an_unadoptable_entry_whole(run, project, tmp_path, attack_report, host) -> None:
    path = project / SETTINGS[host]
    path.parent.mkdir(parents=True)
    cases, failures = attack_size(12, 200), []
    for i in range(cases):
        r = random.Random(f"adopt-bad-{host}-{i}")
        doc, _ = _document(r, host)
        kind = BAD[i % len(BAD)]
        event = r.choice(list(k for k in doc["hooks"] if k != "SomethingNew"))
        doc["hooks"][event].insert(r.randint(0, len(doc["hooks"][event])), _bad_entry(r, host, kind))
        path.write_text(_text(doc, f"bad-{host}-{i}", host), encoding="utf-8")
        before = _files(tmp_path)
        result = run("adopt", "--host", host, "--name", "mine")
        ok = (result.exit_code == 2 and result.stdout == "" and result.stderr.startswith("hooks: ")
              and result.stderr.count("\n") == 1 and _files(tmp_path) == before)
        if not ok:
            failures.append((i, kind, result.exit_code, result.output))
    attack_report(f"adopt bad entries ({host})", cases=cases, failures=len(failures))
    assert not failures, failures[:2]
