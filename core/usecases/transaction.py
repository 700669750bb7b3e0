"""The write transaction: plan every file under its locks, check, then write all or nothing.

Hosts save these files without our locks, so a file that changed since we planned makes us plan
again (``ATTEMPTS``). Files are written in the order that leaves a killed run recoverable
(``_steps``), with stop signals held back (``interrupt``); a failed write puts back every file
already written and every folder made.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from hookweave.core.errors import BadInput, Conflict, Edited, HooksError, WriteFailed
from hookweave.core.files import fileio, paths
from hookweave.core.model import record
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.plan.plan import FilePlan, Target

ATTEMPTS = 3  # a host saving its settings mid-run makes us plan again from its new text
Planner = Callable[["Target", "str | None", "str | None"], "FilePlan"]


def _read(t: Target) -> tuple[str | None, str | None]:
    return fileio.read_text(t.path), fileio.read_text(t.record_path)


def run(
    targets: list[Target], planner: Planner, *, dry_run: bool, force_hint: str, bundle: str, trust: bool = False,
    check: Callable[[list[FilePlan]], None] | None = None, force: bool = False, companions: bool = True,
) -> list[FilePlan]:
    """Plan every target and its companions; unless ``dry_run``, write them all under locks.

    ``check`` runs on the finished plans before the first byte is written (it may add findings,
    or raise to write nothing); ``companions=False`` leaves the hosts' companion files alone."""
    extra = [p for t in targets for p in t.host.companion_paths(t)] if companions else []
    records = [t.record_path for t in targets if t.record_path is not None]
    for path in [t.path for t in targets] + records:
        if not dry_run:
            fileio.check_writable(path)
    for attempt in range(ATTEMPTS):
        try:
            if dry_run:
                plans = _plan_all(targets, planner, force_hint, bundle, trust, force, companions)
                if check:
                    check(plans)
                return plans
            with fileio.locked([p for t in targets for p in (t.path, t.record_path)] + extra):
                plans = _plan_all(targets, planner, force_hint, bundle, trust, force, companions)
                for plan in plans:  # a companion (Codex's user config.toml) must be writable only if it changes
                    if plan.target.record_path is None and plan.old_text != plan.new_text:
                        fileio.check_writable(plan.target.path)
                if check:
                    check(plans)
                _release(plans)
                _write_all(plans)
                return plans
        except Conflict:
            fileio.forget_reads()  # plan again from what is on disk now, not a text kept by this command
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _plan_all(targets: list[Target], planner: Planner, force_hint: str, bundle: str, trust: bool,
              force: bool = False, companions: bool = True) -> list[FilePlan]:
    from hookweave.core.usecases import chainfiles

    plans = [planner(t, *_read(t)) for t in targets]
    plans += _companions(plans, bundle, trust) if companions else []
    plans += chainfiles.runner_plans(plans, bundle, force=force)
    _say_taken_over(plans)
    refused = [(p, f) for p in plans for f in p.refused]
    if refused:
        plan, first = refused[0]
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise Edited(
            f"{plan.target.shown}: {first.bundle}/{first.hook} {first.message}{more}; nothing written. "
            f"Keep the operator's version, or {force_hint}"
        )
    return plans


def _companions(plans: list[FilePlan], bundle: str, trust: bool) -> list[FilePlan]:
    """Plans for files that must change with the planned ones (Codex trust state), merged into
    a plan of the same file when there is one, so every file is written once."""
    from hookweave.core.plan.plan import FilePlan, Target

    by_path = {p.target.path: p for p in plans}
    extra: list[FilePlan] = []

    def plan_of(path: Path, host: Host, scope: str) -> FilePlan:
        if path not in by_path:
            text = fileio.read_text(path)
            shown = paths.display(path)
            by_path[path] = FilePlan(Target(host, host.companion_scope or scope, path, None, shown), text, text,
                                     None, None, actions=[host.companion_action])
            extra.append(by_path[path])
        return by_path[path]

    def current(path: Path, host: Host):
        plan = by_path.get(path)
        text = plan.new_text if plan else fileio.read_text(path)
        return {} if text is None else host.parse(text, paths.display(path))

    for plan in list(plans):
        host = plan.target.host
        if not host.companion_paths(plan.target):
            continue  # no companion files: no need to parse this file's old and new text again
        old = {} if plan.old_text is None else host.parse(plan.old_text, plan.target.shown)
        new = {} if plan.new_text is None else host.parse(plan.new_text, plan.target.shown)
        edits = host.companion_ops(old, new, plan.target, bundle, lambda p: current(p, host), trust=trust)
        for path, ops in edits.items():
            if ops:
                other = plan_of(path, host, plan.target.scope)
                base = other.new_text if other.new_text is not None else ""
                text = host.apply(base, ops, other.target.shown)
                other.new_text, other.remove_folder = host.companion_text(path, other.old_text, text)
                other.ops = other.ops + ops
    return extra


def _release(plans: list[FilePlan]) -> None:
    """Let the parsed files go before the writes, which need only texts: on a big file the data
    is several times the text, and it would still be held while the new text is encoded."""
    from hookweave.core.formats import jsontext

    for plan in plans:
        plan.new_doc = None
    jsontext.forget_recent()


def _write_all(plans: list[FilePlan]) -> None:
    """Write every changed file, or none: every check first, then the writes with ^C held back
    (``interrupt``); a failure or a stop signal puts back every file and folder already made."""
    taken = _taken_over(plans)  # rewritten even when its text stays: root's and 0644 again
    steps = [step for step in _steps(plans) if step[1] != step[2] or step[0] in taken]
    if not steps:
        return  # nothing changed: no signal handling, no folder checks to load
    from hookweave.core.files import interrupt

    made = fileio.missing_folders([path for path, *_ in steps])
    modes = fixed_modes(plans)
    written: list[tuple[Path, str | None, str | None]] = []
    with interrupt.held() as arrived:
        try:
            encoded = _check_steps(steps)
            for path, old, new, like in steps:
                done = encoded.pop(path, None)  # the bytes of this very text, or none
                fileio.write_text(path, new, old, like=like, mode=modes.get(path),  # a new record: as open as its file
                                  data=done[1] if done is not None and done[0] is new else None)
                written.append((path, old, new))
            signum = arrived()
            if signum is not None:
                raise interrupt.Interrupted(signum)
        except (HooksError, OSError) as exc:
            kept = _put_back(written, made, taken)
            if kept:
                cause = exc.strerror if isinstance(exc, OSError) else str(exc)
                raise WriteFailed(f"{kept[0]}: saved by another program while hookweave was putting it back after "
                                  f"an error ({cause}), so it stays as that program saved it; run hooks verify") from None
            if isinstance(exc, OSError):
                where = paths.display(Path(exc.filename)) if exc.filename else "a settings file"
                raise WriteFailed(f"{where}: could not write it ({exc.strerror}); every file was put back as it was") from None
            raise
        for plan in plans:  # still held: a stop here would leave an empty folder no record knows
            if plan.remove_folder:
                fileio.remove_empty_dir(plan.target.path.parent, levels=int(plan.remove_folder))


MANAGED_MODE = 0o644


def fixed_modes(plans: list[FilePlan]) -> dict[Path, int]:
    """The files of an agent's managed layer (its drop-in, record and runner): root's, 0644 in 0755
    folders, whatever the umask or whoever had taken one over. The agent runs as each user, who must
    read them (issue 33: a 0600 drop-in under umask 077), and Copilot skips a file root does not own."""
    return {path: MANAGED_MODE for p in plans
            if p.target.scope in (*p.target.host.root_only, *p.target.host.created_only)
            for path in (p.target.path, p.target.record_path) if path is not None}


def _taken_over(plans: list[FilePlan]) -> dict[Path, tuple[int, int, int]]:
    """The managed files this run keeps that someone else now owns or has chmodded (uid, gid, mode): a
    write gives each back to root and 0644, its text changed or not (an upgrade that changes only
    the record repairs the drop-in too)."""
    modes = fixed_modes(plans)
    mine = os.geteuid() if hasattr(os, "geteuid") else 0
    out = {}
    for plan in plans:
        path = plan.target.path
        if path in modes and plan.old_text is not None and plan.new_text is not None:
            now = fileio.owner_and_mode(path)
            if now is not None and (now[0], now[2] & ~0o111) != (mine, modes[path]):  # a script keeps its x bits
                out[path] = now
    return out


def _say_taken_over(plans: list[FilePlan]) -> None:
    taken = _taken_over(plans)
    mine = os.geteuid() if hasattr(os, "geteuid") else 0
    for plan in plans:
        if plan.target.path in taken:
            uid, _, mode = taken[plan.target.path]
            who = "root" if mine == 0 else f"uid {mine}"
            plan.findings.append(Finding(
                "warning", f"{plan.target.shown}: owned by uid {uid} with mode {mode:o}, which "
                f"{plan.target.host.title} may skip or a user may not read; hookweave gives it to {who}, "
                f"mode {MANAGED_MODE:o}, as a new drop-in is"))


def _put_back(written: list[tuple[Path, str | None, str | None]], made: list[Path],
              taken: dict[Path, tuple[int, int, int]] | None = None) -> list[str]:
    """Undo ``written`` (newest first) and remove the folders made; the files that a host saved
    meanwhile are left as the host saved them (never overwritten), and named. A managed file given
    back to root (``taken``) gets its owner, group and mode again too."""
    kept = []
    for path, old, new in reversed(written):
        try:
            fileio.write_text(path, old, new)
            if taken and path in taken and old is not None:
                fileio.give_owner_and_mode(path, *taken[path])
        except (HooksError, OSError):
            kept.append(paths.display(path))
    fileio.remove_empty_dirs(made)
    return kept


def _check_steps(steps: list[tuple[Path, str | None, str | None, Path]]) -> dict[Path, tuple[str, bytes]]:
    """What would fail half-way, checked before the first byte is written (under the locks). Gives
    the bytes of each new text that is not ASCII, encoded for the check: its write needs them too."""
    encoded: dict[Path, tuple[str, bytes]] = {}
    for path, _, new, _ in steps:
        fileio.check_writable(path)
        if new is not None:
            try:
                # The encoder finds a lone surrogate at C speed (6 million instructions for 0.5 MB,
                # where ``textsafe.has_surrogate``'s pattern takes 24 million); ASCII holds none.
                if not new.isascii():
                    encoded[path] = new, new.encode("utf-8")
            except UnicodeEncodeError as exc:
                near = paths.printable(exc.object[max(exc.start - 20, 0):exc.end])
                raise BadInput(f"{paths.display(path)}: the new text would hold a name that is not UTF-8 "
                               f"(near \"{near}\"); rename that folder (the project's, likely) to UTF-8") from None
    return encoded


def _steps(plans: list[FilePlan]) -> list[tuple[Path, str | None, str | None, Path]]:
    """``(path, old, new, like)`` for every file, in the order that leaves a killed run recoverable.

    Install: a record that gains a bundle first, then the settings files, then companions (Codex
    trust state). Uninstall: the reverse, so a killed uninstall leaves what a killed install could
    have. Either way a killed run leaves records that list hooks the files lack (verify: missing;
    the next install adds them, the next uninstall drops the record), never entries or trust keys
    that no record knows, which an uninstall would leave behind for good (and an install would take
    the bundle's own env value for the operator's). A record that gains no bundle (an upgrade, an
    uninstall) goes last, so it holds the hashes of what its file holds, or of nothing.
    """
    first: list[tuple[Path, str | None, str | None, Path]] = []
    files: list[tuple[Path, str | None, str | None, Path]] = []
    last: list[tuple[Path, str | None, str | None, Path]] = []
    for plan in plans:
        t = plan.target
        files.append((t.path, plan.old_text, plan.new_text, t.path))
        if t.record_path is not None:
            where = str(t.record_path)
            gains = set(record.from_text(plan.new_record, where).bundles) - set(record.from_text(plan.old_record, where).bundles)
            (first if gains else last).append((t.record_path, plan.old_record, plan.new_record, t.path))
    return first + (files if first else files[::-1]) + last
