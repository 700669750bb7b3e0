"""Issue 13 case 6, recorded in a real terminal: tmux drives ``hooks install`` and ``hooks uninstall``
with no flags, keys sent as a user would type them, screens read back with capture-pane."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")

BUNDLE = '[bundle]\nname = "tiny"\nversion = "1.0.0"\n[[hooks]]\nid = "stop-note"\nevent = "stop"\ncommand = "echo bye"\n'
OPERATOR = '{\n  "model": "x"\n}\n'


class Terminal:
    """One tmux session on a private server (its own socket), killed at the end."""

    def __init__(self, socket: str, cwd: Path, env: dict[str, str]) -> None:
        self.base = ["tmux", "-L", socket]
        shell = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), "sh"]
        subprocess.run([*self.base, "new-session", "-d", "-s", "t", "-x", "160", "-y", "50", "-c", str(cwd), *shell], check=True)

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "t", *keys], check=True)

    def screen(self) -> str:
        return subprocess.run([*self.base, "capture-pane", "-p", "-t", "t", "-S", "-200"], check=True,
                              capture_output=True, text=True).stdout

    def wait_for(self, text: str, timeout: float = 30) -> str:
        end = time.time() + timeout
        while time.time() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], check=False)


@pytest.fixture
def terminal(tmp_path: Path, home: Path, project: Path):
    (home / ".claude").mkdir()  # Claude Code "detected": offered ticked
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "CODEX_HOME": str(home / ".codex"),
           "GEMINI_CLI_HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "TERM": "xterm-256color",
           "NO_COLOR": "1", "LANG": "C.UTF-8", "PS1": "$ ",
           "HOOKWEAVE_CLAUDE_MANAGED_DIR": os.environ["HOOKWEAVE_CLAUDE_MANAGED_DIR"],
           "HOOKWEAVE_CURSOR_MANAGED_DIR": os.environ["HOOKWEAVE_CURSOR_MANAGED_DIR"],
           "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": os.environ["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"],
           "GEMINI_CLI_SYSTEM_SETTINGS_PATH": os.environ["GEMINI_CLI_SYSTEM_SETTINGS_PATH"],
           "HOOKWEAVE_CODEX_SYSTEM_DIR": os.environ["HOOKWEAVE_CODEX_SYSTEM_DIR"]}
    term = Terminal(f"hookweave-test-{os.getpid()}-{tmp_path.name}", project, env)
    try:
        yield term
    finally:
        term.close()


def test_interactive_install_then_uninstall_end_to_end(terminal: Terminal, project: Path) -> None:
    bundle = project / "tiny"
    bundle.mkdir()
    (bundle / "hookweave.toml").write_text(BUNDLE)
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(OPERATOR)

    terminal.keys("hooks install ./tiny; echo exit=$?", "Enter")
    screen = terminal.wait_for("Install into which agents?")
    assert "● Claude Code (claude)" in screen and "○ Codex (codex) - not detected" in screen
    terminal.keys("Enter")  # the ticked one
    terminal.wait_for("Which settings file (scope)?")
    terminal.keys("Enter")  # project, the default
    screen = terminal.wait_for("Write these changes?")
    preview = screen[screen.index("claude project .claude/settings.json: would install"):screen.index("Write these changes?")]
    assert preview.splitlines()[:4] == ["claude project .claude/settings.json: would install tiny 1.0.0 (1 hook)",
                                        "--- a/.claude/settings.json", "+++ b/.claude/settings.json", "@@ -1,3 +1,15 @@"]
    assert "dry run" not in screen and "JSON Patch" not in screen and not settings.read_text().count("hookweave")
    terminal.keys("y")
    screen = terminal.wait_for("exit=0")
    assert "claude project .claude/settings.json: installed tiny 1.0.0 (1 hook)" in screen
    assert "hookweave:tiny/stop-note" in settings.read_text()

    terminal.keys("clear; hooks uninstall tiny; echo exit=$?", "Enter")
    screen = terminal.wait_for("Uninstall tiny from which agents?")
    assert "● Claude Code (claude)" in screen and "○ Codex (codex) - not installed" in screen
    terminal.keys("Enter")
    terminal.wait_for("Which settings file (scope)?")
    terminal.keys("Enter")
    screen = terminal.wait_for("Remove tiny as shown?")
    assert "claude project .claude/settings.json: would remove tiny 1.0.0" in screen
    assert '-            "command": "echo bye # hookweave:tiny/stop-note"' in screen
    assert "hookweave" in settings.read_text()  # nothing removed before the answer
    terminal.keys("y")
    screen = terminal.wait_for("exit=0")
    assert "claude project .claude/settings.json: removed tiny 1.0.0" in screen
    assert settings.read_text() == OPERATOR
