"""Pure: a hook's neutral tools as one host has them. A matcher never grows wider than the bundle
asked (issue 21, item 6): a hook without a matcher runs on every tool, so dropping the tools a host
lacks must never leave a hook with none.

- every tool the hook names exists on the host: the hook as it is;
- none of them exists: the hook is skipped on that host, with a warning naming the tools and the fix;
- some exist: the hook is installed for those only (narrower, never wider), with a warning;
- in either case, when the bundle says the hook is for this host (its ``hosts`` list names it, or the
  matcher is the host's own ``[hooks.host.<host>] matcher``), the install is refused instead: the
  author promised coverage the host cannot give. Nothing is written.

A host-native matcher string stays as the author wrote it; where it is a plain list of names
(``a|b``, anchored or not), a name that is another agent's tool and none of this one's is warned of:
the hook never fires on it there (issue 34: ``run_shell_command`` on Claude Code).
"""

from __future__ import annotations

from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.core.formats.lazypattern import LazyPattern
from hookweave.core.model import names
from hookweave.core.model.bundle import Bundle, BundleHook, Finding, HookForHost


def narrowed(host: Host, hook: BundleHook, resolved: HookForHost,
             bundle: Bundle) -> tuple[HookForHost | None, Finding | None]:
    """``resolved`` (``hook`` with ``host``'s table applied) with only the tools ``host`` has, and
    the warning that says what was left out; ``(None, warning)`` when the hook is skipped there.
    Raises ``BadInput`` when the bundle names ``host`` for this hook and a tool is missing."""
    asked = resolved.matcher
    if not isinstance(asked, tuple):
        return resolved, None
    kept = tuple(tool for tool in asked if host.native_tools(tool))
    missing = tuple(tool for tool in asked if tool not in kept)
    if not missing:
        return resolved, None
    name, title = host.name, host.title
    own_table = "matcher" in hook.overrides.get(name, {})
    place = f"hooks ({hook.id}).host.{name}.matcher" if own_table else f"hooks ({hook.id}).matcher"
    lacks = f"{title} has no {_either(missing)} tool{'s' if len(missing) > 1 else ''}"
    has = ", ".join(t for t in names.TOOLS if host.native_tools(t)) or "none"
    keep = "[" + ", ".join(f'"{t}"' for t in kept) + "]"
    if own_table:
        raise BadInput(f"{bundle.manifest}: {place}: {lacks}; name only tools {title} has ({has}), "
                       "or write a native matcher string")
    if hook.hosts is not None and not kept:
        raise BadInput(f"{bundle.manifest}: {place}: hosts names {name}, but {lacks}, so the hook cannot run "
                       f"there as asked; drop {name} from hosts, or set [hooks.host.{name}] matcher to "
                       f"tools it has ({has}) or a native matcher string")
    if hook.hosts is not None:
        raise BadInput(f"{bundle.manifest}: {place}: hosts names {name}, but {lacks}, so the hook would cover "
                       f"only {', '.join(kept)} there; set [hooks.host.{name}] matcher = {keep} to install it "
                       f"for those, or drop {name} from hosts")
    where = f"{place} in {bundle.manifest}"
    if not kept:
        return None, Finding("warning", f"skipped: {lacks}, and a hook without one would run on every tool "
                             f"({where}); to run it on {title}, set [hooks.host.{name}] matcher to tools it has "
                             f"({has}) or a native matcher string, or leave {name} out with hosts = [...]",
                             bundle.name, hook.id)
    return resolved._replace(matcher=kept), Finding(
        "warning", f"{lacks}: the hook runs on {', '.join(kept)} only there ({where}); to accept that and "
        f"silence this, set [hooks.host.{name}] matcher = {keep}, or leave {name} out with hosts = [...]",
        bundle.name, hook.id)


LITERAL = LazyPattern(r"\^?([A-Za-z_][A-Za-z0-9_-]*)\$?")


def foreign_names(host: Host, hook: BundleHook, matcher: object, bundle: Bundle) -> Finding | None:
    """The warning for the names in a native ``matcher`` string that are another built-in agent's
    tools and none of ``host``'s (compared without case: some agents fold it); ``None`` when there
    are none, or the string is a regex hookweave does not read."""
    if not isinstance(matcher, str):
        return None
    found = [LITERAL.fullmatch(alt.strip()) for alt in matcher.split("|")]
    if not all(found):
        return None
    own = {n.lower() for tool in host.tools for n in host.native_tools(tool)}
    others = {n for natives in names.TOOLS.values() for cell in natives if cell for n in cell.split("|")}
    foreign = [m.group(1) for m in found if m and m.group(1) in others and m.group(1).lower() not in own]
    if not foreign:
        return None
    return Finding("warning", f"{_either(tuple(foreign))}: another agent's tool name, not one {host.title} has, so "
                   f"this hook never fires on {'it' if len(foreign) == 1 else 'them'} there (hooks ({hook.id}).host."
                   f"{host.name}.matcher in {bundle.manifest}); use {host.title}'s name, or a neutral tool list",
                   bundle.name, hook.id)


def _either(tools: tuple[str, ...]) -> str:
    return tools[0] if len(tools) == 1 else f"{', '.join(tools[:-1])} or {tools[-1]}"
