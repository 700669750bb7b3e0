"""Attack: generated chains x member outcomes, run by the real runner file, against a model of "the
host running these hooks one after another, first block wins".

Each case draws a host, a tool, 1 to 5 members with matchers and outcomes (silent, context JSON,
ask, deny JSON, exit 2, continue:false, a crash, invalid JSON, plain text, a timeout, stderr
noise) and checks: exactly the matching members up to the first block ran, in order; a block's
exit code and stdout reach the host unchanged, and so do the last member's when every member before
it allowed in silence (the host reads it as that hook alone); otherwise exit 0 and one answer holding every
allowing member's additionalContext in order and the strictest permission. The sh fast path runs
every case too, and must answer exactly as the Python runner does; half the members are script
files started by a plain command, which the sh path starts without the host's shell.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from hookweave.core.errors import BadInput
from hookweave.core.plan import chain, chainsh
from hookweave.core.standalone import protocol
from tests.conftest import attack_size

EVENTS = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
TOOLS = ("Bash", "Read", "Write")
MATCHERS = ("", "Bash", "Read", "Write", "Bash|Write", "Read|Write",
            "^(Bash|Write)$", "^(?:Read)$", "^Write$", "^Bash|Write$")  # anchored name lists stay in sh (issue 38)
RANK = {"allow": 0, "ask": 1, "deny": 2}


def outcome(rng: random.Random, host: str, event: str, n: int) -> tuple[str, str, int, bool]:
    """``(stdout, stderr, exit code, timed out)`` of one member."""
    kind = rng.choice(["silent", "context", "context", "ask", "deny", "exit2", "stop", "crash", "junk", "text",
                       "noise", "timeout"])
    ctx = f"ctx-{n}"
    if host == "gemini":
        answers = {"context": {"hookSpecificOutput": {"additionalContext": ctx}}, "ask": {"decision": "ask", "reason": "r"},
                   "deny": {"decision": "deny", "reason": f"no-{n}"}}
    else:
        spec = {"hookEventName": event, "additionalContext": ctx}
        answers = {"context": {"hookSpecificOutput": spec},
                   "ask": {"hookSpecificOutput": {**spec, "permissionDecision": "ask", "permissionDecisionReason": "r"}},
                   "deny": {"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                                   "permissionDecisionReason": f"no-{n}"}}}
    if kind in answers:
        return json.dumps(answers[kind]), "", 0, False
    return {"silent": ("", "", 0, False), "exit2": ("", f"blocked-{n}\n", 2, False),
            "stop": (json.dumps({"continue": False, "stopReason": f"halt-{n}"}), "", 0, False),
            "crash": ("", f"boom-{n}\n", 1, False), "junk": ("{oops", "", 0, False), "text": (f"plain-{n}\n", "", 0, False),
            "noise": ("", f"noise-{n}\n", 0, False), "timeout": ("", "", 0, True)}[kind]


def member_command(log: Path, name: str, out: str, err: str, code: int, timed_out: bool) -> str:
    steps = [f"echo {name} >> {shlex.quote(str(log))}"]
    if timed_out:
        return "; ".join(steps + ["sleep 5"])
    if out:
        steps.append(f"printf '%s' {shlex.quote(out)}")
    if err:
        steps.append(f"printf '%s' {shlex.quote(err)} >&2")
    return "; ".join(steps + [f"exit {code}"])


SCRIPTS = (None, "path", "braced", "interpreter")  # the member as shell text, or a script file run plainly


def plain_member(folder: Path, name: str, log: Path, result: tuple, script: str | None) -> str:
    """The member's command: its shell text as is, or a ``#!/bin/sh`` file holding that text, started
    by a plain command, which the sh fast path starts itself, without the host's shell (issue 24)."""
    text = member_command(log, name, *result).replace(str(log), "$CHAIN_LOG")
    if script is None:
        return text
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.sh"
    path.write_text(f"#!/bin/sh\n{text}\n", encoding="utf-8")
    path.chmod(0o755)
    return {"path": f'"$CHAIN_DIR"/{name}.sh', "braced": f"${{CHAIN_DIR}}/{name}.sh 'an arg' # hookweave:b/{name}",
            "interpreter": f'sh "$CHAIN_DIR/{name}.sh"'}[script]


def runs_on(matcher: str, tool: str) -> bool:
    """These hosts' tool matchers: a list of plain names, else a regex searched in the name."""
    if not matcher or set(matcher) <= set("BashReadWrite|"):
        return not matcher or tool in matcher.split("|")
    return re.search(matcher, tool) is not None


def model(host: str, event: str, tool: str, members: list) -> tuple[list[str], int, object]:
    """What the chain must do: (members that run, exit code, stdout as bytes or as a parsed answer)."""
    ran: list[str] = []
    contexts: list[str] = []
    permission = None
    objects = texts = 0
    plain: list[str] = []
    silent = True  # every member run so far allowed, printing nothing
    runs = [m for m in members if runs_on(m[1], tool)]
    for at, (name, matcher, (out, err, code, timed_out)) in enumerate(runs):
        ran.append(name)
        if silent and at == len(runs) - 1 and not timed_out:
            return ran, code, out.encode()  # the last to run after silent ones: as the host reads it alone
        verdict = protocol.judge(host, event, code, out, err, timed_out)
        silent = silent and not (out or err or code or timed_out)
        if verdict.action in ("block", "stop"):
            return ran, code, out.encode()
        if verdict.action == "error" or timed_out:
            continue
        if isinstance(verdict.output, dict):
            objects += 1
            spec = verdict.output.get("hookSpecificOutput") or {}
            if spec.get("additionalContext"):
                contexts.append(spec["additionalContext"])
            decision = spec.get("permissionDecision") if host != "gemini" else verdict.output.get("decision")
            if decision in RANK and (permission is None or RANK[decision] > RANK[permission]):
                permission = decision
        elif verdict.action in ("allow", "ask") and out.strip():
            texts += 1
            plain.append(out)
    if not objects:
        return ran, 0, "".join(plain).encode()
    if plain and host != "gemini":
        contexts = None  # plain texts fold in where they stood: checked by the unit tests, not modelled here
    return ran, 0, {"contexts": contexts, "permission": permission}


@pytest.mark.attack
def test_generated_chains_match_the_first_block_wins_model(tmp_path: Path, attack_report) -> None:
    """Each case runs twice, on the same members: by the Python runner (checked against the model)
    and by the sh fast path (``chainrun.sh``, handing over to the Python runner where it must),
    whose whole answer (members run, exit code, stdout, stderr) must be the Python runner's."""
    runner = tmp_path / "settings.hookweave-chain.py"
    runner.write_text(chain.runner_text(), encoding="utf-8")
    sh_runner = tmp_path / "settings.hookweave-chain.sh"
    sh_runner.write_text(chainsh.runner_text(), encoding="utf-8")
    rng = random.Random(11)
    cases = attack_size(80, 2000)
    failures, disagreements = [], []
    for case in range(cases):
        host = rng.choice(list(EVENTS))
        event, tool = EVENTS[host], rng.choice(TOOLS)
        members = [(f"m{n}", rng.choice(MATCHERS), outcome(rng, host, event, n)) for n in range(rng.randint(1, 5))]
        scripts = [rng.choice(SCRIPTS) for _ in members]
        payload = json.dumps({"hook_event_name": event, "tool_name": tool, "tool_input": {}}).encode()
        seen = {}
        for path, lead in (("py", ["python3", "-S", str(runner)]), ("sh", ["sh", str(sh_runner)])):
            log = tmp_path / f"log{case}.{path}"
            log.touch()
            argv = lead + [host, event]
            for (name, matcher, result), script in zip(members, scripts):
                argv += [name, "0.3" if result[3] else "10", matcher,
                         plain_member(tmp_path / f"case{case}", name, log, result, script)]
            env = {**os.environ, "CHAIN_LOG": str(log), "CHAIN_DIR": str(tmp_path / f"case{case}")}
            done = subprocess.run(argv, input=payload, capture_output=True, timeout=60, env=env)
            seen[path] = (log.read_text().split(), done.returncode, done.stdout, done.stderr)
        if seen["sh"] != seen["py"]:
            disagreements.append((host, tool, members, seen))
        got_ran, returncode, stdout, stderr = seen["py"]
        ran, code, answer = model(host, event, tool, members)
        ok = got_ran == ran and returncode == code
        if ok and isinstance(answer, bytes):
            ok = stdout == answer
        elif ok:
            got = json.loads(stdout)
            spec = got.get("hookSpecificOutput") or {}
            joined = spec.get("additionalContext")
            want = "\n".join(answer["contexts"]) if answer["contexts"] else None
            ok = answer["contexts"] is None or joined == want
            decision = spec.get("permissionDecision") if host != "gemini" else got.get("decision")
            ok = ok and decision == answer["permission"]
        if not ok:
            failures.append((host, tool, members, ran, code, answer, got_ran, returncode, stdout, stderr))
    attack_report("chain runner vs first-block-wins model", cases=cases, failures=len(failures))
    attack_report("sh fast path vs Python runner", cases=cases, agreements=cases - len(disagreements),
                  disagreements=len(disagreements))
    assert not failures, failures[:3]
    assert not disagreements, disagreements[:3]


HOSTILE = ["'", '"', "$", "$HOME", "`id`", "\\", "\\'", "#", " # hookweave:x/y", "{project_dir}", "{bundle_dir}",
           "\n", "\t", "é", "😀", "''", '\\"', "$(echo no)", ";", "|", "&", "*", "-", "--", "%s", "~"]


LOGGER = ["sh", "-c", 'printf "%s|" "$@" >> "$WORDS_LOG"', "sh"]  # a member that logs its words


def hostile(rng: random.Random) -> str:
    return "".join(rng.choice(HOSTILE + ["a", "b", " "]) for _ in range(rng.randint(1, 8))) or "x"


@pytest.mark.attack
@pytest.mark.parametrize("host", ["claude", "codex", "cursor"])
def test_member_words_survive_install_quoting_and_the_hosts_shell(tmp_path: Path, attack_report, host) -> None:
    """Members whose argv words hold quotes, dollars, backslashes, newlines, comment and marker
    look-alikes and placeholders: rendered into the one registration, read back by verify
    (``chain.members_of``) as recorded, and run by the host's shell and the runner, each prints
    exactly its words."""
    import os

    from hookweave.core.contract.registry import HostRegistry, get_plugin_manager
    from hookweave.core.model.manifest import parse_manifest
    from hookweave.core.plan import resolve

    host_obj = HostRegistry(get_plugin_manager()).resolve([host])[0]
    project = tmp_path / "project"
    runner = chain.runner_path(project / ".x" / "settings.json")
    runner.parent.mkdir(parents=True)
    runner.write_text(chain.runner_text(), encoding="utf-8")
    chainsh.runner_path(project / ".x" / "settings.json").write_text(chainsh.runner_text(), encoding="utf-8")
    rng = random.Random(12)
    cases = attack_size(15, 400)
    failures = []
    for case in range(cases):
        words = [[hostile(rng) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(2, 3))]
        hooks = "".join(f'[[hooks]]\nid = "m{i}"\nevent = "pre_tool_use"\ncommand = {json.dumps(LOGGER + w, ensure_ascii=False)}\n'
                        for i, w in enumerate(words))
        try:
            manifest = parse_manifest(f'[bundle]\nname = "b"\nversion = "1"\norder = "chain"\n{hooks}',
                                      tmp_path / "hookweave.toml")
        except BadInput as refused:  # a quoted or mistyped placeholder: refused at parse by design (issue 22)
            assert "quotes around {" in str(refused) or "is not a placeholder" in str(refused), refused
            continue
        word = chain.runner_word(host_obj, runner, project)
        regs, _ = resolve.registrations(host_obj, manifest, word)
        entry = regs[0].entry
        command = (host_obj.handler_of(entry) or entry)["command"]
        read = chain.members_of(command)
        ok = read is not None and [(m.id, m.digest()) for m in read[2]] == list(regs[0].members)
        log = tmp_path / f"words{case}"
        log.touch()
        env = {**os.environ, "WORDS_LOG": str(log), "CLAUDE_PROJECT_DIR": str(project), "CURSOR_PROJECT_DIR": str(project), "PWD": str(project)}
        done = subprocess.run(["bash", "-c", command], input=b"{}", capture_output=True, cwd=project, env=env, timeout=60)
        want = "".join("|".join(w) + "|" for w in words).replace("{bundle_dir}", str(tmp_path)).replace(
            "{project_dir}", str(project))
        ok = ok and done.returncode == 0 and log.read_text(encoding="utf-8") == want
        if not ok:
            failures.append((words, command, log.read_text(encoding="utf-8"), done.stderr))
    attack_report(f"chain words round trip ({host})", cases=cases, failures=len(failures))
    assert not failures, failures[:2]


def mutated_payload(rng: random.Random, tool: str) -> bytes:
    """A payload as a host sends one, then maybe bent: a duplicate or escaped key, a trailing comma, a
    NUL, a raw control character, a number JSON refuses, data after the object, deep nesting, the name
    nested, in a string or as a value before the top-level key; laid over
    lines (LF or CRLF), a raw DEL in a string, or padded to around 1 KiB, where the sh path stops reading
    the payload with the shell's own `read` and starts `tr` (issue 38)."""
    fields = [("session_id", "s"), ("hook_event_name", "PreToolUse"), ("tool_name", tool),
              ("tool_input", {"command": rng.choice(["ls", 'echo "a\\b"', "caf\u00e9", "x\ty"])})]
    rng.shuffle(fields)
    text = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=rng.random() < 0.5)}"
                           for k, v in fields) + "}"
    bend = rng.choice(["none", "none", "dup", "comma", "nul", "tab", "number", "after", "escaped-key", "deep",
                       "literal", "blank", "lines", "crlf", "del", "kib", "nested", "in-string", "as-value"])
    other = rng.choice(TOOLS)
    if bend == "dup":
        text = text[:-1] + f', "tool_name": "{other}"}}'
    elif bend == "comma":
        text = text[:-1] + ", }"
    elif bend == "nul":
        at = rng.randrange(len(text) + 1)
        text = text[:at] + "\0" + text[at:]
    elif bend == "tab":
        text = text.replace('"tool_input"', '"tool\tinput"')
    elif bend == "number":
        text = text[:-1] + f', "n": {rng.choice(["01", "1.", ".5", "-", "1e", "-0.0e-0", "NaN", "-Infinity", "+1"])}}}'
    elif bend == "after":
        text += rng.choice([" x", " {}", "\n\n", ","])
    elif bend == "escaped-key":
        text = text[:-1] + f', "tool\\u005fname": "{other}"}}'
    elif bend == "deep":
        depth = rng.choice([5, 150, 250, 1100])
        text = text[:-1] + ', "d": ' + "[" * depth + "]" * depth + "}"
    elif bend == "literal":
        text = text[:-1] + f', "t": {rng.choice(["true", "tru", "nul", "false", "null", "truefalse"])}}}'
    elif bend == "blank":
        text = rng.choice([" ", "\r\n", "\x0c", "\u00a0"]) + text
    elif bend in ("lines", "crlf"):
        text = json.dumps(json.loads(text), indent=rng.choice([1, 2, "\t"]), ensure_ascii=rng.random() < 0.5)
        text = text.replace("\n", "\r\n") if bend == "crlf" else text + rng.choice(["", "\n", "\n\n"])
    elif bend == "del":
        text = text[:-1] + ', "x": "a\x7fb"}'
    elif bend == "nested":  # where the sh path cuts the field out without its scan (issue 38): the name
        text = '{"x": {"tool_name": "' + other + '"}, ' + text[1:]  # nested before the top-level key,
    elif bend == "in-string":  # in a string, as a value
        text = '{"x": "\\"tool_name\\": \\"' + other + '\\"", ' + text[1:]
    elif bend == "as-value":
        text = '{"x": "tool_name", "y": "' + other + '", ' + text[1:]
    elif bend == "kib":  # the shell reads at most 1 KiB itself: either side of it
        pad = rng.randint(1010, 1040) - len(text.encode("utf-8", "surrogatepass")) - len(', "pad": ""')
        text = text[:-1] + ', "pad": "' + "x" * max(pad, 0) + '"}'
    return text.encode("utf-8", "surrogatepass")


def write_runners(folder: Path) -> tuple[Path, Path]:
    """Both chain runners, as install writes them, in ``folder``: (the Python runner, the sh one)."""
    runner = folder / "settings.hookweave-chain.py"
    runner.write_text(chain.runner_text(), encoding="utf-8")
    sh_runner = folder / "settings.hookweave-chain.sh"
    sh_runner.write_text(chainsh.runner_text(), encoding="utf-8")
    return runner, sh_runner


def run_both(log: Path, runners: tuple[Path, Path], shell: list[str], words: list[str], payload: bytes) -> dict:
    """``{"py": ..., "sh": ...}``: the members that ran (each notes itself in ``$CHAIN_LOG``), the exit
    code, stdout and stderr of one chain through each runner, in a UTF-8 locale."""
    seen = {}
    for how, lead in (("py", ["python3", "-S", str(runners[0])]), ("sh", [*shell, str(runners[1])])):
        noted = log.with_suffix(f".{how}")
        noted.touch()
        done = subprocess.run(lead + words, input=payload, capture_output=True, timeout=60,
                              env={**os.environ, "CHAIN_LOG": str(noted), "LC_ALL": "C.UTF-8"})
        seen[how] = (noted.read_text().split(), done.returncode, done.stdout, done.stderr)
    return seen


@pytest.mark.attack
def test_both_runners_run_the_same_members_for_any_payload(tmp_path: Path, attack_report) -> None:
    """Issue 33: the sh path read the matcher field from the payload's head, the Python runner from
    the payload as json reads it; on a bent payload they ran different members."""
    runners = write_runners(tmp_path)
    rng = random.Random(33)
    cases = attack_size(60, 1500)
    disagreements = []
    for case in range(cases):
        host = rng.choice(list(EVENTS))
        payload = mutated_payload(rng, rng.choice(TOOLS))
        members = []
        for n in range(rng.randint(1, 4)):
            members += [f"m{n}", "10", rng.choice(MATCHERS), f'echo m{n} >>"$CHAIN_LOG"']
        shell = ["bash", "--posix"] if rng.random() < 0.3 else ["sh"]  # bash as sh, in a UTF-8 locale
        seen = run_both(tmp_path / f"log{case}", runners, shell, [host, EVENTS[host], *members], payload)
        if seen["sh"] != seen["py"]:
            disagreements.append((host, payload, members, seen))
    attack_report("sh fast path vs Python runner, bent payloads", cases=cases, disagreements=len(disagreements))
    assert not disagreements, disagreements[:3]


ANSWER_HOSTS = {"claude": ("PreToolUse", "Stop", "SessionStart"), "codex": ("PreToolUse", "Stop"),
                "gemini": ("BeforeTool", "AfterAgent"), "cursor": ("preToolUse", "stop"), "qwen": ("PreToolUse",),
                "factory": ("PreToolUse", "Stop"), "antigravity": ("PreToolUse",), "auggie": ("PreToolUse",),
                "windsurf": ("pre_run_command",)}


def drawn_answer(rng: random.Random, event: str) -> str:
    """A member's answer as hooks print one, then maybe bent where the sh path reads it itself (issue
    38): a shape of the table (``core/model/shanswers.py``) filled with texts and words of every kind,
    then an escape, a NUL, a CR, a tab, non-ASCII text, a duplicate or unknown key, a number, data after
    it, a second line; written compact, spaced or as json.dumps writes it."""
    from hookweave.core.model import shanswers

    words = [*shanswers.WORDS, *shanswers.OTHER, event, "Stop", "PreToolUse", "Deny", ""]
    texts = ["x", "no way", " ", "", "it's {done}", "caf\u00e9", 'a "q"', "a\\b", "PreToolUse", "deny", "\t", "1"]

    def fill(shape: dict) -> dict:
        out = {}
        for key, domain in shape.items():
            if isinstance(domain, dict):
                out[key] = fill(domain)
            elif domain == shanswers.EVENT:
                out[key] = rng.choice([event] * 4 + words)
            elif domain == shanswers.BOOL:
                out[key] = rng.choice([True, False, True, "false", None, 0])
            elif domain == shanswers.TEXT:
                out[key] = rng.choice(texts)
            else:
                out[key] = rng.choice(list(domain) * 3 + words)
        return out

    obj = fill(rng.choice(shanswers.SHAPES))
    bend = rng.choice(["none"] * 6 + ["unknown", "number", "dup", "nested"])
    if bend == "unknown":
        obj["timeout"] = "x"
    elif bend == "number":
        obj[rng.choice(list(obj))] = rng.choice([1, 0.5, [], None])
    elif bend == "nested":
        obj["hookSpecificOutput"] = {"hookEventName": event, "inner": {"a": "b"}}
    separators = rng.choice([(", ", ": "), (",", ":"), (" , ", " : ")])
    text = json.dumps(obj, separators=separators, ensure_ascii=rng.random() < 0.3)
    if bend == "dup":
        key = rng.choice(list(obj))
        text = text[:-1] + f', "{key}": {json.dumps(obj[key])}}}'
    text = rng.choice(["", " ", "  "]) + text + rng.choice(["", "", "\n", " ", "\r\n", "\n\n", "\t", " x", "\0"])
    if rng.random() < 0.05:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(["\0", "\r", "\x7f", "\\n"]) + text[at:]
    return text


@pytest.mark.attack
def test_both_runners_read_members_answers_alike(tmp_path: Path, attack_report) -> None:
    """Issue 38: the sh path reads a JSON answer itself where its shape is one the protocol table judges
    alike for every text; chains of 1 to 4 members, each silent, answering (bent or not), noisy on
    stderr or failing, on every sh host, through dash and bash (UTF-8) as sh: every case must come
    out of the sh path exactly as out of the Python runner."""
    runners = write_runners(tmp_path)
    rng = random.Random(38)
    cases = attack_size(40, 1000)
    disagreements = []
    for case in range(cases):
        host = rng.choice(list(ANSWER_HOSTS))
        event = rng.choice(ANSWER_HOSTS[host])
        members = []
        for n in range(rng.randint(1, 4)):
            kind = rng.choice(["answer", "answer", "answer", "silent", "noise", "exit2", "crash"])
            out = drawn_answer(rng, event) if kind == "answer" else ""
            err, code = {"noise": ("noise\n", 0), "exit2": ("no\n", 2), "crash": ("boom\n", 1)}.get(kind, ("", 0))
            steps = [f'echo m{n} >>"$CHAIN_LOG"']
            if out:
                steps.append("printf '" + "".join(f"\\{b:03o}" for b in out.encode("utf-8")) + "'")
            if err:
                steps.append(f"printf %s {shlex.quote(err)} >&2")
            members += [f"m{n}", "10", "", "; ".join(steps + [f"exit {code}"])]
        payload = json.dumps({"hook_event_name": event, "tool_name": "Bash", "tool_input": {}}).encode()
        shell = ["bash", "--posix"] if rng.random() < 0.3 else ["sh"]
        seen = run_both(tmp_path / f"answers{case}", runners, shell, [host, event, *members], payload)
        if seen["sh"] != seen["py"]:
            disagreements.append((host, event, members, seen))
    attack_report("sh fast path vs Python runner, members' answers", cases=cases, disagreements=len(disagreements))
    assert not disagreements, disagreements[:3]
