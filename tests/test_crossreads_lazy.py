"""The cross-agent check loads only the built-in hosts that hold a record of ours or read a file of
one that does (issue 38): ``builtin_records`` knows their records' places without their modules,
and is held equal to the hosts here."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.describe import expand
from hookweave.core.contract.registry import HostRegistry
from hookweave.core.verify.builtin_records import READS, RECORDS
from tests.shipping.test_startup_imports import installed, loaded  # noqa: F401 - the fixture

ALWAYS = {"codex", "factory", "openhands", "gemini"}  # settings paths chosen at run time


def test_verify_of_claude_loads_only_the_hosts_that_can_run_its_hooks(installed, tmp_path):  # noqa: F811
    modules = loaded(installed, tmp_path, "verify", "--host", "claude")
    hosts = {name for name, module in BUILT_IN.items() if module in modules}
    assert hosts == {"claude", "cursor", "copilot", *ALWAYS}


def test_a_host_with_our_record_is_loaded_and_checked(run, installed, tmp_path):  # noqa: F811
    assert run("install", "example-guard", "--host", "qwen").exit_code == 0
    modules = loaded(installed, tmp_path, "verify", "--host", "claude")
    hosts = {name for name, module in BUILT_IN.items() if module in modules}
    assert hosts == {"claude", "cursor", "copilot", "qwen", *ALWAYS}


@pytest.mark.parametrize("env", [False, True])
def test_the_table_names_each_hosts_records(monkeypatch, tmp_path, env):
    registry = HostRegistry()
    assert set(RECORDS) == set(BUILT_IN) - ALWAYS
    for name, scopes in RECORDS.items():
        host = registry.get(name)
        if env:
            for template in scopes.values():
                for variable in __import__("re").findall(r"\$\{(\w+):-", str(template)):
                    monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
        assert list(scopes) == list(host.verify_scopes), name
        for scope, template in scopes.items():
            assert expand(template, tmp_path) == host.record_path(host.settings_path(scope, tmp_path)), (name, scope)


def test_the_table_names_who_reads_another_hosts_files():
    registry = HostRegistry()
    found = {name: tuple(r.host for r in getattr(registry.info(name).cls, "also_reads", ()))
             for name in BUILT_IN}
    assert READS == {name: hosts for name, hosts in found.items() if hosts}
