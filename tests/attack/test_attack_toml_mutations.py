"""Attack: a TOML file broken in the ways people break them, through every command (issue 33, item 6).

A Kimi ``config.toml`` and a Codex user ``config.toml`` (inline hooks and trust tables) hold a
bundle hookweave installed; then the file is mutated: a key or a table header written twice, an
array of tables reopened as a table (and the other way round), a value TOML has no spelling for,
dotted keys out of order or over a value, a table over a key, a character taken out or put in, the
file cut short. Then install (an upgrade, so it writes), verify, status and uninstall, through the
real CLI.

Oracles: every command exits 0, 1 or 2, never with an exception (tomlkit's ``KeyAlreadyPresent``
has no line and was a traceback); where install or uninstall exits 2, it says one line and the
file keeps every byte.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import app
from tests.conftest import attack_size

pytestmark = pytest.mark.attack

DATA = Path(__file__).parent.parent / "data"
KIMI = (DATA / "kimi" / "operator.config.toml").read_text(encoding="utf-8")
CODEX = ('model = "o3"\nprofile.default.model = "x"\n\n[features]\nhooks = true\n\n[[servers]]\nname = "a"\n\n'
         '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "operator-stop"\n\n'
         '[tui]\nnotifications.enabled = true\n')
BUNDLE = ('[bundle]\nname = "b"\nversion = "{v}"\n[[hooks]]\nid = "one"\nevent = "stop"\ncommand = "one {v}"\n'
          '[[hooks]]\nid = "two"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "two"\n')
BAD_VALUES = ["bad", "1_", '"unterminated', "1979-13-01", "[1,", "{ a = 1", "0x", "'''", "nan nan", "+", "tru"]
CHARS = list("[]=\"'.,{}\n# \x00\t\\")


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    keys = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith(("#", "["))]
    headers = [i for i, line in enumerate(lines) if line.lstrip().startswith("[")]
    at = rng.randrange(len(lines) + 1)
    kind = rng.randrange(11)
    if kind == 0 and keys:  # a key written twice
        lines.insert(rng.choice(keys) + 1, lines[rng.choice(keys)])
    elif kind == 1 and headers:  # a table header written twice
        lines.insert(at, lines[rng.choice(headers)])
    elif kind == 2 and headers:  # an array of tables reopened as a table, or a table as an array of tables
        name = lines[rng.choice(headers)].split("#")[0].strip().strip("[]")
        lines.insert(at, f"[{name}]" if rng.random() < 0.5 else f"[[{name}]]")
    elif kind == 3 and keys:  # a value TOML has no spelling for
        i = rng.choice(keys)
        lines[i] = lines[i].split("=")[0] + "= " + rng.choice(BAD_VALUES)
    elif kind == 4:  # dotted keys out of order, or over a value
        lines.insert(at, rng.choice(["a.b = 1\nc = 2\na.c = 3", "a.b = 1\na = 2", "a = 1\na.b = 2",
                                     "event.x = 1", "hooks.x = 1", "thinking = 1", "command.y = 2"]))
    elif kind == 5 and keys and headers:  # a table over one of the file's keys
        key = lines[rng.choice(keys)].split("=")[0].strip()
        name = lines[rng.choice(headers)].split("#")[0].strip().strip("[]")
        lines.append(f"[{name}.{key}]\nx = 1")
    elif kind == 6:
        lines.insert(at, rng.choice(["[hooks]", "[[hooks]]", "hooks = 1", "[hooks.Stop]", "[[hooks.Stop]]",
                                     "[hooks.state]", "hooks = []", "[]", "[a.]", "= 1", "\"\" = 1", "[[]]"]))
    elif kind in (7, 8):  # a character taken out or put in
        flat = "\n".join(lines)
        if flat:
            i = rng.randrange(len(flat))
            flat = flat[:i] + flat[i + 1:] if kind == 7 else flat[:i] + rng.choice(CHARS) + flat[i:]
        return flat
    elif kind == 9:  # cut short
        flat = "\n".join(lines)
        return flat[:rng.randrange(len(flat) + 1)]
    else:  # two lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _invoke(runner: CliRunner, args: list[str], config: Path, text: str) -> str | None:
    before = config.read_bytes() if config.exists() else None
    result = runner.invoke(app, args)
    said = f"{args[0]} exit {result.exit_code} on {text!r}: {result.output[-300:]!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"{args[0]}: {result.exception!r} on {text!r}"
    if result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
        return said
    if result.exit_code == 2 and args[0] in ("install", "uninstall"):
        after = config.read_bytes() if config.exists() else None
        if result.stderr.count("\n") != 1 or after != before:
            return f"{said} (not one line, or the file written)"
    return None


def _case(seed: int, base: Path, host: str, monkeypatch) -> str | None:
    rng = random.Random(seed)
    home, project, bundle = base / "home", base / "project", base / "bundle"
    for folder in (home, project, bundle):
        folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("KIMI_CODE_HOME", str(home / ".kimi-code"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.chdir(project)
    config = home / (".kimi-code" if host == "kimi" else ".codex") / "config.toml"
    config.parent.mkdir()
    config.write_text(KIMI if host == "kimi" else CODEX, encoding="utf-8")
    extra = ["--scope", "user", "--trust"] if host == "codex" else []
    runner = CliRunner()
    (bundle / "hookweave.toml").write_text(BUNDLE.format(v="1"), encoding="utf-8")
    first = runner.invoke(app, ["install", str(bundle), "--host", host, *extra])
    assert first.exit_code == 0, first.output
    text = config.read_text(encoding="utf-8")
    for _ in range(rng.randint(1, 3)):
        text = _mutate(text, rng)
    config.write_bytes(text.encode("utf-8", "surrogatepass"))
    (bundle / "hookweave.toml").write_text(BUNDLE.format(v="2"), encoding="utf-8")
    for args in (["install", str(bundle), "--host", host, *extra], ["verify", "--host", host], ["status"],
                 ["uninstall", "b", "--host", host] + (["--scope", "user"] if host == "codex" else [])):
        problem = _invoke(runner, args, config, text)
        if problem:
            return problem
    return None


@pytest.mark.parametrize("host", ["kimi", "codex"])
def test_a_broken_toml_file_is_never_a_traceback(host, tmp_path, monkeypatch, attack_report) -> None:
    cases = attack_size(40, 600)
    failures = [p for seed in range(cases) if (p := _case(seed, tmp_path / f"case{seed}", host, monkeypatch))]
    attack_report(f"TOML mutations ({host})", cases=cases, failures=len(failures))
    assert not failures, f"{len(failures)} of {cases}:\n" + "\n".join(failures[:5])
