"""An agent described as data (issue 21): every field documented, checked, and turned into a host."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hookweave.core.contract.admission import host_class_of
from hookweave.core.contract.describe import expand
from hookweave.core.contract.description import Description, template_problem
from hookweave.core.errors import BadInput

PLUGINS = (Path(__file__).parent.parent / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
BASE = dict(name="agent", title="An Agent", files={"project": "{project}/.agent/settings.json"},
            events={"stop": "Stop"})


def test_every_field_is_documented_for_plugin_authors() -> None:
    for field in dataclasses.fields(Description):
        assert f"| `{field.name}` |" in PLUGINS, field.name


@pytest.mark.parametrize("template, problem", [
    ("{project}/.a/settings.json", None),
    ("~/.a/settings.json", None),
    ("${A_HOME:-~/.a}/settings.json", None),
    ("/etc/a/settings.json", None),
    ("$A_HOME/settings.json", "write an environment variable as ${NAME:-default}"),
    ("{workspace}/.a/settings.json", "the only placeholder is {project}"),
    ("relative/settings.json", "start with /, ~/ or {project}/"),
    ("", "a path template must be a non-empty string"),
])
def test_path_templates_are_checked(template: str, problem: str | None) -> None:
    found = template_problem(template)
    assert (found is None) if problem is None else (problem in found), found


def test_a_template_reads_the_environment_then_the_default(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("A_HOME", raising=False)
    assert expand("${A_HOME:-~/.a}/settings.json", tmp_path) == tmp_path / "home" / ".a" / "settings.json"
    monkeypatch.setenv("A_HOME", str(tmp_path / "elsewhere"))
    assert expand("${A_HOME:-~/.a}/settings.json", tmp_path) == tmp_path / "elsewhere" / "settings.json"
    assert expand("{project}/.a/x.json", tmp_path / "p") == tmp_path / "p" / ".a" / "x.json"


@pytest.mark.parametrize("change, said", [
    ({"name": "An_Agent"}, "name: 'An_Agent' is not lowercase letters, digits and dashes"),
    ({"title": " "}, "title: is empty"),
    ({"files": {}}, "files: names no settings file"),
    ({"format": "yaml"}, "format: 'yaml' is not one of json, jsonc"),
    ({"shape": "tree"}, "shape: 'tree' is not one of groups, flat, top-level-groups, top-level-flat"),
    ({"runs": "powershell"}, "runs: 'powershell' is not one of shell, argv"),
    ({"timeout_unit": "min"}, "timeout_unit: 'min' is not s or ms"),
    ({"protocol": "telepathy"}, "protocol: 'telepathy' is not a protocol hookweave knows"),
    ({"events": {"on_stop": "Stop"}}, "events: 'on_stop' not a neutral name"),
    ({"events": {"stop": None}}, "events: maps no neutral event to one of the agent's"),
    ({"tools": {"bash": "Bash"}}, "tools: 'bash' not a neutral name"),
    ({"read_only": ("system",)}, "read_only: system has no file in files"),
    ({"read_only": ("project",)}, "files: every scope is read_only"),
    ({"files": {"project": "settings.json"}}, "files.project: 'settings.json': start with /, ~/ or {project}/"),
])
def test_an_impossible_fact_is_refused_naming_its_field(change: dict, said: str) -> None:
    with pytest.raises(BadInput) as error:
        host_class_of(Description(**{**BASE, **change}))
    assert said in str(error.value)


def test_the_facts_become_the_host(tmp_path: Path) -> None:
    host = host_class_of(Description(**{**BASE, "files": {"user": "~/.agent/settings.json",
                                                        "project": "{project}/.agent/settings.json",
                                                        "system": "/etc/agent/settings.json"},
                                      "read_only": ("system",), "format": "jsonc", "shape": "top-level-flat",
                                      "timeout_unit": "ms", "project_variable": "AGENT_DIR", "runs": "argv",
                                      "order": "parallel", "dedup": "command", "protocol": "claude"}))()
    assert (host.scopes, host.verify_scopes) == (("user", "project"), ("user", "project", "system"))
    assert host.comments and host.timeout_unit == "ms" and host.native_timeout(5) == 5000
    assert host.project_ref == '"$AGENT_DIR"' and host.runs == "argv" and host.protocol == "claude"
    assert host.order == "parallel" and host.dedup_across_scopes and host.dedup_known
    assert type(host).__mro__[1].__name__ == "TopLevelEvents"
    assert host.settings_path("project", tmp_path) == tmp_path / ".agent" / "settings.json"
