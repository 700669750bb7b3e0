"""Interactive install: questionary prompts (faked) for host, scope and confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core import prompts

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
    asked = _fake_confirms(monkeypatch, [True, trust])
    result = run("install", str(write_bundle(SMALL)))
    assert result.exit_code == 0, result.output
    assert asked == ["Write these changes?", "Codex runs only hooks you trust. Mark these hooks trusted in Codex?"]
    config = home / ".codex" / "config.toml"
    assert config.exists() == trust
    final = result.stdout[result.stdout.rindex("hooks.json: installed tiny"):]  # after the preview, which asks
    assert ("not trusted: Codex skips it silently" in final) is not trust
