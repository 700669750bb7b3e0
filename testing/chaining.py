"""The contract's chain cases: a bundle with ``order = "chain"`` (DESIGN.md 9, ``bundle/chain.toml``).

On every operator file, the chain installs as the host takes chains (one registration running the
chain runner, which install writes beside the settings file; or, where the host's hook file is a
chain already, its members), verify says ok, a reinstall writes nothing, and uninstall gives back
every byte and takes the runner away. Then the installed chain runs as ``hooks check`` runs an
installed hook: the command as the settings file holds it, through the host's shell, with the
host's env and one of its own payloads for a shell call, its answer judged by the host's protocol.
While the first member blocks, the second does not run and the host reads the chain's answer as a
block; otherwise both run, in order, and the chain allows.

Where a host cannot chain, the case is skipped with the product's own reason: install's refusal
(a plugin host whose answer protocol the runner does not know), the host's hook file being a
chain already (no chain registration to run), or the event being one where the host reads no block.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.testing.files import event_of, settled_then_removed

CHAIN = Path(__file__).parent / "bundle" / "chain.toml"
NAME = "contract-chain"
NEUTRAL = "pre_tool_use"  # the event of both hooks of bundle/chain.toml
BLOCK, LOG = "contract-chain.block", "contract-chain.log"  # in the project folder, where hooks run
REASON = b"contract-chain: blocked\n"


def unchained(host) -> str | None:
    """Why bundle/chain.toml is no chain on ``host``, as install says it, or ``None``."""
    from hookweave.core.errors import BadInput
    from hookweave.core.model.loading import load_bundle
    from hookweave.core.plan import chain

    event = event_of(host, NEUTRAL)
    if event is None:
        return f"{host.title} has no {NEUTRAL} event for shell calls"
    try:
        chain.check_ids(load_bundle(str(CHAIN)), [event], host)
    except BadInput as refused:
        return str(refused)
    return None


def unrunnable(host) -> str | None:
    """Why the installed chain cannot be run and judged as one registration, or ``None``."""
    from hookweave.core.plan.chain import DISPATCHED
    from hookweave.core.standalone import protocol

    if host.name in DISPATCHED:
        return f"{host.title} has no chain registration: {DISPATCHED[host.name]}"
    event = event_of(host, NEUTRAL)
    _learned(host)
    if host.answer_protocol() not in protocol.JUDGED and host.protocol_data is None or \
            event not in protocol.blocking(host.answer_protocol()):
        return f"{host.title} reads no block on {event} (protocol.BLOCKS): no first block to win"
    if protocol.judge(host.answer_protocol(), event, 2, b"", REASON).action != "block":
        return f"{host.title} reads no exit code as a block, and the contract's first member blocks by exit 2"
    return None


def _learned(host) -> None:
    """A host whose protocol is data (a plugin's description) is judged by it, as ``hooks check`` does."""
    from hookweave.core.standalone import protocol

    if host.protocol_data is not None:
        protocol.learn(host.name, {**host.protocol_data, "agent_tools": dict(host.tools)})


class ChainContract:
    """Chains on every host that takes them (mixed into ``HostContract``)."""

    def test_a_chain_round_trip_gives_back_every_byte(self, hookweave_run, host, settings, flags,
                                                      spelling: str) -> None:
        from hookweave.core.plan import chain

        path, before = settings
        why = unchained(host)
        if why:
            refused = hookweave_run("install", CHAIN, *flags)
            assert refused.exit_code == 2 and _bytes(path) == _encoded(before), refused.output
            pytest.skip(why)
        runner = chain.runner_path(path)
        installed = hookweave_run("install", CHAIN, *flags)
        assert installed.exit_code == 0, installed.output
        after = path.read_bytes()
        doc = host.parse(after.decode("utf-8"), str(path))
        ours = [host.owner(e) for es in (doc.get(host.hooks_key) or {}).values() if isinstance(es, list) for e in es]
        event = event_of(host, NEUTRAL)
        alone = host.name in chain.DISPATCHED
        wanted = [(NAME, "first"), (NAME, "second")] if alone else [(NAME, chain.chain_id(event))]
        assert [o for o in ours if o] == wanted
        assert _bytes(runner) == (None if alone else chain.runner_text(host).encode("utf-8"))
        settled_then_removed(hookweave_run, host, CHAIN, NAME, flags, path)
        assert _bytes(path) == _encoded(before)
        assert not runner.exists()

    def test_a_chain_runs_in_order_and_the_first_block_wins(self, hookweave_run, host, flags,
                                                           hookweave_project: Path) -> None:
        from hookweave.core.plan import chain
        from hookweave.core.runtime import checking, checktargets
        from hookweave.core.standalone import protocol
        from hookweave.core.standalone.chainanswer import matches

        why = unchained(host) or unrunnable(host)
        if why:
            pytest.skip(why)
        installed = hookweave_run("install", CHAIN, *flags)
        assert installed.exit_code == 0, installed.output
        scope = "project" if "project" in host.scopes else host.scopes[0]
        [target] = [t for t in checktargets.installed(host, hookweave_project, scope) if t.label.startswith(NAME + "/")]
        _, _, members = chain.members_of(target.command)  # a shell call both members take, as the runner matches
        _learned(host)
        payload = next(p for p in checking.shipped_payloads(target, hookweave_project, "t.jsonl")
                       if p.should_pass and all(matches(target.host, target.event, m.matcher, p.data) for m in members))
        blocked = protocol.judge(target.host, target.event, 2, b"", REASON)
        assert blocked.action == "block", f"{host.title} does not read exit 2 with a reason as a block: {blocked}"
        log = hookweave_project / LOG

        (hookweave_project / BLOCK).write_text("")
        [checked] = checking.check([target], hookweave_project, [payload])
        [one] = checked.outcomes
        assert (one.run.exit_code, one.run.stderr, one.verdict.action) == (2, REASON, "block"), one
        assert log.read_text() == "first\n"

        (hookweave_project / BLOCK).unlink()
        log.unlink()
        [checked] = checking.check([target], hookweave_project, [payload])
        [one] = checked.outcomes
        assert (one.run.exit_code, one.run.stdout, one.run.stderr, one.verdict.action) == (0, b"", b"", "allow"), one
        assert log.read_text() == "first\nsecond\n"


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def _encoded(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8")
