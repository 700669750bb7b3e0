"""Test isolation: no test can reach the real home, and output is plain text."""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import COMMAND_MODULES, app
from hookweave.core.runtime import latency

for _module in dict.fromkeys(COMMAND_MODULES.values()):  # main() loads each command on demand; tests call app directly
    importlib.import_module(_module)

# A suite started in the background by a non-interactive shell (`cmd &`, nohup) inherits SIGINT
# ignored, and so does every program it starts: the tests of what a stop does (Ctrl-C mid-write,
# before entry, while waiting for a lock) then fail for how the suite was started. Deliver it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

BUDGETS = dict(latency.BUDGETS), latency.OTHER  # the shipped latency budgets, before ``loose_budgets``


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: half as many workers again as cores. A quarter of the suite's time is spent
    waiting (real agents answering, hooks that sleep past their timeout, mock servers), so two
    workers on two cores left the CPU 27% idle (1,321 s wall, 1,918 s of CPU)."""
    return max(2, (os.cpu_count() or 1) * 3 // 2)


# The costliest folders first (bench/suite_cpu.py: tests/e2e and tests/fleet are 62% of the suite's
# CPU in few tests a file), the quick ones last. xdist hands a worker one test file at a time, by
# default the files with the most tests first: that put the real agents' and Ansible's files, a
# minute or more each, at the end, where one worker ran the last of them while the others idled.
# With ``--no-loadscope-reorder`` (pyproject's addopts) xdist keeps this order.
COSTLIEST_FIRST = ("tests/e2e/", "tests/fleet/", "tests/attack/", "tests/runner/", "tests/extending/")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, folder in enumerate(COSTLIEST_FIRST) if item.nodeid.startswith(folder)),
                    len(COSTLIEST_FIRST))

    items.sort(key=rank)  # stable: each folder's files and tests keep their order


def _build_command_once() -> None:
    """typer's CliRunner rebuilds the click command from the app on every invoke (7 ms here, tens
    of thousands of invokes in a run: a third of the campaign attack's time). The app is the same
    between invokes, so it is built once per app and set of commands; click makes a new context
    for each run, as ``hooks`` does."""
    import typer.testing

    build = typer.testing._get_command
    built: dict[tuple, object] = {}

    def once(app):
        key = (id(app), len(app.registered_commands), len(app.registered_groups))
        if key not in built:
            built[key] = build(app)
        return built[key]

    typer.testing._get_command = once


_build_command_once()


@pytest.fixture(scope="session", autouse=True)
def python3_plain(tmp_path_factory: pytest.TempPathFactory):
    """``python3`` on PATH as hosts find it on a plain machine: the interpreter itself, with the
    standard library and nothing installed beside it. Not a pyenv shim, which starts bash and pyenv
    before Python (0.1-0.3 s a hook here); and not the interpreter's own site-packages, whose .pth
    files run at every start (this machine's sandbox imports certifi from one: 0.04-0.1 s of CPU a
    start). The suite's hooks, probes and agents start python3 thousands of times. The folder is a
    venv without packages (a pyvenv.cfg beside bin/), so the interpreter finds its standard library
    and no site-packages. Session scope: the module fixtures that run a real agent once for a whole
    file see it too."""
    base = Path(sys.base_prefix) / "bin"
    interpreter = Path(sys.executable).resolve()  # the tests' interpreter, outside its venv
    folder = tmp_path_factory.mktemp("python3")
    (folder / "bin").mkdir()
    (folder / "bin" / "python3").symlink_to(interpreter)
    version = ".".join(map(str, sys.version_info[:3]))
    (folder / "pyvenv.cfg").write_text(
        f"home = {base}\ninclude-system-site-packages = false\nversion = {version}\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{folder / 'bin'}{os.pathsep}{os.environ['PATH']}")
        yield


@pytest.fixture(scope="session", autouse=True)
def bytecode_kept(tmp_path_factory: pytest.TempPathFactory):
    """The Python programs the tests start (``hooks``, hooks in Python, the chain runner) read our
    modules' bytecode as a user's do, from a cache, instead of compiling every module at every start.
    Where PYTHONDONTWRITEBYTECODE is set (this machine and CI set it) and the checkout is fresh, no
    bytecode is ever written, and each ``hooks`` started took 0.26 s instead of 0.12. The cache is
    kept under the run's temp folder (PYTHONPYCACHEPREFIX), so no test sees a ``__pycache__`` among
    the files it checks; shared by the workers, which write it atomically as Python does."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        patch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path_factory.getbasetemp().parent / "pycache"))
        yield


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME and every host's own variable at tmp_path; work inside a project folder there."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(tmp_path / "managed"))
    monkeypatch.setenv("HOOKWEAVE_COPILOT_POLICY_DIR", str(tmp_path / "copilot-policy.d"))
    monkeypatch.setenv("HOOKWEAVE_CURSOR_MANAGED_DIR", str(tmp_path / "cursor-managed"))
    monkeypatch.setenv("HOOKWEAVE_WINDSURF_SYSTEM_DIR", str(tmp_path / "windsurf-system"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(tmp_path / "gemini-system" / "system-defaults.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "gemini-system" / "settings.json"))
    monkeypatch.setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", str(home / ".gemini" / "trustedFolders.json"))
    monkeypatch.setenv("HOOKWEAVE_CODEX_SYSTEM_DIR", str(tmp_path / "codex-system"))
    monkeypatch.setenv("COPILOT_HOME", str(home / ".copilot"))
    monkeypatch.setenv("QWEN_HOME", str(home / ".qwen"))
    monkeypatch.setenv("CLINE_DIR", str(home / ".cline"))
    monkeypatch.setenv("KIMI_CODE_HOME", str(home / ".kimi-code"))
    monkeypatch.setenv("OPENHARNESS_CONFIG_DIR", str(home / ".openharness"))
    monkeypatch.setenv("HERMES_HOME", str(home / ".hermes"))
    monkeypatch.setenv("QODER_CONFIG_DIR", str(home / ".qoder"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # the chain runner keeps its compiled code there
    for gate in ("GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_RESTRICTED_MODE", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE",
                 "CLAUDE_CODE_RESTRICTED", "CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG", "CLAUDE_CODE_PERSONAL_HOOKS_OFF",
                 "COPILOT_ALLOW_ALL", "HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE"):
        monkeypatch.delenv(gate, raising=False)  # variables that switch a host's hooks off or on
    monkeypatch.delenv("HOOKWEAVE_CODEX_BIN", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("HOOKWEAVE_DEBUG", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return home


@pytest.fixture(autouse=True)
def loose_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Latency budgets no busy test machine breaks: a python3 hook can take 200 ms here, and its
    over-budget warning would change outputs other tests compare whole. The latency tests pass
    ``--budget-ms`` or ask for ``shipped_budgets``."""
    monkeypatch.setattr(latency, "BUDGETS", {event: 60_000.0 for event in latency.BUDGETS})
    monkeypatch.setattr(latency, "OTHER", 60_000.0)


@pytest.fixture
def shipped_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(latency, "BUDGETS", dict(BUDGETS[0]))
    monkeypatch.setattr(latency, "OTHER", BUDGETS[1])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return tmp_path / "project"


@pytest.fixture
def home(isolated_home: Path) -> Path:
    return isolated_home


@pytest.fixture
def codex_home(home: Path) -> Path:
    """The user's Codex folder (``$CODEX_HOME``), created empty."""
    folder = home / ".codex"
    folder.mkdir()
    return folder


CLAUDE_DATA = Path(__file__).parent / "data" / "claude"


@pytest.fixture
def claude_settings(project: Path) -> Path:
    """The project's .claude/settings.json, full of operator entries (tests/data/claude)."""
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text((CLAUDE_DATA / "operator.settings.json").read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.fixture
def run():
    """Invoke the CLI in-process; returns the click Result (exit_code, stdout, stderr)."""
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def write_bundle(tmp_path: Path):
    """Write a manifest (and optional extra files) into a fresh bundle folder; returns the folder."""
    counter = {"n": 0}

    def make(manifest: str, **files: str) -> Path:
        counter["n"] += 1
        folder = tmp_path / f"bundle{counter['n']}"
        folder.mkdir()
        (folder / "hookweave.toml").write_text(manifest, encoding="utf-8")
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        return folder

    return make


# -- attacks (issue 5): fast in the default run, full-size under scripts/attack --------------------

FULL_ATTACK = os.environ.get("HOOKWEAVE_ATTACK") == "full"


def attack_size(fast: int, full: int) -> int:
    """How many cases, writers or kills an attack uses: ``fast`` in CI, ``full`` under scripts/attack."""
    return full if FULL_ATTACK else fast


def _attack_ledger(test: str) -> dict[str, str]:
    """Which run of scripts/attack this is and the key of the code ``test`` runs on (scripts/attack_ledger.py)."""
    keys_file = os.environ.get("HOOKWEAVE_ATTACK_KEYS")
    if not keys_file:
        return {}
    keys = json.loads(Path(keys_file).read_text(encoding="utf-8"))
    return {"test": test, "run": os.environ.get("HOOKWEAVE_ATTACK_RUN", ""), "key": keys.get(test, "")}


def _append_row(target: str, row: dict) -> None:
    with open(target, "a", encoding="utf-8") as out:  # one write of one line: workers share the file
        out.write(json.dumps(row) + "\n")


@pytest.fixture
def attack_report(request: pytest.FixtureRequest):
    """Record an attack's figures (cases, failures...) where scripts/attack collects them."""

    def report(attack: str, **figures: int) -> None:
        target = os.environ.get("HOOKWEAVE_ATTACK_REPORT")
        if target:
            _append_row(target, {"attack": attack, **figures, **_attack_ledger(request.node.nodeid)})

    return report


_ATTACK_OUTCOMES: dict[str, dict] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Under scripts/attack, each test's outcome and time with its code's key, so a stopped run resumes."""
    target = os.environ.get("HOOKWEAVE_ATTACK_RESULTS")
    if not target:
        return
    seen = _ATTACK_OUTCOMES.setdefault(report.nodeid, {"outcome": "passed", "seconds": 0.0})
    seen["seconds"] += report.duration
    if report.failed or (report.skipped and seen["outcome"] == "passed"):
        seen["outcome"] = "failed" if report.failed else "skipped"
    if report.when == "teardown":
        row = _ATTACK_OUTCOMES.pop(report.nodeid)
        _append_row(target, {**_attack_ledger(report.nodeid), **row, "seconds": round(row["seconds"], 1)})


def _hypothesis_profiles() -> None:
    from hypothesis import HealthCheck, settings

    relaxed = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
    settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=relaxed)
    settings.register_profile("attack", max_examples=2500, deadline=None, suppress_health_check=relaxed)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_hypothesis_profiles()


def _trust_the_project(host, project: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What an operator does once per project for hosts that gate on it; extra install flags."""
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")  # Gemini folder trust: tested in test_gemini
    monkeypatch.setenv("HERMES_ACCEPT_HOOKS", "1")  # Hermes's consent list: tested in test_hermes
    if host.name == "codex":  # Codex project trust: tested in test_codex
        config = Path(os.environ["CODEX_HOME"]) / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    if host.name == "copilot":  # Copilot folder trust: tested in test_copilot
        config = Path(os.environ["HOME"]) / ".copilot" / "config.json"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(json.dumps({"trustedFolders": [str(project)]}))
    return ["--trust"] if host.needs_trust else []


@pytest.fixture
def trust_project(monkeypatch: pytest.MonkeyPatch):
    """``trust_project(host, project)``: trust the project the way each gated host asks; extra install flags."""
    return lambda host, project: _trust_the_project(host, project, monkeypatch)
