#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: hookweave contributors
# MIT License (see the repository's pyproject.toml)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: agent_hooks
short_description: Install or remove a hookweave bundle of AI coding-agent hooks
description:
  - Installs a hookweave bundle into the settings files of the named agents (Claude Code, Codex, Gemini CLI,
    Cursor, Copilot CLI and the other hosts hookweave knows), or removes exactly what it installed.
  - Calls hookweave's Python API on the target, never its command-line text. Every byte the operator wrote stays
    as it was; a second identical run writes nothing and reports C(changed=false).
  - A refusal (a settings file that does not parse, an entry the operator edited, a gate) fails the task with
    hookweave's one-line message, and nothing is written on that machine.
  - Agents find their user settings through C(HOME) and their own variables (C(CLAUDE_CONFIG_DIR), C(CODEX_HOME),
    C(GEMINI_CLI_HOME)); set them with O(ignore:environment) on the task or play, or run as the user with become.
version_added: 0.1.0
author:
  - hookweave contributors (@hookweave)
requirements:
  - hookweave importable by the Python the module runs with, e.g. its wheel pip-installed into a virtual environment
    and C(ansible_python_interpreter) set to that environment's Python (docs/fleet.md).
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
attributes:
  check_mode:
    support: full
    details: hookweave's dry run; nothing is written, C(changed) is true when a write would happen.
  diff_mode:
    support: full
    details: hookweave's unified diff of each settings file that changes.
  platform:
    platforms: posix
options:
  state:
    description:
      - V(present) installs the bundle (or upgrades it in place); V(absent) removes what its records say it wrote.
    type: str
    choices: [present, absent]
    default: present
  bundle:
    description:
      - The bundle's manifest on the target (a C(hookweave.toml) or the folder holding it, C(~) expanded), or the
        name of a template shipped with hookweave (V(example-guard)).
      - Required with O(state=present). With O(state=absent), its name is read from the manifest unless O(name)
        is given.
    type: path
  name:
    description:
      - The installed bundle's name, for O(state=absent) without O(bundle).
    type: str
  hosts:
    description:
      - The agents to install into or remove from, by hookweave host name (V(claude), V(codex), V(gemini),
        V(cursor), ...), V(all), or V(detected) (only the agents found on the machine, by their program, user
        folder, or a settings file in the project). An empty list is refused.
    type: list
    elements: str
    required: true
    aliases: [host]
  scope:
    description:
      - Which settings file of each agent, V(user), V(project), V(local) (Claude Code) or V(managed) (Claude
        Code's managed layer, hookweave's own drop-in C(/etc/claude-code/managed-settings.d/50-hookweave.json); the
        agents without a drop-in folder refuse it). Default, the project file, or the user file of an agent that
        has no project file.
    type: str
    choices: [user, project, local, managed]
  project:
    description:
      - The project folder whose agent settings to edit. Required unless O(scope=user) or O(scope=managed).
    type: path
  trust:
    description:
      - Codex, mark the installed hooks trusted in the user C(config.toml) (Codex skips untrusted hooks).
    type: bool
    default: false
  force:
    description:
      - With O(state=present), replace entries of this bundle the operator edited; with O(state=absent), remove
        them anyway. Without it such a run fails and writes nothing.
    type: bool
    default: false
  on_edited:
    description:
      - What to do on a machine where the operator edited an entry of this bundle (or wrote a copy of one by
        hand).
      - V(fail) fails the task with hookweave's message; nothing is written on that machine.
      - V(keep) leaves the machine as it is, the operator's edit and every other file of the bundle included
        (hookweave writes all of a machine's files or none), and reports C(ok) with a warning naming the entry.
      - V(replace) puts the bundle's version back (with O(state=absent), removes the entry anyway), as
        O(force=true) does.
    type: str
    choices: [fail, keep, replace]
    default: fail
seealso:
  - module: hookweave.agents.agent_hooks_info
"""

EXAMPLES = r"""
- name: Put hookweave where the module runs (a wheel built from the repository, until it is on PyPI)
  ansible.builtin.pip:
    name: /var/tmp/hookweave-0.1.0-py3-none-any.whl
    virtualenv: /opt/hookweave
    virtualenv_command: python3 -m venv

- name: Run the hookweave tasks with that Python
  hookweave.agents.agent_hooks:
    bundle: /opt/tools/guard
    hosts: [detected]
    project: /srv/app
  vars:
    ansible_python_interpreter: /opt/hookweave/bin/python

- name: Install the guard into three agents of a project
  hookweave.agents.agent_hooks:
    bundle: /opt/tools/guard
    hosts: [claude, codex, gemini]
    project: /home/alice/src/app
    trust: true
  become: true
  become_user: alice

- name: The same for a user's own settings, with its home named explicitly
  hookweave.agents.agent_hooks:
    bundle: example-guard
    hosts: [claude]
    scope: user
  environment:
    HOME: /home/alice

- name: Take it out again, byte for byte
  hookweave.agents.agent_hooks:
    state: absent
    name: guard
    hosts: [claude, codex, gemini]
    project: /home/alice/src/app
"""

RETURN = r"""
changed:
  description: Whether a settings file or record was (or, in check mode, would be) written.
  returned: always
  type: bool
  sample: true
active:
  description: False when a gate or duplicate means hooks written now will not run as the bundle asks.
  returned: success
  type: bool
  sample: true
files:
  description: Every file the run planned, one dict each.
  returned: success
  type: list
  elements: dict
  contains:
    host:
      description: The agent.
      type: str
      returned: always
      sample: claude
    scope:
      description: The scope of the file.
      type: str
      returned: always
      sample: project
    path:
      description: The file's absolute path.
      type: str
      returned: always
      sample: /srv/app/.claude/settings.json
    record:
      description: The record beside it; null for a companion file (Codex's trust state).
      type: str
      returned: always
      sample: /srv/app/.claude/settings.hookweave.json
    changed:
      description: Whether the file or its record changes.
      type: bool
      returned: always
    record_changed:
      description: Whether the record changes.
      type: bool
      returned: always
    actions:
      description: What hookweave did (or would do) to the file.
      type: list
      elements: str
      returned: always
    diff:
      description: hookweave's unified diff of the file in diff mode; empty otherwise.
      type: str
      returned: always
    record_diff:
      description: The unified diff of the record in diff mode (a version bump changes only the record); empty
        otherwise.
      type: str
      returned: always
    problems:
      description: Findings that keep hooks in this file from running as the bundle asks.
      type: list
      elements: dict
      returned: always
    notes:
      description: Warnings and notes about the file.
      type: list
      elements: dict
      returned: always
problems:
  description: Every file's problems (level, bundle, hook, message), as verify would report them.
  returned: success
  type: list
  elements: dict
  sample: []
left_out:
  description: Agents under V(all) that the bundle has nothing for.
  returned: success
  type: list
  elements: str
  sample: []
msg:
  description: One line; on failure hookweave's message.
  returned: always
  type: str
  sample: "install: 3 files written"
exit_code:
  description: hookweave's exit code for a failure (1 refused by policy, 2 bad input).
  returned: failure
  type: int
  sample: 1
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.hookweave.agents.plugins.module_utils import hookweave_api as hw


def _absent(module, params, hosts, project, force):
    name = params["name"]
    if name is None:
        from hookweave.core.model import loading

        name = loading.load_bundle(params["bundle"]).name
    try:
        return hw.api.uninstall(name, hosts, scope=params["scope"], project=project,
                                force=force, dry_run=module.check_mode)
    except hw.Unrecorded:
        raise
    except hw.NotInstalled as exc:  # already absent where asked: nothing to do
        module.exit_json(changed=False, files=[], problems=[], left_out=[], active=True, msg=hw.words(str(exc)))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            state=dict(type="str", choices=["present", "absent"], default="present"),
            bundle=dict(type="path"),
            name=dict(type="str"),
            hosts=dict(type="list", elements="str", required=True, aliases=["host"]),
            scope=dict(type="str", choices=["user", "project", "local", "managed"]),
            project=dict(type="path"),
            trust=dict(type="bool", default=False),
            force=dict(type="bool", default=False),
            on_edited=dict(type="str", choices=["fail", "keep", "replace"], default="fail"),
        ),
        required_if=[("state", "present", ["bundle"]), ("state", "absent", ["bundle", "name"], True)],
        supports_check_mode=True,
    )
    hw.require(module)
    params = module.params
    hosts = hw.agents(module)
    project = hw.folder(module)
    if params["force"] and params["on_edited"] == "keep":
        module.fail_json(msg="force: true and on_edited: keep contradict each other: drop one")
    force = params["force"] or params["on_edited"] == "replace"
    try:
        if params["state"] == "present":
            done = hw.api.install(params["bundle"], hosts, scope=params["scope"], project=project,
                                  force=force, trust=params["trust"], dry_run=module.check_mode)
        else:
            done = _absent(module, params, hosts, project, force)
        if module.check_mode:
            done.check_writable()  # what the real run refuses before it plans: check mode must fail too
    except hw.Edited as exc:
        if params["on_edited"] != "keep":
            hw.fail(module, exc, changed=False)
        edit = hw.words(str(exc)).split("; nothing written")[0]
        module.warn("%s; kept as the operator edited it (on_edited: keep), nothing written on this machine" % edit)
        command = "install" if params["state"] == "present" else "uninstall"
        module.exit_json(changed=False, files=[], problems=[], left_out=[], active=True,
                         msg="%s: an edited entry kept (on_edited: keep); nothing written" % command)
    except hw.HooksError as exc:
        hw.fail(module, exc, changed=False)
    hw.report(module, done)


if __name__ == "__main__":
    main()
