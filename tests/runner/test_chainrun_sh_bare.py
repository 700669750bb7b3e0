"""The sh runner as install writes it: bare (no comments, no blank lines) and with its own host's facts
only (``shfacts.bare``, ``shfacts.host_facts``), which must change no command the shell runs."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from hookweave.core.model import shfacts
from hookweave.core.plan import chainsh


def declared(text: str) -> str:
    """``text`` as bash parsed it: the body of a function holding it, printed by ``declare -f`` (bash
    prints the commands, here-documents and quoting it read, and no comment)."""
    done = subprocess.run(["bash", "-c", 'eval "hw_whole() {\n$0\n}" && declare -f hw_whole', text],
                          capture_output=True, text=True, check=True)
    return done.stdout


@pytest.mark.parametrize("text", [shfacts.body(), shfacts.shapes(), shfacts.facts_text(),
                                  shfacts.body().replace(chainsh.SHAPES_HERE, shfacts.shapes())],
                         ids=["body", "shapes", "facts", "runner"])
def test_the_bare_text_is_the_same_commands(text: str) -> None:
    bare = shfacts.bare(text)
    assert "\n#" not in "\n" + bare and "\n\n" not in bare
    assert len(bare) < len(text) or text == shfacts.facts_text()
    assert declared(bare) == declared(text)


def test_bare_drops_comments_only_where_they_start_a_word() -> None:
    text = ("# a comment\n  # indented\nx=1  # after code\ncase $a in *#*) ;; esac\n"
            "echo \"a # b\"\necho $#\n\n\techo 'keep #'\n")
    assert shfacts.bare(text) == "x=1\ncase $a in *#*) ;; esac\necho \"a # b\"\necho $#\n\techo 'keep #'\n"


FACTS_OF_EVERY_EVENT = """
. "$0"
for hw_e in $1; do
  if hw_facts "$2" "$hw_e"; then echo "$hw_e|$hw_shell|$hw_field|$hw_E|$hw_T"; else echo "$hw_e none"; fi
done
"""


@pytest.mark.parametrize("protocol", shfacts.SH_HOSTS)
def test_each_host_runner_holds_that_hosts_facts_and_no_other(tmp_path, protocol: str) -> None:
    events = sorted({e for h in shfacts.SH_HOSTS for e in shfacts.events(h)})

    def facts(text: str, host: str) -> str:
        script = tmp_path / "facts.sh"
        script.write_text(text, encoding="utf-8")
        return subprocess.run(["sh", "-c", FACTS_OF_EVERY_EVENT, str(script), " ".join(events), host],
                              capture_output=True, text=True, check=True).stdout

    own = shfacts.host_facts(protocol)
    assert facts(own, protocol) == facts(shfacts.facts_text(), protocol)
    assert f"{protocol}:" in own
    for other in set(shfacts.SH_HOSTS) - {protocol}:
        assert f"{other}:" not in own
    assert "|" not in facts(own, "cline" if protocol != "cline" else "claude").replace(" none", "")


def test_install_writes_the_runner_of_the_settings_host() -> None:
    claude, codex = chainsh.runner_text("claude"), chainsh.runner_text("codex")
    assert chainsh.pristine(claude) and chainsh.pristine(codex) and claude != codex
    assert "codex:" not in claude and "claude:" not in codex
    assert len(claude) < len(chainsh.runner_text()) < len(shfacts.facts_text()) + len(shfacts.body())


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash: the sh most hosts' /bin/sh is")
def test_the_reader_is_parsed_only_when_a_matcher_needs_it(tmp_path) -> None:
    """An event with no matcher ends before the shell reaches the matchers' reader: a runner whose
    reader is cut off (a syntax error put in its place) still runs such a chain, and fails one with
    a matcher."""
    text = chainsh.runner_text("claude")
    start, end = text.index("hw_small() {"), text.index("\nhw_reader=1\n")
    broken = tmp_path / "settings.hookweave-chain.sh"
    broken.write_text(text[:start] + "if then fi\n" + text[end:], encoding="utf-8")
    payload = b'{"tool_name": "Bash"}'

    def chain(matcher: str) -> subprocess.CompletedProcess:
        return subprocess.run(["dash", str(broken), "claude", "PreToolUse", "m0", "5", matcher, "echo ran >&2"],
                              input=payload, capture_output=True, timeout=30)

    plain = chain("")
    assert (plain.returncode, plain.stderr) == (0, b"ran\n")
    matched = chain("Bash")
    assert b"ran" not in matched.stderr and b"Syntax error" in matched.stderr


def test_a_read_that_may_fail_is_silenced_before_its_file_is_opened() -> None:
    """The shell makes a command's redirections in order, and says a failed one on the stderr it has
    then: `read x </proc/uptime 2>/dev/null` printed "cannot open /proc/uptime" to the host on every
    member where there is no /proc (macOS). Every input redirection silenced on the same command must
    come after `2>/dev/null` (bash's own reading of the runner, one command a line)."""
    import re

    runner = declared(shfacts.body().replace(chainsh.SHAPES_HERE, shfacts.shapes()))
    late = [line.strip() for line in runner.splitlines() if re.search(r" < \S+ 2> /dev/null", line)]
    assert late == []
