"""The sh fast path's plain members (issue 24): a member whose command is one simple command of plain
words starts its program from the runner itself, without the host's shell (which costs bash a
millisecond per member), and must do exactly what that shell would have done with the command.

Each command runs twice, through the chain and through ``bash -c`` as the host runs a hook, and what
the member logged (its words) and the chain's exit code and stderr must be the same; ``SHLVL``,
which bash sets (0 when it hands its process over to the command) and dash leaves unset, tells which
way the member was started.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookweave.core.plan import chain, chainsh

PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}).encode()
SHOW = 'printf "%s|" "$@" >>"$LOG"; printf "shlvl=%s\\n" "${SHLVL-unset}" >>"$LOG"; cat >/dev/null; exit "${CODE:-0}"\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    chain_dir = tmp_path / "hooks dir"  # a blank in the path: quoted expansions keep it one word
    chain_dir.mkdir()
    (tmp_path / "settings.hookweave-chain.py").write_text(chain.runner_text(), encoding="utf-8")
    (tmp_path / "settings.hookweave-chain.sh").write_text(chainsh.runner_text(), encoding="utf-8")
    for name, text in {"show.sh": "#!/bin/sh\n" + SHOW, "bare.sh": '[[ -n bash ]] && echo bash-ran >>"$LOG" || echo sh-ran >>"$LOG"\n',
                       "closed.sh": "#!/bin/sh\necho never\n", "show": "#!/bin/sh\n" + SHOW,
                       "crlf.sh": "#!/bin/sh\r\necho crlf\r\n", "nointerp.py": "#!/no/such/python3\nprint(1)\n",
                       "spaced.sh": "#!  /bin/sh  -e\necho spaced >>\"$LOG\"\n"}.items():
        (chain_dir / name).write_text(text, encoding="utf-8")
        (chain_dir / name).chmod(0o644 if name == "closed.sh" else 0o755)
    monkeypatch.setenv("PATH", f"{chain_dir}{os.pathsep}{Path(sys.executable).resolve().parent}{os.pathsep}"
                       + os.environ["PATH"])
    monkeypatch.setenv("CHAIN_DIR", str(chain_dir))
    monkeypatch.delenv("SHLVL", raising=False)
    monkeypatch.setenv("EMPTY", "")
    monkeypatch.setenv("LOG", str(tmp_path / "log"))
    return tmp_path


def logged(folder: Path) -> str:
    log = folder / "log"
    text = log.read_text() if log.exists() else ""
    log.unlink(missing_ok=True)
    return text


def through_chain(folder: Path, command: str, host: str = "claude") -> tuple[int, bytes, bytes, str]:
    argv = ["sh", str(folder / "settings.hookweave-chain.sh"), host, "PreToolUse", "m", "10", "", command]
    done = subprocess.run(argv, input=PAYLOAD, capture_output=True, timeout=30, cwd=folder)
    return done.returncode, done.stdout, done.stderr, logged(folder)


def through_bash(folder: Path, command: str) -> tuple[int, bytes, bytes, str]:
    done = subprocess.run(["bash", "-c", command], input=PAYLOAD, capture_output=True, timeout=30, cwd=folder)
    return done.returncode, done.stdout, done.stderr, logged(folder)


@pytest.mark.parametrize("command", [
    '"$CHAIN_DIR"/show.sh one "two words" \'three\'',
    '"${CHAIN_DIR}"/show.sh # hookweave:bundle/id',
    'sh "$CHAIN_DIR/show.sh" a',
    "show.sh a b",  # found on PATH, as bash finds it
    '$EMPTY "$CHAIN_DIR"/show.sh x',  # an empty unquoted expansion is no word at all
    '"$CHAIN_DIR"/show.sh "$EMPTY" ${UNSET_NAME}',
])
def test_a_plain_command_starts_its_program_itself_with_the_hosts_result(folder, command):
    code, out, err, log = through_chain(folder, command)
    direct = through_bash(folder, command)
    assert (code, out, err, log.replace("shlvl=unset", "shlvl=0")) == direct
    assert log.endswith("shlvl=unset\n")  # no bash between the runner and the member


@pytest.mark.parametrize("command, why", [
    ("CODE=3 show x", "an assignment before the command"),
    ("show $CODE", "an expansion in the first word's place"),
    ('"$CHAIN_DIR"/show.sh $BASH_VERSION', "a variable bash sets itself"),
    ("show a", "a program neither an interpreter nor a script by its name"),
    ("${CHAIN_DIR}/show.sh x", "an unquoted expansion holding a blank: two words, the shell says not found"),
    ('"$CHAIN_DIR"/show.sh > /dev/null', "a redirection"),
    ('"$CHAIN_DIR"/show.sh; true', "a list"),
    ('"$CHAIN_DIR"/show.sh ~', "a tilde"),
    ('"$CHAIN_DIR"/show.sh ${CHAIN_DIR#/}', "an expansion with an operator"),
    ('"$CHAIN_DIR"/show.sh $1', "a positional parameter"),
])
def test_anything_past_plain_words_goes_to_the_hosts_shell(folder, command, why):
    code, out, err, log = through_chain(folder, command)
    assert (code, out, err, log) == through_bash(folder, command), why
    assert "shlvl=unset" not in log, why


@pytest.mark.parametrize("command", [
    '"$CHAIN_DIR"/bare.sh',  # no #!: bash runs it as a bash script, dash would run it as its own
    '"$CHAIN_DIR"/closed.sh',  # not executable: the shell's own message and exit 126
    "no-such-program-anywhere x",  # not found: the shell's own message and exit 127
    '"$CHAIN_DIR"/missing.sh',
    '"$CHAIN_DIR"/crlf.sh',  # a CR after the interpreter: bash's "cannot execute", not dash's "not found"
    '"$CHAIN_DIR"/nointerp.py x',  # no such interpreter: bash's own words and exit code
    "\"$CHAIN_DIR\"/show.sh 'unbalanced",  # bash's syntax error, not the runner's eval's
    '"$CHAIN_DIR"/spaced.sh',  # blanks around the interpreter: started plainly, as the kernel reads it
])
def test_what_only_the_shell_can_say_or_do_is_left_to_the_shell(folder, command):
    """A chain of one: the host gets the member's exit code, stdout and stderr as they are, so they
    must be bash's own; and after a silent member, the chain's note names the member (a syntax
    error's exit 2 blocks, as bash's exit 2 does alone); the Python runner says the same."""
    assert through_chain(folder, command) == through_bash(folder, command)
    seen = both_runners(folder, ["first", "10", "", "true", "m", "10", "", command, "last", "10", "", "true"])
    code, _, err, _ = through_bash(folder, command)
    assert seen["sh"] == seen["py"]
    if code == 2:
        assert seen["sh"][:3] == (2, b"", err)
    else:
        assert seen["sh"][0] == 0 and seen["sh"][2].startswith(err) and (code == 0 or b"m: exit" in seen["sh"][2])


def test_plain_members_of_a_sh_host_keep_order_and_first_block_wins(folder):
    members = ["m1", "10", "", '"$CHAIN_DIR"/show.sh first', "m2", "10", "", "false", "m3", "10", "", "true",
               "m4", "10", "", "sh -c 'exit 2'", "m5", "10", "", '"$CHAIN_DIR"/show.sh never']
    argv = ["sh", str(folder / "settings.hookweave-chain.sh"), "cursor", "preToolUse", *members]
    done = subprocess.run(argv, input=PAYLOAD, capture_output=True, timeout=30, cwd=folder)
    direct = subprocess.run(["python3", "-S", str(folder / "settings.hookweave-chain.py"), *argv[2:]],
                            input=PAYLOAD, capture_output=True, timeout=30, cwd=folder)
    assert (done.returncode, done.stdout, done.stderr) == (direct.returncode, direct.stdout, direct.stderr)
    assert done.returncode == 2


# -- the two runners agree (issue 33): each case runs through the sh fast path and the Python runner,
# on the same members, and both must run the same members and give the same exit code, stdout and stderr

def both_runners(folder: Path, members: list[str], host: str = "claude", event: str = "PreToolUse",
                 payload: bytes = PAYLOAD, env: dict | None = None) -> dict[str, tuple[int, bytes, bytes, str]]:
    seen = {}
    for how, lead in (("sh", ["sh", str(folder / "settings.hookweave-chain.sh")]),
                      ("py", ["python3", "-S", str(folder / "settings.hookweave-chain.py")])):
        done = subprocess.run([*lead, host, event, *members], input=payload, capture_output=True, timeout=60,
                              cwd=folder, env=env)
        seen[how] = (done.returncode, done.stdout, done.stderr, logged(folder))
    return seen


def test_members_start_with_sigpipe_at_its_default_as_the_hosts_shell_starts_them(folder):
    """Python ignores SIGPIPE and SIGXFSZ, which posix_spawn handed on: `seq | head -1` said "Broken pipe"."""
    command = "seq 1 2000000 | head -1"
    seen = both_runners(folder, ["m", "10", "", command])
    assert seen["sh"] == seen["py"] == (0, b"1\n", b"", "")
    assert seen["py"][:3] == through_bash(folder, command)[:3]
    limit = 'exec 2>/dev/null; ulimit -f 1; head -c 5000 /dev/zero > "$LOG.big"; echo $?'  # SIGXFSZ: 128 + 25
    seen = both_runners(folder, ["m", "10", "", limit])
    assert seen["sh"] == seen["py"] and seen["py"][1] == b"153\n"


def test_a_member_a_signal_ended_is_noted_as_the_shell_says_it(folder):
    members = ["killed", "10", "", "kill -9 $$", "after", "10", "", "true"]
    seen = both_runners(folder, members)
    assert seen["sh"] == seen["py"]
    assert b"killed: exit 137" in seen["py"][2]


def test_an_openharness_member_gets_arguments_as_openharness_gives_a_hook_alone(folder):
    """OpenHarness replaces `$ARGUMENTS` in the command with the shell-quoted payload; the chain's
    registration quotes the members' words past its reach, so the runner must do it for them."""
    import shlex

    from hookweave.core.model.render import _quote

    payload = {"tool_name": "bash", "tool_input": {"command": "echo 'it''s' $HOME"}, "event": "pre_tool_use"}
    members = ["m1", "10", "", 'printf "%s|" $ARGUMENTS >>"$LOG"',
               "m2", "10", "", "printf '%s|' \"$ARGUMENTS\" >>\"$LOG\""]

    def as_openharness(command: str) -> tuple[int, bytes, bytes, str]:  # executor.py: _inject_arguments, bash -lc
        command = command.replace("$ARGUMENTS", shlex.quote(json.dumps(payload, ensure_ascii=True)))
        env = {**os.environ, "OPENHARNESS_HOOK_EVENT": "pre_tool_use", "OPENHARNESS_HOOK_PAYLOAD": json.dumps(payload)}
        done = subprocess.run(["bash", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, env=env,
                              cwd=folder, timeout=30)
        return done.returncode, done.stdout, done.stderr, logged(folder)

    alone = [as_openharness(members[3]), as_openharness(members[7])]
    words = ["python3", "-S", str(folder / "settings.hookweave-chain.py"), "openharness", "pre_tool_use", *members]
    chained = as_openharness(" ".join(_quote(w) for w in words))
    assert chained[3] == alone[0][3] + alone[1][3]
    assert chained[3].startswith('{"tool_name": "bash", ')


RUNNERS = (("sh", ["sh", "settings.hookweave-chain.sh"]), ("py", ["python3", "-S", "settings.hookweave-chain.py"]))


def test_scratch_files_are_private_and_named_by_chance(folder, tmp_path):
    """The sh path's payload copy was 0644 under `.hookweave-chain-<pid>-0`: readable by all, and a
    FIFO planted at that name hung the chain. Both runners: 0600, under a name no one can guess."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    # (2>/dev/null: the sh ticker may be removing its own files while Python runs)
    look = 'for f in "$TMPDIR"/.hookweave-chain-*; do ls -ln "$f" >>"$LOG" 2>/dev/null; done; true'
    env = {**os.environ, "TMPDIR": str(scratch)}
    seen = both_runners(folder, ["m1", "10", "", look, "m2", "10", "", "true"], env=env)
    assert seen["sh"][:3] == seen["py"][:3] == (0, b"", b"")
    lines = seen["sh"][3].splitlines()
    assert lines and all(line.startswith("-rw------- ") for line in lines), lines
    assert all(len(line.rsplit("-", 5)[-5:][0]) >= 8 for line in lines), lines  # a UUID, not a counter


@pytest.mark.parametrize("mask", ["0027", "0002", "0077", "0000"])
def test_members_get_the_hosts_umask_while_the_scratch_files_stay_private(folder, tmp_path, mask):
    """The sh path makes its scratch files under umask 077 in its own shell (no subshell, issue 38),
    then sets the host's umask back, read from /proc: each member creates files as the host's shell
    would have let it, on both runners."""
    members = ["m1", "10", "", 'umask >>"$LOG"; for f in "$TMPDIR"/.hookweave-chain-*.in; do [ ! -e "$f" ] || ls -ln "$f" >>"$LOG"; done',
               "m2", "10", "", 'umask >>"$LOG"']
    seen = {}
    for how, (program, *lead) in RUNNERS:
        scratch = tmp_path / f"scratch-{how}"  # (one each: the sh ticker removes its files a moment later)
        scratch.mkdir()
        env = {**os.environ, "TMPDIR": str(scratch)}
        argv = ["sh", "-c", f'umask {mask}; exec "$@"', "sh", program, *lead[:-1], str(folder / lead[-1]),
                "claude", "PreToolUse", *members]
        done = subprocess.run(argv, input=PAYLOAD, capture_output=True, timeout=60, cwd=folder, env=env)
        seen[how] = (done.returncode, done.stdout, done.stderr, logged(folder).splitlines())
    for how, (code, out, err, lines) in seen.items():
        assert (code, out, err) == (0, b"", b""), how
        assert [lines[0], lines[-1]] == [mask, mask], (how, lines)
    assert seen["sh"][3][1].startswith("-rw------- "), seen["sh"]  # (Python's files have no name to list)


def test_without_proc_the_sh_path_still_runs_on_time_with_the_hosts_umask(folder, tmp_path):
    """Where there is no /proc (macOS, BSD; here an empty one in a mount namespace of the test's own),
    the umask comes from umask itself, the scratch name from mktemp, and the ticker counts its own naps."""
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("no user and mount namespaces here")
    import time

    members = ["m1", "10", "", 'umask >>"$LOG"', "slow", "1", "", "sleep 3", "m3", "10", "", 'umask >>"$LOG"']
    hide = 'mount -t tmpfs tmpfs /proc && umask 0027 && exec "$@"'
    argv = ["unshare", "-rm", "sh", "-c", hide, "sh", "sh", str(folder / "settings.hookweave-chain.sh"), "claude",
            "PreToolUse", *members]
    start = time.monotonic()
    done = subprocess.run(argv, input=PAYLOAD, capture_output=True, timeout=60, cwd=folder)
    took = time.monotonic() - start
    assert done.returncode == 0 and b"slow timed out after 1 s" in done.stderr, done.stderr
    assert logged(folder).splitlines() == ["0027", "0027"]
    assert took < 2.5, took


def test_a_full_tmpdir_with_tmp_free_still_runs_every_guard(folder, tmp_path):
    """$TMPDIR on a full disk (a 64 KiB tmpfs, filled, in a mount namespace of the test's own): both
    runners keep their scratch files in the next folder and run every member, the blocking guard too."""
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("no user and mount namespaces here")
    full = tmp_path / "full"
    full.mkdir()
    fill = ('mount -t tmpfs -o size=64k tmpfs "$TMPDIR" && { head -c 1000000 /dev/zero >"$TMPDIR/fill"; } 2>/dev/null;'
            ' exec "$@"')
    members = ["m1", "10", "", 'cat >>"$LOG"; echo >>"$LOG"', "guard", "10", "", "echo no >&2; exit 2"]
    env = {**os.environ, "TMPDIR": str(full)}
    for how, (program, *lead) in RUNNERS:
        argv = ["unshare", "-rm", "sh", "-c", fill, "sh", program, *lead[:-1], str(folder / lead[-1]), "claude",
                "PreToolUse", *members]
        done = subprocess.run(argv, input=PAYLOAD, capture_output=True, timeout=60, cwd=folder, env=env)
        assert (done.returncode, done.stdout, done.stderr.splitlines()[-1:], logged(folder)) == (
            2, b"", [b"no"], PAYLOAD.decode() + "\n"), how


def test_a_member_is_killed_on_time_on_both_paths(folder):
    """The sh path's ticker counted whole seconds: `sleep 1.5; exit 2` under a 1 s timeout ran to its
    block on sh and timed out on Python; two hanging 1 s members took 3.05 s, past the registration's 3."""
    import time

    seen = both_runners(folder, ["slow", "1", "", "sleep 1.5; exit 2", "after", "10", "", "true"])
    assert seen["sh"] == seen["py"]
    assert seen["py"][0] == 0 and b"slow timed out after 1 s" in seen["py"][2]
    for how, (program, *lead) in RUNNERS:
        start = time.monotonic()
        done = subprocess.run([program, *lead[:-1], str(folder / lead[-1]), "claude", "PreToolUse",
                               "h1", "0.5", "", "sleep 5", "h2", "0.5", "", "sleep 5", "m", "10", "", "exit 2"],
                              input=PAYLOAD, capture_output=True, timeout=60, cwd=folder)
        took = time.monotonic() - start
        assert done.returncode == 2 and took < 1.7, (how, took)
    start = time.monotonic()  # the registration's own timeout leaves room for every member's, and more
    subprocess.run(["sh", str(folder / "settings.hookweave-chain.sh"), "claude", "PreToolUse", "h1", "1", "",
                    "sleep 5", "h2", "1", "", "sleep 5"], input=PAYLOAD, capture_output=True, timeout=60, cwd=folder)
    assert time.monotonic() - start + 1 < chain.chain_timeout(["1", "1"])


@pytest.mark.parametrize("blank", ["\u00a0", "\u2003", "\u3000"])
def test_a_stderr_of_unicode_blanks_is_no_text_where_sh_is_bash_in_a_utf8_locale(folder, blank):
    """bash's [:punct:] takes U+00A0 and friends in a UTF-8 locale: the sh path read the stderr as text
    and blocked on Codex's exit 2, where Python (which strips it) goes on."""
    members = ["m1", "10", "", f"printf '{blank}\\n' >&2; exit 2", "m2", "10", "", "true"]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "SHELL": "/bin/bash"}
    seen = {}
    for how, lead in (("bash", ["bash", "--posix", str(folder / "settings.hookweave-chain.sh")]),
                      ("py", ["python3", "-S", str(folder / "settings.hookweave-chain.py")])):
        done = subprocess.run([*lead, "codex", "PreToolUse", *members], input=PAYLOAD, capture_output=True,
                              timeout=60, cwd=folder, env=env)
        seen[how] = (done.returncode, done.stdout, done.stderr)
    assert seen["bash"] == seen["py"] and seen["py"][0] == 0


LOGS_NAME = 'echo {name} >>"$LOG"'


@pytest.mark.parametrize("payload", [
    b'{"tool_name": "Read", "tool_name": "Bash"}',  # a duplicate: Python's json keeps the last
    b'{"tool_name": "Bash", "tool_input": {"a": 1,}}',  # a trailing comma: not JSON, every member runs
    b'{"tool_name": "Bash"}\x00', b'{"tool_name": "Bash", "x": "a\x00b"}', b'{"tool_name": "Read\x00"}',
    b'{"tool_name": "Bash", "x": "a\tb"}',  # a raw tab in a string: Python's strict scanner refuses it
    b'{"tool_name": "Bash", "n": 01}', b'{"tool_name": "Bash", "n": 1.}', b'{"tool_name": "Bash", "n": -0.5e+3}',
    b'{"tool_name": "Bash", "n": NaN, "m": -Infinity}', b'{"tool_name": "Bash", "n": .5}',
    b'{"tool_name": "Bash"} {"tool_name": "Read"}', b'{"tool_name": "Bash"} x', b'{"tool_name": "Bash"',
    b'{"tool_name": "Bash", "x": "\\q"}', b'{"tool_name": "Bash", "x": "\\u00e9\\"\\\\"}', b'{"tool_name": 5}',
    b'{"x": {"tool_name": "Read"}, "tool_name": "Bash"}', b'{"x": [1, [2, {"y": null}]], "tool_name": "Read"}',
    b'\xef\xbb\xbf{"tool_name": "Bash"}', b' \r\n{"tool_name":"Bash"}\n\n', b'{"tool_name": "Bash", "x": [1 2]}',
    b'{"tool_name": "Bash", "x": "caf\xc3\xa9", "y": "\xff"}', b'{"tool_name": "Bash", "x": tru}',
    b'{"a": ' * 300 + b'1' + b'}' * 300, b'{"tool_name": "Bash", "x": ' + b'1' * 5000 + b'}',
])
def test_both_runners_read_the_matcher_field_of_any_payload_alike(folder, payload):
    """The sh path read tool_name from the payload's head without checking the rest is JSON (a duplicate,
    a trailing comma, a NUL): it ran other members than the Python runner, which reads it as json does."""
    members = []
    for name, matcher in (("bash", "Bash"), ("read", "Read"), ("any", "")):
        members += [name, "10", matcher, LOGS_NAME.format(name=name)]
    seen = both_runners(folder, members, payload=payload)
    assert seen["sh"] == seen["py"]


def test_the_facts_files_are_generated_from_the_python_runners_tables():
    """``core/standalone/chainfacts*.sh`` are what the judges, shells and matcher fields say today:
    regenerate them with ``python -m hookweave.core.model.shfacts`` when one changes."""
    from hookweave.core.model import shfacts

    for hosts, name in shfacts.GENERATED.items():
        assert shfacts._standalone(name) == shfacts.generated(hosts), name
        assert shfacts.facts_text(hosts) == shfacts.computed_facts(hosts), name


def test_writing_a_chain_runner_judges_no_exit_code():
    """Judging every exit code of every event cost each command that wrote or checked a chain runner
    0.7 s of CPU: the runners are written from the generated facts, without the judges."""
    code = ("import sys\nfrom hookweave.core.model import shfacts\nfrom hookweave.core.plan import chainsh\n"
            "chainsh.runner_text(); shfacts.cline_text('PreToolUse', [{'command': 'true'}])\n"
            "print(sorted(m for m in sys.modules if m.endswith('standalone.protocol')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n"


# -- how members start (issue 38): in the foreground under dash with /proc (vfork: no fork of the whole
# shell per member), in the background elsewhere (bash as sh); each way held to the host's shell

STARTS = {"foreground": ["dash"], "background": ["bash", "--posix"]}


def sh_chain(folder: Path, shell: list[str], members: list[str], **run) -> subprocess.CompletedProcess:
    return subprocess.run([*shell, str(folder / "settings.hookweave-chain.sh"), "claude", "PreToolUse", *members],
                          input=PAYLOAD, capture_output=True, timeout=60, cwd=folder, **run)


@pytest.mark.parametrize("way", STARTS)
def test_each_way_of_starting_members_is_the_one_its_shell_takes(folder, way):
    state = 'cat "$TMPDIR"/.hookweave-chain-*.s >>"$LOG"'
    env = {**os.environ, "TMPDIR": str(folder)}
    done = sh_chain(folder, STARTS[way], ["m", "10", "", state, "n", "10", "", "true"], env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    words = logged(folder).split()
    assert words[0] == "0" and (words[1] == "+") == (way == "foreground"), words


@pytest.mark.parametrize("way", STARTS)
@pytest.mark.parametrize("signal_name", ["KILL", "TERM", "SEGV", "ABRT", "USR1", "HUP", "INT", "PIPE"])
def test_a_member_a_signal_ends_says_what_the_hosts_shell_says(folder, way, signal_name):
    """Under dash, a member it waited for in the foreground that a signal ended gets the shell's word
    ("Killed") after its stderr; bash -c hands its process over and says nothing: neither must the
    chain, whether the member kills itself (a plain script) or its shell does (bash -c). Both runners
    give the exit code as 128 + n, the member's own death being no signal of theirs to die of."""
    script = folder / "hooks dir" / f"die-{signal_name}.sh"
    script.write_text(f"#!/bin/sh\necho said >&2\nulimit -c 0\nkill -{signal_name} $$\nsleep 5\n")
    script.chmod(0o755)
    for command in (f'"$CHAIN_DIR"/die-{signal_name}.sh', f"echo said >&2; ulimit -c 0; kill -{signal_name} $$; sleep 5"):
        code, out, err, _ = through_bash(folder, command)  # (a chain exits 128 + n where bash -c died of n)
        last = sh_chain(folder, STARTS[way], ["first", "10", "", "true", "m", "10", "", command])
        assert (last.returncode, last.stdout, last.stderr) == (code if code >= 0 else 128 - code, out, err), command
        middle = sh_chain(folder, STARTS[way], ["m", "10", "", command, "after", "10", "", "echo after >&2"])
        python = subprocess.run(["python3", "-S", str(folder / "settings.hookweave-chain.py"), "claude",
                                 "PreToolUse", "m", "10", "", command, "after", "10", "", "echo after >&2"],
                                input=PAYLOAD, capture_output=True, timeout=60, cwd=folder)
        assert (middle.returncode, middle.stdout, middle.stderr) == (
            python.returncode, python.stdout, python.stderr), command
        assert middle.stderr.startswith(b"said\n") and b"after\n" in middle.stderr, middle.stderr


@pytest.mark.parametrize("way", STARTS)
def test_a_chain_the_host_stops_ends_its_running_member_on_both_ways(folder, way):
    """The host's SIGTERM to the chain (its own timeout, the user's interrupt): under dash the runner
    ends at once and the ticker ends the member it ran in the foreground, found by its stdin; under
    bash the runner's trap ends it. Either way nothing of the chain runs on, the scratch files go."""
    import signal
    import time

    mark = folder / "mark"
    scratch = folder / "scratch"
    scratch.mkdir()
    member = f'sleep 1; touch "{mark}"'
    proc = subprocess.Popen([*STARTS[way], str(folder / "settings.hookweave-chain.sh"), "claude", "PreToolUse",
                             "slow", "30", "", member, "next", "30", "", f'touch "{mark}.next"'],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder,
                            env={**os.environ, "TMPDIR": str(scratch)})
    proc.stdin.write(PAYLOAD)
    proc.stdin.close()
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)
    time.sleep(1)
    assert not mark.exists() and not Path(f"{mark}.next").exists()
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("way", STARTS)
@pytest.mark.parametrize("member", ["sleep 5.{n}", "exec </dev/null; sleep 5.{n}", "sleep 5.{n} & wait",
                                    '"$CHAIN_DIR"/sleepy.sh'])
def test_a_member_past_its_timeout_is_ended_on_both_ways_whatever_it_holds(folder, way, member):
    """Under dash the runner waits for its member in the foreground and the ticker finds it as the
    runner's child (not by its stdin, which a member may close): each member here is ended at its 0.5 s,
    its own children with it, and the next member runs."""
    import time

    tag = f"5.{os.getpid()}{len(member)}{len(way)}"  # a sleep no other test runs, to look for afterwards
    member = member.replace("5.{n}", tag)
    sleepy = folder / "hooks dir" / "sleepy.sh"
    sleepy.write_text(f"#!/bin/sh\nsleep {tag}\n")
    sleepy.chmod(0o755)
    start = time.monotonic()
    done = sh_chain(folder, STARTS[way], ["slow", "0.5", "", member, "next", "10", "", 'echo next >>"$LOG"'])
    took = time.monotonic() - start
    assert done.returncode == 0 and b"slow timed out after 0.5 s" in done.stderr, done.stderr
    assert logged(folder) == "next\n" and took < 2, took
    for _ in range(20):  # (a SIGKILL takes effect a moment after kill returns)
        leftover = subprocess.run(["pgrep", "-f", f"sleep {tag}"], capture_output=True, text=True).stdout.split()
        if not leftover:
            break
        time.sleep(0.05)
    assert leftover == [], leftover


def test_without_ps_a_foreground_member_past_its_timeout_is_still_ended(folder, tmp_path):
    """A slim container has no `ps`: the ticker then finds the runner's child, and what it started,
    by the parents /proc gives (the name in a process's stat file may hold blanks and parentheses)."""
    import shutil
    import time

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dd", "sleep", "rm", "cat", "tr", "wc", "mktemp", "bash", "sh", "dash", "touch"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(Path(sys.executable).resolve())
    odd = bin_dir / "a (b) c"
    odd.symlink_to(shutil.which("sleep"))
    env = {**os.environ, "PATH": f"{folder / 'hooks dir'}{os.pathsep}{bin_dir}"}
    assert shutil.which("ps", path=env["PATH"]) is None
    for member in ('"a (b) c" 5.4321', '"a (b) c" 5.4321 & wait'):
        start = time.monotonic()
        done = sh_chain(folder, ["dash"], ["slow", "0.5", "", member, "next", "10", "", 'echo next >>"$LOG"'], env=env)
        took = time.monotonic() - start
        assert done.returncode == 0 and b"slow timed out after 0.5 s" in done.stderr, done.stderr
        assert logged(folder) == "next\n" and took < 2, (member, took)
        for _ in range(20):  # (a SIGKILL takes effect a moment after kill returns)
            leftover = subprocess.run(["pgrep", "-f", "5.4321"], capture_output=True, text=True).stdout.split()
            if not leftover:
                break
            time.sleep(0.05)
        assert leftover == [], member
