"""A third-party description with its own project variable: install writes ``{bundle_dir}`` through
that variable, and ``hooks check --installed`` sets it as the agent would, so a chain of a bundle
inside the project runs whole (issue 35, item 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PLUGIN = """from hookweave.core.contract.description import Description
MYAGENT = Description(name="myagent", title="My Agent", files={"project": "{project}/.myagent/settings.json"},
                      events={"pre_tool_use": "PreToolUse"}, tools={"shell": "Bash"}, protocol="claude",
                      project_variable="MYAGENT_PROJECT_DIR", order="file")
"""
MANIFEST = """[bundle]
name = "pair"
version = "1.0.0"
order = "chain"
[[hooks]]
id = "first"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "{bundle_dir}/log.sh", "first"]
[[hooks]]
id = "second"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "{bundle_dir}/log.sh", "second"]
"""


def _hooks(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from hookweave.core.cli.entry import main; main()", *args],
                          env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)


def test_check_installed_sets_a_plugins_own_project_variable_and_its_chain_runs(project: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    meta = site / "myagent-1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: myagent\nVersion: 1.0\n")
    (meta / "entry_points.txt").write_text("[hookweave]\nmyagent = myagent_plugin:MYAGENT\n")
    (site / "myagent_plugin.py").write_text(PLUGIN)
    bundle = project / "hooks" / "pair"
    bundle.mkdir(parents=True)
    (bundle / "hookweave.toml").write_text(MANIFEST)
    (bundle / "log.sh").write_text(f'echo "$1" >> {tmp_path}/chain.log\n')
    installed = _hooks(site, "install", "hooks/pair", "--host", "myagent")
    assert installed.returncode == 0, installed.stderr
    command = json.loads((project / ".myagent" / "settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert command["command"].startswith('[ -f "$MYAGENT_PROJECT_DIR"/.myagent/settings.hookweave-chain.sh ]')
    checked = _hooks(site, "check", "--installed", "--host", "myagent", "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    runs = json.loads(checked.stdout)["hooks"][0]["runs"]
    assert {r["action"] for r in runs} == {"allow"} and all(r["exit_code"] == 0 for r in runs)
    logged = (tmp_path / "chain.log").read_text().split()
    assert logged == ["first", "second"] * (len(logged) // 2) and len(logged) >= 2 * len(runs)  # (timing reruns)
