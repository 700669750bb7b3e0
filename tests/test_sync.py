"""The team's project file through the real CLI and the real git: add, sync, sync --check,
autoupdate, remove, with bare repositories over file:// standing in for a bundle's remote and two
clones with their own HOMEs standing in for two teammates (issue 32)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hookweave.core.cli.team  # noqa: F401 - main() loads it on demand; the tests call app directly
from hookweave.core.cli.app import app

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1"}
MANIFEST = """[bundle]
name = "guard"
version = "{version}"

[[hooks]]
id = "check-shell"
event = "pre_tool_use"
matcher = ["shell"]
command = ["sh", "{{bundle_dir}}/guard.sh"]
"""
OPERATOR = """{
  // not JSON: Claude reads JSON only, so this file is strict below
}
"""
OPERATOR_SETTINGS = """{
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}
        ]
    },
    "model": "opus"
}
"""


def git(*args: str, cwd: Path) -> str:
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def run(*args: str, cwd: Path | None = None):
    if cwd is not None:
        os.chdir(cwd)
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def remote(tmp_path: Path) -> tuple[str, Path]:
    """A bundle's repository with tag v1.0.0, pushed to a bare remote; returns (file:// URL, work tree)."""
    work = tmp_path / "guard-src"
    work.mkdir()
    git("init", "-q", "-b", "main", cwd=work)
    (work / "hookweave.toml").write_text(MANIFEST.format(version="1.0.0"))
    (work / "guard.sh").write_text("#!/bin/sh\nexit 0\n")
    (work / "guard.sh").chmod(0o755)
    git("add", "-A", cwd=work)
    git("commit", "-qm", "v1", cwd=work)
    git("tag", "v1.0.0", cwd=work)
    bare = tmp_path / "guard.git"
    git("clone", "-q", "--bare", str(work), str(bare), cwd=tmp_path)
    return f"file://{bare}", work


def release(work: Path, bare_url: str, tag: str, script: str) -> str:
    (work / "hookweave.toml").write_text(MANIFEST.format(version=tag.lstrip("v")))
    (work / "guard.sh").write_text(script)
    git("commit", "-qam", tag, cwd=work)
    git("tag", "-f", tag, cwd=work)
    git("push", "-q", "--force", bare_url.removeprefix("file://"), "main", f"refs/tags/{tag}", cwd=work)
    return git("rev-parse", "HEAD", cwd=work)


@pytest.fixture
def repo(project: Path) -> Path:
    git("init", "-q", "-b", "main", cwd=project)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(OPERATOR_SETTINGS)
    return project


def tree(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` but .git: bytes and mtime (ns)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if ".git" in path.relative_to(folder).parts or not path.is_file():
            continue
        out[str(path.relative_to(folder))] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


def mine(repo: Path) -> None:
    """A bundle of the repository's own, tools/mine."""
    (repo / "tools" / "mine").mkdir(parents=True)
    (repo / "tools" / "mine" / "hookweave.toml").write_text(
        '[bundle]\nname = "mine"\nversion = "1"\n\n[[hooks]]\nid = "x"\nevent = "stop"\ncommand = "true"\n')


def two_bundles(repo: Path, url: str, hosts: list[str]) -> None:
    """A project file with tools/mine and the remote's guard at v1.0.0."""
    mine(repo)
    (repo / ".hookweave.toml").write_text(
        f'hosts = {json.dumps(hosts)}\n\n[[bundles]]\nname = "mine"\nsource = "tools/mine"\n\n'
        f'[[bundles]]\nname = "guard"\nsource = "{url}"\nrev = "v1.0.0"\n')


def test_add_pins_vendors_and_installs_portable_hooks(repo: Path, remote) -> None:
    url, work = remote
    commit = git("rev-parse", "v1.0.0^{commit}", cwd=work)
    done = run("add", url, "--rev", "v1.0.0", "--host", "claude", "--host", "codex", cwd=repo)
    assert done.exit_code == 0, done.output
    text = (repo / ".hookweave.toml").read_text()
    assert f'source = "{url}"\nrev = "v1.0.0"\ncommit = "{commit}"\nhash = "sha256:' in text
    assert 'hosts = ["claude", "codex"]' in text
    vendored = repo / ".hookweave" / "bundles" / "guard"
    assert (vendored / "guard.sh").read_text() == "#!/bin/sh\nexit 0\n"
    assert os.access(vendored / "guard.sh", os.X_OK)
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    ours = settings["hooks"]["PreToolUse"][1]["hooks"][0]["command"]
    assert ours == 'sh "$CLAUDE_PROJECT_DIR"/.hookweave/bundles/guard/guard.sh # hookweave:guard/check-shell'
    for path in (repo / ".claude" / "settings.json", repo / ".codex" / "hooks.json"):
        assert str(repo) not in path.read_text() and str(repo.parent) not in path.read_text()  # no machine path
    # the operator's entries are all there, in their order
    assert settings["hooks"]["PreToolUse"][0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}
    assert settings["permissions"] == {"allow": ["Bash(ls:*)"]} and settings["model"] == "opus"
    before = tree(repo)
    again = run("sync", cwd=repo)
    assert again.exit_code == 0 and "in sync: nothing to write" in again.output
    assert tree(repo) == before  # bytes and mtimes


def test_a_second_clone_offline_checks_and_syncs_without_writing(repo: Path, remote, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    url, _ = remote
    assert run("add", url, "--rev", "v1.0.0", "--host", "claude", "--host", "codex", cwd=repo).exit_code == 0
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "hooks", cwd=repo)
    shutil.rmtree(url.removeprefix("file://"))  # the remote is gone
    other_home = tmp_path / "teammate-home"
    other_home.mkdir()
    for name, value in {"HOME": other_home, "CLAUDE_CONFIG_DIR": other_home / ".claude",
                        "CODEX_HOME": other_home / ".codex", "XDG_CACHE_HOME": other_home / ".cache"}.items():
        monkeypatch.setenv(name, str(value))
    clone = tmp_path / "clone"
    git("clone", "-q", str(repo), str(clone), cwd=tmp_path)
    before = tree(clone)
    check = run("sync", "--check", cwd=clone / ".claude")  # from a subfolder: the root is found
    assert check.exit_code == 0, check.output
    assert run("sync", cwd=clone).exit_code == 0
    assert tree(clone) == before
    assert not (other_home / ".codex").exists() and not (other_home / ".cache").exists()
    script = clone / ".hookweave" / "bundles" / "guard" / "guard.sh"
    script.write_text("#!/bin/sh\nexit 2\n")
    check = run("sync", "--check", cwd=clone)
    assert check.exit_code == 1
    assert "guard.sh differs from the pin (edited by hand)" in check.output
    refused = run("sync", cwd=clone)
    assert refused.exit_code == 1 and "guard.sh differs from the pin" in refused.output
    assert script.read_text() == "#!/bin/sh\nexit 2\n"  # nothing written


def test_autoupdate_moves_the_pin_and_shows_the_code(repo: Path, remote) -> None:
    url, work = remote
    assert run("add", url, "--rev", "v1.0.0", "--host", "claude", cwd=repo).exit_code == 0
    new_commit = release(work, url, "v1.1.0", "#!/bin/sh\necho checking >&2\nexit 0\n")
    dry = run("autoupdate", "--dry-run", cwd=repo)
    assert dry.exit_code == 0, dry.output
    assert "+echo checking >&2" in dry.output and "v1.0.0" in dry.output and "v1.1.0" in dry.output
    assert 'rev = "v1.0.0"' in (repo / ".hookweave.toml").read_text()
    done = run("autoupdate", cwd=repo)
    assert done.exit_code == 0, done.output
    assert "+echo checking >&2" in done.output
    text = (repo / ".hookweave.toml").read_text()
    assert f'rev = "v1.1.0"\ncommit = "{new_commit}"' in text
    assert "echo checking" in (repo / ".hookweave" / "bundles" / "guard" / "guard.sh").read_text()
    assert run("sync", "--check", cwd=repo).exit_code == 0
    assert "every bundle is at its newest pin" in run("autoupdate", cwd=repo).output


def test_a_moved_tag_is_refused_until_forced(repo: Path, remote) -> None:
    url, work = remote
    assert run("add", url, "--rev", "v1.0.0", "--host", "claude", cwd=repo).exit_code == 0
    shutil.rmtree(repo / ".hookweave" / "bundles")  # so sync must fetch again
    moved = release(work, url, "v1.0.0", "#!/bin/sh\nexit 2\n")
    before = tree(repo)
    refused = run("sync", cwd=repo)
    assert refused.exit_code == 1
    assert "tag v1.0.0" in refused.output and "moved" in refused.output
    assert tree(repo) == before
    assert run("sync", "--force", cwd=repo).exit_code == 0
    assert moved in (repo / ".hookweave.toml").read_text()


def test_remove_leaves_the_operator_file_byte_for_byte(repo: Path, remote) -> None:
    url, _ = remote
    assert run("add", url, "--rev", "v1.0.0", "--host", "claude", "--host", "codex", cwd=repo).exit_code == 0
    pf_before = (repo / ".hookweave.toml").read_text().split("\n[[bundles]]")[0]  # as add created it
    done = run("remove", "guard", cwd=repo)
    assert done.exit_code == 0, done.output
    assert (repo / ".claude" / "settings.json").read_text() == OPERATOR_SETTINGS
    assert not (repo / ".hookweave").exists() and not (repo / ".codex").exists()
    assert not (repo / ".claude" / "settings.hookweave.json").exists()
    assert (repo / ".hookweave.toml").read_text() == pf_before


def test_a_hand_installed_bundle_is_never_taken_out_by_sync(repo: Path) -> None:
    mine(repo)
    assert run("install", "tools/mine", "--host", "claude", cwd=repo).exit_code == 0
    installed = (repo / ".claude" / "settings.json").read_text()
    (repo / ".hookweave.toml").write_text('hosts = ["claude"]\n')
    assert run("sync", cwd=repo).exit_code == 0
    assert (repo / ".claude" / "settings.json").read_text() == installed


@pytest.mark.parametrize("text, said", [
    ('hosts = ["claude"]\n[[bundles]]\nname = "g"\nsorce = "tools/g"\n', "bundles[0].sorce: unknown key; did you mean 'source'?"),
    ('hosts = ["claud"]\n', "unknown host 'claud'; did you mean 'claude'?"),
    ('hosts = ["claude"\n', "invalid TOML"),
    ('hosts = ["claude"]\nscope = "projet"\n', "did you mean 'project'?"),
    ('hosts = ["claude"]\n[[bundles]]\nname = "g"\nsource = "../outside"\n', "outside the repository"),
    ('hosts = ["claude"]\n[[bundles]]\nname = "g"\nsource = "tools/g"\nrev = "v1"\n', "only a git source has a rev"),
    ('hosts = ["claude"]\n[[bundles]]\nname = "g"\nsource = "nosuchtemplate"\n', "no template 'nosuchtemplate'"),
    ('hosts = ["kimi"]\n[[bundles]]\nname = "g"\nsource = "example-guard"\n', "Kimi Code has no project scope"),
    ('hosts = ["claude"]\n[[bundles]]\nname = "g"\nsource = "file:///nonexistent/repo.git"\nrev = "v1"\n', "git says"),
])
def test_bad_project_files_are_one_line_and_write_nothing(repo: Path, text: str, said: str) -> None:
    (repo / ".hookweave.toml").write_text(text)
    before = tree(repo)
    done = run("sync", cwd=repo)
    assert done.exit_code == 2, done.output
    assert said in done.output and done.output.count("\n") == 1 and "Traceback" not in done.output
    assert tree(repo) == before


def test_a_missing_rev_and_a_failing_git_write_nothing(repo: Path, remote) -> None:
    url, _ = remote
    before = tree(repo)
    done = run("add", url, "--rev", "v9.9.9", "--host", "claude", cwd=repo)
    assert done.exit_code == 2 and "no tag, branch or commit 'v9.9.9'" in done.output
    assert tree(repo) == before


def test_a_failure_half_way_puts_every_file_back(repo: Path, remote, monkeypatch: pytest.MonkeyPatch) -> None:
    two_bundles(repo, remote[0], ["claude"])
    before = tree(repo)
    from hookweave.core.usecases import installer

    real, calls = installer.install, []

    def failing(*args, **kwargs):
        if not kwargs.get("dry_run"):
            calls.append(1)
            if len(calls) == 2:
                raise OSError(28, "No space left on device", str(repo / ".claude" / "settings.json"))
        return real(*args, **kwargs)

    monkeypatch.setattr(installer, "install", failing)
    with pytest.raises(OSError):
        run("sync", cwd=repo)
    assert {k: v[0] for k, v in tree(repo).items()} == {k: v[0] for k, v in before.items()}


def test_two_syncs_at_once_end_as_one(repo: Path, remote) -> None:
    url, _ = remote
    (repo / ".hookweave.toml").write_text(f'hosts = ["claude", "codex"]\n\n[[bundles]]\nname = "guard"\n'
                                          f'source = "{url}"\nrev = "v1.0.0"\n')
    hooks = shutil.which("hooks") or str(Path(os.sys.executable).parent / "hooks")
    procs = [subprocess.Popen([hooks, "sync"], cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert run("sync", "--check", cwd=repo).exit_code == 0
    settings = (repo / ".claude" / "settings.json").read_text()
    assert settings.count("hookweave:guard/check-shell") == 1


def test_sync_check_reads_nothing_in_home(repo: Path, remote, home: Path) -> None:
    url, _ = remote
    assert run("add", url, "--rev", "v1.0.0", "--host", "claude", "--host", "codex", "--host", "gemini",
               cwd=repo).exit_code == 0
    opened: list[str] = []

    def audit(event: str, args) -> None:
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.append(os.fsdecode(args[0]))

    import sys

    sys.addaudithook(audit)
    opened.clear()
    done = run("sync", "--check", cwd=repo)
    seen = list(opened)
    opened.append("done")  # the hook stays for the process: later opens are not this test's
    assert done.exit_code == 0, done.output
    assert [p for p in seen if p.startswith(str(home))] == []


def test_hooks_help_lists_the_team_commands() -> None:
    out = subprocess.run([str(Path(os.sys.executable).parent / "hooks"), "--help"], capture_output=True, text=True).stdout
    for command in ("add", "sync", "remove", "autoupdate"):
        assert f"  {command} " in out


def test_git_daemon_on_loopback_serves_a_bundle(repo: Path, remote, tmp_path: Path) -> None:
    """The git protocol through a real ``git daemon`` on 127.0.0.1 (skipped where git has none)."""
    import socket
    import time

    daemon = Path(subprocess.run(["git", "--exec-path"], capture_output=True, text=True).stdout.strip()) / "git-daemon"
    if not daemon.exists():
        pytest.skip("git daemon is not installed")
    url, _ = remote
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    served = subprocess.Popen([str(daemon), "--listen=127.0.0.1", f"--port={port}", "--export-all", "--reuseaddr",
                               f"--base-path={tmp_path}", str(tmp_path)], stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        done = run("add", f"git://127.0.0.1:{port}/guard.git", "--host", "claude", cwd=repo)
        assert done.exit_code == 0, done.output
        assert 'rev = "v1.0.0"' in (repo / ".hookweave.toml").read_text()  # no --rev: the newest tag
    finally:
        served.terminate()
        served.wait(timeout=10)


def test_env_and_position_overrides_and_a_typo_in_them(repo: Path) -> None:
    (repo / ".hookweave.toml").write_text(
        '# ours\nhosts = ["claude"]\n\n[[bundles]]\nname = "example-guard"\nsource = "example-guard"\n'
        'env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP = "50" }\nposition = { clean-tree = "first" }\n')
    done = run("sync", cwd=repo)
    assert done.exit_code == 0, done.output
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    assert settings["env"]["CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"] == "50"
    text = (repo / ".hookweave.toml").read_text()
    assert text.startswith('# ours\nhosts = ["claude"]\n\n[[bundles]]\nname = "example-guard"\nsource = "example-guard"\n'
                           'hash = "sha256:')
    (repo / ".hookweave.toml").write_text(text.replace("clean-tree", "clean-tre"))
    before = tree(repo)
    bad = run("sync", cwd=repo)
    assert bad.exit_code == 2 and "hook 'clean-tre' is not in its manifest; did you mean 'clean-tree'?" in bad.output
    assert tree(repo) == before


def test_a_bundle_moved_to_another_agent_leaves_the_first(repo: Path) -> None:
    (repo / ".hookweave.toml").write_text('hosts = ["claude", "gemini"]\n\n[[bundles]]\nname = "example-guard"\n'
                                          'source = "example-guard"\n')
    assert run("sync", cwd=repo).exit_code == 0
    assert "example-guard" in (repo / ".gemini" / "settings.json").read_text()
    text = (repo / ".hookweave.toml").read_text().replace('hosts = ["claude", "gemini"]', 'hosts = ["claude"]')
    (repo / ".hookweave.toml").write_text(text)
    assert run("sync", cwd=repo).exit_code == 0
    assert not (repo / ".gemini").exists()
    assert "example-guard" in (repo / ".claude" / "settings.json").read_text()
    assert run("sync", "--check", cwd=repo).exit_code == 0


@pytest.mark.parametrize("url, said", [
    ("git://127.0.0.1:1/guard.git", "git says"),  # nothing listens: the network is down
    ("https://127.0.0.1:1/guard.git", "git says"),  # an https remote that cannot be reached (auth or network)
    ("file:///nonexistent/guard.git", "git says"),
])
def test_git_that_fails_is_one_line_and_writes_nothing(repo: Path, url: str, said: str) -> None:
    before = tree(repo)
    done = run("add", url, "--rev", "v1.0.0", "--host", "claude", cwd=repo)
    assert done.exit_code == 2, done.output
    assert said in done.output and done.output.count("\n") == 1
    assert tree(repo) == before


@pytest.mark.attack
def test_attack_stop_signals_mid_sync(repo: Path, remote, attack_report) -> None:
    """SIGINT, SIGTERM or SIGHUP at a random moment of a sync whose every write is slowed down:
    afterwards the repository is either exactly as before (exit 128+N, no traceback) or in sync,
    never half. Fast: 4 stops; scripts/attack: 40."""
    import random
    import signal
    import time

    from tests.conftest import attack_size

    two_bundles(repo, remote[0], ["claude", "codex", "gemini"])
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "before", cwd=repo)
    before = {k: v[0] for k, v in tree(repo).items()}
    hooks = str(Path(os.sys.executable).parent / "hooks")
    rng = random.Random(32)
    cases = attack_size(4, 40)
    failures, put_back, completed = [], 0, 0
    for n in range(cases):
        signum = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
        delay = [0.9, 3.0, 2.0, 4.5][n] if n < 4 else rng.uniform(0.3, 5.5)
        proc = subprocess.Popen([hooks, "sync"], cwd=repo, env={**os.environ, "HOOKWEAVE_TEST_SLOW_WRITE": "0.2"},
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(delay)
        proc.send_signal(signum)
        out = proc.communicate(timeout=60)[0]
        after = {k: v[0] for k, v in tree(repo).items()}
        # A signal before hookweave's handlers are in place ends Python at once (-N): nothing was
        # written yet. One after the sync was written may end it while it reports: it is in sync.
        leftovers = [p for p in repo.rglob("*") if ".old-" in p.name or ".new-" in p.name]
        if leftovers:
            failures.append(f"{signal.Signals(signum).name} after {delay:.1f} s: left {leftovers}")
        elif after == before and proc.returncode in (128 + signum, -signum) and "Traceback" not in out:
            put_back += 1
        elif after != before and proc.returncode in (0, 128 + signum, -signum) and "Traceback" not in out \
                and run("sync", "--check", cwd=repo).exit_code == 0:
            completed += 1
        else:
            failures.append(f"{signal.Signals(signum).name} after {delay:.1f} s: exit {proc.returncode}, "
                            f"{'changed' if after != before else 'unchanged'}: {out}")
        git("reset", "-q", "--hard", cwd=repo)
        git("clean", "-qfdx", cwd=repo)
    attack_report("stop signals mid-sync", cases=cases, put_back=put_back, completed=completed, failures=len(failures))
    assert not failures, "\n".join(failures)
    assert put_back >= 1


COMMENTED = """# Our agents' hooks. Reviewed by @security.
hosts = [ "claude" ]   # Codex later

# --- the guard ---
[[bundles]]
name = "example-guard"   # shipped with hookweave
source = "example-guard"
position = { clean-tree = "last" }  # keep it last

# trailing words
"""


def test_add_and_remove_keep_every_comment_and_byte_of_the_project_file(repo: Path) -> None:
    (repo / ".hookweave.toml").write_text(COMMENTED)
    assert run("sync", cwd=repo).exit_code == 0
    pinned = (repo / ".hookweave.toml").read_text()
    digest = json.loads((repo / ".hookweave" / "synced.json").read_text())  # noqa: F841 - it parses
    start, _, rest = pinned.partition('source = "example-guard"\n')
    assert start + 'source = "example-guard"\n' == COMMENTED.split("position")[0]
    assert rest.startswith('hash = "sha256:') and rest.split("\n", 1)[1] == COMMENTED.split('source = "example-guard"\n')[1]
    (repo / "tools" / "fmt").mkdir(parents=True)
    (repo / "tools" / "fmt" / "hookweave.toml").write_text(
        '[bundle]\nname = "fmt"\nversion = "1"\n\n[[hooks]]\nid = "x"\nevent = "stop"\ncommand = "true"\n')
    assert run("add", "fmt", cwd=repo / "tools").exit_code == 0  # from a subfolder, a path from there
    added = (repo / ".hookweave.toml").read_text()
    assert added == pinned + '\n[[bundles]]\nname = "fmt"\nsource = "tools/fmt"\n'
    assert run("remove", "fmt", cwd=repo).exit_code == 0
    assert (repo / ".hookweave.toml").read_text() == pinned
    typo = run("remove", "example-gaurd", cwd=repo)
    assert typo.exit_code == 2 and typo.output.endswith("no bundle example-gaurd; did you mean example-guard?\n")


def test_hosts_all_in_the_project_file_writes_nothing_in_home(repo: Path, home: Path) -> None:
    before = sorted(str(p) for p in home.rglob("*"))
    (repo / ".hookweave.toml").write_text('hosts = ["all"]\n\n[[bundles]]\nname = "example-guard"\nsource = "example-guard"\n')
    done = run("sync", cwd=repo)
    assert done.exit_code == 0, done.output
    assert "skipped" in done.output and "kimi" in done.output  # agents with no project file: one note
    assert sorted(str(p) for p in home.rglob("*")) == before
    assert run("sync", "--check", cwd=repo).exit_code == 0
    for path in repo.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            assert str(repo) not in path.read_text(errors="replace"), path  # no machine path anywhere


def test_a_user_scope_entry_names_this_clone_and_sync_takes_it_out_again(repo: Path, home: Path) -> None:
    (repo / ".hookweave.toml").write_text('hosts = ["claude"]\n\n[[bundles]]\nname = "example-guard"\n'
                                          'source = "example-guard"\nscope = "user"\n')
    assert run("sync", cwd=repo).exit_code == 0
    user = home / ".claude" / "settings.json"
    assert f"{repo}/.hookweave/bundles/example-guard/guard.py" in user.read_text()
    assert not (repo / ".claude" / "settings.hookweave.json").exists()
    check = run("sync", "--check", cwd=repo)
    assert check.exit_code == 0 and "example-guard: at user scope, not checked" in check.output
    (repo / ".hookweave.toml").write_text('hosts = ["claude"]\n')
    assert run("sync", cwd=repo).exit_code == 0
    assert not user.exists() and not (repo / ".hookweave").exists()


def test_an_interactive_sync_shows_the_change_and_writes_nothing_when_declined(repo: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from hookweave.core.cli import prompts

    (repo / ".hookweave.toml").write_text('hosts = ["claude"]\n\n[[bundles]]\nname = "example-guard"\nsource = "example-guard"\n')
    before = tree(repo)
    asked = []
    monkeypatch.setattr(prompts, "interactive", lambda: True)
    monkeypatch.setattr(prompts, "confirm", lambda question: asked.append(question) or False)
    done = run("sync", cwd=repo)
    assert asked == ["Write these changes?"]
    assert "would be vendored .hookweave/bundles/example-guard" in done.output
    assert any(line.startswith("+") and "/.hookweave/bundles/example-guard/guard.py # hookweave:" in line
               for line in done.output.splitlines())
    assert "nothing written" in done.output
    assert tree(repo) == before
    assert run("sync", "--yes", cwd=repo).exit_code == 0 and asked == ["Write these changes?"]
