# -*- coding: utf-8 -*-
# Copyright: hookweave contributors
# MIT License (see the repository's pyproject.toml)
"""What both modules share: importing hookweave on the target, and its errors as failed tasks."""

from __future__ import annotations

import re
import shutil
import sys
import traceback

from ansible.module_utils.basic import missing_required_lib

try:
    from hookweave.core.errors import Edited, HooksError, NotInstalled, Unrecorded
    from hookweave.core.files import paths
    from hookweave.core.usecases import api
except ImportError:
    IMPORT_ERROR = traceback.format_exc()
    api = None  # require() fails the task first; the classes below are never raised

    class HooksError(Exception):
        pass

    class NotInstalled(HooksError):
        pass

    class Edited(HooksError):
        pass

    class Unrecorded(NotInstalled):
        pass
else:
    IMPORT_ERROR = None

__all__ = ["Edited", "HooksError", "NotInstalled", "Unrecorded", "api", "fail", "folder", "report", "require", "warn", "words"]

URL = "https://github.com/hookweave/hookweave/blob/main/docs/fleet.md"  # the wheel in a venv, until it is on PyPI


def require(module):
    """Fail the task, saying how to fix it, when hookweave cannot be imported by the target's Python."""
    if IMPORT_ERROR is None:
        paths.show_absolute()  # the task runs in a folder of Ansible's, its output is read on the controller
        return
    reason = "on the target (the hookweave wheel pip-installed into a venv, with ansible_python_interpreter set to its python)"
    msg = missing_required_lib("hookweave", reason=reason, url=URL)
    other = _hooks_python()
    if other:
        msg += (" The hooks command on PATH runs %s (a pipx install?): set ansible_python_interpreter: %s"
                " for these tasks, or pip-install the hookweave wheel for %s." % (other, other, sys.executable))
    module.fail_json(msg=msg, exception=IMPORT_ERROR)


def _hooks_python():
    """The interpreter named by the shebang of a ``hooks`` command on PATH, if it is another one."""
    exe = shutil.which("hooks")
    if exe is None:
        return None
    try:
        with open(exe, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    return words[0] if words and words[0] != sys.executable else None


# hookweave's messages name the command's flags; a task has options (and become for root) instead
_WORDS = [
    (re.compile(r"--(force|trust)\b"), r"\1: true"),
    (re.compile(r"--scope[ =]([\w-]+)"), r"scope: \1"),
    (re.compile(r"--host[ =]([\w,-]+)"), r"hosts: \1"),
    (re.compile(r"--scope\b"), "scope"),
    (re.compile(r"--host\b"), "hosts"),
    (re.compile(r"as root \(sudo\)"), "as root (become: true)"),
    (re.compile(r"`(\w+: [\w-]+)`"), r"\1"),
]


def words(text):
    """hookweave's message in the module's words: ``force: true`` for --force, ``scope: user`` for
    --scope user, ``become: true`` for sudo."""
    for pattern, replacement in _WORDS:
        text = pattern.sub(replacement, text)
    return text


def warn(module, findings):
    """Each finding (a dict with ``path`` or a file's, ``message``) as one of Ansible's [WARNING]s."""
    for finding in findings:
        where = finding.get("path")
        module.warn(words("%s: %s" % (where, finding["message"]) if where else finding["message"]))


def fail(module, exc, **result):
    """A refusal or bad input: hookweave's one line, its exit code, nothing written."""
    module.fail_json(msg=words(str(exc)), exit_code=getattr(exc, "exit_code", 1), error=type(exc).__name__, **result)


def folder(module):
    """``project``, required unless ``scope`` is ``user`` or ``managed`` (files of the machine, not of a
    project): a module's working folder is Ansible's, not a project."""
    params = module.params
    if params["project"] is None and params["scope"] not in ("user", "managed"):
        module.fail_json(msg="project is required unless scope is user or managed: give the folder whose agent "
                         "settings to edit")
    return params["project"]


def agents(module):
    """``hosts``, refused when empty: Ansible accepts ``hosts: []``, hookweave would then act on nothing
    and say so in its command's words."""
    names = [name for name in module.params["hosts"] if name.strip()]
    if not names:
        module.fail_json(msg="hosts is empty: name the agents (claude, codex, gemini, ...), or all, or detected "
                         "(only the agents found on the machine)")
    return names


def report(module, done):
    """An install's or uninstall's outcome as the task's result: hookweave's warnings as Ansible's,
    every file and record in the diff and in the count of files written."""
    files = done.files
    warn(module, [dict(f, path=plan["path"]) for plan in files for f in plan["problems"] + plan["notes"]
                  if f["level"] in ("problem", "warning")] + [dict(message=note) for note in done.notes])
    written = sum(1 for f in files if f["diff"]) + sum(1 for f in files if f["record_changed"])  # a bump: records only
    for f in files:
        f["diff"] = f["diff"] if module._diff else ""
        f["record_diff"] = f["record_diff"] if module._diff else ""
    result = dict(changed=done.changed, active=not done.problems, files=files, left_out=done.notes,
                  problems=[f.as_json() for f in done.problems])
    verb = "would be written" if module.check_mode else "written"
    result["msg"] = ("%s: %d file%s %s" % (done.command, written, "" if written == 1 else "s", verb)
                     if written else "%s: nothing to write" % done.command)
    if module._diff:
        result["diff"] = [dict(before_header=path, after_header=path, prepared=diff)
                          for f in files for path, diff in ((f["path"], f["diff"]), (f["record"], f["record_diff"]))
                          if diff]
    module.exit_json(**result)
