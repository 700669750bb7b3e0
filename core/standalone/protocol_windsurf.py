"""How Windsurf (Cascade hooks) reads a hook's exit code and output: from its documentation only,
never run [DOC docs.windsurf.com/windsurf/cascade/hooks].

A pre-hook (``pre_read_code``, ``pre_write_code``, ``pre_run_command``, ``pre_mcp_tool_use``,
``pre_user_prompt``) blocks the action by exiting 2; any other exit lets it go ahead, and a
post-hook cannot block. The documentation names no JSON answer: stdout is shown to the user when
the entry sets ``show_output``, and never reaches the model. No timeout is documented.
"""

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.verdicts import (
        UNMEASURED_NOTES,
        Verdict,
        block_verdict,
    )


def judge_windsurf(event: str, code, out: str, err: str, notes: tuple) -> Verdict:
    notes += (UNMEASURED_NOTES["windsurf"],)
    if code == 2:
        if event.startswith("pre_"):
            return block_verdict("windsurf", event, err.strip(), None, notes + ("exit 2 blocks a pre-hook's action",))
        return Verdict("error", err.strip(), None, notes + (f"exit 2 cannot block {event}: only pre-hooks block",))
    if code != 0:
        return Verdict("error", err.strip(), None, notes + ("a failed hook does not block: Windsurf goes on",))
    if out.strip():
        return Verdict("ignored", out.strip(), None, notes + ("stdout is shown to the user with show_output, never to "
                                                              "the model; only exit 2 blocks",))
    return Verdict("allow", "", None, notes)
