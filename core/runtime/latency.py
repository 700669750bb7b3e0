"""How long the agent waits for hooks (issue 24): each hook's own wall time over its runs, what an
event costs every call on its host, and the budget a hook should keep. Pure: the times come from
``timing``; how a host runs an event's hooks is the host's ``order`` (on the target), never its name.

An event's hooks cost the agent the slowest of them where the host starts them at once
(``parallel``), their sum where it runs them one after another (``file``; a chain is one hook whose
own time is its members' sum), and up to their sum where the host does not say (``unknown``).
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from hookweave.core.runtime.pitfalls import Pitfall

# ms per neutral event: what one hook may take before it is a warning. Tool events run on every
# tool call the matcher takes, the prompt event on every prompt, before the agent goes on; the rest
# run once a session or a turn, where a second is hardly felt.
BUDGETS = {"pre_tool_use": 100.0, "post_tool_use": 100.0, "user_prompt_submit": 300.0, "session_start": 1000.0,
           "stop": 1000.0, "subagent_stop": 1000.0, "pre_compact": 1000.0, "notification": 1000.0,
           "session_end": 1000.0}
OTHER = 1000.0  # ms: an event with no neutral name (a host's own), not on a tool call
WHEN = {"pre_tool_use": "before every tool call it matches", "post_tool_use": "after every tool call it matches",
        "user_prompt_submit": "on every prompt", "session_start": "at every session start",
        "stop": "at the end of every turn", "subagent_stop": "at the end of every subagent's turn"}
HOW = {"parallel": "starts them at once: the slowest", "file": "runs them one after another: the sum",
       "unknown": "does not say whether it runs them at once: up to the sum",
       "managed-first": "starts the managed ones at once and the others at once after the last of those ends: the "
                        "slowest of each, added"}


class Figures(NamedTuple):
    median_ms: float
    max_ms: float
    runs: int
    min_ms: float = 0.0  # the fastest run: what the hook costs when nothing else slows it (the budget's judge)


class Wait(NamedTuple):
    """What one call of ``event`` on a host waits for, all its hooks together."""
    host: str
    title: str
    event: str
    order: str  # parallel, file, unknown
    hooks: tuple[str, ...]
    median_ms: float  # the members' medians, summed or the slowest
    max_ms: float  # the same of their slowest runs
    share: float  # the largest of the members' slowest run over its timeout
    budget_ms: float
    chain: bool  # one of the members is a chain (its time is its members' sum)
    min_ms: float = 0.0  # the same of their fastest runs: over the budget only when this is


def figures(times) -> Figures | None:
    times = [t * 1000 for t in times]
    return Figures(statistics.median(times), max(times), len(times), min(times)) if times else None


def of_hook(checked) -> Figures | None:
    """A checked hook's figures over every run of every payload (``checking.Checked``)."""
    return figures([t for o in checked.outcomes for t in o.times])


def share(checked) -> float | None:
    """The hook's slowest run over its timeout."""
    found = of_hook(checked)
    return None if found is None else found.max_ms / (checked.outcomes[0].timeout * 1000)


def budget(target, tool_event: bool, override: float | None) -> float:
    """The budget of ``target``'s event in ms: ``override`` (``--budget-ms``), or its neutral event's."""
    if override is not None:
        return override
    if target.neutral is not None:
        return BUDGETS.get(target.neutral, OTHER)
    return BUDGETS["pre_tool_use"] if tool_event else OTHER


def over_budget(checked, limit: float) -> Pitfall | None:
    """A warning when even the hook's fastest run is slower than ``limit`` ms, with the ways to start
    faster. The fastest, not the median: on a loaded machine one hook took 43 to 338 ms from run to
    run (issue 36), and a median judged that way came and went; the fastest run is what the hook
    costs with nothing else in its way, so a hook over budget on it is over budget on every run."""
    t, found = checked.target, of_hook(checked)
    if found is None or found.min_ms <= limit:
        return None
    when = WHEN.get(t.neutral or "", f"on every {t.event}")
    return Pitfall("warning", "over-budget", f"{t.title}: takes {ms(found.min_ms)} on its fastest run (median "
                   f"{ms(found.median_ms)}, slowest {ms(found.max_ms)} over {found.runs} runs), over the {ms(limit)} "
                   f"budget of {t.event}: the agent waits for it {when}", _fix(t.command))


def _fix(command: str) -> str:
    start = ("start python with -S (no site-packages scan at start) and import only what the hook needs"
             if "python" in command and " -S" not in command else
             "start faster: a shell script or a compiled program starts in milliseconds, a big interpreter does not")
    return (f"{start}; cache what does not change between calls (in a file, keyed by its inputs); move work "
            "that does not decide this call to a later event (post_tool_use, stop) or into the background "
            "(cmd >/dev/null 2>&1 &); or raise the budget with --budget-ms")


def waits(done: list) -> list[Wait]:
    """Per host and event, what every call waits for (``checking.Checked``, each with its budget)."""
    groups: dict[tuple[str, str], list] = {}
    for c in done:
        if of_hook(c) is not None:
            groups.setdefault((c.target.title, c.target.event), []).append(c)
    out = []
    for (title, event), members in groups.items():
        orders = {c.target.order for c in members}
        order = "file" if "file" in orders else "parallel" if orders == {"parallel"} else "unknown"
        tiers = [[c for c in members if c.target.first], [c for c in members if not c.target.first]]
        if order == "parallel" and all(tiers):
            order = "managed-first"  # Claude: two rounds, each as long as its slowest hook

        def pick(field: str) -> float:
            rounds = tiers if order == "managed-first" else [members]
            values = [[getattr(of_hook(c), field) for c in tier] for tier in rounds]
            return sum(max(v) for v in values) if order in ("parallel", "managed-first") else sum(sum(v) for v in values)

        out.append(Wait(members[0].target.shown, title, event, order, tuple(c.target.label for c in members),
                        pick("median_ms"), pick("max_ms"), max(share(c) for c in members),
                        min(c.budget_ms for c in members), any(c.target.members for c in members), pick("min_ms")))
    return out


def is_over(w: Wait) -> bool:
    """Whether every call of the event waits longer than its budget: judged on the fastest runs, as a hook is."""
    return w.min_ms > w.budget_ms


def ms(value: float) -> str:
    return f"{value:.0f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def sentence(w: Wait) -> str:
    """One line: what a call of the event waits for on this host, and why."""
    count = f"{len(w.hooks)} hook{'' if len(w.hooks) == 1 else 's'}"
    how = f"{count}, the host {HOW[w.order]}" if len(w.hooks) > 1 else count
    if w.chain:
        how += "; a chain runs its members one after another"
    over = f"; over the {ms(w.budget_ms)} budget" if is_over(w) else ""
    return (f"wait on {w.title} {w.event}: {ms(w.median_ms)} per call (fastest {ms(w.min_ms)}), {ms(w.max_ms)} at worst "
            f"({how}; {w.share:.0%} of the timeout{over})")
