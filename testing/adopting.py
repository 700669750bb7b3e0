"""The contract's ``hooks adopt`` case: an operator's hand-written copy of a bundle hook taken over.

The operator's file holds foreign hooks on other events, a setting of theirs and (where the host
allows them) comments, plus a hand-written copy of one of the contract bundle's hooks, rendered by
the host itself without hookweave's marker. ``hooks adopt --event`` takes that event's hook into a
bundle: the file must then differ from the operator's only by the marker at the end of that command
(an oracle made by replacing the command's text with the host's rendering of it, independent of
the editor), verify says ok, a
second adopt finds nothing to adopt and writes nothing, installing the written manifest writes
nothing, ``--undo`` gives back every byte, and ``uninstall`` takes the adopted hook out, leaving
the operator's file as it would be without it (DESIGN.md 9; the refusal message of install names
``hooks uninstall adopted`` as the way to take a hand-written hook out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.testing.files import event_of, variants

NAME = "adopted"
# The contract bundle's hooks an operator may have copied by hand, in the order tried: neutral event, command.
COPIES = (("stop", "echo contract-wrap-up"), ("session_start", "echo contract-hello"),
          ("pre_tool_use", "echo contract-guard"))


def owned_elsewhere(host, scope: str | None = None) -> str | None:
    """Why a host's file holds no operator's hook to adopt (the host's own facts), or ``None``."""
    if scope is not None and scope in host.created_only:
        return (f"{host.title}'s {scope} file is a drop-in of hookweave's own (created_only): a file there that "
                "hookweave did not create is an administrator's, which it never edits, so none is there to adopt")
    if host.owns_file:
        return (f"{host.title}'s hook file is hookweave's own (owns_file): the operator's hooks are in other files, "
                "which hookweave never edits, so none is there to adopt")
    if host.runs == "exec":
        from hookweave.core.plan.adoption import EXEC_REFUSED

        return EXEC_REFUSED.format(title=host.title)
    if host.owns_key:
        return (f"{host.title}'s {host.hooks_key!r} key is hookweave's own (owns_key): the operator's hooks are "
                "under other keys, which hookweave never edits, so none is there to adopt")
    return None


class AdoptContract:
    """``hooks adopt`` on every writable scope and operator file spelling (mixed into ``HostContract``)."""

    def test_adopt_takes_over_a_hand_written_copy(self, hookweave_run, host, flags, hookweave_project: Path,
                                                   tmp_path: Path, scope: str, spelling: str) -> None:
        path = host.settings_path(scope, hookweave_project)  # after ``flags``: its fixture may set variables
        neutral, command = next((n, c) for n, c in COPIES if event_of(host, n))
        before = variants(host, path, {neutral: command}).get(spelling) if spelling != "none" else None
        if before is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(before.encode("utf-8"))
        files = _files(tmp_path)
        out = tmp_path / "manifests"
        adopt = ("adopt", *flags, "--scope", scope, "--event", neutral, "--name", NAME)
        why = owned_elsewhere(host, scope)
        if why:
            refused = hookweave_run(*adopt, "--out", out / "one")
            code = 1 if scope in host.created_only and before is not None else 2  # 1: refused by policy (DESIGN 4)
            assert refused.exit_code == code and _files(tmp_path) == files, refused.output
            pytest.skip(why)
        assert before is not None, f"{host.title} cannot read its own operator file spelled {spelling}"
        assert before.count(command) == 1, before
        adopted = before.replace(command, _marked(host, neutral, command, tmp_path))

        done = hookweave_run(*adopt, "--out", out / "one")
        assert done.exit_code == 0, done.output
        assert path.read_bytes() == adopted.encode("utf-8")
        verify = hookweave_run("verify", "--host", host.name, "--scope", scope)
        assert verify.exit_code == 0 and f"{NAME} 1.0.0" in verify.stdout, verify.output
        files = _files(tmp_path)
        again = hookweave_run(*adopt[:-1], "again", "--out", out / "two")  # the copy is a bundle's now
        assert again.exit_code == 2 and "nothing to adopt" in again.stderr, again.output
        installed = hookweave_run("install", out / "one", *flags, "--scope", scope)
        assert installed.exit_code == 0 and "already installed; nothing written" in installed.stdout, installed.output
        assert _files(tmp_path) == files

        undo = hookweave_run("adopt", "--undo", NAME, "--host", host.name, "--scope", scope)
        assert undo.exit_code == 0, undo.output
        assert path.read_bytes() == before.encode("utf-8")
        assert hookweave_run(*adopt, "--out", out / "one", "--force").exit_code == 0
        assert path.read_bytes() == adopted.encode("utf-8")
        removed = hookweave_run("uninstall", NAME, "--host", host.name, "--scope", scope)
        assert removed.exit_code == 0, removed.output
        assert path.read_bytes() == variants(host, path, {neutral: None})[spelling].encode("utf-8")


def _marked(host, neutral: str, command: str, folder: Path) -> str:
    """``command`` with the marker of the hook adopt makes of it (``<event>-1``), as the host renders one."""
    from hookweave.core.model.bundle import Bundle, HookForHost

    hook = HookForHost(f"{neutral.replace('_', '-')}-1", neutral, command, None, None, "last")
    return host.command(hook, Bundle(NAME, "1.0.0", "", (), (), folder / "hookweave.toml", folder))


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
