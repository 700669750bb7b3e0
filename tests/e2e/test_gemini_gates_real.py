"""Issue 10, Gemini CLI 0.61.0 gates on the real binary: folder trust and hooksConfig.enabled.
Each case is its own home and project, run side by side (each gemini run takes seconds); in each,
verify's verdict must match what fired: our hook ran exactly when verify passed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from realhosts import Probe, agent_binary, run_agent
from test_runtime_real import GEMINI_IN_PROCESS

OFFLINE = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": False},
           "telemetry": {"enabled": False}, "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}
HOOKS = str(Path(sys.executable).parent / "hooks")


def _rules(rules: dict[str, str]) -> Callable[[Path, Path], dict]:
    def setup(home: Path, project: Path) -> dict:
        names = {"project": project, "parent": project.parent}
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(names[k]): v for k, v in rules.items()}))
        return {}
    return setup


def _user(settings: dict, project_settings: dict | None = None, env: dict | None = None, rules: dict | None = None):
    def setup(home: Path, project: Path) -> dict:
        user = home / ".gemini" / "settings.json"
        user.write_text(json.dumps({**json.loads(user.read_text()), **settings}))
        if project_settings is not None:
            (project / ".gemini").mkdir()
            (project / ".gemini" / "settings.json").write_text(json.dumps(project_settings))
        if rules is not None:
            _rules(rules)(home, project)
        return env or {}
    return setup


CASES = {  # name -> (setup, whether Gemini runs our hook)
    "untrusted folder: exit 55, nothing runs": (lambda home, project: {}, False),
    "TRUST_FOLDER on the project": (_rules({"project": "TRUST_FOLDER"}), True),
    "TRUST_FOLDER on its parent": (_rules({"parent": "TRUST_FOLDER"}), True),
    "TRUST_PARENT on the project": (_rules({"project": "TRUST_PARENT"}), True),
    "DO_NOT_TRUST on the project under a trusted parent": (_rules({"parent": "TRUST_FOLDER", "project": "DO_NOT_TRUST"}), False),
    "folder trust switched off in user settings": (_user({"security": {**OFFLINE["security"],
                                                                       "folderTrust": {"enabled": False}}}), True),
    "GEMINI_CLI_TRUST_WORKSPACE=true over DO_NOT_TRUST": (
        _user({}, env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}, rules={"project": "DO_NOT_TRUST"}), True),
    "project hooksConfig.enabled true over a user false": (
        _user({"hooksConfig": {"enabled": False}}, {"hooksConfig": {"enabled": True}}, rules={"project": "TRUST_FOLDER"}),
        True),
}


def _one(case: Path, setup, mock_url: str) -> tuple[int, str, list[str]]:
    """Install the probe at user scope, verify, run gemini: (verify's exit code, its output, hooks fired)."""
    home, project = case / "home", case / "work" / "project"
    (home / ".gemini").mkdir(parents=True)
    project.mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(OFFLINE))
    extra = setup(home, project)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "GEMINI_CLI_HOME": str(home), "LANG": "C.UTF-8",
           "NO_COLOR": "1", **extra}
    probe = Probe(case / "probe")

    def hooks(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([HOOKS, *args], cwd=project, env=env, capture_output=True, text=True, timeout=60)

    assert hooks("install", probe.bundle(), "--host", "gemini", "--scope", "user").returncode == 0
    verify = hooks("verify", "--host", "gemini")
    trusted = "the project folder is not trusted" not in verify.stdout
    argv = [str(agent_binary("gemini")), "-m", "gemini-2.5-flash", "--yolo", "-p", "run the echo"]
    run_agent(argv, project, {**env, "GEMINI_API_KEY": "dummy", "GOOGLE_GEMINI_BASE_URL": mock_url,
                                 **GEMINI_IN_PROCESS},
              returncode=0 if trusted else 55)
    return verify.returncode, verify.stdout, sorted({c["id"] for c in probe.calls()})


def test_gemini_trust_and_enabled_verdicts_match_what_fired(mock, tmp_path: Path) -> None:
    agent_binary("gemini")
    with ThreadPoolExecutor(max_workers=len(CASES)) as pool:
        futures = {name: pool.submit(_one, tmp_path / f"case{i}", setup, mock.url)
                   for i, (name, (setup, _)) in enumerate(CASES.items())}
    for name, (_, runs) in CASES.items():
        code, out, fired = futures[name].result()
        assert fired == (["probe-pre", "probe-start", "probe-stop"] if runs else []), name
        assert code == (0 if runs else 1), f"{name}:\n{out}"
