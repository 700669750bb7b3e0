"""Start-up (issue 38): an everyday command on a JSON-only host loads no heavy module, no protocol judge
and no editor it does not use; what it skips at run time (the built-in hosts' admission, the judges'
names) is held here instead.

Each command runs in a fresh ``python`` as ``hooks`` runs it (``entry.main``, which ends with
``os._exit`` after the ``atexit`` functions): an ``atexit`` function writes the modules it loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.contract import admission
from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.registry import HostRegistry
from hookweave.core.standalone import protocol, verdicts

HEAVY = ("questionary", "tomlkit", "jsonpatch", "pluggy", "pydantic", "rich", "email", "importlib.metadata")
# Ours, loaded only by the commands that use them: the fifteen judges (``hooks check``, the chain
# runner), the editor's span chain (install with something to write), TOML writers.
UNUSED = ("hookweave.core.standalone.protocol", "hookweave.core.standalone.protocol_claude",
          "hookweave.core.standalone.protocol_qwen", "hookweave.core.formats.jsonedit",
          "hookweave.core.formats.jsonspans", "hookweave.core.formats.tomlkitedit")

PROBE = """
import atexit, json, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
atexit.register(lambda: open({out!r}, "w").write(json.dumps(sorted(sys.modules))))
from hookweave.core.cli.entry import main
main()
"""


def probed(probe: str, project: Path, out: Path, *argv: str):
    """What ``probe`` (a ``hooks`` run with ``{out}`` to write its JSON to) found running ``argv`` in ``project``."""
    done = subprocess.run([sys.executable, "-c", probe.format(out=str(out)), json.dumps(argv)], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


def loaded(project: Path, tmp_path: Path, *argv: str) -> set[str]:
    return set(probed(PROBE, project, tmp_path / "modules.json", *argv))


@pytest.fixture
def installed(run, project: Path) -> Path:
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0, result.output
    return project


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_everyday_commands_on_a_json_host_load_nothing_heavy(installed, tmp_path, argv):
    modules = loaded(installed, tmp_path, *argv)
    assert "hookweave.hosts.claude" in modules  # the probe saw the command run
    assert sorted(m for m in (*HEAVY, *UNUSED) if m in modules) == []


def test_a_no_op_install_of_a_plain_manifest_reads_it_without_tomllib(installed, tmp_path):
    """tomllib's import (its patterns, ``string``) was 3% of a no-op install: a manifest of headers
    and one-line values is read by ``formats/tomlplain.py``."""
    modules = loaded(installed, tmp_path, "install", "example-guard", "--host", "claude")
    assert "hookweave.core.formats.tomlplain" in modules  # the manifest was read
    assert sorted(m for m in ("tomllib", "string", "tomlkit") if m in modules) == []


def test_the_judged_protocols_names_are_the_judges():
    """``verdicts.JUDGED`` lets a command know the names without loading the judges: the judges' and
    the built-in rows of data's (Windsurf's)."""
    from hookweave.core.standalone.protocol_data import BUILTIN

    assert protocol.known() == verdicts.JUDGED and set(verdicts.JUDGED) == set(protocol._JUDGES) | set(BUILTIN)
    assert not set(protocol._JUDGES) & set(BUILTIN)


def test_every_built_in_host_passes_the_admission_a_plugin_host_gets():
    """The registry no longer checks built-in hosts on every command: this test does."""
    registry = HostRegistry()
    for name in BUILT_IN:
        cls = registry.info(name).cls
        assert admission.checked(cls) is cls


PATTERNS_PROBE = """
import atexit, json, re, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
compiled = []
real_compile = re._compile
def compiling(pattern, flags):
    compiled.append(pattern if isinstance(pattern, str) else "")
    return real_compile(pattern, flags)
re._compile = compiling
atexit.register(lambda: open({out!r}, "w").write(json.dumps(compiled)))
from hookweave.core.cli.entry import main
main()
"""


def compiled_patterns(project: Path, tmp_path: Path, *argv: str) -> list[str]:
    out = tmp_path / "patterns.json"
    done = subprocess.run([sys.executable, "-c", PATTERNS_PROBE.format(out=str(out)), json.dumps(argv)],
                          cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_everyday_commands_compile_only_the_patterns_they_use(installed, tmp_path, argv):
    """A module's patterns compile on first use (``LazyPattern``): loading a module for one function
    does not compile the patterns of the others (the twenty ``status`` met were 3% of it)."""
    from hookweave.core.cli import usage
    from hookweave.core.model import commandcheck, jsregex

    unused = {usage.NUMBER_TYPES.pattern, jsregex.QUANTIFIER.pattern, jsregex.HEX.pattern, commandcheck.WINDOWS.pattern}
    compiled = compiled_patterns(installed, tmp_path, *argv)
    assert compiled  # the probe saw patterns compiled (json's, as it loads)
    assert sorted(unused & set(compiled)) == []


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_everyday_commands_on_ascii_files_compile_no_surrogate_class(installed, tmp_path, argv):
    """A character class spanning the surrogates compiles into a table of the whole Basic
    Multilingual Plane (about 1-2 ms each, textsafe's and the record's): compiled only for a text
    that is not ASCII, which these files and outputs are not."""
    compiled = compiled_patterns(installed, tmp_path, *argv)
    assert compiled  # the probe saw patterns compiled (json's, as it loads)
    assert [p for p in compiled if any("\ud800" <= c <= "\udfff" for c in p)] == []


NAMEDTUPLE_PROBE = """
import atexit, collections, json, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
made = []
real_namedtuple = collections.namedtuple
def namedtuple(*args, **kwargs):
    frame = sys._getframe(1)
    while frame.f_globals.get("__name__") in ("typing", "collections"):
        frame = frame.f_back
    made.append(frame.f_globals.get("__name__", ""))
    return real_namedtuple(*args, **kwargs)
collections.namedtuple = namedtuple
atexit.register(lambda: open({out!r}, "w").write(json.dumps(made)))
from hookweave.core.cli.entry import main
main()
"""


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_everyday_commands_compile_no_named_tuple_class_of_ours(installed, tmp_path, argv):
    """``typing.NamedTuple`` compiles a ``__new__`` for each class as its module loads (about half a
    million instructions; a no-op install loaded twenty): our value classes are ``FieldTuple``s."""
    out = tmp_path / "namedtuples.json"
    done = subprocess.run([sys.executable, "-c", NAMEDTUPLE_PROBE.format(out=str(out)), json.dumps(argv)],
                          cwd=installed, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    made = json.loads(out.read_text())
    assert made  # the probe saw named tuples made (the standard library's, as typer loads it)
    assert [module for module in made if module.startswith("hookweave")] == []


def test_an_install_beside_many_operator_hooks_searches_only_commands_that_may_be_ours(run, project, monkeypatch):
    """Every command of a settings file is asked whose it is, several times a command (the plan, its
    proof, the gates): an operator's command without ``# hookweave:`` in it is answered without the
    marker's pattern (a 10,000-entry file's fresh install: 3.6 million instructions fewer)."""
    from hookweave.core.model import render

    groups = [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"~/bin/check-{i}.sh"}]} for i in range(200)]
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": groups}}, indent=2) + "\n", encoding="utf-8")
    searched = []
    pattern = render.MARKER_RE

    class Counting:
        def search(self, text):
            searched.append(text)
            return pattern.search(text)

    monkeypatch.setattr(render, "MARKER_RE", Counting())
    result = run("install", "example-guard", "--host", "claude")
    assert result.exit_code == 0, result.output
    assert searched  # our own two entries were found by the pattern
    assert [text for text in searched if "# hookweave:" not in text] == []
    assert [g["hooks"][0]["command"] for g in json.loads(settings.read_text())["hooks"]["PreToolUse"][1:]] == [
        f"~/bin/check-{i}.sh" for i in range(200)]


@pytest.mark.parametrize("argv", [["verify", "--host", "claude"], ["status"],
                                  ["install", "example-guard", "--host", "claude"]])
def test_everyday_commands_compile_no_pattern_a_string_method_answers(installed, tmp_path, argv):
    """A pattern costs a quarter of a million instructions to compile (our marker's, 0.9 million): a
    distribution's name normalized, a bare TOML key, a whole number, our temp files' names, our
    marker and a command holding only the placeholders written right are checked with string
    methods (``entrypoints._normalize``, ``tomlplain.bare_key``, ``filelock._temp_of``,
    ``render.marker_in``, ``commandcheck._only_placeholders``)."""
    from hookweave.core.model import commandcheck, render

    compiled = compiled_patterns(installed, tmp_path, *argv)
    assert compiled  # the probe saw patterns compiled (json's, as it loads)
    simple = {r"[-_.]+", r"[A-Za-z0-9_-]+", r"-?[0-9]+", render.MARKER_RE.pattern, commandcheck.BRACED.pattern}
    assert [p for p in compiled if p in simple or p.endswith(r"\.hookweave\-tmp")] == []
