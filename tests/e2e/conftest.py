"""Fixtures for the tests that drive the real agent CLIs offline against a mock model server.

The agents come from scripts/install-hosts (npm, pinned, cached in .cache/hosts). Where a binary
is missing, its tests are skipped with a message saying how to get it. Every agent runs with the
test's temporary HOME; the only network traffic is to the mock server on 127.0.0.1.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # mock_model and realhosts sit here (tests/ is no package)

from mock_model import MockModel  # noqa: E402
from realhosts import Probe, agent_binary, run_agent  # noqa: E402


@pytest.fixture
def mock():
    with MockModel() as server:
        yield server


@pytest.fixture
def probe(tmp_path: Path) -> Probe:
    return Probe(tmp_path / "probe")


@pytest.fixture(scope="module")
def shared_runs() -> dict:
    """Agent runs shared by the tests of a module whose scenarios sit side by side in one HOME and
    project, by name (``realhosts.shared``): built by whichever test needs one first, inside that
    test's own HOME and project (its fixtures, so nothing_left_running covers the runs); the others
    read the same record. Each test asserts only its own facts. A module may define its own."""
    return {}


# -- the agents, each offline against the mock (a test module may define its own) --------------------

@pytest.fixture
def claude(mock, home: Path, project: Path):
    binary = agent_binary("claude")
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    return lambda: run_agent([str(binary), "-p", "run the echo", "--allowedTools", "Bash"], project, env)


@pytest.fixture
def codex_env(mock, home: Path, project: Path) -> dict[str, str]:
    codex_home = home / ".codex"
    codex_home.mkdir()
    # Offline: the mock provider, and no update check, analytics or remote plugins (each of which
    # otherwise looks up chatgpt.com or api.github.com).
    (codex_home / "config.toml").write_text(
        '# the operator\'s Codex config\nmodel = "mock-model"\nmodel_provider = "mock"\n'
        f'check_for_update_on_startup = false\nchatgpt_base_url = "{mock.url}/backend-api/"\n\n'
        f'[model_providers.mock]\nname = "Mock"\nbase_url = "{mock.url}/v1"\nwire_api = "responses"\n'
        'env_key = "MOCK_API_KEY"\n\n[analytics]\nenabled = false\n\n'
        '[features]\nplugins = false\nremote_plugin = false\nplugin_sharing = false\napps = false\n'
        f'in_app_updates = false\n\n[projects."{project}"]\ntrust_level = "trusted"\n')
    return {"HOME": str(home), "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "dummy"}


@pytest.fixture
def codex(codex_env, project: Path):
    binary = agent_binary("codex")
    argv = [str(binary), "exec", "--skip-git-repo-check", "-s", "danger-full-access", "run the echo"]
    return lambda: run_agent(argv, project, codex_env)


# -- nothing an agent starts may outlive its test -------------------------------------------------

def _left_running(tmp_path: Path) -> list[str]:
    """Processes (other than ours) whose command line or working folder lies in this test's folder."""
    mine, found = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == mine:
            continue
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue  # gone, or not ours to read
        if argv and (str(tmp_path) in argv or cwd.startswith(str(tmp_path))):
            found.append(f"{entry.name}: {argv[:200]}")
    return found


@pytest.fixture(autouse=True)
def nothing_left_running(tmp_path: Path):
    """Fails a test that leaves a process behind (Cline 3.0.65's hub daemon did, and strace -f then
    waited for it), after killing it. Detached hooks get a few seconds to end on their own."""
    yield
    if not Path("/proc/self/cmdline").exists():
        return  # no /proc to look in
    deadline = time.time() + 10
    while (left := _left_running(tmp_path)) and time.time() < deadline:
        time.sleep(0.2)
    for line in left:
        try:
            os.kill(int(line.split(":", 1)[0]), signal.SIGKILL)
        except OSError:
            pass
    assert not left, "still running after the test:\n" + "\n".join(left)
