"""Attack: TOML fidelity on Codex trust round trips (issue 22, class 4).

A user ``config.toml`` is put together from spellings tomlkit may rewrite: dotted keys at the root
and inside tables (the ``hooks`` and ``hooks.state`` tables among them), comments between keys and
after values, multi-line basic and literal strings, inline tables, multi-line arrays with comments,
arrays of tables, an operator's own ``[hooks.state]`` in its three spellings (a table per key, a
key of inline tables, a dotted key), and, at random, CRLF line ends, no final newline or a BOM.
Half the worlds also hold Codex hooks inline in that file (``[[hooks.Stop]]``), so the user-scope
install edits hooks and trust in one file. Then install with ``--trust``, the same install again,
an upgrade (a hook's command changed) and uninstall, through the real CLI.

Oracles: every command exits 0, or 2 with one line and no byte written (a BOM: Codex's parser
refuses it too); after the uninstall the file is byte for byte what it was; no command raises.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import app
from hookweave.core.errors import BadInput
from tests.conftest import attack_size

pytestmark = pytest.mark.attack

PIECES = [
    'model = "o3"\n',
    'profile.default.model = "x"\n',
    'a.b.c.d = 1\n',
    'hooks.foo = 1\n',
    '# a comment\n',
    '\n',
    'approval = "never" # trailing\n',
    's = """\nmulti\nline\n"""\n',
    "l = '''\nlit\n'''\n",
    'inline = { a = 1, b = { c = 2 } }\n',
    'arr = [\n  1, # one\n  2,\n]\n',
    '[features]\nhooks = true\n',
    '[projects."/p"]\ntrust_level = "trusted"\n',
    '[[servers]]\nname = "a"\n\n[[servers]]\nname = "b"\n',
    '[tui]\nnotifications.enabled = true\n',
    '[mcp.x]\ncommand = "y"\n  # indented comment\nargs = [ "a" ]\n',
    '[hooks]\n# operator comment in hooks\n',
    '[hooks]\nmode = 1\n',
    '[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n',
    '[hooks.state."/q/hooks.json:stop:0:0"]\n# why\ntrusted_hash = "sha256:01" # kept\nenabled = false\n',
    'hooks.state."/x/hooks.json:stop:0:0".trusted_hash = "sha256:11"\n',
    '[hooks.state]\n"/y/hooks.json:stop:0:0" = { trusted_hash = "sha256:22" }\n',
    'hooks = { state = { "/z/hooks.json:stop:0:0" = { trusted_hash = "sha256:33" } } }\n',
    '[a]\nb.c = 1\n[a.d]\ne = 2\n',
    "[x]\n'lit key' = 'v'\n\"q\\\"k\" = \"\\u00e9\"\n",
]
INLINE_HOOKS = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "operator-stop"\n'
BUNDLE = '[bundle]\nname = "b"\nversion = "{v}"\n[[hooks]]\nid = "one"\nevent = "stop"\ncommand = "one {v}"\n' \
         '[[hooks]]\nid = "two"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "two"\n'


def _world(rng: random.Random) -> str | None:
    from hookweave.core.formats import tomlload

    parts = rng.sample(PIECES, rng.randint(1, 7))
    if rng.random() < 0.5:
        parts.insert(rng.randint(0, len(parts)), INLINE_HOOKS)
    text = "".join(parts)
    try:
        tomlload.load(text, Path("config.toml"))
    except BadInput:  # a sample that is no valid TOML (a table defined twice): draw again
        return None
    if rng.random() < 0.3:
        text = text.rstrip("\n")
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.05:
        text = "\ufeff" + text
    return text


def _case(seed: int, base: Path, inline: bool) -> str | None:
    """``None`` when the world survives, else what went wrong."""
    rng = random.Random(seed)
    text = None
    while text is None or (INLINE_HOOKS.replace("\n", "") in text.replace("\r\n", "").replace("\n", "")) != inline:
        text = _world(rng)
    return _round_trip(text, base)


def _round_trip(text: str, base: Path) -> str | None:
    scope = "user" if INLINE_HOOKS.replace("\n", "\r\n") in text or INLINE_HOOKS in text else "project"
    config = base / "home" / ".codex" / "config.toml"
    config.write_bytes(text.encode("utf-8"))
    bundle = base / "bundle"
    runner = CliRunner()
    for step, (version, command) in enumerate([("1", "install"), ("1", "install"), ("2", "install"),
                                                (None, "uninstall")]):
        if version:
            (bundle / "hookweave.toml").write_text(BUNDLE.format(v=version), encoding="utf-8")
        args = [command, str(bundle) if version else "b", "--host", "codex", "--scope", scope]
        before = config.read_bytes()
        result = runner.invoke(app, args + (["--trust"] if version else []))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            return f"step {step}: {result.exception!r} on {text!r}"
        if result.exit_code == 2 and step == 0:
            lines = result.stderr.strip().splitlines()
            if len(lines) != 1 or config.read_bytes() != before:
                return f"step 0: exit 2 not one line or wrote: {result.stderr!r} on {text!r}"
            return None
        if result.exit_code != 0:
            return f"step {step}: exit {result.exit_code}: {result.output[-300:]!r} on {text!r}"
    after = config.read_bytes() if config.exists() else None
    if after is None or _read(after) != _read(text.encode("utf-8")):
        return f"DATA: {text!r} came back as {after!r}"
    if sorted(_comments(after.decode("utf-8"))) != sorted(_comments(text)):
        return f"DATA (a comment lost): {text!r} came back as {after!r}"
    if after != text.encode("utf-8"):
        return f"not the same bytes: {text!r} came back as {after!r}"
    return None


def _comments(text: str) -> list[str]:
    """The comments, in order (no piece has a ``#`` inside a string; after the uninstall, neither
    has the file)."""
    return [line[line.index("#"):] for line in text.splitlines() if "#" in line]


def _read(data: bytes):
    from hookweave.core.formats import tomlload

    return tomlload.load(data.decode("utf-8"), Path("config.toml"))


def _attack(tmp_path: Path, home: Path, inline: bool, cases: int) -> list[str]:
    (home / ".codex").mkdir(exist_ok=True)
    (tmp_path / "bundle").mkdir(exist_ok=True)
    failures = []
    for seed in range(cases):
        problem = _case(seed, tmp_path, inline)
        if problem:
            failures.append(problem)
        for stale in (home / ".codex").glob("*"):  # the next world starts from an empty Codex folder
            if stale.is_file():
                stale.unlink()
        records = tmp_path / "project" / ".codex"
        for record in records.glob("*") if records.exists() else ():
            record.unlink()
    return failures


def test_codex_trust_round_trips_every_toml_spelling(tmp_path, home, attack_report):
    """Project hooks, trust in the user config.toml: every world comes back byte for byte."""
    cases = attack_size(120, 3000)
    failures = _attack(tmp_path, home, False, cases)
    attack_report("TOML trust round trips", cases=cases, failures=len(failures))
    assert not failures, f"{len(failures)} of {cases}:\n" + "\n".join(failures[:5])


@pytest.mark.parametrize("text", [
    "",  # the trust blocks appended to an empty file: the first has no blank line before it
    "\n",
    # valid TOML that tomlkit cannot read once a block is appended ("Key state already exists"):
    '[hooks.state."/e/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n[hooks.state]\n'
    '"/y/hooks.json:stop:0:0" = { trusted_hash = "sha256:22" }\n[hooks]\n# operator comment in hooks\n',
    '[hooks.state."/q/hooks.json:stop:0:0"]\r\ntrusted_hash = "sha256:01"\r\n[hooks.state]\r\n[hooks]\r\nmode = 1\r\n',
    # hooks inline (user scope): a [hooks] holding only a comment, which tomlkit dropped with our last
    # PreToolUse; tables without blank lines between them; a file without a final newline, whose
    # trust block tomlkit moved on the upgrade
    INLINE_HOOKS + '[hooks]\n# operator comment in hooks\n[features]\nhooks = true\n',
    INLINE_HOOKS + '[hooks.state."/e/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n[x]\nk = 1\n',
    INLINE_HOOKS + '[features]\nhooks = true\n[hooks.state."/e/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"',
], ids=["empty", "one newline", "super-table after its sub-table", "the same, CRLF", "a comment-only [hooks]",
        "tight tables", "no final newline"])
def test_worlds_the_attack_found_come_back_byte_for_byte(text, tmp_path, home) -> None:
    (home / ".codex").mkdir()
    (tmp_path / "bundle").mkdir()
    assert _round_trip(text, tmp_path) is None


def test_codex_inline_hooks_and_trust_in_one_toml(tmp_path, home, attack_report):
    """Hooks inline in the user config.toml and their trust beside them: no value and no comment
    lost, never a traceback or a wrong exit. The bytes that still differ are counted, a limit in
    docs/RELIABILITY.md: tomlkit gathers the tables of one family, so an operator's
    ``[hooks.state."..."]`` standing among other tables moves up to the ``[[hooks.X]]`` ones (3 of
    1,000 worlds; tomlkit's blank lines, its dropped comment-only ``[hooks]`` and its moves on an
    upgrade were differences once, in 36 of 1,000)."""
    cases = attack_size(60, 1000)
    failures = _attack(tmp_path, home, True, cases)
    lost = [f for f in failures if not f.startswith("not the same bytes")]
    attack_report("TOML inline hooks + trust", cases=cases, data_lost=len(lost), bytes_differ=len(failures) - len(lost))
    assert not lost, f"{len(lost)} of {cases}:\n" + "\n".join(lost[:5])
