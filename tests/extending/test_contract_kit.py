"""The ten built-in hosts pass the contract suite hookweave ships for plugin authors
(``hookweave.testing``), exactly as a plugin's tests run it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookweave.core.contract.builtin import BUILT_IN
from hookweave.testing import HostContract


def _built_in_hosts_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folders a built-in host reads outside HOME (system and managed files), in the test folder."""
    for variable in ("HOOKWEAVE_CLAUDE_MANAGED_DIR", "HOOKWEAVE_COPILOT_POLICY_DIR", "HOOKWEAVE_CURSOR_MANAGED_DIR", "HOOKWEAVE_WINDSURF_SYSTEM_DIR",
                     "HOOKWEAVE_CODEX_SYSTEM_DIR"):
        monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
    home = Path(tmp_path / "home")
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(tmp_path / "gemini-system" / "system-defaults.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "gemini-system" / "settings.json"))
    monkeypatch.setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", str(home / ".gemini" / "trustedFolders.json"))
    monkeypatch.setenv("COPILOT_HOME", str(home / ".copilot"))
    monkeypatch.setenv("QWEN_HOME", str(home / ".qwen"))
    monkeypatch.setenv("CLINE_DIR", str(home / ".cline"))


@pytest.fixture
def hookweave_prepare(trust_project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def prepare(host, project: Path) -> list[str]:
        _built_in_hosts_environment(tmp_path, monkeypatch)
        return trust_project(host, project)

    return prepare


class TestBuiltInHosts(HostContract):
    hosts = sorted(BUILT_IN)
