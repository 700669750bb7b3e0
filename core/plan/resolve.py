"""Pure: a bundle's hooks and env vars as one host sees them (overrides applied, names mapped)."""

from __future__ import annotations

from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.core.model.bundle import (
    Bundle,
    BundleHook,
    EnvVar,
    Finding,
    HookForHost,
    Registration,
)
from hookweave.core.model import names
from hookweave.core.plan import matchers


def registrations(host: Host, bundle: Bundle, runner: str = "hookweave-chain.py") -> tuple[list[Registration], list[Finding]]:
    """``runner``: the chain runner as a shell word in this settings file (``chain.runner_word``)."""
    regs: list[Registration] = []
    notes: list[Finding] = []
    chained: dict[str, list[HookForHost]] = {}
    for hook in bundle.hooks:
        if hook.hosts is not None and host.name not in hook.hosts:
            continue
        resolved = _for_host(hook, host.name)
        native = _native_event(host, hook, resolved.event, bundle)
        if native is None and resolved.event not in host.events:  # left out of the host's column: not measured as absent
            notes.append(Finding("warning", f"skipped: {host.title} has no {resolved.event} event (its description "
                                 "names none)", bundle.name, hook.id))
            continue
        if native is None:
            notes.append(Finding("note", f"skipped: {host.title} has no {resolved.event} event", bundle.name, hook.id))
            continue
        if native in host.documented_events:  # the pinned release never ran it: say so, write it as asked
            notes.append(Finding("warning", f"{native} is a {host.documented_in} event known from its documents only "
                                 "(unmeasured); older releases have no such event", bundle.name, hook.id))
        _check_timeout(host, bundle, hook.id, resolved.timeout)
        resolved, lacking = matchers.narrowed(host, hook, resolved, bundle)  # never wider than asked
        if lacking is not None:
            notes.append(lacking)
        if resolved is None:
            continue
        foreign = matchers.foreign_names(host, hook, resolved.matcher, bundle)
        if foreign is not None:
            notes.append(foreign)
        if resolved.event in host.events:  # a neutral event: the host may file it by the hook's tools
            native, why = host.event_for(native, resolved)
            if native is None:
                if hook.hosts is not None:
                    raise BadInput(f"{bundle.manifest}: hooks ({hook.id}): {why}")
                notes.append(Finding("warning", f"skipped: {why}", bundle.name, hook.id))
                continue
        if (hook.order or bundle.order) == "chain" and host.name not in _dispatched():
            if native not in chained:
                regs.append(Registration(bundle.name, "", native, "last", {}))  # the chain's place
            chained.setdefault(native, []).append(resolved)
            continue
        if host.exit_codes == "ignored" and native in host.blocking_events and \
                not any("ignores exit codes" in n.message for n in notes):
            notes.append(Finding("warning", f"{host.title} ignores exit codes: a hook that blocks on {native} by "
                                 "exiting 2 protects nothing there, it blocks only by what it prints (hooks check "
                                 f"{bundle.name} --host {host.name} shows what each hook does)", bundle.name, hook.id))
        entry = _native_keys(host, host.render(resolved, native, bundle), resolved, bundle)
        position = resolved.position
        if position == "first" and not host.positional:
            why = host.appends_why or "its trust is keyed by position, so hookweave appends"
            notes.append(Finding("note", f"position first is not applied on {host.title}: {why}, and it starts all "
                                 "hooks at once anyway", bundle.name, hook.id))
            position = "last"
        regs.append(Registration(bundle.name, hook.id, native, position, entry))
    if chained:
        regs = _with_chains(host, bundle, regs, chained, runner)
    for reg in regs:
        _check_size(host, bundle, reg)
    return regs, notes


def _check_size(host: Host, bundle: Bundle, reg: Registration) -> None:
    """A command longer than one shell argument may be never starts (E2BIG): refused before anything is written."""
    from hookweave.core.model.runnable import MAX_COMMAND_BYTES, longest_command

    size = longest_command(host.handler_of(reg.entry), getattr(host, "command_keys", ("command",)))
    if size <= MAX_COMMAND_BYTES:
        return
    fix = ("move the members' long commands into script files in the bundle and run those ({bundle_dir}/...)"
           if reg.members else "move it into a script file in the bundle and run that ({bundle_dir}/...)")
    raise BadInput(f"{bundle.manifest}: hooks ({reg.id}): its command for {host.title} is {size} bytes, more than "
                   f"the {MAX_COMMAND_BYTES} one shell argument may hold (Linux refuses to start it: E2BIG); {fix}")


def _dispatched() -> dict[str, str]:
    """Hosts whose hook file is a chain already (Cline's dispatcher): chained hooks stay separate entries."""
    from hookweave.core.plan.chain import DISPATCHED

    return DISPATCHED


def _native_keys(host: Host, entry: dict, hook: HookForHost, bundle: Bundle) -> dict:
    """The rendered entry with the host table's native keys applied (what ``hooks adopt`` wrote
    to keep an operator's entry exactly as it was): set in the handler and the group, or left out."""
    if not (hook.handler or hook.group or hook.omit):
        return entry
    handler = host.handler_of(entry)
    if handler is None:
        return entry
    if "type" in hook.omit and getattr(host, "untyped_handlers", None) and "type" in handler:
        does = ("refuses the whole file for it and runs none of its hooks"
                if host.untyped_handlers == "refused" else "skips it: it would never run")
        raise BadInput(f'{bundle.manifest}: hooks ({hook.id}).host.{host.name}.omit: a hook without "type" {host.title} {does}; '
                       'take "type" out of omit')
    for key in hook.omit:
        handler.pop(key, None)
    handler.update(hook.handler)
    if handler is not entry:
        entry.update(hook.group)
    return entry


def _with_chains(host: Host, bundle: Bundle, regs: list[Registration], chained: dict[str, list[HookForHost]],
                 runner: str) -> list[Registration]:
    """Each event's chained hooks as one registration, where the event's first chained hook stood.
    A chain of one hook is that hook's own registration: there is no order to keep."""
    from hookweave.core.plan import chain

    chain.check_ids(bundle, [e for e, hooks in chained.items() if len(hooks) > 1], host)
    out = []
    for reg in regs:
        if reg.id:
            out.append(reg)
            continue
        hooks = chained[reg.event]
        if len(hooks) == 1:
            out.append(Registration(bundle.name, hooks[0].id, reg.event, hooks[0].position,
                                    _native_keys(host, host.render(hooks[0], reg.event, bundle), hooks[0], bundle)))
            continue
        members = [chain.member(host, h, bundle) for h in hooks]
        whole = chain.registration_hook(host, reg.event, members, hooks, runner)
        _check_timeout(host, bundle, whole.id, whole.timeout, chained=True)
        position = whole.position if host.positional else "last"
        out.append(Registration(bundle.name, whole.id, reg.event, position, host.render(whole, reg.event, bundle),
                                tuple((m.id, m.digest()) for m in members)))
    return out


def _check_timeout(host: Host, bundle: Bundle, hook_id: str, seconds: int | None, chained: bool = False) -> None:
    """A timeout the host cannot keep (``Host.timeout_max``) is refused before anything is written."""
    if seconds is None or seconds <= host.timeout_max:
        return
    if chained:
        raise BadInput(f"{bundle.manifest}: hooks: the chain {hook_id} needs a timeout of {seconds} s (its members' "
                       f"together), more than {host.title} can keep ({host.timeout_max} s); lower the members' timeouts")
    why = host.timeout_max_why or (f"{seconds} s is more than {host.title} can keep ({host.timeout_max} s, some 24 "
                                   "days: past 2^31 - 1 ms Node's timer fires at once)")
    raise BadInput(f"{bundle.manifest}: hooks ({hook_id}).timeout: {why}; use at most {host.timeout_max}")


def _for_host(hook: BundleHook, host: str) -> HookForHost:
    fields = {
        "event": hook.event,
        "command": hook.command,
        "matcher": hook.matcher,
        "timeout": hook.timeout,
        "position": hook.position,
    }
    fields.update(hook.overrides.get(host, {}))
    return HookForHost(id=hook.id, **fields)


def _native_event(host: Host, hook: BundleHook, event: str, bundle: Bundle, absent: bool = False) -> str | None:
    if event in host.events or absent:
        native = host.events.get(event)
        if native is None and hook.hosts is not None:
            raise BadInput(
                f"{bundle.manifest}: hooks ({hook.id}).hosts names {host.name}, which has no {event} event; "
                f"drop {host.name} from hosts or set [hooks.host.{host.name}] event"
            )
        return native
    if event in host.native_events:
        return event
    if event in names.EVENTS:  # a neutral event the host's column leaves out: it has no such event, as with None
        return _native_event(host, hook, event, bundle, absent=True)
    raise BadInput(
        f"{bundle.manifest}: hooks ({hook.id}).host.{host.name}.event: {host.title} has no event {event!r}; "
        f"use one of {', '.join(sorted(host.native_events))}"
    )


def env_vars(host: Host, bundle: Bundle) -> tuple[tuple[EnvVar, ...], list[Finding]]:
    wanted: list[EnvVar] = []
    notes: list[Finding] = []
    for var in bundle.env:
        named = var.hosts is not None and host.name in var.hosts
        if var.hosts is not None and not named:
            continue
        if host.env_key is None:
            if named:
                notes.append(
                    Finding("note", f"{var.name} not set: {host.title} has no settings-level env", bundle.name)
                )
            continue
        wanted.append(var)
    return tuple(wanted), notes
