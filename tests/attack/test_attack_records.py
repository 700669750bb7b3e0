"""Hostile records: a record is input like any other. Every JSON position of a valid record is
mutated (a wrong type, an odd value, the key removed, an id listed twice) and a command runs on it.

Invariants: no traceback; a value of the wrong type (or a required key removed) gives exit 2 with
one line naming the record file and the place, and no byte written anywhere; any other outcome
leaves settings the host can read (an env value is a string, never the record's number).
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from hookweave.core.formats import jsontext
from hookweave.hosts.claude import ClaudeCodeHost
from tests.conftest import attack_size

DATA = Path(__file__).parent.parent / "data" / "claude"
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8").replace(
    '"GREETING": "grüß dich ☕",', '"GREETING": "grüß dich ☕",\n        "FOO": "operator",')
BUNDLE = (DATA / "bundle" / "hookweave.toml").read_text(encoding="utf-8") + \
    '\n[env.FOO]\nvalue = "bundle"\npolicy = "override"\nhosts = ["claude"]\n'
REQUIRED = {"hookweave_record", "bundles", "version", "id", "event", "position", "sha256", "value", "policy", "prior",
            "applied"}  # a removed key elsewhere (created, env, hooks, traces_before...) has a default
VALUES = [5, -1, 1.5, True, None, "", "x", [], {}, [1], {"a": 1}, "\ud800", "9" * 5000, "/permissions",
          "sha256:" + "0" * 64, "PreToolUse", "first", "override", "guard"]
COMMANDS = [("uninstall", "guard"), ("uninstall", "guard", "--force"), ("install", "{bundle}"),
            ("install", "{bundle}", "--force"), ("verify",), ("status",)]


def _positions(value, path=()):
    """Every (path, value) in a JSON value, the root excluded."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield path + (key,), child
            yield from _positions(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield path + (i,), child
            yield from _positions(child, path + (i,))


def _set(doc, path, value):
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


_DELETE = object()


def _same_kind(a, b) -> bool:
    kinds = (bool, (int, float), str, list, dict, type(None))
    return any(isinstance(a, k) and isinstance(b, k) for k in kinds) and isinstance(a, bool) == isinstance(b, bool)


def _allowed(path, new) -> bool | None:
    """Whether the format lets ``new`` stand at ``path`` where the kind alone does not decide."""
    if path[-1] == "prior":
        return new is None or isinstance(new, str)
    if path[-1] == "created_folder":  # true/false, or how many levels of folders install made
        return isinstance(new, bool) or (isinstance(new, int) and 0 <= new <= 64)
    return None


def _mutations(record: dict):
    for path, old in _positions(record):
        if path[0] == "about":
            continue
        for new in VALUES:
            yield path, old, new
        yield path, old, _DELETE
    hooks = record["bundles"]["guard"]["hooks"]
    yield ("bundles", "guard", "hooks"), hooks, hooks + [hooks[0]]  # an id listed twice


def _expect_refusal(path, old, new) -> bool:
    if new is _DELETE:  # a required key of a fixed object; entries of lists and maps may go
        return path[-1] in REQUIRED and not (len(path) >= 2 and path[-2] in ("env", "bundles"))
    if isinstance(path[-1], str) and path[-1] == "hooks" and isinstance(new, list) and len(new) > len(old):
        return True  # the duplicate id
    decided = _allowed(path, new)
    if decided is not None:
        return not decided
    if not _same_kind(old, new):
        return True
    if isinstance(new, list) and path[-1] == "hooks" and new:
        return True
    if isinstance(new, dict) and new and path[-1] in ("env", "bundles", "guard"):
        return True
    if isinstance(new, (list, dict)) and new and path[-1] not in ("created",):
        return True
    return False


@pytest.fixture
def installed(run, write_bundle, project: Path):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(OPERATOR, encoding="utf-8")
    bundle = str(write_bundle(BUNDLE))
    assert run("install", bundle, "--host", "claude").exit_code == 0
    return settings, bundle, settings.read_text(encoding="utf-8")


@pytest.mark.attack
def test_mutated_records_are_refused_with_their_place_or_handled(run, installed, project: Path, attack_report) -> None:
    settings, bundle, installed_text = installed
    record_path = settings.with_name("settings.hookweave.json")
    good = json.loads(record_path.read_text(encoding="utf-8"))
    good["bundles"]["guard"]["traces_before"] = ["keepalive"]  # valid (Gemini writes it), so mutate it too
    good["bundles"]["guard"]["runs_for"] = {"copilot": ["keepalive"]}  # valid (install for Claude and Copilot): likewise
    every = list(_mutations(good))
    rng = random.Random(3)
    rng.shuffle(every)
    n = attack_size(150, len(every) * len(COMMANDS))
    cases = refused = handled = failures = 0
    host = ClaudeCodeHost()
    for i in range(n):
        path, old, new = every[i % len(every)]
        command = COMMANDS[(i // len(every) + i) % len(COMMANDS)]
        args = [a.replace("{bundle}", bundle) for a in command] + ["--host", "claude"]
        mutated = _set(good, path, new)
        record_text = json.dumps(mutated, indent=2, ensure_ascii=True) + "\n"
        settings.write_text(installed_text, encoding="utf-8")
        record_path.write_text(record_text, encoding="utf-8")
        cases += 1
        result = run(*args)
        try:
            assert "Traceback" not in result.output
            assert result.exit_code in (0, 1, 2), result.output
            assert result.stderr.count("\n") <= 1, result.stderr
            if result.exit_code == 2:
                refused += 1
                assert result.stderr.startswith("hooks: .claude/settings.hookweave.json: "), result.stderr
                assert settings.read_text(encoding="utf-8") == installed_text
                assert record_path.read_text(encoding="utf-8") == record_text
            elif args[0] == "verify" and _expect_refusal(path, old, new):  # verify reports what it cannot read
                refused += 1
                assert result.exit_code == 1 and "  problem: .claude/settings.hookweave.json: " in result.stdout
            else:
                handled += 1
                assert not _expect_refusal(path, old, new), f"accepted {path}={new!r}: {result.output}"
                if settings.exists():
                    host.check_document(jsontext.parse(settings.read_text(encoding="utf-8"), "s").value, "s")
        except AssertionError as exc:
            failures += 1
            raise AssertionError(f"{args[0]} with {path} = {new if new is not _DELETE else '(removed)'!r}") from exc
    attack_report("hostile records", cases=cases, refused=refused, handled=handled, failures=failures)
    assert failures == 0


# -- issue 8, case 3: the examples ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("bundles", "guard", "env", "FOO", "prior"), 5, "bundles.guard.env.FOO.prior: must be a string or null, not 5"),
        (("bundles", "guard", "env", "FOO", "prior"), {"a": 1}, 'bundles.guard.env.FOO.prior: must be a string or null, not {"a": 1}'),
        (("bundles", "guard", "hooks", 0, "id"), {"x": 1}, 'bundles.guard.hooks[0].id: must be a string, not {"x": 1}'),
        (("bundles", "guard", "hooks", 1, "event"), ["Stop"], 'bundles.guard.hooks[1].event: must be a string, not ["Stop"]'),
        (("bundles", "guard", "hooks", 2, "sha256"), 7, "bundles.guard.hooks[2].sha256: must be a string, not 7"),
        (("bundles", "guard", "env", "FOO", "policy"), "always", 'bundles.guard.env.FOO.policy: unknown policy "always"; one of if-absent, override, at-least'),
        (("created",), ["hooks"], 'created[0]: "hooks" is not a JSON Pointer'),
        (("bundles",), [], "bundles: must be an object, not a list"),
        (("bundles", "guard", "version"), 2, "bundles.guard.version: must be a non-empty string, not 2"),
        (("bundles", "guard", "env", "FOO", "applied"), "yes", 'bundles.guard.env.FOO.applied: must be true or false, not "yes"'),
        (("created",), ["/permissions"], 'created[0]: "/permissions" is not a place hookweave creates in a Claude Code file'),
    ],
)
def test_a_hand_edited_record_is_refused_naming_the_place(run, installed, path, value, message) -> None:
    """Issue 8 case 3: uninstall wrote "FOO": 5 into Claude's env from a hand-edited prior."""
    settings, bundle, installed_text = installed
    record_path = settings.with_name("settings.hookweave.json")
    record_text = json.dumps(_set(json.loads(record_path.read_text(encoding="utf-8")), path, value), indent=2) + "\n"
    record_path.write_text(record_text, encoding="utf-8")
    for args in (("uninstall", "guard"), ("install", bundle)):
        result = run(*args, "--host", "claude")
        assert result.exit_code == 2, result.output
        assert result.stderr == (f"hooks: .claude/settings.hookweave.json: {message}; restore it from version control "
                                 "or delete it (hookweave then treats marked entries as unrecorded)\n")
        assert settings.read_text(encoding="utf-8") == installed_text
        assert record_path.read_text(encoding="utf-8") == record_text


def test_duplicate_ids_in_a_record_are_refused(run, installed) -> None:
    settings, _, installed_text = installed
    record_path = settings.with_name("settings.hookweave.json")
    data = json.loads(record_path.read_text(encoding="utf-8"))
    data["bundles"]["guard"]["hooks"].append(data["bundles"]["guard"]["hooks"][0])
    record_path.write_text(json.dumps(data), encoding="utf-8")
    result = run("uninstall", "guard", "--host", "claude")
    assert result.exit_code == 2
    assert "bundles.guard.hooks[3].id: 'one-strike' is listed twice" in result.stderr
    assert settings.read_text(encoding="utf-8") == installed_text


def test_a_bad_record_at_another_scope_does_not_fail_a_no_op_uninstall(run, project, home) -> None:
    user_record = home / ".claude" / "settings.hookweave.json"
    user_record.parent.mkdir()
    user_record.write_text('{"hookweave_record": 1, "bundles": []}')
    result = run("uninstall", "guard", "--host", "claude")
    assert result.exit_code == 1, result.output  # not installed (issue 13): a failure, but no crash on the bad record
    assert result.stderr == "hooks: guard is not installed at claude project; installed: nothing\n"
    status = run("status", "--host", "claude")
    assert status.exit_code == 2
    assert status.stderr.startswith(f"hooks: {user_record}: bundles: must be an object, not a list; ")
