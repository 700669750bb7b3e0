"""The record: what hookweave wrote into one settings file (pure conversion to and from JSON).

It lives beside the settings file as ``<stem>.hookweave.json`` (docs/ownership.md). It holds hashes,
not commands, so a project-scope record carries no absolute path of anyone's machine.

A record is input like any other: an operator (or a merge) can edit it, so every value is
checked before any is used (``read_record`` below), and a bad one is refused naming its place.
Unknown keys are ignored (a later hookweave of the same format may add some); every known key must
hold what hookweave writes there, or nothing derived from it is used.
"""

from pathlib import Path
from typing import Any

from hookweave.core.errors import BadInput
from hookweave.core.files.paths import display, printable
from hookweave.core.formats import jsonlite, tomlplain
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats import lazypattern
from hookweave.core.formats.textsafe import PRINTABLE, escape_surrogates
from hookweave.core.model.names import POLICIES, POSITIONS

FORMAT = 1
FIX = "restore it from version control or delete it (hookweave then treats marked entries as unrecorded)"


class RecordedEnv(FieldTuple):
    value: str
    policy: str
    prior: str | None  # None: the variable was absent
    applied: bool  # False: the operator's value was kept and is not ours to remove
    prior_text: str | None = None  # how the file spelled the prior (``"\u00e9"``) when not as we would


class RecordedHook(FieldTuple):
    id: str
    event: str
    position: str
    sha256: str
    members: tuple[tuple[str, str], ...] = ()  # a chain's (member id, hash of its words), in run order


class RecordedBundle(FieldTuple):
    version: str
    hooks: tuple[RecordedHook, ...] = ()
    env: dict[str, RecordedEnv] = {}  # noqa: RUF012 - read only, like every field
    traces_before: tuple[str, ...] = ()  # ids whose host traces (Gemini's disabled list) predate us
    # Another agent runs these hooks from this file instead of a copy in its own (plan/standin.py):
    # ``{reader host: (hook ids)}``, so verify and status show them as that agent's too.
    runs_for: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 - read only, like every field
    # Hooks that were one group of several handlers before ``adopt`` made one group per hook, in
    # order: ``adopt --undo`` joins them again, so the file comes back as it was.
    joined: tuple[tuple[str, ...], ...] = ()

    def hashes(self, event: str | None = None) -> dict[str, str]:
        return {h.id: h.sha256 for h in self.hooks if event is None or h.event == event}

    def joined_within(self, ids: set[str]) -> tuple[tuple[str, ...], ...]:
        """``joined`` as a reinstall keeps it: the groups whose hooks are all still there."""
        return tuple(j for j in self.joined if set(j) <= ids)


class Record(FieldTuple):
    bundles: dict[str, RecordedBundle] = {}  # noqa: RUF012 - read only, like every field
    created: tuple[str, ...] = ()  # JSON Pointers of containers install created (removed when empty)
    created_file: bool = False  # the settings file did not exist before the first install
    created_folder: int = 0  # nor did its folder (e.g. .claude/): how many levels of folders, upwards

    @property
    def empty(self) -> bool:
        return not self.bundles


# Record texts parsed lately -> their Record. One command meets the same record up to eight times
# (the plan, its proof, the gates, the chain files, the cross-agent check), each a ``json.loads``
# and a full validation; a Record is never changed once made (a new one is built), so the same
# text may share one. Bounded: the suite runs thousands of commands in one process.
_parsed: dict[str, Record] = {}
_PARSED_KEPT = 32


def from_text(text: str | None, path: str) -> Record:
    if text is None:
        return Record()
    kept = _parsed.get(text)
    if kept is not None:
        return kept
    try:
        data = jsonlite.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"{display(Path(path))}: not a hookweave record we can read ({printable(str(exc))}); {FIX}") from None
    version = data.get("hookweave_record") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        raise BadInput(f"{display(Path(path))}: written by a newer hookweave (record format {version}); upgrade hookweave")
    try:
        rec = read_record(data)
    except Bad as bad:
        raise BadInput(f"{display(Path(path))}: {bad.place}: {bad.cause}; {FIX}") from None
    if len(_parsed) >= _PARSED_KEPT:
        del _parsed[next(iter(_parsed))]  # the oldest
    _parsed[text] = rec
    return rec


def to_text(record: Record, settings_name: str) -> str | None:
    """The record file's text, or ``None`` when no bundle is left (the file is then deleted)."""
    if record.empty:
        return None
    data = {
        "hookweave_record": FORMAT,
        "about": f"What hookweave installed into {settings_name}. Edit with `hooks` only.",
        "bundles": {name: _bundle_json(b) for name, b in sorted(record.bundles.items())},
        "created": list(record.created),
        "created_file": record.created_file,
        "created_folder": record.created_folder if record.created_folder > 1 else bool(record.created_folder),
    }
    return escape_surrogates(jsonlite.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def _bundle_json(b: RecordedBundle) -> dict:
    out = {
        "version": b.version,
        "hooks": [{"id": h.id, "event": h.event, "position": h.position, "sha256": h.sha256,
                   **({"chain": [{"id": i, "sha256": s} for i, s in h.members]} if h.members else {})} for h in b.hooks],
        "env": {
            n: {"value": e.value, "policy": e.policy, "prior": e.prior, "applied": e.applied,
                **({"prior_text": e.prior_text} if e.prior_text is not None else {})} for n, e in b.env.items()
        },
    }
    if b.traces_before:
        out["traces_before"] = list(b.traces_before)
    if b.runs_for:
        out["runs_for"] = {host: list(ids) for host, ids in sorted(b.runs_for.items())}
    if b.joined:
        out["joined"] = [list(ids) for ids in b.joined]
    return out


# -- reading: every value checked, with its place -------------------------------------------

NAME_RE = lazypattern.NAME  # bundle and hook ids, as the manifest allows them: [a-z0-9][a-z0-9-]{0,63}
ENV_RE = lazypattern.ENV_NAME
SHA_RE = lazypattern.SHA256
POINTER_RE = lazypattern.POINTER


class Bad(Exception):
    def __init__(self, place: str, cause: str) -> None:
        super().__init__(f"{place}: {cause}")
        self.place, self.cause = place, cause


def read_record(data: Any) -> Record:
    """The record in parsed JSON, every value checked with its place (``bundles.guard.env.X.prior``)."""
    _object(data, "the top level")
    if data.get("hookweave_record") != FORMAT or isinstance(data.get("hookweave_record"), bool):
        raise Bad("hookweave_record", f"unknown record format {_show(data.get('hookweave_record'))}")
    bundles = _object(data.get("bundles"), "bundles")
    out = {}
    for name, raw in bundles.items():
        where = f"bundles.{_key(name)}"
        if not NAME_RE.fullmatch(name):
            raise Bad(where, "not a bundle name (lowercase letters, digits and dashes)")
        out[name] = _bundle(raw, where)
    created = data.get("created", [])
    if not isinstance(created, list):
        raise Bad("created", f"must be a list of JSON Pointers, not {_kind(created)}")
    for i, pointer in enumerate(created):
        if not isinstance(pointer, str) or not POINTER_RE.fullmatch(pointer):
            raise Bad(f"created[{i}]", f"{_show(pointer)} is not a JSON Pointer")
    if len(set(created)) != len(created):
        raise Bad("created", "lists a pointer twice")
    return Record(out, tuple(created), _flag(data, "created_file"), _levels(data))


def _members(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    """A chain's members: ``[{"id", "sha256"}]`` in run order, each id once."""
    if not isinstance(raw, list):
        raise Bad(where, f"must be a list, not {_kind(raw)}")
    out: list[tuple[str, str]] = []
    for i, m in enumerate(raw):
        at = f"{where}[{i}]"
        _object(m, at)
        member = _string(m, "id", at, NAME_RE, "not a hook id (lowercase letters, digits and dashes)")
        if member in {x for x, _ in out}:
            raise Bad(f"{at}.id", f"{member!r} is listed twice")
        out.append((member, _string(m, "sha256", at, SHA_RE, "not a sha256:<64 hex digits> hash")))
    return tuple(out)


def _bundle(raw: Any, where: str):
    _object(raw, where)
    version = raw.get("version")
    if not isinstance(version, str) or not version.strip():
        raise Bad(f"{where}.version", f"must be a non-empty string, not {_show(version)}")
    if not PRINTABLE.fullmatch(version):  # it is printed: one line, valid UTF-8
        raise Bad(f"{where}.version", f"{_show(version)} holds a control character or a lone surrogate")
    hooks_raw = raw.get("hooks", [])
    if not isinstance(hooks_raw, list):
        raise Bad(f"{where}.hooks", f"must be a list, not {_kind(hooks_raw)}")
    hooks = []
    for i, h in enumerate(hooks_raw):
        at = f"{where}.hooks[{i}]"
        _object(h, at)
        hook_id = _string(h, "id", at, NAME_RE, "not a hook id (lowercase letters, digits and dashes)")
        event = _string(h, "event", at, PRINTABLE, "not an event name")
        position = h.get("position")
        if position not in POSITIONS:
            raise Bad(f"{at}.position", f"{_show(position)} is not first or last")
        sha = _string(h, "sha256", at, SHA_RE, "not a sha256:<64 hex digits> hash")
        if hook_id in {x.id for x in hooks}:
            raise Bad(f"{at}.id", f"{hook_id!r} is listed twice")
        hooks.append(RecordedHook(hook_id, event, position, sha, _members(h.get("chain", []), f"{at}.chain")))
    env = {name: _env(e, f"{where}.env.{_key(name)}", name) for name, e in _object(raw.get("env", {}), f"{where}.env").items()}
    traces = raw.get("traces_before", [])
    ids = {h.id for h in hooks}
    if not isinstance(traces, list) or not all(isinstance(t, str) and t in ids for t in traces):
        raise Bad(f"{where}.traces_before", "must list ids of this bundle's hooks")
    runs_for = _runs_for(raw.get("runs_for", {}), f"{where}.runs_for", ids)
    joined = raw.get("joined", [])
    if not isinstance(joined, list) or not all(
            isinstance(j, list) and len(j) > 1 and all(isinstance(i, str) and i in ids for i in j) for j in joined):
        raise Bad(f"{where}.joined", "must list groups of ids of this bundle's hooks")
    return RecordedBundle(version, tuple(hooks), env, tuple(traces), runs_for, tuple(tuple(j) for j in joined))


def _runs_for(raw: Any, where: str, ids: set) -> dict[str, tuple[str, ...]]:
    out = {}
    for host, listed in _object(raw, where).items():
        if not isinstance(host, str) or not NAME_RE.fullmatch(host):
            raise Bad(where, f"{_show(host)} is not a host name")
        if not isinstance(listed, list) or not listed or not all(isinstance(i, str) and i in ids for i in listed):
            raise Bad(f"{where}.{host}", "must list ids of this bundle's hooks")
        out[host] = tuple(listed)
    return out


def _env(raw: Any, where: str, name: str) -> RecordedEnv:
    if not ENV_RE.fullmatch(name):
        raise Bad(where, "not a variable name (letters, digits and _)")
    _object(raw, where)
    value = raw.get("value")
    if not isinstance(value, str):
        raise Bad(f"{where}.value", f"must be a string, not {_show(value)}")
    policy = raw.get("policy")
    if policy not in POLICIES:
        raise Bad(f"{where}.policy", f"unknown policy {_show(policy)}; one of {', '.join(POLICIES)}")
    if "prior" not in raw:
        raise Bad(f"{where}.prior", "missing (null when the variable was unset)")
    prior = raw["prior"]
    if prior is not None and not isinstance(prior, str):
        raise Bad(f"{where}.prior", f"must be a string or null, not {_show(prior)}")
    applied = raw.get("applied")
    if not isinstance(applied, bool):
        raise Bad(f"{where}.applied", f"must be true or false, not {_show(applied)}")
    spelled = raw.get("prior_text")
    if spelled is not None and (not isinstance(spelled, str) or prior is None or _decoded(spelled) != prior
                                or not (spelled.startswith('"') and spelled.endswith('"'))):
        raise Bad(f"{where}.prior_text", "must be the JSON text of the prior string")
    return RecordedEnv(value, policy, prior, applied, spelled)


def _decoded(text: str) -> Any:
    try:
        return jsonlite.loads(text)
    except ValueError:
        return None


def _object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise Bad(where, f"must be an object, not {_kind(value)}")
    return value


def _string(raw: dict, key: str, where: str, pattern: object, what: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str):
        raise Bad(f"{where}.{key}", f"must be a string, not {_show(value)}" if key in raw else "missing")
    if not pattern.fullmatch(value):
        raise Bad(f"{where}.{key}", f"{_show(value)} is {what}")
    return value


def _flag(data: dict, key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise Bad(key, f"must be true or false, not {_show(value)}")
    return value


def _levels(data: dict) -> int:
    """``created_folder``: ``false``/``true`` (as older records hold it), or how many levels of
    folders install created, counted upwards from the settings file's own folder."""
    value = data.get("created_folder", False)
    if isinstance(value, bool) or (isinstance(value, int) and 0 <= value <= MAX_FOLDER_LEVELS):
        return int(value)
    raise Bad("created_folder", f"must be true, false or a count of folders up to {MAX_FOLDER_LEVELS}, not {_show(value)}")


MAX_FOLDER_LEVELS = 64  # deeper than any settings path: a bigger count is a hand edit, not ours


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _show(value: Any) -> str:
    """A value as it stands in JSON, short and on one line."""
    try:
        text = jsonlite.dumps(value, ensure_ascii=True)
    except (ValueError, TypeError):
        text = _kind(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _key(key: str) -> str:
    return key if tomlplain.bare_key(key) else jsonlite.dumps(key, ensure_ascii=True)
