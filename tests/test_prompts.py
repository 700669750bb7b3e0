"""Interactive install: questionary prompts (faked) for host, scope and confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.cli import prompts
from hookweave.core.contract.builtin import BUILT_IN
from hookweave.core.contract.registry import registry

SMALL = '[bundle]\nname = "tiny"\nversion = "0.1.0"\n[[hooks]]\nid = "stop-note"\nevent = "stop"\ncommand = "echo bye"\n'


class FakeQuestion:
    def __init__(self, answer):
        self.answer = answer

    def unsafe_ask(self):
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


@pytest.fixture
def terminal(monkeypatch):
    monkeypatch.setattr(prompts, "interactive", lambda: True)


def _fake(monkeypatch, **answers):
    import questionary

    asked = []
    for kind, answer in answers.items():
        def make(*args, _answer=answer, _kind=kind, **kwargs):
            asked.append((_kind, args[0] if args else kwargs.get("message")))
            return FakeQuestion(_answer)

        monkeypatch.setattr(questionary, kind, make)
    return asked


def test_asks_host_scope_and_confirmation_then_writes(run, project: Path, write_bundle, monkeypatch, terminal) -> None:
    asked = _fake(monkeypatch, checkbox=["claude"], select="local", confirm=True)
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 0, result.output
    assert [kind for kind, _ in asked] == ["checkbox", "select", "confirm"]
    assert "--- /dev/null\n+++ b/.claude/settings.local.json\n" in result.stdout  # the diff was shown first
    assert (project / ".claude" / "settings.local.json").is_file()


def test_declining_writes_nothing(run, project: Path, write_bundle, monkeypatch, terminal) -> None:
    _fake(monkeypatch, checkbox=["claude"], select="project", confirm=False)
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 0
    assert result.stdout.endswith("nothing written\n")
    assert not (project / ".claude").exists()


def test_yes_skips_the_confirmation(run, project: Path, write_bundle, monkeypatch, terminal) -> None:
    asked = _fake(monkeypatch, checkbox=["claude"], select="project")
    assert run("install", str(write_bundle(SMALL)), "--yes").exit_code == 0
    assert [kind for kind, _ in asked] == ["checkbox", "select"]
    assert (project / ".claude" / "settings.json").is_file()


def test_flags_given_means_no_prompt(run, project: Path, write_bundle, monkeypatch, terminal) -> None:
    asked = _fake(monkeypatch, checkbox=["claude"], select="project", confirm=True)
    assert run("install", str(write_bundle(SMALL)), "--host", "claude").exit_code == 0
    assert asked == []


def test_ctrl_c_stops_without_writing(run, project: Path, write_bundle, monkeypatch, terminal) -> None:
    _fake(monkeypatch, checkbox=KeyboardInterrupt())
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 130
    assert result.stderr == "hooks: Stopped by user; nothing written\n"
    assert not (project / ".claude").exists()


def _fake_confirms(monkeypatch, answers: list[bool]) -> list[str]:
    import questionary

    asked: list[str] = []

    def confirm(message, **kwargs):
        asked.append(message)
        return FakeQuestion(answers[len(asked) - 1])

    monkeypatch.setattr(questionary, "confirm", confirm)
    return asked


@pytest.mark.parametrize("trust", [True, False])
def test_codex_trust_is_asked_and_only_a_yes_writes_it(run, home: Path, write_bundle, monkeypatch, terminal, trust) -> None:
    _fake(monkeypatch, checkbox=["codex"], select="user")
    asked = _fake_confirms(monkeypatch, [trust, True])
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 0, result.output
    # issue 13 case 6: the trust question comes first, so the preview shows its change to config.toml
    assert asked == ["Codex runs only hooks you trust. Mark these hooks trusted in Codex?", "Write these changes?"]
    config = home / ".codex" / "config.toml"
    assert config.exists() == trust
    preview = result.stdout[:result.stdout.index("hooks.json: installed tiny")]
    assert (f"+++ {config}\n" in preview) is trust
    assert "dry run" not in result.stdout
    final = result.stdout[result.stdout.rindex("hooks.json: installed tiny"):]  # after the preview, which asks
    assert ("not trusted: Codex skips it silently" in final) is not trust


def test_interactive_uninstall_ticks_where_installed_previews_and_confirms(run, project: Path, write_bundle, monkeypatch,
                                                                           terminal) -> None:
    """Issue 13 case 6: the agents holding the bundle are offered ticked, its scope is the default,
    and the removal is shown before the one question."""
    import questionary

    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "model": "x"\n}\n')
    run("install", str(write_bundle(SMALL)), "--host", "claude", "--scope", "local")
    offered: dict = {}

    def checkbox(message, choices, **kwargs):
        offered["hosts"] = (message, [(c.value, c.title, c.checked) for c in choices])
        return FakeQuestion([c.value for c in choices if c.checked])

    def select(message, choices, default, **kwargs):
        offered["scope"] = (message, choices, default)
        return FakeQuestion(default)

    monkeypatch.setattr(questionary, "checkbox", checkbox)
    monkeypatch.setattr(questionary, "select", select)
    asked = _fake_confirms(monkeypatch, [False, True])
    declined = run("uninstall", "tiny")
    assert declined.exit_code == 0 and declined.stdout.endswith("nothing written\n")
    assert offered == {
        "hosts": ("Uninstall tiny from which agents?", [
            ("antigravity", "Antigravity CLI (antigravity) - not installed", False),
            ("claude", "Claude Code (claude)", True), ("cline", "Cline (cline) - not installed", False),
            ("codex", "Codex (codex) - not installed", False),
            ("copilot", "Copilot CLI (copilot) - not installed", False), ("cursor", "Cursor (cursor) - not installed", False),
            ("factory", "Factory Droid (factory) - not installed", False),
            ("gemini", "Gemini CLI (gemini) - not installed", False),
            ("hermes", "Hermes Agent (hermes) - not installed", False), ("kimi", "Kimi Code (kimi) - not installed", False),
            ("letta", "Letta Code (letta) - not installed", False), ("openhands", "OpenHands (openhands) - not installed", False),
            ("openharness", "OpenHarness (openharness) - not installed", False),
            ("qoder", "Qoder CLI (qoder) - not installed", False), ("qwen", "Qwen Code (qwen) - not installed", False),
            ("windsurf", "Windsurf (windsurf) - not installed", False)]),
        "scope": ("Which settings file (scope)?", ["user", "project", "local", "managed"], "local")}
    assert declined.stdout == (
        "claude local .claude/settings.local.json: would remove tiny 0.1.0\n"
        "--- a/.claude/settings.local.json\n"
        "+++ b/.claude/settings.local.json\n"
        "@@ -1,15 +1,3 @@\n"
        " {\n"
        '-  "model": "x",\n'
        '-  "hooks": {\n'
        '-    "Stop": [\n'
        "-      {\n"
        '-        "hooks": [\n'
        "-          {\n"
        '-            "type": "command",\n'
        '-            "command": "echo bye # hookweave:tiny/stop-note"\n'
        "-          }\n"
        "-        ]\n"
        "-      }\n"
        "-    ]\n"
        "-  }\n"
        '+  "model": "x"\n'
        " }\n"
        "record settings.local.hookweave.json would be removed\n"
        "nothing written\n")
    assert "hookweave:tiny" in settings.read_text()
    removed = run("uninstall", "tiny")
    assert removed.exit_code == 0
    assert asked == ["Remove tiny as shown?", "Remove tiny as shown?"]
    assert settings.read_text() == '{\n  "model": "x"\n}\n'
