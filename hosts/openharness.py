"""OpenHarness (``oh``): flat handlers under snake_case events in ``~/.openharness/settings.json``.

Facts read in PyPI ``openharness-ai`` 0.1.9 (``openharness/hooks``, ``config/settings.py``,
``ui/runtime.py``, ``engine/query.py``) and run offline against the mock model
(tests/e2e/test_openharness_real.py); docs/HOST-FACTS.md has each with its source:

- One file: ``$OPENHARNESS_CONFIG_DIR/settings.json``, else ``~/.openharness/settings.json``
  (``get_config_file_path``); no project file. Strict JSON (``json.loads``), read again before
  every prompt (``handle_line``), so a running session picks up an install.
- ``hooks``: event → list of handlers ``{type, command, timeout_seconds, matcher, block_on_failure}``
  (pydantic ``Settings.hooks``). An unknown event is skipped; an unknown key is ignored; an entry
  pydantic refuses (no command, a timeout outside 1..600) stops ``oh`` from starting at all.
- Matchers are ``fnmatch`` globs on the tool name (``bash``, ``read_file``, ``write_file``,
  ``edit_file``), else the prompt, else the event name: no ``a|b``.
- An event's hooks run one after another in file order, every one of them: a block does not stop
  the later ones; the first blocking hook's output is the reason. Identical entries run twice.
- A command runs through ``bash -lc`` in the folder ``oh`` works in, stdin empty, with
  ``OPENHARNESS_HOOK_EVENT`` and ``OPENHARNESS_HOOK_PAYLOAD`` (the JSON payload); a failure (any
  exit but 0, a timeout) blocks only where ``block_on_failure`` is true, and only pre_tool_use and
  pre_compact heed it (core/standalone/protocol_openharness.py).
- ``oh`` rewrites the whole file when it saves a setting (``save_settings``: ``--theme``, ``/model``,
  ``oh setup``): keys it does not know are dropped, each hook written with every field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.errors import BadInput

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle, HookForHost

EVENTS = ("session_start", "session_end", "pre_compact", "post_compact", "pre_tool_use", "post_tool_use",
          "user_prompt_submit", "notification", "stop", "subagent_stop")  # openharness.hooks.events.HookEvent
BLOCKING = frozenset({"pre_tool_use", "pre_compact"})  # where a block stops anything (query.py, compact)
DEFAULT_TIMEOUT = 30  # CommandHookDefinition.timeout_seconds
REQUIRED = {"command": "command", "prompt": "prompt", "http": "url", "agent": "prompt"}  # hooks/schemas.py
LIMITS = {"command": 600, "prompt": 600, "http": 600, "agent": 1200}  # timeout_seconds: ge=1, le=...

OPENHARNESS = Description(
    name="openharness",
    title="OpenHarness",
    files={"user": "${OPENHARNESS_CONFIG_DIR:-~/.openharness}/settings.json"},
    shape="flat",
    events={e: e for e in ("session_start", "session_end", "user_prompt_submit", "pre_tool_use", "post_tool_use",
                           "stop", "subagent_stop", "pre_compact", "notification")},
    native_events=("post_compact",),
    tools={"shell": "bash", "read": "read_file", "write": "write_file", "edit": "edit_file"},
    programs=("oh", "openharness", "openh"),
    order="file",
    dedup="none",
    execution="OpenHarness runs an event's hooks one after another in file order, and every one of them: a block "
              "does not stop the later hooks (the first blocking hook's output is the reason)",
    restart="",
    protocol="openharness",
    notes=("OpenHarness gives a hook no stdin: the payload is JSON in $OPENHARNESS_HOOK_PAYLOAD (and in place of "
           "$ARGUMENTS in the command), the event in $OPENHARNESS_HOOK_EVENT",
           "hookweave writes block_on_failure: true on pre_tool_use and pre_compact hooks, so any exit but 0 (or a "
           "timeout) there blocks, exit 1 too; OpenHarness heeds no block on other events",
           "OpenHarness rewrites settings.json whole when it saves a setting (oh setup, /model, --theme): keys it "
           "does not know are dropped; hookweave writes its entries with every field, so they survive unchanged"),
    source="PyPI openharness-ai 0.1.9 (openharness/hooks, config/settings.py), run offline; "
           "github.com/HKUDS/OpenHarness",
)


def _several(matcher: str) -> str:
    return (f"OpenHarness matchers are globs on one tool name (fnmatch), and {matcher!r} names several; give "
            "the hook one tool for openharness ([hooks.host.openharness] matcher), or split it into one hook per tool")


class OpenharnessHost(host_class(OPENHARNESS)):  # type: ignore[misc]  # a plugin's host, plus what data cannot say
    timeout_max = 600
    timeout_key = "timeout_seconds"
    null_keys = frozenset({"matcher"})  # oh writes "matcher": null back (save_settings)
    timeout_max_why = "OpenHarness refuses a command hook's timeout_seconds above 600 and then does not start"

    def event_for(self, native: str, hook: HookForHost) -> tuple[str | None, str]:
        """A hook for several tools has no place here: OpenHarness matchers are globs on one tool
        name (no ``a|b``), and one entry per tool would give one hook several places the record
        cannot tell apart. Skipped with a warning, refused when its ``hosts`` name openharness."""
        matcher = self.native_matcher(hook.matcher) if isinstance(hook.matcher, tuple) else None
        return (None, _several(matcher)) if matcher is not None and "|" in matcher else (native, "")

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        """Every field, in the order ``oh`` writes them back (``model_dump``), so its own rewrite
        of the file leaves the entry as it was."""
        matcher = self.native_matcher(hook.matcher)
        if matcher is not None and "|" in matcher:  # a native string matcher, as written (event_for takes tools)
            raise BadInput(f"{bundle.manifest}: hooks ({hook.id}): {_several(matcher)}")
        return {"type": "command", "command": self.command(hook, bundle),
                "timeout_seconds": hook.timeout if hook.timeout is not None else DEFAULT_TIMEOUT,
                "matcher": matcher, "block_on_failure": native_event in BLOCKING}

    def rejects(self, doc: Any, path: str) -> str | None:
        """What pydantic refuses in ``hooks`` (``Settings.model_validate``): then ``oh`` does not start."""
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        if hooks is None:
            return None
        if not isinstance(hooks, dict):
            return f"{path}: /hooks is not an object: OpenHarness does not start"
        for event, handlers in hooks.items():
            if not isinstance(handlers, list):
                return f"{path}: /hooks/{event} is not a list: OpenHarness does not start"
            for i, handler in enumerate(handlers):
                cause = _refused(handler)
                if cause:
                    return f"{path}: /hooks/{event}/{i} {cause}: OpenHarness does not start (a pydantic error)"
        return None


def _refused(handler: Any) -> str | None:
    if not isinstance(handler, dict):
        return "is not an object"
    kind = handler.get("type", "command")
    if kind not in REQUIRED:
        return f"has type {kind!r}, not command, prompt, http or agent"
    if not isinstance(handler.get(REQUIRED[kind]), str):
        return f'has no "{REQUIRED[kind]}" string'
    timeout = handler.get("timeout_seconds", 1)
    if isinstance(timeout, str) and timeout.strip().isdigit() or isinstance(timeout, float) and timeout.is_integer():
        timeout = int(timeout)  # pydantic's lax mode takes "7", 7.0 and true (1)
    if not isinstance(timeout, int) or not 1 <= timeout <= LIMITS[kind]:
        return f"has timeout_seconds {timeout!r}, not a whole number from 1 to {LIMITS[kind]}"
    if handler.get("matcher") is not None and not isinstance(handler.get("matcher"), str):
        return "has a matcher that is not a string"
    if isinstance(handler.get("block_on_failure"), (dict, list)):
        return "has a block_on_failure that is not true or false"
    return None


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(OpenharnessHost)
