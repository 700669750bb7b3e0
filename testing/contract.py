"""The host contract every host honours, built-in or plugin: a pytest class to subclass.

``hosts`` names the hosts under test (every registered one when empty). A host that gates its hooks
(a folder to trust) gets that done by overriding the ``hookweave_prepare`` fixture.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from hookweave.core.contract.description import VARIABLE
from hookweave.core.contract.registry import registry
from hookweave.core.model.render import marker_in
from hookweave.core.cli.check import UNJUDGED
from hookweave.testing.adopting import AdoptContract
from hookweave.testing.chaining import ChainContract
from hookweave.testing.files import scope_flags, settled_then_removed, variants

BUNDLE = Path(__file__).parent / "bundle"
NAME = "contract"


class HostContract(AdoptContract, ChainContract):
    """Subclass as ``class TestMine(HostContract): hosts = ["mine"]``; pytest finds the tests."""

    hosts: ClassVar[list[str]] = []
    spellings: ClassVar[tuple[str, ...]] = ("none", "plain", "crlf", "bom", "tabs", "comments")

    # -- fixtures ----------------------------------------------------------------------------

    @pytest.fixture
    def host(self, host_name: str, hookweave_project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
        found = registry().get(host_name)
        described = getattr(found, "description", None)
        for template in getattr(described, "files", {}).values():  # a described host's own variables
            for variable, _ in VARIABLE.findall(template if isinstance(template, str) else " ".join(template.values())):
                monkeypatch.setenv(variable, str(tmp_path / "env" / variable.lower()))
        return found

    @pytest.fixture
    def flags(self, host, hookweave_project: Path, hookweave_prepare) -> list[str]:
        return ["--host", host.name, *scope_flags(host), *hookweave_prepare(host, hookweave_project)]

    @pytest.fixture
    def settings(self, host, hookweave_project: Path, spelling: str) -> tuple[Path, str | None]:
        """The project file hookweave writes, with the operator's text in ``spelling`` (``None``: no file)."""
        path = host.settings_path("project" if "project" in host.scopes else host.scopes[0], hookweave_project)
        if spelling == "none":
            return path, None
        text = variants(host, path).get(spelling)
        assert text is not None, f"{host.title} cannot read its own operator file spelled {spelling}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return path, text

    # -- the contract ------------------------------------------------------------------------

    def test_paths_stay_in_the_test_folder(self, host, tmp_path: Path, hookweave_project: Path) -> None:
        for scope in host.verify_scopes:
            assert str(host.settings_path(scope, hookweave_project)).startswith(str(tmp_path)), scope

    def test_round_trip_gives_back_every_byte(self, hookweave_run, host, settings, flags, spelling: str) -> None:
        path, before = settings
        installed = hookweave_run("install", BUNDLE, *flags)
        assert installed.exit_code == 0, installed.output
        settled_then_removed(hookweave_run, host, BUNDLE, NAME, flags, path)
        if before is None:
            assert not path.exists()
        else:
            assert path.read_bytes() == before.encode("utf-8")

    def test_ours_are_ours_and_the_operators_are_not(self, hookweave_run, host, settings, flags, spelling: str) -> None:
        path, _ = settings
        assert hookweave_run("install", BUNDLE, *flags).exit_code == 0
        doc = host.parse(path.read_text(encoding="utf-8"), str(path))
        entries = [e for es in (doc.get(host.hooks_key) or {}).values() if isinstance(es, list) for e in es]
        ours = sorted(host.owner(e) for e in entries if host.owner(e))
        wanted = {"guard": "pre_tool_use", "wrap-up": "stop", "hello": "session_start"}
        expected = sorted((NAME, hook) for hook, event in wanted.items() if host.events.get(event)
                          and (event != "pre_tool_use" or host.tools.get("shell")))
        assert ours == expected
        assert all(marker_in(str(e)) is None for e in entries if not host.owner(e))

    def test_an_edit_is_reported_and_kept(self, hookweave_run, host, settings, flags, spelling: str) -> None:
        path, _ = settings
        assert hookweave_run("install", BUNDLE, *flags).exit_code == 0
        text = path.read_text(encoding="utf-8")
        edited = text.replace("echo contract-wrap-up", "echo contract-wrap-up --edited", 1)
        if edited == text:
            pytest.skip(f"{host.title} has no stop event")
        path.write_text(edited, encoding="utf-8")
        verify = hookweave_run("verify", "--host", host.name)
        assert verify.exit_code == 1 and "modified" in verify.stdout and "wrap-up" in verify.stdout
        assert hookweave_run("uninstall", NAME, "--host", host.name, *scope_flags(host)).exit_code == 1
        assert path.read_text(encoding="utf-8") == edited

    def test_check_answers_for_every_hook(self, hookweave_run, host, flags) -> None:
        """``hooks check`` fires each hook with the agent's own payloads and judges the answer by the
        agent's protocol: it runs (exit 0, or 1 for a problem), never "unsupported"."""
        # one run per payload: the case asks what the agent does with each answer, not how long it took
        done = hookweave_run("check", BUNDLE, "--host", host.name, "--json", "--runs", "1")
        if done.exit_code == 2 and UNJUDGED in done.output:  # a host with no protocol: check refuses, saying why
            pytest.skip(done.output.strip())
        assert done.exit_code in (0, 1), done.output
