# -*- coding: utf-8 -*-
# Copyright: hookweave contributors
# MIT License (see the repository's pyproject.toml)
"""What both modules share: importing hookweave on the target, and its errors as failed tasks."""

from __future__ import annotations

import shutil
import sys
import traceback

from ansible.module_utils.basic import missing_required_lib

try:
    from hookweave.core.errors import HooksError, NotInstalled, Unrecorded
    from hookweave.core.usecases import api
except ImportError:
    IMPORT_ERROR = traceback.format_exc()
    api = None  # require() fails the task first; the classes below are never raised

    class HooksError(Exception):
        pass

    class NotInstalled(HooksError):
        pass

    class Unrecorded(NotInstalled):
        pass
else:
    IMPORT_ERROR = None

__all__ = ["HooksError", "NotInstalled", "Unrecorded", "api", "fail", "folder", "require"]

URL = "https://pypi.org/project/hookweave/"


def require(module):
    """Fail the task, saying how to fix it, when hookweave cannot be imported by the target's Python."""
    if IMPORT_ERROR is None:
        return
    msg = missing_required_lib("hookweave", reason="on the target (pip install hookweave for that Python)", url=URL)
    other = _hooks_python()
    if other:
        msg += (" The hooks command on PATH runs %s (a pipx install?): set ansible_python_interpreter: %s"
                " for these tasks, or pip install hookweave for %s." % (other, other, sys.executable))
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


def fail(module, exc, **result):
    """A refusal or bad input: hookweave's one line, its exit code, nothing written."""
    module.fail_json(msg=str(exc), exit_code=getattr(exc, "exit_code", 1), error=type(exc).__name__, **result)


def folder(module):
    """``project``, required unless ``scope`` is ``user`` or ``managed`` (files of the machine, not of a
    project): a module's working folder is Ansible's, not a project."""
    params = module.params
    if params["project"] is None and params["scope"] not in ("user", "managed"):
        module.fail_json(msg="project is required unless scope is user or managed: give the folder whose agent "
                         "settings to edit")
    return params["project"]
