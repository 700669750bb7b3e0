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


def _fake_python(tmp_path: Path, uv_available: bool) -> dict[str, str]:
    """A Python new enough for every host (python3.13 on PATH) whose ``-m venv P`` makes a pip, and
    whose ``-m pip install --target D uv==X`` puts a uv in D/bin (or fails, without ``uv_available``).
    The pip and the uv log their arguments and install the host's program into the venv."""
    fake = tmp_path / "bin"
    fake.mkdir()
    program = 'for p in oh hermes openhands; do printf "#!/bin/sh\\n" > "$BIN/$p"; chmod +x "$BIN/$p"; done\n'
    pip = f'#!/bin/sh\necho "pip $@" >> "$LOG"\nBIN=$(dirname "$0")\n{program}'
    uv = f'#!/bin/sh\necho "uv $@" >> "$LOG"\nBIN=$(dirname "$5")\n{program}'  # uv pip install -q --python V/bin/python SPEC
    get_uv = (f'mkdir -p "$8/bin" && cat > "$8/bin/uv" <<\'UV\'\n{uv}UV\nchmod +x "$8/bin/uv"; exit 0' if uv_available
              else 'exit 1')
    (fake / "python3.13").write_text(
        '#!/bin/sh\n[ "$1" = -c ] && exit 0\necho "python $@" >> "$LOG"\n'
        f'if [ "$2" = pip ] && [ "$3" = install ]; then {get_uv}; fi\n'  # -m pip install -q ... --target D uv==X
        '[ "$2" = pip ] && exit 1\n'  # pip config get: nothing set
        'venv=$3; [ "$3" = --without-pip ] && venv=$4; mkdir -p "$venv/bin"; [ "$3" = --without-pip ] && exit 0\n'
        f'cat > "$venv/bin/pip" <<\'PIP\'\n{pip}PIP\nchmod +x "$venv/bin/pip"\n')
    (fake / "python3.13").chmod(0o755)
    return {"PATH": f"{fake}:/usr/bin:/bin", "HOOKWEAVE_HOSTS_DIR": str(tmp_path / "hosts"), "HOME": str(tmp_path),
            "LOG": str(tmp_path / "install.log")}


def _python_specs() -> list[str]:
    return subprocess.run([str(REPO / "scripts" / "install-hosts"), "--spec", "hermes", "openharness"],
                          capture_output=True, text=True, check=True).stdout.split()[1::2]


def test_the_python_hosts_are_installed_by_the_pinned_uv_into_venvs_without_pip(tmp_path: Path) -> None:
    """pip resolved and unpacked OpenHarness with 36.8 s of CPU, uv with 3.3: the release extra's uv,
    got once by pip into the hosts' folder, installs each host into a venv made without pip."""
    env = _fake_python(tmp_path, uv_available=True)
    run = subprocess.run([str(REPO / "scripts" / "install-hosts"), "openharness", "hermes"], env=env,
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, "")
    pin = next(word.strip('",') for word in (REPO / "pyproject.toml").read_text().split() if word.startswith('"uv=='))
    hosts = tmp_path / "hosts"
    log = (tmp_path / "install.log").read_text().splitlines()
    assert log.count(f"python -m pip install -q --disable-pip-version-check --no-compile --target {hosts}/.uv {pin}") == 1
    assert sorted(line for line in log if line.startswith("uv ")) == sorted(
        f"uv pip install -q --python {hosts}/{host}/venv/bin/python {spec}"
        for host, spec in zip(["hermes", "openharness"], _python_specs()))
    assert sorted(line for line in log if "venv" in line and line.startswith("python")) == sorted(
        f"python -m venv --without-pip {hosts}/{host}/venv" for host in ("hermes", "openharness"))
    assert not [line for line in log if line.startswith("pip ")]
    assert (hosts / "openharness/venv/bin/oh").is_file() and (hosts / "hermes/venv/bin/hermes").is_file()
    again = subprocess.run([str(REPO / "scripts" / "install-hosts"), "openharness", "hermes"], env=env,
                           capture_output=True, text=True)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    assert (tmp_path / "install.log").read_text().splitlines() == log  # installed ones reused: no uv fetched


def test_without_uv_pip_installs_the_python_hosts_without_its_bytecode_pass(tmp_path: Path) -> None:
    """Where uv cannot be had, pip does it, without compiling every installed file (half of each
    install's CPU: OpenHarness 53 s -> 28 s), and the script says so in one line."""
    env = _fake_python(tmp_path, uv_available=False)
    run = subprocess.run([str(REPO / "scripts" / "install-hosts"), "openharness", "hermes"], env=env,
                         capture_output=True, text=True)
    pin = next(word.strip('",') for word in (REPO / "pyproject.toml").read_text().split() if word.startswith('"uv=='))
    assert (run.returncode, run.stderr) == (0, f"install-hosts: {pin} could not be installed; pip installs the "
                                               "Python hosts\n")
    log = (tmp_path / "install.log").read_text().splitlines()
    assert sorted(line for line in log if line.startswith("pip ")) == sorted(
        f"pip install -q --disable-pip-version-check --no-compile {spec}" for spec in _python_specs())
