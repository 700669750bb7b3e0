"""The matcher's field cut out of the payload without the scan (issue 38): where the text before the
first ``"tool_name"`` proves it a key of the top object (a ``{`` first, no ``{``, ``[`` or backslash
before it, after ``{`` or a comma), its value a string without a backslash, the name in the payload
once and no ``\\u`` anywhere, the sh runner tests the members' matchers on that value; when each takes
it, every member runs without the scan, as Python runs every member of a payload that is no JSON
object. Anything else, and a matcher that skips a member, goes through the scan as before.

Each payload runs through the sh path (dash, and bash in a UTF-8 locale) and through the Python runner:
both must run the same members with the same exit code, stdout and stderr.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from hookweave.core.plan import chainsh
from tests.runner.test_chainrun_sh_matchers import EVENT, REAL_PYTHON, folder, run  # noqa: F401  (folder: a fixture)

SHELLS = {"dash": ["sh"], "bash": ["bash", "--posix"]}
MEMBERS = {"all Bash": ["Bash", "^(Bash|Write)$", "Read|Bash"], "mixed": ["Bash", "^(Read|Write)$", ""],
           "Read": ["Read"], "any first": ["", "Write", "Bash"]}  # (any first: the scan is asked twice)
ADVERSARIAL = [  # where a cut without the scan could read the wrong field
    b'{"tool_input": {"tool_name": "Bash"}, "tool_name": "Read"}',  # nested before the top-level key
    b'{"tool_input": {"tool_name": "Read"}, "tool_name": "Bash"}',
    b'{"tool_name": "Bash", "tool_input": {"tool_name": "Read"}}',  # nested after it
    b'{"x": "\\"tool_name\\": \\"Bash\\"", "tool_name": "Read"}',  # in a string, escaped quotes
    b'{"x": "tool_name", "tool_name": "Read"}', b'{"tool_name": "tool_name"}',  # a value, the name as a value
    b'{"x": "a\\\\", "tool_name": "Read"}', b'{"x": "a\\"", "tool_name": "Bash"}',  # escapes before it
    b'{"tool_name": "Bash", "tool_name": "Read"}', b'{"tool_name": "Read", "tool_name": "Bash"}',  # duplicates
    b'{"tool\\u005fname": "Read", "tool_name": "Bash"}', b'{"tool_name": "Bash", "tool\\u005fname": "Read"}',
    b'{"tool_name": "Bash", "x": "\\u0041"}', b'{"tool_name": "Bash", "x": "\\\\u"}',
    b'{"a": ["tool_name", "x"], "tool_name": "Read"}', b'{"a": ["x", "tool_name"], "b": 1}',  # arrays
    b'{"a": ["x", "tool_name", "Bash"]}', b'{"a": {"b": 1}, "tool_name": "Bash"}', b'{"x": "{[", "tool_name": "Bash"}',
    b'{"tool_name": "Ba\\"sh"}', b'{"tool_name": "Bash\\u0000"}', b'{"tool_name": "Bas\\u0068"}',  # escaped values
    b'{"tool_name": 5}', b'{"tool_name": null, "x": "Bash"}', b'{"tool_name": ["Bash"]}', b'{"tool_name": ""}',
    b'{"tool_name" : "Bash" }', b'{"tool_name":"Bash"}', b'{\n"tool_name"\n:\n"Bash"\n}\n', b' {"tool_name": "Bash"}',
    b'{"x": "a", "tool_name": "Bash", "tool_input": {"command": "echo \\"tool_name\\""}}',
    b'{"tool_name_x": "Read", "xtool_name": "Read", "tool_name": "Bash"}',
    b'{"x": "y""tool_name": "Bash"}', b'{"x": "y" "tool_name": "Bash"}', b'{"x" "tool_name": "Bash"}',  # not JSON
    b'{"tool_name": "Bash",}', b'{"tool_name": "Bash"}}', b'{"tool_name": "Bash"} x', b'{"tool_name": "Bash"',
    b'{"tool_name": "Read",}', b'{"x": {"tool_name": "Bash"}', b'{"tool_name": "Bash", "x": [}',
    b'{"tool_name": "Bash"} {"tool_name": "Read"}', b'[{"tool_name": "Bash"}]', b'{"tool_name": "Bash", "x": 01}',
    b'{"tool_name": "Bash", "x": "caf\xc3\xa9"}', b'{"tool_name": "Bash", "x": "\xff"}', b'{"tool_name": "B\xc3\xa9"}',
    b'{"a": "}", "tool_name": "Bash"}', b'{"a": "]", "tool_name": "Bash"}', b'{"a": 1}, "tool_name": "Bash"}',
    json.dumps({"tool_name": "Bash", "x": [[[[[[[[[[1]]]]]]]]]]}).encode(),
]
FAST = [  # decided by the cut: every member takes the name
    b'{"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}}\n',
    b'{"tool_name": "Bash", "tool_input": {"command": "echo \\"x\\" \\\\ \\n"}}', b'{"tool_name": "Bash",}',
]


def both(folder, shell: str, host: str, matchers: list[str], payload: bytes) -> tuple[tuple, tuple]:
    """(sh, Python): each member notes its name when it runs; a last member has no matcher."""
    words = []
    for n, matcher in enumerate(matchers):
        words += [f"m{n}", "10", matcher, f'echo m{n} >>"$LOG"']
    words += ["last", "10", "", 'echo last >>"$LOG"']
    sh = run(folder, [*SHELLS[shell], str(folder / "settings.hookweave-chain.sh"), host, EVENT[host], *words], payload)
    py = run(folder, [REAL_PYTHON, "-S", str(folder / "settings.hookweave-chain.py"), host, EVENT[host], *words],
             payload)
    return sh, py


@pytest.mark.parametrize("shell", sorted(SHELLS))
@pytest.mark.parametrize("members", sorted(MEMBERS))
@pytest.mark.parametrize("payload", ADVERSARIAL + FAST)
def test_the_cut_reads_the_field_as_python_does_or_leaves_it_to_the_scan(folder, shell, members, payload,
                                                                         monkeypatch):
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    sh, py = both(folder, shell, "claude", MEMBERS[members], payload)
    assert sh[:4] == py[:4]
    if payload in FAST and members == "all Bash":
        assert not sh[4], "handed over to Python"


@pytest.mark.parametrize("host", sorted(EVENT))
@pytest.mark.parametrize("tool", ["Bash", "Read", "apply_patch", "run_shell_command", "Bas"])
def test_every_sh_host_reads_the_cut_field_as_python_does(folder, host, tool):
    payload = json.dumps({"session_id": "s", "tool_name": tool, "tool_input": {}}).encode()
    for matchers in (["Bash", "Bash|Write"], ["shell|Bash", "^(Read|Bash)$"], ["Write|Edit"]):
        sh, py = both(folder, "dash", host, matchers, payload)
        assert sh[:4] == py[:4], (host, tool, matchers)


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash: the sh most hosts' /bin/sh is")
def test_the_scan_is_parsed_only_when_the_cut_cannot_decide(tmp_path) -> None:
    """A runner whose scan (hw_read_query and its helpers) is cut off still runs a chain whose matchers
    all take the name the cut read, and fails one where the cut cannot prove the name, or a matcher
    skips a member (the scan must prove the payload JSON then)."""
    text = chainsh.runner_text("claude")
    start, end = text.index("hw_read_query() {"), text.index('[ "$hw_rc" -ne 4 ] ||')
    broken = tmp_path / "settings.hookweave-chain.sh"
    broken.write_text(text[:start] + "if then fi\n" + text[end:], encoding="utf-8")

    def chain(matcher: str, payload: bytes) -> subprocess.CompletedProcess:
        return subprocess.run(["dash", str(broken), "claude", "PreToolUse", "m0", "5", matcher, "echo ran >&2"],
                              input=payload, capture_output=True, timeout=30)

    cut = chain("Bash", b'{"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}}\n')
    assert (cut.returncode, cut.stderr) == (0, b"ran\n")
    for matcher, payload in (("Bash", b'{"x": "a\\"b", "tool_name": "Bash"}'), ("Read", b'{"tool_name": "Bash"}')):
        scanned = chain(matcher, payload)
        assert b"ran" not in scanned.stderr and b"Syntax error" in scanned.stderr
