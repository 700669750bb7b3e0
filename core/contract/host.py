"""The host interface every host plugin implements, built-in or third-party.

A host says where its settings files are, how a registration looks in its dialect, how to
recognise entries hookweave wrote, which gates silently stop hooks, and how it runs an event's
hooks. The merge, order, env and removal logic is shared and lives in the pure core.
"""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, Mapping

from hookweave.core.contract.abstractness import mark
from hookweave.core.errors import BadInput
from hookweave.core.formats import jsonlite
from hookweave.core.model.findings import Finding
from hookweave.core.model.jsonkinds import event_groups as _groups, kind_of
from hookweave.core.model.render import marker, portable_ref, shell_command, through_a_shell, through_sh

if TYPE_CHECKING:  # a bundle's data loads with the commands that render one
    from hookweave.core.model.bundle import Bundle, HookForHost


@mark  # not instantiable itself, as under abc.ABC: its abstract methods are unimplemented
class Host:
    """Base class of a host: the facts of one agent as class attributes, and the methods every command calls.

    A host is built from a ``Description`` (``describe.host_class``), which sets every fact below
    from data (docs/PLUGINS.md lists the fields); a class derived from that one adds code for what
    data cannot say (Codex trust hashes, Cline's dispatchers), as the built-in hosts do. Facts
    without a Description field: ``project_root_ref`` [``project_ref`` unless that is "."]: the
    project folder as a shell word for a bundle inside the project (``None``: absolute paths, and a
    warning at project scope); ``hook_env`` [False]: the bundle's env goes into each hook's own
    ``env`` (Gemini); ``positional`` [True]: ``False`` when the host's own bookkeeping is keyed by
    index (Codex trust), so we only append; ``needs_trust`` [False]: the host runs only hooks the
    operator trusted, install asks (or takes ``--trust``); ``owns_file``/``owns_key``: the file or
    key is hookweave's own. Optional methods each say what they are for.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    scopes: ClassVar[tuple[str, ...]] = ("user", "project")
    verify_scopes: ClassVar[tuple[str, ...]] = ("user", "project")
    events: ClassVar[Mapping[str, str | None]] = {}
    tools: ClassVar[Mapping[str, str | None]] = {}
    native_events: ClassVar[frozenset[str]] = frozenset()
    documented_events: ClassVar[frozenset[str]] = frozenset()  # of native_events: from documents only, unmeasured
    documented_in: ClassVar[str] = ""
    env_key: ClassVar[str | None] = None
    comments: ClassVar[bool] = False
    comment_fix: ClassVar[str] = "remove the comment"
    project_ref: ClassVar[str] = "."
    project_root_ref: ClassVar[str | None] = None  # the project folder as a shell word, if the host has one
    project_lookup: ClassVar[str] = "cwd"  # which folder the host takes as the project (core/reading/projects.py)
    hooks_key: ClassVar[str] = "hooks"
    execution: ClassVar[str] = ""
    order: ClassVar[str] = "file"
    hook_env: ClassVar[bool] = False
    dedup: ClassVar[str] = "none"  # identical commands of one event: "none", "first", "last", "unknown" (run_key)
    required: ClassVar[Mapping[str, Any]] = {}
    positional: ClassVar[bool] = True
    appends_why: ClassVar[str] = ""  # why a host that is not ``positional`` only appends ("": Codex's trust keys)
    needs_trust: ClassVar[bool] = False
    also_reads: ClassVar[tuple[Any, ...]] = ()  # contract.reads.Reads rows
    timeout_unit: ClassVar[str] = "s"  # what the file's timeouts count: "s" or "ms" (rendered from seconds)
    # The longest hook timeout (s) install writes: 2^31 - 1 ms, past which Node's setTimeout (JavaScript hosts) fires at once; the chain runner and Cline dispatcher wait as long.
    timeout_max: ClassVar[int] = 2_147_483
    timeout_max_why: ClassVar[str] = ""  # why a host's own limit is what it is, for install's refusal
    restart: ClassVar[str] = "hooks load at session start"  # why a running session needs a restart; "" if none
    protocol: ClassVar[str] = ""  # for a described host: whose answer protocol it follows
    protocol_data: ClassVar[Mapping[str, Any] | None] = None  # or its protocol as data (protocol_data.DEFAULTS)
    exit_codes: ClassVar[str] = "read"  # "ignored": no exit code blocks; install warns on ``blocking_events``
    blocking_events: ClassVar[frozenset[str]] = frozenset()  # native events where an answer can block
    owns_file: ClassVar[bool] = False  # the settings file is hookweave's own (the operator's hooks are elsewhere)
    runs: ClassVar[str] = "shell"  # "argv": split on spaces unless a shell character; "exec": always split, no shell
    owns_key: ClassVar[bool] = False  # ``hooks_key`` is hookweave's own key in a file the operator shares
    no_managed: ClassVar[str] = ""  # why --scope managed is refused, and what to do instead (a host without one)
    created_only: ClassVar[tuple[str, ...]] = ()  # scopes whose file is hookweave's own drop-in: never one it did not create
    root_only: ClassVar[Mapping[str, str]] = {}  # per scope, why install there needs root, with the fix; its new file: 0644, root's
    unreadable: ClassVar[Mapping[str, str]] = {}  # per scope, what the agent does with a file that does not parse
    merge_layer: ClassVar[Callable[[dict, dict], dict] | None] = None  # how the files of one scope merge (None: key by key)
    json5: ClassVar[bool] = False  # the agent reads JSON5: a file hookweave cannot read may still run
    timeout_key: ClassVar[str] = "timeout"  # the handler's key for its timeout (OpenHarness: timeout_seconds)
    null_keys: ClassVar[frozenset[str]] = frozenset()  # handler keys the agent itself writes as null (OpenHarness)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        derived = set()
        if not _declared(cls, "verify_scopes"):
            cls.verify_scopes, derived = tuple(cls.scopes), derived | {"verify_scopes"}
        if not _declared(cls, "project_root_ref"):
            cls.project_root_ref = cls.project_ref if cls.project_ref != "." else None
            derived.add("project_root_ref")
        if not _declared(cls, "native_events"):
            cls.native_events = frozenset(native for native in cls.events.values() if native)
            derived.add("native_events")
        cls._derived = frozenset(derived)  # set here, not by the author: a subclass derives them again
        mark(cls)  # abstract methods left unimplemented: not instantiable, as under abc.ABC (abstractness.py)

    # -- where -----------------------------------------------------------------------------

    @abstractmethod
    def settings_path(self, scope: str, project: Path) -> Path:
        """Absolute path of the settings file for ``scope``; ``project`` is the project folder."""

    def record_path(self, settings: Path) -> Path:
        """Where the record of what hookweave wrote into ``settings`` lives: a sidecar beside it."""
        return settings.with_name(settings.stem + ".hookweave.json")

    def extra_paths(self, scope: str) -> list[Path]:
        """More files merged into ``scope`` for verify (managed drop-ins), in the host's merge order
        (``merge_layer``); the scope's own file comes first unless the list names it."""
        return []

    def context_paths(self, project: Path) -> dict[str, Path]:
        """Other JSON files verify reads for ``gates``, by label (e.g. a trust list, another host's settings)."""
        return {}

    def detect(self) -> bool:
        """Whether this host seems to be in use here (offered first by the interactive prompt)."""
        return False

    # -- the file format -------------------------------------------------------------------

    def parse(self, text: str, path: str) -> Any:
        """Parse settings text; raise ``ParseError`` with ``path:line:col`` when it does not parse."""
        from hookweave.core.formats import jsontext  # loaded when a file is read, not at start-up

        return jsontext.load(text, path, comments=self.comments, comment_fix=self.comment_fix)

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        """Apply RFC 6902 ``ops`` to the text, changing nothing else."""
        from hookweave.core.formats import jsonedit

        return jsonedit.apply_ops(text, ops, path, comments=self.comments)

    def reads_as(self, old_text: str | None, new_text: str, new: Any, path: str, ops: list[dict]) -> bool:
        """Whether ``new_text`` (``apply``'s result of ``ops`` on ``old_text``) parses to ``new``;
        nothing is written otherwise. JSON hosts prove it on the changed values only (``jsoncheck``)."""
        from hookweave.core.formats import jsoncheck

        return jsoncheck.reads_as(old_text, new_text, new, path, comments=self.comments, ops=ops)

    def new_file_text(self) -> str:
        """The text of a settings file that does not exist yet, before our change."""
        return "{}\n"

    def check_document(self, doc: Any, path: str) -> None:
        """Raise ``BadInput`` naming the place and the fix when ``doc`` has a shape we cannot edit."""
        if not isinstance(doc, dict):
            raise BadInput(f"{path}: the top level must be a JSON object; fix the file by hand")
        hooks = doc.get(self.hooks_key, {})
        if not isinstance(hooks, dict):
            raise BadInput(f"{path}: /{self.hooks_key} must be an object of events, not {kind_of(hooks)}; "
                           "fix the file by hand")
        env = doc.get(self.env_key, {}) if self.env_key else {}
        if not isinstance(env, dict):
            raise BadInput(f"{path}: /{self.env_key} must be an object; fix the file by hand")
        for name, value in env.items():
            if not isinstance(value, str):  # the host reads strings only, and so do env policies
                raise BadInput(f"{path}: /{self.env_key}/{jsonlite.dumps(name, ensure_ascii=False)[1:-1]} must be a string, "
                               f"not {kind_of(value)}; put the value in quotes")

    # -- registrations ---------------------------------------------------------------------

    @abstractmethod
    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        """The native entry for one hook, placed into the event's array as one element."""

    @abstractmethod
    def owner(self, entry: Any) -> tuple[str, str] | None:
        """``(bundle, hook id)`` when ``entry`` was written by hookweave, else ``None``."""

    def strip_ours(self, entry: Any, bundle: str) -> Any | None:
        """``entry`` without the parts ``bundle`` wrote, or ``None`` when nothing else is left."""
        return None

    def forget(self, doc: dict[str, Any], bundle: str, hook_ids: list[str]) -> None:
        """Remove other traces of these registrations from ``doc`` when they go away.

        ``doc`` is the plan's copy of the file's data, but it shares every container below its top
        level with the data as read (copying a 100,000-entry file cost more than the edit): assign
        a changed value to its top-level key (``doc["x"] = {**doc["x"], ...}``), never change a
        nested container in place."""

    def traces(self, doc: Any, bundle: str) -> set[str]:
        """Ids of ``bundle``'s hooks that already have traces in ``doc`` (what ``forget`` removes).
        Install records the ones present before it; ``forget`` is then never asked to remove them."""
        return set()

    def companion_ops(
        self, old: Any, new: Any, target: Any, bundle: str, current: Callable[[Path], Any], *, trust: bool
    ) -> dict[Path, list[dict]]:
        """Edits to other files that must go with a planned change of ``target`` (Codex trust state).

        ``old``/``new`` are the settings data before and after; ``current(path)`` gives another
        file's data as it will be after edits already planned. Return RFC 6902 ops per path.
        """
        return {}

    def companion_paths(self, target: Any) -> list[Path]:
        """Files ``companion_ops`` may edit, so they are locked with the target."""
        return []

    companion_action: ClassVar[str] = "hook trust state"  # what a companion file is, as install shows it
    companion_scope: ClassVar[str | None] = "user"  # the scope a companion belongs to; None: its file's

    def companion_text(self, path: Path, old: str | None, new: str) -> tuple[str | None, bool]:
        """A companion file's text after our edits (``None``: delete it, as we created it and it
        holds nothing else now) and whether its folder, also ours, goes too. ``old``: before this run."""
        return new, False

    def verify_extra(self, project: Path, scopes: list[str]) -> list[Finding]:
        """Checks that ask the host itself (e.g. ``codex app-server``); may run a program."""
        return []

    def event_for(self, native: str, hook: HookForHost) -> tuple[str | None, str]:
        """The native event ``hook`` goes under, given its neutral event's column entry ``native``,
        or ``(None, why)`` when the hook cannot say which (Windsurf files each tool under an event
        of its own, so a tool hook's event comes from its matcher). By default: ``native``."""
        return native, ""

    def native_tools(self, tool: str) -> tuple[str, ...]:
        """The host's names for the neutral ``tool`` (``|`` between several); empty when it has none
        (left out of ``tools``, or ``None``): ``plan.matchers`` then skips or narrows the hook."""
        native = self.tools.get(tool)
        return tuple(n for n in native.split("|") if n) if isinstance(native, str) else ()

    def native_matcher(self, matcher: tuple[str, ...] | str | None) -> str | None:
        """``None`` (every tool), a native string as written, or the host's names of neutral tools;
        never ``None`` for tools the host lacks, which would widen the hook to every tool."""
        if matcher is None or isinstance(matcher, str):
            return matcher
        natives: list[str] = []
        for tool in matcher:
            natives.extend(n for n in self.native_tools(tool) if n not in natives)
        if matcher and not natives:
            raise RuntimeError(f"internal error: {self.name} has none of {', '.join(matcher)}; "
                               "the hook would run on every tool")
        return "|".join(natives) if natives else None

    def answer_protocol(self) -> str:
        """Whose answer protocol ``hooks check`` and chains judge this host's hooks by: a described host
        names one (``protocol``); a built-in host's is its own name."""
        return self.protocol or self.name

    def native_timeout(self, seconds: int | None) -> int | None:
        """A hook's timeout (seconds in the manifest) as the file counts it (``timeout_unit``)."""
        return seconds * 1000 if seconds is not None and self.timeout_unit == "ms" else seconds

    def command(self, hook: HookForHost, bundle: Bundle) -> str:
        ref = None if bundle.portable is None else portable_ref(self.project_root_ref, bundle.portable)
        text = shell_command(hook.command, bundle.directory, self.project_ref, marker(bundle.name, hook.id), ref)
        return {"exec": through_sh, "argv": through_a_shell}.get(self.runs, str)(text)  # how the agent runs it

    # -- verify ----------------------------------------------------------------------------

    def handler_of(self, entry: Any) -> dict | None:
        """The handler in ``entry`` (one element of an event's list) that makes it ours, as ``owner`` reads it."""
        return entry if isinstance(entry, dict) and self.owner(entry) else None

    def run_key(self, event: str, entry: Any) -> Hashable | None:
        """The key under which the host runs identical hooks of one event once, for ``entry``, an
        element of ``event``'s list holding one of our hooks; ``None`` when the host runs every copy.

        Copies with equal keys, in any scopes the host loads (``running_docs``), run once per event
        even when their timeouts or matchers differ (as long as one of them matches). The default
        keys by event and command when ``dedup`` is ``"first"`` or ``"last"``, else runs every copy.
        """
        handler = self.handler_of(entry)
        if self.dedup not in ("first", "last") or handler is None:
            return None
        return (event, handler.get("command"))

    def running_docs(self, docs: Mapping[str, Any], project: Path) -> dict[str, Any]:
        """Each ``verify_scopes`` file's data as the host will run it here: a layer it does not
        load is left out, and so are hooks it loads but skips (Codex: untrusted or disabled ones).
        ``docs`` as for ``gates``. The default: every scope, every hook."""
        return {scope: docs.get(scope) for scope in self.verify_scopes}

    def rejects(self, doc: Any, path: str) -> str | None:
        """Why the host refuses the whole settings file ``doc`` and runs none of its hooks
        (``"<place>: <cause>"``), or ``None`` when it loads it. Checked on every verify."""
        return None

    def skipped_entries(self, doc: Any, path: str) -> list[str]:
        """One sentence per entry of the settings file ``doc`` that the host skips while it runs the
        rest (``"<place>: <cause>"``): verify warns of each, install and adopt leave them as they are."""
        return []

    def dropped_lists(self, doc: Any, path: str) -> list[tuple[str, str]]:
        """``(event, sentence)`` for each event whose whole list in the settings file ``doc`` the host
        drops for one bad entry while it runs the file's other events: a problem when ours is in it."""
        return []

    def order_holds(self, event: str, docs: Mapping[str, Any]) -> bool:
        """Whether the file order of ``event``'s hooks decides anything when the host runs them.

        ``docs``: every ``verify_scopes`` file's data by scope (``None`` when missing). ``True``
        makes a hook out of order a problem for verify, ``False`` a note. By ``order`` by default;
        under ``"sequential-flag"``, when a group of the event sets ``"sequential": true`` anywhere.
        """
        if self.order == "sequential-flag":
            return any(isinstance(group, dict) and group.get("sequential") is True
                       for scope in self.verify_scopes for group in _groups(docs.get(scope), self.hooks_key, event))
        return self.order != "parallel"

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        """Problems that would silently keep hooks from running; one this machine decides rather than
        the repository (trust, a switch, a file outside the project) says ``machine=True``.
        ``docs``: every ``verify_scopes`` file's data by scope and ``context_paths`` file's by label
        (``None`` when missing or unreadable; absent when ``verify --repo`` did not read it)."""
        return []


def _declared(cls: type, attribute: str) -> bool:
    """Whether a class between ``cls`` and ``Host`` sets ``attribute`` itself (not derived)."""
    return any(attribute in klass.__dict__ and attribute not in klass.__dict__.get("_derived", ())
               for klass in cls.__mro__ if klass is not Host and issubclass(klass, Host))
