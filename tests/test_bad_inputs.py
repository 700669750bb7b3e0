"""Issue 5, bad inputs: every case in tests/data/bad, and those no file can hold, goes through the
real CLI and must be refused with exit 2, one line naming the file and the cause, and no byte
(nor mode, nor link) changed anywhere under the test's folder."""

from __future__ import annotations

import json
import os
import traceback
from pathlib import Path
from typing import Callable

import pytest

TESTS = Path(__file__).parent
DATA = TESTS / "data" / "bad"
BUNDLE = TESTS / "data" / "claude" / "bundle"
EXPECTED = dict(
    line.split("\t", 1)
    for line in (DATA / "expected.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
)
CASES = sorted(str(p.relative_to(DATA)) for p in DATA.rglob("*") if p.is_file() and p.name != "expected.txt")
# corpus folder: (host, where its case goes under tmp_path); codex cases are hooks.json or config.toml
PLACES = {
    "claude": ("claude", "project/.claude/settings.json"),
    "record": ("claude", "project/.claude/settings.hookweave.json"),
    "codex": ("codex", "project/.codex/hooks.json"),
    "codex-user": ("codex", "home/.codex/config.toml"),
    "gemini": ("gemini", "project/.gemini/settings.json"),
    "cursor": ("cursor", "project/.cursor/hooks.json"),
}
OPERATOR = {  # a bad manifest must leave every host's operator file alone
    "project/.claude/settings.json": TESTS / "data" / "claude" / "operator.settings.json",
    "project/.codex/hooks.json": TESTS / "data" / "codex" / "operator.settings.json",
    "home/.codex/config.toml": TESTS / "data" / "codex" / "operator.config.toml",
    "project/.gemini/settings.json": TESTS / "data" / "gemini" / "operator.settings.json",
    "project/.cursor/hooks.json": TESTS / "data" / "cursor" / "operator.settings.json",
}
MANIFEST_HEAD = '[bundle]\nname = "guard"\nversion = "1.0.0"\n'


def _put(root: Path, rel: str, data: bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: bytes and mode of files, targets of links, modes of folders."""
    seen: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = path.lstat()
            if path.is_symlink():
                seen[str(path)] = ("link", os.readlink(path))
            elif path.is_dir():
                seen[str(path)] = ("dir", info.st_mode)
            else:
                seen[str(path)] = ("file", info.st_mode, path.read_bytes())
    return seen


def _attempt(run, root: Path, *args: str) -> tuple:
    """Run the CLI; ``(exit code, stderr, stdout, changed)``, a crash counted as exit ``None``."""
    before = _snapshot(root)
    try:
        result = run(*args)
        outcome = [result.exit_code, result.stderr, result.stdout]
    except Exception:  # noqa: BLE001 - a traceback is what this test is looking for
        outcome = [None, traceback.format_exc(), ""]
    return (*outcome, _snapshot(root) != before)


def _check(run, root: Path, report, args: list[str], message: str) -> None:
    code, err, out, changed = _attempt(run, root, *args)
    report("bad inputs", cases=1, bytes_changed=int(changed), wrong_exit=int(code != 2))
    assert (code, err, out, changed) == (2, f"hooks: {message}\n", "", False)
    assert err.count("\n") == 1 and "Traceback" not in err + out


def _fill(message: str, root: Path, manifest: Path) -> str:
    return message.replace("{manifest}", str(manifest)).replace("{home}", str(root / "home"))


def test_every_case_has_its_message_and_the_corpus_is_large() -> None:
    assert sorted(EXPECTED) == CASES
    assert len(CASES) >= 60
    assert {case.split("/")[0] for case in CASES} == {*PLACES, "manifest"}


@pytest.mark.attack
@pytest.mark.parametrize("case", CASES)
def test_bad_file_is_refused_untouched(run, tmp_path: Path, attack_report, case: str) -> None:
    group = case.split("/")[0]
    data = (DATA / case).read_bytes()
    manifest = tmp_path / "bundle" / "hookweave.toml"
    if group == "manifest":
        for rel, source in OPERATOR.items():
            _put(tmp_path, rel, source.read_bytes())
        _put(tmp_path, "bundle/hookweave.toml", data)
        args = ["install", str(manifest.parent), "--host", "all"]
    else:
        host, rel = PLACES[group]
        if case.endswith(".toml") and group == "codex":
            rel = "project/.codex/config.toml"
        _put(tmp_path, rel, data)
        args = ["install", str(BUNDLE), "--host", host]
    _check(run, tmp_path, attack_report, args, _fill(EXPECTED[case], tmp_path, manifest))


# -- cases no file in the corpus can hold ---------------------------------------------------------

Build = Callable[[Path], "tuple[list[str], str]"]
SPECIAL: dict[str, Build] = {}


def special(func: Build) -> Build:
    SPECIAL[func.__name__] = func
    return func


def _claude(root: Path) -> list[str]:
    return ["install", str(BUNDLE), "--host", "claude"]


@special
def bom_only(root: Path):
    _put(root, "project/.claude/settings.json", "\ufeff".encode())
    return _claude(root), ".claude/settings.json:1:1: the file holds no JSON value; write {} into it or delete it"


@special
def invalid_utf8_settings(root: Path):
    _put(root, "project/.gemini/settings.json", b'{"ui": {"theme": "caf\xe9"}}')
    return (["install", str(BUNDLE), "--host", "gemini"],
            ".gemini/settings.json: not UTF-8 text (byte 21); save it as UTF-8")


@special
def invalid_utf8_manifest(root: Path):
    path = _put(root, "bundle/hookweave.toml", MANIFEST_HEAD.encode() + b'description = "\xff"\n')
    return ["install", str(path), "--host", "all"], f"{path}: not UTF-8 text (byte 57); save it as UTF-8"


@special
def huge_file(root: Path):
    lines = [f'  "key{i:06d}": "{"x" * 40}",  // {i}\n' for i in range(100_000)]  # about 5.7 MB
    _put(root, "project/.gemini/settings.json", ("{\n" + "".join(lines) + "}\n").encode())
    return (["install", str(BUNDLE), "--host", "gemini"],
            ".gemini/settings.json:100001:58: trailing comma; remove the comma")


@special
def deep_json(root: Path):
    _put(root, "project/.cursor/hooks.json", b'{"a": ' * 10_000 + b"1" + b"}" * 10_000)
    return ["install", str(BUNDLE), "--host", "cursor"], ".cursor/hooks.json:1:1543: nested deeper than 256 levels"


@special
def deep_toml(root: Path):
    _put(root, "project/.codex/config.toml", b"hooks = " + b"[" * 10_000 + b"]" * 10_000 + b"\n")
    return (["install", str(BUNDLE), "--host", "codex"],
            ".codex/config.toml:1:109: invalid TOML: TOML value nested more than 100 levels deep; nest it less deeply "
            "(the agent cannot read it either) and run the command again")


@special
def deep_manifest(root: Path):
    path = _put(root, "bundle/hookweave.toml", MANIFEST_HEAD.encode() + b"x = " + b"[" * 10_000 + b"]" * 10_000)
    return ["install", str(path), "--host", "all"], f"{path}:4:105: invalid TOML: TOML value nested more than 100 levels deep"


@special
def deep_record(root: Path):
    _put(root, "project/.claude/settings.hookweave.json", b"[" * 10_000 + b"]" * 10_000)
    return _claude(root), (
        ".claude/settings.hookweave.json: not a hookweave record we can read (maximum recursion depth exceeded while "
        "decoding a JSON array from a unicode string); restore it from version control or delete it (hookweave then "
        "treats marked entries as unrecorded)")


@special
def dangling_symlink(root: Path):
    (root / "project/.claude").mkdir(parents=True)
    (root / "project/.claude/settings.json").symlink_to("gone.json")
    return _claude(root), ".claude/settings.json: a symlink to gone.json, which does not exist; fix or remove the link"


@special
def symlink_loop(root: Path):
    (root / "project/.claude").mkdir(parents=True)
    (root / "project/.claude/settings.json").symlink_to("settings.json")
    return _claude(root), ".claude/settings.json: a symlink loop; fix the symlink"


@special
def folder_for_settings(root: Path):
    (root / "project/.claude/settings.json").mkdir(parents=True)
    return _claude(root), ".claude/settings.json: is a folder, not a settings file; move it away"


@special
def folder_for_record(root: Path):
    (root / "project/.claude/settings.hookweave.json").mkdir(parents=True)
    return _claude(root), ".claude/settings.hookweave.json: is a folder, not a settings file; move it away"


@special
def file_for_folder(root: Path):
    _put(root, "project/.claude", b"{}")
    return _claude(root), ".claude/settings.json: .claude is a file, not a folder; move it away"


@special
def missing_manifest_behind_link(root: Path):
    (root / "bundle").mkdir()
    (root / "bundle/hookweave.toml").symlink_to(root / "elsewhere.toml")
    return (["install", str(root / "bundle"), "--host", "all"],
            f"{root / 'bundle/hookweave.toml'}: no such manifest; pass a bundle path or a template name")


@special
def read_only_file(root: Path):
    _put(root, "project/.claude/settings.json", b"{}\n").chmod(0o444)
    return _claude(root), ".claude/settings.json: the file is read-only; make it writable (chmod u+w) or choose another scope"


@special
def read_only_folder(root: Path):
    _put(root, "project/.claude/settings.json", b"{}\n").parent.chmod(0o555)
    return _claude(root), ".claude: the folder is read-only; make it writable or choose another scope"


@special
def read_only_record(root: Path):
    _put(root, "project/.claude/settings.json", b"{}\n")
    _put(root, "project/.claude/settings.hookweave.json", b"{}\n").chmod(0o444)
    return (_claude(root), ".claude/settings.hookweave.json: the file is read-only; make it writable (chmod u+w) "
            "or choose another scope")


@special
def read_only_trust_file(root: Path):
    _put(root, "home/.codex/config.toml", b'model = "o3"\n').chmod(0o444)
    return (["install", str(BUNDLE), "--host", "codex", "--trust"],
            f"{root}/home/.codex/config.toml: the file is read-only; make it writable (chmod u+w) or choose another scope")


@pytest.mark.attack
@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_special_case_is_refused_untouched(run, tmp_path: Path, attack_report, name: str) -> None:
    args, message = SPECIAL[name](tmp_path)
    try:
        _check(run, tmp_path, attack_report, args, message)
    finally:
        for folder, _, _ in os.walk(tmp_path):  # let pytest clean up after the read-only cases
            Path(folder).chmod(0o755)


# -- what is not bad input ---------------------------------------------------------------------------


def test_a_manifest_saved_with_a_bom_installs(run, project: Path, write_bundle) -> None:
    bundle = write_bundle("\ufeff" + MANIFEST_HEAD + '[[hooks]]\nid = "bye"\nevent = "stop"\ncommand = "echo bye"\n')
    result = run("install", str(bundle), "--host", "claude")
    assert (result.exit_code, result.stderr) == (0, "")
    assert "echo bye # hookweave:guard/bye" in (project / ".claude" / "settings.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("version", ['"1"', "2", "null"])
def test_cursor_version_other_than_1_installs_and_says_cursor_ignores_the_file(run, project: Path, version) -> None:
    path = _put(project, ".cursor/hooks.json", f'{{"version": {version}, "hooks": {{}}}}\n'.encode())
    result = run("install", str(BUNDLE), "--host", "cursor", "--json")
    assert result.exit_code == 0, result.output
    (problem,) = json.loads(result.stdout)["files"][0]["problems"]
    assert problem["message"] == ('project hooks.json has no "version": 1; Cursor ignores the file without it: '
                                  'add "version": 1')
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == json.loads(version)


def test_json_error_is_one_document_and_the_same_one_line(run, project: Path) -> None:
    _put(project, ".claude/settings.json", b'{"hooks": []}')
    result = run("install", str(BUNDLE), "--host", "claude", "--json")
    message = ".claude/settings.json: /hooks must be an object of events, not list; fix the file by hand"
    assert (result.exit_code, result.stderr) == (2, f"hooks: {message}\n")
    assert json.loads(result.stdout) == {"error": message, "exit_code": 2}
