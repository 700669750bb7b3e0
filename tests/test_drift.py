"""scripts/install-hosts and scripts/drift (issue 23): the pins are the versions the protocol's facts
were measured on, and the drift run the development page shows is a script that parses."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hookweave.core.standalone.verdicts import VERSIONS

REPO = Path(__file__).parent.parent


def test_every_pin_is_the_version_the_facts_name() -> None:
    out = subprocess.run([str(REPO / "scripts" / "install-hosts"), "--spec"], capture_output=True, text=True, check=True)
    pins = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert sorted(pins) == sorted(host for host, version in VERSIONS.items() if version != "docs only")
    for host, spec in pins.items():
        assert (spec.rsplit("==", 1)[1] if "==" in spec else spec.rsplit("@", 1)[1]) == VERSIONS[host], host


def test_the_drift_script_parses_and_the_docs_run_it() -> None:
    subprocess.run(["bash", "-n", str(REPO / "scripts" / "drift")], check=True)
    assert (REPO / "scripts" / "drift").stat().st_mode & 0o111
    for page in (REPO / "README.md", REPO / "docs" / "development.md"):
        assert "```sh\nscripts/drift\n```" in page.read_text(encoding="utf-8"), page


def test_a_new_pin_is_written_where_the_facts_are_stated() -> None:
    """Moving a pin (Codex 0.169.0 to 0.171.0, issue 34) without saying what ran on the new release
    leaves the facts pages naming a version the tests no longer drive."""
    facts = (REPO / "docs" / "HOST-FACTS.md").read_text(encoding="utf-8")
    pinned = {host: version for host, version in VERSIONS.items() if version != "docs only"}
    assert [host for host, version in pinned.items() if version not in facts] == []
    verify = (REPO / "docs" / "verify.md").read_text(encoding="utf-8")
    assert (f"Facts measured on Claude Code {VERSIONS['claude']}, Codex {VERSIONS['codex']} and Gemini CLI "
            f"{VERSIONS['gemini']} (tests/e2e)") in verify.replace("\n", " ")


def test_hosts_install_side_by_side_and_a_failure_is_the_scripts_status(tmp_path: Path) -> None:
    """Several installs at once (158 s one after another on a fresh clone): each host still gets its
    own prefix, and one failed install fails the script with its one line, the others installed."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "npm").write_text(
        "#!/bin/sh\n"  # `npm install --prefix P SPEC`: a program named after P's folder, except codex's failing
        'prefix= spec=; while [ $# -gt 0 ]; do case $1 in --prefix) prefix=$2; shift;; -*) ;; *) spec=$1;; esac; shift; done\n'
        'case $spec in @openai/codex@*) exit 1;; esac\n'
        'mkdir -p "$prefix/node_modules/.bin" && printf "#!/bin/sh\\n" > "$prefix/node_modules/.bin/$(basename "$prefix")"\n'
        'chmod +x "$prefix/node_modules/.bin/$(basename "$prefix")"\n'
    )
    (fake / "npm").chmod(0o755)
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOOKWEAVE_HOSTS_DIR": str(tmp_path / "hosts"), "HOME": str(tmp_path)}
    hosts = ["claude", "codex", "gemini", "copilot", "qwen", "cline"]
    run = subprocess.run([str(REPO / "scripts" / "install-hosts"), *hosts], env=env, capture_output=True, text=True)
    assert run.returncode == 1
    codex = subprocess.run([str(REPO / "scripts" / "install-hosts"), "--spec", "codex"], capture_output=True, text=True)
    assert run.stderr == f"install-hosts: npm install {codex.stdout.split()[1]} failed\n"
    installed = sorted(line.split(" into ")[1] for line in run.stdout.splitlines())
    assert installed == sorted(f"{tmp_path}/hosts/{host}" for host in hosts if host != "codex")
    again = subprocess.run([str(REPO / "scripts" / "install-hosts"), "claude", "qwen"], env=env, capture_output=True, text=True)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")  # installed ones are reused, said by nothing


def test_a_python_host_is_installed_without_pips_bytecode_pass(tmp_path: Path) -> None:
    """pip compiles every installed file unless told not to: half of a Python agent's install CPU
    (OpenHarness 53 s -> 28 s), for .pyc files the agent would otherwise write itself at first start."""
    fake = tmp_path / "bin"
    fake.mkdir()
    # A Python new enough for every host whose `-m venv P` makes a pip that logs its arguments and
    # installs the host's program.
    pip = '#!/bin/sh\necho "$@" >> "$PIP_LOG"\nfor p in oh hermes openhands; do printf "#!/bin/sh\\n" > "$(dirname "$0")/$p"; chmod +x "$(dirname "$0")/$p"; done\n'
    (fake / "python3.13").write_text(
        '#!/bin/sh\n[ "$1" = -c ] && exit 0\n'
        f'[ "$1" = -m ] && [ "$2" = venv ] && mkdir -p "$3/bin" && cat > "$3/bin/pip" <<\'PIP\'\n{pip}PIP\n'
        'chmod +x "$3/bin/pip"\n')
    (fake / "python3.13").chmod(0o755)
    log = tmp_path / "pip.log"
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOOKWEAVE_HOSTS_DIR": str(tmp_path / "hosts"), "HOME": str(tmp_path),
           "PIP_LOG": str(log)}
    run = subprocess.run([str(REPO / "scripts" / "install-hosts"), "openharness", "hermes"], env=env,
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, "")
    specs = subprocess.run([str(REPO / "scripts" / "install-hosts"), "--spec", "hermes", "openharness"],
                           capture_output=True, text=True, check=True).stdout.split()[1::2]
    assert sorted(log.read_text().splitlines()) == sorted(
        f"install -q --disable-pip-version-check --no-compile {spec}" for spec in specs)
