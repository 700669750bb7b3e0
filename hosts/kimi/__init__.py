"""Kimi Code CLI: ``[[hooks]]`` tables in ``~/.kimi-code/config.toml``, one user file, no project file.

Documented facts, checked in Kimi Code's source (MoonshotAI/kimi-code at 0.38.0: packages/agent-core-v2,
``features/externalHooks``), never run here: no Kimi Code program installs from a registry this
machine reaches [DOC moonshotai.github.io/kimi-code/en/customization/hooks; docs/HOST-FACTS.md].

- ``$KIMI_CODE_HOME/config.toml``, else ``~/.kimi-code/config.toml`` (``resolveKimiHome``); "the CLI
  reads a single user-level config file and has no project-level config file mechanism".
- Each hook is a ``[[hooks]]`` table of exactly ``event``, ``matcher``, ``command`` and ``timeout``
  (zod ``.strict()``): an unknown field or event, an empty command or a timeout outside 1-600 makes
  Kimi load none of the file's hooks. Nothing else fits in a table, so hookweave's marker is the
  trailing shell comment of the command (``# hookweave:<bundle>/<hook>``), as for every host.
- An event's matching hooks start at once (``Promise.all``); an identical command runs once, with
  the first copy's timeout; the first block in file order decides. Matchers are unanchored
  JavaScript regexes (``RegExp.test``) and an invalid one matches nothing; commands run through
  ``sh -c`` (``shell: true``) in the session's folder, with no project variable.
- Exit 2 blocks (stderr the reason); exit 0 with ``hookSpecificOutput.permissionDecision: "deny"``
  blocks too; anything else, a timeout included, lets the call go ahead (core/standalone/protocol_kimi.py).
"""

from __future__ import annotations

from typing import Any

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.hosts.kimi import shape as kimi_shape

KIMI = Description(
    name="kimi",
    title="Kimi Code",
    files={"user": "${KIMI_CODE_HOME:-~/.kimi-code}/config.toml"},
    shape="flat",
    events={"session_start": "SessionStart", "session_end": "SessionEnd", "user_prompt_submit": "UserPromptSubmit",
            "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "stop": "Stop",
            "subagent_stop": "SubagentStop", "pre_compact": "PreCompact", "notification": "Notification"},
    tools={"shell": "Bash", "write": "Write", "edit": "Edit", "read": "Read"},
    native_events=("PostToolUseFailure", "PermissionRequest", "PermissionResult", "UserPromptQueued", "TurnStarted",
                   "StopFailure", "Interrupt", "SessionHeartbeat", "SubagentStart", "TaskStarted", "PostCompact"),
    programs=("kimi",),
    order="parallel",
    dedup="first",
    execution="Kimi Code starts all of an event's matching hooks at once and runs an identical command once (with "
              "the first copy's timeout); the first block in file order decides",
    restart="Kimi Code reads config.toml when a session starts (or on /reload)",
    protocol="kimi",
    source="moonshotai.github.io/kimi-code/en/customization/hooks; MoonshotAI/kimi-code 0.38.0 source "
           "(documentation and source only, never run)",
)


class KimiHost(host_class(KIMI)):  # type: ignore[misc]  # built like a plugin's host, plus its TOML list
    positional = False
    appends_why = ("hookweave appends its [[hooks]] tables at the end of config.toml, where taking them out again "
                   "gives the file back byte for byte")
    timeout_max = kimi_shape.TIMEOUT[1]
    timeout_max_why = "Kimi Code takes timeouts of 1 to 600 s and loads none of the file's hooks past that"

    def new_file_text(self) -> str:
        return ""

    def parse(self, text: str, path: str) -> Any:
        from hookweave.core.formats import tomledit

        return kimi_shape.view(tomledit.parse(text, path) if text.strip() else {}, path)

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        """Each operation on the events view made on the ``[[hooks]]`` list as it stands then; an edit
        that adds to a file Kimi would then refuse is refused, naming the table (nothing written)."""
        from hookweave.core.formats import tomledit

        for op in ops:
            raw = tomledit.parse(text, path) if text.strip() else {}
            hooks = kimi_shape.listed(raw, path) if "hooks" in raw else None
            text = tomledit.apply_ops(text, kimi_shape.file_ops(op, hooks), path, faithful=True)
        adds = any(op["op"] != "remove" and op["path"].startswith("/hooks") for op in ops)
        found = kimi_shape.first_problem(self._listed(text, path), self.native_events) if adds else None
        if found:
            raise BadInput(f"{path}: {found}: Kimi Code would load none of this file's hooks; fix or remove that "
                           "table, then run the command again (nothing written)")
        return text

    def reads_as(self, old_text: str | None, new_text: str, new: Any, path: str, ops: list[dict]) -> bool:
        """Read again whole (a small file). An event without tables, or a list without any, is not
        in the file at all: the planner keeps an event's emptied list, which reads back as none."""
        from hookweave.core.formats.patch import same

        return same(kimi_shape.without_empty(self.parse(new_text, path)), kimi_shape.without_empty(new))

    def check_document(self, doc: Any, path: str) -> None:
        """The base checks only: the entries' own are Kimi's (``rejects``, and ``apply`` before a write),
        said of the [[hooks]] table rather than of a JSON place in the events view (FlatHost's)."""
        Host.check_document(self, doc, path)

    def render(self, hook: Any, native_event: str, bundle: Any) -> dict[str, Any]:
        entry = super().render(hook, native_event, bundle)
        return {k: entry[k] for k in ("matcher", "command", "timeout") if k in entry}

    def native_matcher(self, matcher: tuple[str, ...] | str | None) -> str | None:
        plain = super().native_matcher(matcher)
        if plain is None or isinstance(matcher, str):
            return plain
        return f"^{plain}$" if "|" not in plain else f"^({plain})$"  # Kimi tests an unanchored regex

    def rejects(self, doc: Any, path: str) -> str | None:
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        for event, entries in hooks.items() if isinstance(hooks, dict) else ():
            for entry in entries:
                found = kimi_shape.problem(kimi_shape.table(event, entry), self.native_events)
                if found:
                    return (f"{kimi_shape.place(None, kimi_shape.table(event, entry))}: {found}: Kimi Code loads "
                            "none of this file's hooks; fix or remove that table")
        return None

    @staticmethod
    def _listed(text: str, path: str) -> list[dict]:
        from hookweave.core.formats import tomledit

        return kimi_shape.listed(tomledit.parse(text, path), path) if text.strip() else []


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(KimiHost)
