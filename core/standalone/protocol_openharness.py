"""How OpenHarness 0.1.9 reads a command hook's run (``HookExecutor._run_command_hook`` and its
callers in openharness-ai 0.1.9; the pre_tool_use cases run offline in
tests/e2e/test_openharness_real.py). Neither stdout nor the exit code means anything by itself: a
run that fails (any exit but 0, or a timeout) blocks where the entry sets ``block_on_failure``,
which hookweave writes on pre_tool_use and pre_compact, the only events whose callers heed a block.
The reason is stdout and stderr joined by a newline, each stripped; no JSON is read."""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import Verdict

OPENHARNESS_BLOCKS = frozenset({"pre_tool_use", "pre_compact"})
OPENHARNESS_ALL_RUN = "later hooks of the event still run: OpenHarness runs every one"


def judge_openharness(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    reason = "\n".join(part for part in (out.strip(), err.strip()) if part)
    if code == 0:
        told = ("OpenHarness reads no JSON from a hook: decision, continue and hookSpecificOutput do nothing",) \
            if out.lstrip().startswith("{") else ()
        unread = ("stdout reaches no model",) if out.strip() and event != "post_compact" else ()
        return Verdict("allow", "", None, notes + told + unread)
    reason = reason or (f"command hook failed with exit code {code}" if code is not None else "command hook failed")
    if event in OPENHARNESS_BLOCKS:
        what = ("the model reads the reason as the tool's error result",) if event == "pre_tool_use" else \
            ("the compaction does not happen",)
        return Verdict("block", reason, None, notes + ("any exit but 0 blocks where block_on_failure is true "
                                                       "(hookweave writes it here)",) + what + (OPENHARNESS_ALL_RUN,))
    return Verdict("error", reason, None, notes + (f"OpenHarness goes on: it heeds no block on {event}",))


def timeout_openharness(event: str, seconds, notes: tuple) -> Verdict:
    """A timed-out hook is killed and counts as failed: a block on the events that heed one."""
    shown = f"command hook timed out after {seconds}s" if seconds else "command hook timed out"
    if event in OPENHARNESS_BLOCKS:
        return Verdict("block", shown, None, notes + ("timed out", "a timeout blocks where block_on_failure is true",
                                                      OPENHARNESS_ALL_RUN))
    return Verdict("error", shown, None, notes + ("timed out", "OpenHarness goes on"))
