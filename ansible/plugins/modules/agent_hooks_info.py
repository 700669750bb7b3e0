#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: hookweave contributors
# MIT License (see the repository's pyproject.toml)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: agent_hooks_info
short_description: Verify the AI coding-agent hooks hookweave installed, without writing
description:
  - Runs hookweave's verify on the target through its Python API, for the named agents, and returns what it finds
    as data a playbook can assert on, each registration present, missing, modified, duplicated or out of order,
    env values in effect, and the gates that keep hooks from running.
  - Never writes. A problem does not fail the task, assert on RV(problems) or RV(ok).
version_added: 0.1.0
author:
  - hookweave contributors (@hookweave)
requirements:
  - hookweave importable by the Python the module runs with (see M(hookweave.agents.agent_hooks)).
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
attributes:
  check_mode:
    support: full
    details: It never writes, in check mode or out of it.
  diff_mode:
    support: none
  platform:
    platforms: posix
options:
  hosts:
    description:
      - The agents to verify, by hookweave host name, or V(all).
    type: list
    elements: str
    default: [all]
    aliases: [host]
  scope:
    description:
      - Only this scope (V(user), V(project), V(local), V(managed), V(system), V(system-defaults)); default,
        every scope the agent reads.
    type: str
    choices: [user, project, local, managed, system, system-defaults]
  project:
    description:
      - The project folder whose agent settings to verify. Required unless O(scope=user).
    type: path
seealso:
  - module: hookweave.agents.agent_hooks
"""

EXAMPLES = r"""
- name: Verify the hooks of a project
  hookweave.agents.agent_hooks_info:
    hosts: [claude, codex, gemini]
    project: /home/alice/src/app
  register: verified

- name: Fail the play when an agent will not run them as asked
  ansible.builtin.assert:
    that: verified.ok
    fail_msg: "{{ verified.problems | map(attribute='message') | list }}"
"""

RETURN = r"""
ok:
  description: True when verify found no problem (the command's exit 0).
  returned: success
  type: bool
  sample: true
problems:
  description:
    - Findings that mean an agent will behave otherwise than the bundle asks.
    - Each has C(host), C(scope), C(path) (null for an agent-wide finding), C(level), C(bundle), C(hook),
      C(status) (V(missing), V(modified), V(duplicated), V(out-of-order), or null) and C(message).
  returned: success
  type: list
  elements: dict
  sample: [{host: claude, scope: project, path: /srv/app/.claude/settings.json, level: problem, bundle: guard,
            hook: one-strike, status: modified, message: "modified PreToolUse (first)"}]
hook_warnings:
  description:
    - verify's warnings, shaped as RV(problems). Named so because Ansible takes a module's C(warnings) for its own.
  returned: success
  type: list
  elements: dict
  sample: []
notes:
  description: verify's notes (how an agent runs an event's hooks, which folder it reads), shaped as RV(problems).
  returned: success
  type: list
  elements: dict
  sample: []
installed:
  description: Per agent, scope file and bundle, the bundle's hooks and their status.
  returned: success
  type: list
  elements: dict
  sample: [{host: claude, scope: project, path: /srv/app/.claude/settings.json, bundle: guard, version: 1.0.0,
            hooks: [{id: one-strike, event: PreToolUse, position: first, status: ok, detail: "", level: problem}]}]
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.hookweave.agents.plugins.module_utils import hookweave_api as hw


def main():
    module = AnsibleModule(
        argument_spec=dict(
            hosts=dict(type="list", elements="str", default=["all"], aliases=["host"]),
            scope=dict(type="str", choices=["user", "project", "local", "managed", "system", "system-defaults"]),
            project=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    hw.require(module)
    params = module.params
    hosts = hw.agents(module)
    project = hw.folder(module)
    try:
        verified = hw.api.verify(hosts, scope=params["scope"], project=project)
    except hw.HooksError as exc:
        hw.fail(module, exc, changed=False)
    installed = [
        dict(host=rep.host.name, scope=f.scope, path=f.shown, bundle=b.name, version=b.version,
             hooks=[_worded(h.as_json(), "detail") for h in b.hooks])
        for rep in verified.reports for f in rep.files for b in f.bundles
    ]
    problems, hook_warnings, notes = ([_worded(f, "message") for f in verified.level(level)]
                                      for level in ("problem", "warning", "note"))
    module.exit_json(changed=False, ok=verified.ok, problems=problems, hook_warnings=hook_warnings, notes=notes,
                     installed=installed)


def _worded(item, key):
    """A finding or hook status with its text in the module's words (``force: true``, not --force)."""
    return dict(item, **{key: hw.words(item[key])}) if item.get(key) else item


if __name__ == "__main__":
    main()
