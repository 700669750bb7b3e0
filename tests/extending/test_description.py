"""An agent described as data (issue 21): every field documented, checked, and turned into a host."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.contract.admission import host_class_of
from hookweave.core.contract.describe import expand
from hookweave.core.contract.description import FIELDS, Description, template_problem
from hookweave.core.errors import BadInput

PLUGINS = (Path(__file__).parent.parent.parent / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
BASE = dict(name="agent", title="An Agent", files={"project": "{project}/.agent/settings.json"},
            events={"stop": "Stop"})


def test_every_field_is_documented_for_plugin_authors() -> None:
    assert len(FIELDS) == 34 and FIELDS[:4] == ("name", "title", "files", "events")
    for field in FIELDS:
        assert f"| `{field}` |" in PLUGINS, field


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


def test_a_template_asked_again_follows_every_change_it_reads(monkeypatch, tmp_path: Path) -> None:
    """``expand`` answers the same question from memory (it is asked tens of thousands of times per
    command): a new ``HOME``, variable or project is a new question, and an unset ``HOME`` still fails."""
    template = "${A_HOME:-~/.a}/{project}-x.json"
    monkeypatch.delenv("A_HOME", raising=False)
    for home in ("one", "two", "one"):
        monkeypatch.setenv("HOME", str(tmp_path / home))
        assert expand(template, Path("p")) == tmp_path / home / ".a" / "p-x.json"
    assert expand(template, Path("q")) == tmp_path / "one" / ".a" / "q-x.json"
    monkeypatch.setenv("A_HOME", "/elsewhere/../there")
    assert expand(template, Path("q")) == Path("/there/q-x.json")
    monkeypatch.setenv("A_HOME", "")  # empty reads as unset, as in sh
    assert expand(template, Path("q")) == tmp_path / "one" / ".a" / "q-x.json"
    monkeypatch.setenv("HOME", "")
    with pytest.raises(BadInput, match="HOME is not set"):
        expand(template, Path("q"))
    monkeypatch.setenv("A_HOME", "/set")  # no home needed: no error, whatever failed before
    assert expand(template, Path("q")) == Path("/set/q-x.json")


@pytest.mark.parametrize("change, said", [
    ({"name": "An_Agent"}, "name: 'An_Agent' is not lowercase letters, digits and dashes"),
    ({"title": " "}, "title: is empty"),
    ({"files": {}}, "files: names no settings file"),
    ({"format": "toml"}, "format: 'toml' is not one of json, jsonc, json5, yaml"),
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
                                      "order": "parallel", "dedup": "first", "protocol": "claude"}))()
    assert (host.scopes, host.verify_scopes) == (("user", "project"), ("user", "project", "system"))
    assert host.comments and host.timeout_unit == "ms" and host.native_timeout(5) == 5000
    assert host.project_ref == '"$AGENT_DIR"' and host.runs == "argv" and host.protocol == "claude"
    assert host.order == "parallel" and host.dedup == "first"
    assert type(host).__mro__[1].__name__ == "TopLevelEvents"
    assert host.settings_path("project", tmp_path) == tmp_path / ".agent" / "settings.json"


def test_a_json5_agent_runs_a_file_hookweave_cannot_read_and_verify_says_so(project: Path) -> None:
    from hookweave.core.reading.scopes import read_scope

    text = '{\n  // the operator\'s\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]},],},\n}\n'
    said = {}
    for form in ("json5", "jsonc"):
        host = host_class_of(Description(**{**BASE, "name": form, "format": form}))()
        path = host.settings_path("project", project)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        doc, _, said[form] = read_scope(host, "project", project)
        assert doc is None and "trailing comma" in said[form]
        assert host.comments
    assert said["json5"].endswith("(An Agent reads JSON5 and runs this file's hooks, but hookweave reads JSON with "
                                  "comments only: it can neither check nor edit the file)")
    assert said["jsonc"].endswith("(An Agent ignores a file it cannot read)")


def test_a_per_platform_template_takes_this_systems_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    template = {"linux": "/etc/a/s.json", "macos": "/Library/A/s.json", "windows": "C:/ProgramData/A/s.json"}
    for platform, expected in (("linux", "/etc/a/s.json"), ("darwin", "/Library/A/s.json"),
                               ("win32", "C:/ProgramData/A/s.json"), ("freebsd13", "/etc/a/s.json")):
        monkeypatch.setattr("sys.platform", platform)
        assert expand(template, tmp_path) == Path(expected)
    monkeypatch.undo()
    problem = host_class_of  # a per-platform template names exactly the three systems, each one checked
    with pytest.raises(BadInput, match="files.system: a per-platform template names exactly linux, macos, windows"):
        problem(Description(**{**BASE, "files": {**BASE["files"], "system": {"linux": "/etc/a"}}}))
    with pytest.raises(BadInput, match=r"files.system: 'C:/A': start with /, ~/ or \{project\}/$"):
        problem(Description(**{**BASE, "files": {**BASE["files"], "system": {**template, "linux": "C:/A"}}}))
    assert host_class_of(Description(**{**BASE, "files": {**BASE["files"], "system": template},
                                        "read_only": ("system",)}))


def test_detect_is_a_program_on_path_or_the_user_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    host = host_class_of(Description(**{**BASE, "files": {"user": "~/.agent/settings.json"}, "programs": ("agent",)}))()
    assert not host.detect()
    (tmp_path / ".agent").mkdir()
    assert host.detect()
    (tmp_path / ".agent").rmdir()
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "agent").write_text("#!/bin/sh\n")
    (tmp_path / "bin" / "agent").chmod(0o755)
    assert host.detect()


def test_every_built_in_host_is_built_from_its_description_as_a_plugin_is() -> None:
    """The ten built-in hosts use the plugin mechanism: a Description, through describe.host_class,
    with a subclass only for what data cannot say; their facts are the description's."""
    from hookweave.core.contract.builtin import BUILT_IN
    from hookweave.core.contract.registry import registry

    for name in BUILT_IN:
        host = registry().get(name)
        described = type(host).description
        assert isinstance(described, Description) and described.name == name
        generated = next(k for k in type(host).__mro__ if k.__module__ == f"hookweave.described.{name}")
        assert generated.description is described
        assert (host.title, host.scopes) == (described.title, tuple(s for s in described.files if s not in described.read_only))
        assert host.verify_scopes == tuple(described.files) and dict(host.events) == dict(described.events)
        assert host.dedup == described.dedup and host.execution == (described.execution or host.execution)


def test_the_reference_class_example_is_a_host_with_its_gate() -> None:
    """The host plugin reference's example of a description with code registers, and its gate speaks."""
    import re
    import types

    from hookweave.core.contract.admission import checked

    readme = (Path(__file__).parent.parent.parent / "docs" / "host-reference.md").read_text(encoding="utf-8")
    [source] = re.findall(r"```python\n(# hookweave_myagent/__init__.py\n.*?)```", readme, re.S)
    module = types.ModuleType("hookweave_myagent")
    exec(compile(source, "docs/host-reference.md", "exec"), module.__dict__)
    registered: list = []
    module.hookweave_register_hosts(registered.append)
    host = checked(registered[0])()
    assert host.name == "myagent" and host.project_ref == '"$MYAGENT_PROJECT_DIR"' and host.scopes == ("user", "project")
    assert [f.message for f in host.gates({"user": {"safeMode": True}}, set(), Path("."))] == [
        "My Agent's safe mode runs no hooks"]


def test_a_description_is_frozen_keyword_data() -> None:
    described = Description(**BASE)
    assert described.tools == {} and described.order == "unknown" and described == Description(**BASE)
    assert described != Description(**{**BASE, "title": "Other"})
    with pytest.raises(AttributeError, match="frozen"):
        described.title = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Description(**BASE, colour="red")
    with pytest.raises(TypeError, match="missing required keyword argument 'events'"):
        Description(name="a", title="A", files={"user": "~/.a.json"})
    with pytest.raises(TypeError):
        described.tools["shell"] = "Bash"  # type: ignore[index]  # a shared default is read-only


def test_the_tests_host_table_is_the_registry() -> None:
    """tests/hostnames.py is where a new built-in host adds its title once; it must be the registry."""
    from hookweave.core.contract.registry import HostRegistry, get_plugin_manager
    from tests.hostnames import NAMES, SCOPES, TITLES

    registry = HostRegistry(get_plugin_manager(load_entrypoints=False))
    assert list(TITLES) == NAMES == registry.names()
    assert {name: registry.get(name).title for name in NAMES} == TITLES
    assert {name: tuple(registry.get(name).scopes) for name in NAMES} == SCOPES
