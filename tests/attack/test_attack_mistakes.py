"""Attack (issue 22, classes 8 and 9): advice that misleads, and mistakes that install silently.

Check: hooks that never decide (a missing program, script or interpreter, a file that is not
executable, CRLF, a Python traceback, a signal, a timeout) and hooks whose text looks like a
pitfall but is not one (a set -e script ending on a function that returns 2 on purpose, ``((n++))``
in a condition, tmux called without set -e before ``exit 0``), on five hosts: every piece of advice
must be true for the hook it is given to. Install: a person's typical mistakes in a manifest and
on the command line: each is refused (exit 2, one line naming the manifest, the hook and field,
and the fix; no byte written) or warned of, and a correct bundle draws no word.
"""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest

from tests.conftest import attack_size

pytestmark = pytest.mark.attack
HOSTS = ("claude", "codex", "gemini", "copilot", "cline")

# id: (command, script name, script text, executable, timeout, names expected on every host, names never given)
CHECK_CASES = {
    "fn-returns-2": (["bash", "{bundle_dir}/s.sh"], "s.sh",
                     "#!/bin/bash\nset -e\ncat >/dev/null\ncheck() {\n  case \"$X\" in *rm*) echo no >&2; return 2;; esac\n"
                     "  return 0\n}\ncheck\n", True, None, set(), {"ends-on-a-test", "set-e-no-exit-0"}),
    "missing-program": ("nosuchprog-hw --flag", None, None, False, None, {"program-missing"}, {"false-block", "hook-error"}),
    "missing-script": (["python3", "{bundle_dir}/gone.py"], None, None, False, None, {"script-missing"},
                       {"false-block", "hook-error", "block-ignored"}),
    "missing-shell-script": ("bash /nonexistent-hw/h.sh", None, None, False, None, {"script-missing"}, {"false-block"}),
    "not-executable": (["{bundle_dir}/s.sh"], "s.sh", "#!/bin/sh\nexit 0\n", False, None, {"not-executable"},
                       {"false-block", "hook-error"}),
    "no-interpreter": (["{bundle_dir}/s.sh"], "s.sh", "#!/usr/bin/nonexistent-hw\nexit 0\n", True, None,
                       {"bad-interpreter"}, {"false-block", "hook-error"}),
    "crlf": (["{bundle_dir}/s.sh"], "s.sh", "#!/bin/sh\r\nexit 0\r\n", True, None, {"bad-interpreter"},
             {"false-block", "hook-error"}),
    "traceback": (["python3", "{bundle_dir}/s.py"], "s.py", "import json, sys\njson.load(sys.stdin)['nokey']\n", False,
                  None, {"crash"}, {"false-block", "hook-error", "block-ignored"}),
    "killed": ("kill -9 $$", None, None, False, None, {"killed"}, {"false-block", "hook-error"}),
    "reads-no-stdin": ("true", None, None, False, None, set(), {"false-block", "hook-error"}),
    "blocks-everything": (["bash", "{bundle_dir}/s.sh"], "s.sh", "#!/bin/bash\necho always >&2\nexit 2\n", True, None,
                          set(), {"hook-error"}),
    "arith-in-condition": (["bash", "{bundle_dir}/s.sh"], "s.sh",
                           "#!/bin/bash\nset -e\ncat >/dev/null\nn=0\nif ((n++ > 3)); then exit 2; fi\nexit 0\n", True,
                           None, set(), {"arithmetic-status"}),
    "tmux-then-exit-0": (["bash", "{bundle_dir}/s.sh"], "s.sh",
                         "#!/bin/bash\ncat >/dev/null\ntmux display-message -p x >/dev/null 2>&1\nexit 0\n", True, None,
                         set(), set()),
    "timeout": ("sleep 3", None, None, False, 1, {"timeout"}, {"let-through", "false-block", "hook-error"}),
}


def _check_bundle(root: Path, cases: dict) -> Path:
    folder = root / "bundle"
    folder.mkdir()
    text = '[bundle]\nname = "advice"\nversion = "1"\n'
    for hook_id, (command, script, body, executable, timeout, _, _) in cases.items():
        if script:
            (folder / hook_id).mkdir()
            path = folder / hook_id / script
            path.write_bytes(body.encode())
            path.chmod(0o755 if executable else 0o644)
            command = [w.replace("{bundle_dir}", "{bundle_dir}/" + hook_id) for w in command] \
                if isinstance(command, list) else command
        text += (f'\n[[hooks]]\nid = "{hook_id}"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
                 f"command = {json.dumps(command)}\n" + (f"timeout = {timeout}\n" if timeout else ""))
    (folder / "hookweave.toml").write_text(text)
    return folder


def test_check_advice_is_true_for_the_hook_it_is_given_to(run, tmp_path, attack_report) -> None:
    rng = random.Random(22)
    hosts = list(HOSTS) if attack_size(0, 1) else rng.sample(HOSTS, 3)
    bundle = _check_bundle(tmp_path, CHECK_CASES)
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)  # the conftest's own project folder
    args = ["check", str(bundle), "--json", "--project", str(project)]
    for host in hosts:
        args += ["--host", host]
    doc = json.loads(run(*args).stdout)
    wrong = []
    for checked in doc["hooks"]:
        hook_id = checked["hook"].split("/")[1]
        _, _, _, _, _, expected, never = CHECK_CASES[hook_id]
        names = {p["name"] for p in checked["pitfalls"]}
        fixes = " ".join(p["fix"] for p in checked["pitfalls"])
        missing, given = expected - names, names & never
        if expected and "jq" in fixes:  # a hook that never decided: no advice about parsing its payload
            given.add("payload advice")
        if missing or given:
            wrong.append((hook_id, checked["host"], sorted(missing), sorted(given)))
        if hook_id == "missing-program":
            assert any("nosuchprog-hw" in p["message"] for p in checked["pitfalls"]), checked["pitfalls"]
        if hook_id == "tmux-then-exit-0":  # no claim that the hook exits 127: it goes on and exits 0
            assert all("hook exits 127" not in p["message"] for p in checked["pitfalls"]), checked["pitfalls"]
    attack_report("check advice", cases=len(doc["hooks"]), misleading=len(wrong))
    assert not wrong


# -- install --------------------------------------------------------------------------------------

BASE = '[bundle]\nname = "oops"\nversion = "1"\n'


def _hook(command: str, event: str = "pre_tool_use", extra: str = "") -> str:
    return f'{BASE}\n[[hooks]]\nid = "h"\nevent = "{event}"\ncommand = {command}\n{extra}'


# name: (manifest, files {name: (bytes, mode)}, extra args, exit code, words the one line must hold)
OK_SCRIPT = {"h.py": (b"import sys\n", 0o644), "h.sh": (b"#!/bin/sh\nexit 0\n", 0o755)}
INSTALL_CASES = {
    "missing script (argv)": (_hook('["python3", "{bundle_dir}/nope.py"]'), {}, [], 2, ["h", "command", "nope.py"]),
    "missing script (string)": (_hook('"python3 {bundle_dir}/nope.py"'), {}, [], 2, ["h", "nope.py"]),
    "script is a folder": (_hook('["{bundle_dir}/dir"]'), {"dir/x": (b"", 0o644)}, [], 2, ["folder"]),
    "not executable": (_hook('["{bundle_dir}/h.sh"]'), {"h.sh": (b"#!/bin/sh\nexit 0\n", 0o644)}, [], 2, ["chmod +x"]),
    "CRLF script run directly": (_hook('["{bundle_dir}/h.sh"]'), {"h.sh": (b"#!/bin/sh\r\nexit 0\r\n", 0o755)}, [], 2,
                                 ["CRLF"]),
    "CRLF script through bash": (_hook('["bash", "{bundle_dir}/h.sh"]'), {"h.sh": (b"set -e\r\nexit 0\r\n", 0o644)}, [],
                                 2, ["CRLF"]),
    "missing interpreter": (_hook('["{bundle_dir}/h.sh"]'), {"h.sh": (b"#!/opt/none/python9\n", 0o755)}, [], 2,
                            ["/opt/none/python9"]),
    "relative path": (_hook('["python3", "tools/h.py"]'), {"tools/h.py": (b"", 0o644)}, [], 2, ["{bundle_dir}/tools/h.py"]),
    "{bundle-dir}": (_hook('["python3", "{bundle-dir}/h.py"]'), OK_SCRIPT, [], 2, ["{bundle-dir}", "{bundle_dir}"]),
    "{bundledir}": (_hook('"python3 {bundledir}/h.py"'), OK_SCRIPT, [], 2, ["{bundledir}"]),
    "{project-dir}": (_hook('"cat {project-dir}/x"'), {}, [], 2, ["{project_dir}"]),
    "{{bundle_dir}}": (_hook('"python3 {{bundle_dir}}/h.py"'), OK_SCRIPT, [], 2, ["{{bundle_dir}}"]),
    "${bundle_dir}": (_hook('"python3 ${bundle_dir}/h.py"'), OK_SCRIPT, [], 2, ["${bundle_dir}"]),
    "{BUNDLE_DIR}": (_hook('"python3 {BUNDLE_DIR}/h.py"'), OK_SCRIPT, [], 2, ["{BUNDLE_DIR}"]),
    "{bundle_path}": (_hook('"python3 {bundle_path}/h.py"'), OK_SCRIPT, [], 2, ["{bundle_path}"]),
    "quoted by hand (double)": (_hook('"python3 \\"{bundle_dir}/h.py\\""'), OK_SCRIPT, [], 2, ["quotes"]),
    "quoted by hand (single)": (_hook("\"python3 '{bundle_dir}/h.py'\""), OK_SCRIPT, [], 2, ["quotes"]),
    "quoted argv word": (_hook("[\"python3\", \"'{bundle_dir}/h.py'\"]"), OK_SCRIPT, [], 2, ["quotes"]),
    "Windows path": (_hook('"python3 C:\\\\tools\\\\h.py"'), {}, [], 2, ["Windows"]),
    "reserved env (project)": (_hook('"true"') + '\n[env.CLAUDE_PROJECT_DIR]\nvalue = "/x"\n', {}, [], 2,
                               ["env.CLAUDE_PROJECT_DIR"]),
    "reserved env (PATH)": (_hook('"true"') + '\n[env.PATH]\nvalue = "/x"\npolicy = "override"\n', {}, [], 2, ["env.PATH"]),
    "0 hooks: event the host lacks": (_hook('"true"', "subagent_stop"), {}, ["--host", "gemini"], 2, ["nothing to install"]),
    "0 hooks: hosts names another": (_hook('"true"', extra='hosts = ["codex"]\n'), {}, [], 2, ["nothing to install"]),
    "--patch without --dry-run": (_hook('"true"'), {}, ["--patch"], 2, ["--dry-run"]),
}
WARNED = {  # installs, with a warning line
    "--trust without trust": (_hook('"true"'), {}, ["--trust", "--host", "claude"], "--trust changed nothing"),
    "--host all, bundle for one host": (_hook('"true"', extra='hosts = ["claude"]\n'), {}, ["--host", "all"],
                                        "nothing to install"),
}


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _bundle(root: Path, name: str, manifest: str, files: dict) -> Path:
    folder = root / "bundles" / name.replace("/", "_").replace(" ", "_")
    folder.mkdir(parents=True)
    (folder / "hookweave.toml").write_text(manifest)
    for file, (data, mode) in files.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_bytes(data)
        (folder / file).chmod(mode)
    return folder


def test_install_mistakes_are_said_in_one_line_and_refusals_write_nothing(run, tmp_path, attack_report) -> None:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)  # the conftest's own project folder
    failures = []
    for name, (manifest, files, extra, code, words) in INSTALL_CASES.items():
        bundle = _bundle(tmp_path, name, manifest, files)
        before = _files(project)
        host = [] if "--host" in extra else ["--host", "claude"]
        result = run("install", str(bundle), *host, *extra, "--project", str(project))
        lines = result.stderr.strip().splitlines()
        ok = (result.exit_code == code and len(lines) == 1 and all(w in lines[0] for w in words)
              and _files(project) == before)
        if "--patch" not in extra and "--trust" not in extra:
            ok = ok and str(bundle / "hookweave.toml") in lines[0]
        if not ok:
            failures.append((name, result.exit_code, result.stderr))
    for name, (manifest, files, extra, words) in WARNED.items():
        bundle = _bundle(tmp_path, name, manifest, files)
        host = [] if "--host" in extra else ["--host", "claude"]
        result = run("install", str(bundle), *host, *extra, "--project", str(project), "--dry-run")
        if result.exit_code != 0 or words not in result.stderr:
            failures.append((name, result.exit_code, result.stderr))
    attack_report("install mistakes", cases=len(INSTALL_CASES) + len(WARNED), silent=len(failures))
    assert not failures, "\n".join(map(str, failures))


def test_a_correct_bundle_draws_no_word(run, tmp_path) -> None:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)  # the conftest's own project folder
    bundle = _bundle(tmp_path, "fine", _hook('["python3", "{bundle_dir}/h.py"]') + '[[hooks]]\nid = "s"\nevent = "stop"\n'
                     'command = ["{bundle_dir}/h.sh"]\n', OK_SCRIPT)
    result = run("install", str(bundle), "--host", "claude", "--host", "codex", "--project", str(project))
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr and "note:" not in result.stderr, result.stderr
    assert os.stat(bundle / "h.sh").st_mode & stat.S_IXUSR
