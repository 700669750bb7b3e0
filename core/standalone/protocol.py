"""What each agent does with a hook's exit code and output: the one table that ``hooks check``
and the chain runner share.

Stdlib only and no hookweave imports: the chain runner reads ``PARTS`` (this file last) into one
namespace, so it loads without the package (``python3 -S``). Facts are from the pinned hosts: Claude Code 2.1.332,
Codex 0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code 0.24.4, Factory Droid 0.225.2 and
Cline CLI 3.0.65, read in their shipped code (Claude's and Copilot's binaries, the Gemini, Qwen,
Droid and Cline JavaScript, Codex's hooks crate whose messages are in the 0.169.0 and 0.171.0
binaries), the decisive ones run on the real agents in tests/e2e. Cursor, Windsurf, Antigravity and Kimi Code were never run: every
verdict of theirs says "unmeasured".

``judge`` answers for one hook run; ``chain_verdict`` combines the verdicts of an event's hooks
the way the host combines them. Actions: allow, block, ask, error (the agent shows a hook
error or a non-blocking failure and goes on), ignored (output the host does not read), stop
(the session stops).
"""


# The files the chain runner reads into one namespace, in this order (``chain.runner_text``).
PARTS = ("verdicts.py", "protocol_claude.py", "protocol_codex.py", "protocol_gemini.py", "protocol_cursor.py",
         "protocol_copilot.py", "protocol_qwen.py", "protocol_factory.py", "protocol_cline.py",
         "protocol_antigravity.py", "protocol_auggie.py", "protocol_letta.py", "protocol_openhands.py",
         "protocol_kimi.py", "protocol_openharness.py", "protocol_hermes.py", "protocol_data.py", "protocol.py")

if "Verdict" not in globals():  # imported as a module of the package, not read into the runner file
    from hookweave.core.standalone.protocol_antigravity import judge_antigravity
    from hookweave.core.standalone.protocol_auggie import judge_auggie
    from hookweave.core.standalone.protocol_claude import judge_claude
    from hookweave.core.standalone.protocol_cline import judge_cline
    from hookweave.core.standalone.protocol_codex import judge_codex
    from hookweave.core.standalone.protocol_copilot import judge_copilot
    from hookweave.core.standalone.protocol_cursor import judge_cursor
    from hookweave.core.standalone.protocol_data import DATA, filled, judge_data, judge_timeout
    from hookweave.core.standalone.protocol_factory import judge_factory
    from hookweave.core.standalone.protocol_gemini import judge_gemini
    from hookweave.core.standalone.protocol_hermes import judge_hermes
    from hookweave.core.standalone.protocol_kimi import judge_kimi
    from hookweave.core.standalone.protocol_letta import judge_letta
    from hookweave.core.standalone.protocol_openhands import judge_openhands
    from hookweave.core.standalone.protocol_openharness import judge_openharness, timeout_openharness
    from hookweave.core.standalone.protocol_qwen import judge_qwen
    from hookweave.core.standalone.verdicts import (  # noqa: F401 - read as protocol.X
        ACTIONS,
        BLOCKS,
        CONTEXT,
        HOSTS,
        JUDGED,
        UNMEASURED_NOTES,
        VERSIONS,
        ChainVerdict,
        Verdict,
        decode_output,
        timeout_verdict,
    )


def judge(host: str, event: str, exit_code, stdout, stderr, timed_out: bool = False) -> Verdict:
    """What ``host`` does with one run of a hook on ``event``. ``exit_code`` is None or negative
    when a signal ended the hook; stdout and stderr are str or bytes (decoded as the hosts do)."""
    out, notes = decode_output(stdout, "stdout")
    err, more = decode_output(stderr, "stderr")
    notes += more
    if host not in _JUDGES and host not in DATA:
        raise ValueError(f"unknown host {host!r}; expected one of {', '.join(HOSTS)}")
    if host in DATA:  # a protocol given as data (a plugin's description)
        if timed_out:
            return judge_timeout(DATA[host], notes)
        signal = exit_code is None or exit_code < 0
        if signal:
            notes += (f"ended by signal {-exit_code}" if exit_code else "ended without an exit code",)
        return judge_data(DATA[host], event, None if signal else exit_code, out, err, notes)
    if timed_out:
        return timeout_openharness(event, None, notes) if host == "openharness" else timeout_verdict(host, notes)
    signal = exit_code is None or exit_code < 0
    if signal:
        notes += (f"ended by signal {-exit_code}" if exit_code else "ended without an exit code",)
    return _JUDGES[host](event, None if signal else exit_code, out, err, notes)

# Windsurf's protocol is a row of data (protocol_data.BUILTIN: judged by it, verdict for verdict as its
# judge was). The others stay code: each has a rule data cannot say, or could only by fields made for
# that one host: Claude's, Codex's, Qwen's, Droid's and Copilot's per-event schemas; Cursor's continue
# false on beforeSubmitPrompt only and followup_message on stop; Gemini's plain text that denies on exit
# 3+ and its JSON string read twice; Kimi's message as a number or boolean; Hermes' pre_verify
# continue-with-message and its action/decision reason order; OpenHands' deny after any exit code and its
# string-typed decision; Antigravity's reason only on PreToolUse; Letta's and Auggie's signal read as an
# exit code; OpenHarness' stdout and stderr joined and its timeout that blocks.
_JUDGES = {"claude": judge_claude, "codex": judge_codex, "gemini": judge_gemini, "cursor": judge_cursor,
           "copilot": judge_copilot, "qwen": judge_qwen, "factory": judge_factory, "cline": judge_cline,
           "antigravity": judge_antigravity, "auggie": judge_auggie,
           "letta": judge_letta, "openhands": judge_openhands, "kimi": judge_kimi,
           "openharness": judge_openharness, "hermes": judge_hermes}


def learn(name: str, data) -> None:
    """Judge ``name`` by the data protocol ``data`` from now on (a plugin's description: ``hooks check``,
    which adds ``agent_tools``, its tool names, for the payloads it sends)."""
    DATA[name] = filled(data)


def blocking(host: str) -> frozenset:
    """The events of ``host``'s protocol where a block counts."""
    return frozenset(DATA[host]["blocking_events"]) if host in DATA else BLOCKS[host]


def shaped_like(host: str) -> str:
    """The built-in host whose payloads ``host``'s agent sends (its own, unless its protocol is data)."""
    return DATA[host]["payloads_like"] if host in DATA else host


def known() -> tuple[str, ...]:
    """Every answer protocol judged here: the built-in hosts' and those a plugin's description may name."""
    return JUDGED  # the judges' names (a test holds them equal), importable without the judges


# -- chains ---------------------------------------------------------------------------------------

_RANK = {"stop": 5, "block": 4, "ask": 3, "error": 2, "allow": 1, "ignored": 0}
REPLACING = {"gemini": frozenset({"BeforeModel", "AfterModel"})}  # later hooks' fields replace earlier ones


def chain_verdict(host: str, event: str, verdicts) -> ChainVerdict:
    """The verdict of an event's hooks together, and which member decided it. Every host runs
    them all and the strongest answer wins (stop, then block, then ask; Claude's deny > ask >
    allow, Codex's stop over block, Gemini's and Qwen's OR, Copilot's "any deny wins", Droid's
    first stop, abort or deny, Cline's first cancel); on Gemini's BeforeModel/AfterModel the last
    hook that answered replaces the earlier ones. First in order wins a tie, as the hosts take
    the first reason."""
    verdicts = list(verdicts)
    if not verdicts:
        return ChainVerdict(Verdict("allow", "", None, ("no hook ran",)), None)
    if event in REPLACING.get(host, ()):
        answered = [i for i, v in enumerate(verdicts) if v.action in ("stop", "block", "ask")
                    or (isinstance(v.output, dict) and ("decision" in v.output or "continue" in v.output))]
        if answered:
            return ChainVerdict(verdicts[answered[-1]], answered[-1])
        return ChainVerdict(Verdict("allow", "", None, ()), None)
    if host in DATA and DATA[host]["later_hooks"] == "skipped":  # the first block ends the event
        first = next((i for i, v in enumerate(verdicts) if v.action in ("stop", "block")), None)
        if first is not None:
            return ChainVerdict(verdicts[first], first)
    best = max(range(len(verdicts)), key=lambda i: (_RANK.get(verdicts[i].action, 0), -i))
    if verdicts[best].action in ("allow", "ignored"):
        return ChainVerdict(Verdict("allow", "", None, ()), None)
    if verdicts[best].action == "block" and (host in ("gemini", "qwen") or event in ("Stop", "SubagentStop")
                                             and host == "codex"):
        reasons = [v.reason for v in verdicts if v.action == "block" and v.reason]
        joined = Verdict("block", "\n".join(reasons), verdicts[best].output, verdicts[best].notes)
        return ChainVerdict(joined, best)
    return ChainVerdict(verdicts[best], best)
