"""Attack (issue 8): files that are not plain, and owners and links that must survive a write.

Non-regular files: at every path hookweave reads or writes (each host's settings per scope and
their records, Codex ``config.toml`` and ``hooks.json``, managed files and drop-ins, Gemini system
settings and ``trustedFolders.json``) a FIFO, a socket, a link to ``/dev/zero`` or ``/dev/null``, a
folder, a dangling link or a link loop is put (after a first install, so uninstall has work to
do), and install, uninstall, verify and status run under a deadline; the same things also stand where a settings folder
or the managed drop-in folder should be. Invariants: no hang, no
traceback, at most one line on stderr; a command that must touch that path exits 2 naming it;
every command that does not exit 0, and every verify and status, leaves every byte, name, mode
and owner in the tree as it was.

Owners and links: a settings file with a random owner, group, mode (set-id bits too), link count,
``user.*`` extended attribute, reached directly or through a symlink into a dotfiles folder, is
installed into and uninstalled from, with and without HOOKWEAVE_WRITE_IN_PLACE.
Invariants: a file with other names is refused (exit 2, nothing changed) or, in place, rewritten
on the same inode so every name sees it; otherwise owner, group and mode survive, the record takes
the settings file's owner, group and mode, and uninstall gives back the exact bytes.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import stat
from pathlib import Path

import pytest

from hookweave.core.files.paths import display
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
KINDS = ("fifo", "socket", "/dev/zero", "/dev/null", "folder", "dangling link", "link loop")
OPS = ("install", "uninstall", "verify", "status")


def _world(root: Path, monkeypatch) -> tuple[Path, Path]:
    """A fresh home, project and system folders under ``root``, with every host variable at them."""
    home, project = root / "home", root / "project"
    home.mkdir(parents=True)
    project.mkdir()
    for variable, value in {
        "HOME": home, "CLAUDE_CONFIG_DIR": home / ".claude", "CODEX_HOME": home / ".codex", "GEMINI_CLI_HOME": home,
        "HOOKWEAVE_CLAUDE_MANAGED_DIR": root / "managed", "HOOKWEAVE_CURSOR_MANAGED_DIR": root / "cursor-managed",
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": root / "gemini-system" / "system-defaults.json",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": root / "gemini-system" / "settings.json",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH": home / ".gemini" / "trustedFolders.json",
    }.items():
        monkeypatch.setenv(variable, str(value))
    monkeypatch.chdir(project)
    return home, project


def _targets(root: Path) -> list[tuple[str, str | None, str, Path]]:
    """``(host, scope it belongs to or None, label, path)`` for every file hookweave reads or writes."""
    home, project = root / "home", root / "project"
    out = []
    for host, folders in {"claude": {"user": home / ".claude", "project": project / ".claude"},
                          "gemini": {"user": home / ".gemini", "project": project / ".gemini"},
                          "cursor": {"user": home / ".cursor", "project": project / ".cursor"},
                          "codex": {"user": home / ".codex", "project": project / ".codex"}}.items():
        stem = {"claude": "settings", "gemini": "settings"}.get(host, "hooks")
        for scope, folder in folders.items():
            out += [(host, scope, f"{scope} settings", folder / f"{stem}.json"),
                    (host, scope, f"{scope} record", folder / f"{stem}.hookweave.json"),
                    (host, scope, f"{scope} folder", folder)]
    out += [("claude", "local", "local settings", project / ".claude" / "settings.local.json"),
            ("claude", "local", "local record", project / ".claude" / "settings.local.hookweave.json"),
            ("claude", None, "managed", root / "managed" / "managed-settings.json"),
            ("claude", None, "managed drop-in", root / "managed" / "managed-settings.d" / "10-extra.json"),
            ("claude", None, "managed drop-in folder", root / "managed" / "managed-settings.d"),
            ("codex", None, "user config.toml", home / ".codex" / "config.toml"),
            ("codex", None, "project config.toml", project / ".codex" / "config.toml"),
            ("gemini", None, "system defaults", root / "gemini-system" / "system-defaults.json"),
            ("gemini", None, "system settings", root / "gemini-system" / "settings.json"),
            ("gemini", None, "trustedFolders", home / ".gemini" / "trustedFolders.json"),
            ("cursor", None, "managed", root / "cursor-managed" / "hooks.json")]
    return out


def _put(path: Path, kind: str) -> None:
    """Replace whatever is at ``path`` by a thing of ``kind``."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":  # bound by its short name: a full temp path can pass the 108-byte limit
        here = os.getcwd()
        os.chdir(path.parent)
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(path.name)
        finally:
            os.chdir(here)
    elif kind in ("/dev/zero", "/dev/null"):
        path.symlink_to(kind)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling link":
        path.symlink_to(path.name + ".gone")
    else:
        path.symlink_to(path.name)


def _tree(root: Path) -> dict[str, tuple]:
    """Every name under ``root``: kind, owner, mode, and the bytes of regular files (FIFOs unread)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            body = None
            if stat.S_ISREG(info.st_mode):
                body = Path(path).read_bytes()
            elif stat.S_ISLNK(info.st_mode):
                body = os.readlink(path)
            out[os.path.relpath(path, root)] = (stat.S_IFMT(info.st_mode), info.st_uid, info.st_gid,
                                                stat.S_IMODE(info.st_mode), body)
    return out


class Hang(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: float):
    """A command that blocks (a FIFO opened for reading) is a failure here, not a stuck suite."""
    def expire(signum, frame):
        raise Hang()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _args(op: str, host: str, scope: str) -> list[str]:
    if op == "install":
        return ["install", BUNDLE, "--host", host, "--scope", scope] + (["--trust"] if host == "codex" else [])
    if op == "uninstall":
        return ["uninstall", "guard", "--host", host, "--scope", scope]
    return [op, "--host", host]


def _must_refuse(op: str, host: str, scope: str, owner_scope: str | None, label: str, kind: str) -> bool:
    """Whether ``op`` has to touch the path: its scope's settings, record or folder, or Codex's trust
    file. (A dangling link where the folder should be is followed: install makes its target.)"""
    if label.endswith("folder"):
        return op in ("install", "uninstall") and owner_scope == scope and kind != "dangling link"
    if op not in ("install", "uninstall"):
        return op == "status" and owner_scope is not None and "record" in label
    return owner_scope == scope or (host == "codex" and label == "user config.toml")


def test_non_regular_files_are_refused_in_one_line_without_a_hang(tmp_path: Path, monkeypatch, run, attack_report) -> None:
    rng = random.Random(os.environ.get("HOOKWEAVE_ATTACK_SEED", "8"))
    pairs = [(t, kind) for t, (_, _, label, _) in enumerate(_targets(tmp_path)) for kind in KINDS
             if not (kind == "folder" and label.endswith("folder"))]
    cases = [(t, kind, op) for t, kind in pairs for op in OPS]
    if not os.environ.get("HOOKWEAVE_ATTACK") == "full":  # fast: every (path, kind) once, with a random command
        cases = [(t, kind, rng.choice(OPS)) for t, kind in pairs]
        cases = rng.sample(cases, min(len(cases), attack_size(200, len(cases))))
    failures, refused, hangs, found = [], 0, 0, 0
    for n, (index, kind, op) in enumerate(cases):
        root = tmp_path / f"case{n}"
        _world(root, monkeypatch)
        host, owner_scope, label, path = _targets(root)[index]
        scope = owner_scope or rng.choice(["user", "project"])
        assert run(*_args("install", host, scope)).exit_code == 0
        _put(path, kind)
        before = _tree(root)
        try:
            with _deadline(10):
                result = run(*_args(op, host, scope))
        except Hang:
            hangs += 1
            failures.append((label, kind, op, "hang"))
            continue
        err = result.stderr
        problem = None
        if "Traceback" in err or err.count("\n") > 1:
            problem = f"not one line: {err!r}"
        elif _must_refuse(op, host, scope, owner_scope, label, kind):
            if result.exit_code != 2 or display(path) not in err:
                problem = f"exit {result.exit_code}, {err!r}"
        elif result.exit_code not in (0, 1, 2):
            problem = f"exit {result.exit_code}"
        if problem is None and (result.exit_code != 0 or op in ("verify", "status")) and _tree(root) != before:
            problem = "bytes changed"
        refused += result.exit_code == 2
        found += op == "verify" and result.exit_code == 1
        if problem:
            failures.append((label, host, kind, op, problem))
    attack_report("non-regular files", cases=len(cases), refused=refused, verify_findings=found, hangs=hangs,
                  failures=len(failures))
    assert failures == [], "\n".join(map(str, failures))


OWNERS = (0, 4321, 65534)


@pytest.mark.parametrize("host", ["claude", "gemini", "codex", "cursor"])
def test_owner_mode_and_links_survive_install_and_uninstall(host, tmp_path: Path, monkeypatch, run, attack_report) -> None:
    rng = random.Random(f"{os.environ.get('HOOKWEAVE_ATTACK_SEED', '8')}-{host}")
    cases = attack_size(40, 400)
    settings_name = {"claude": ".claude/settings.json", "gemini": ".gemini/settings.json"}.get(host, f".{host}/hooks.json")
    operator = (DATA / host / "operator.settings.json").read_bytes()
    failures = []
    for n in range(cases):
        _, project = _world(tmp_path / f"case{n}", monkeypatch)
        settings = project / settings_name
        settings.parent.mkdir()
        via_link = rng.random() < 0.3  # the settings file is a symlink into a dotfiles folder
        if via_link:
            real_file = tmp_path / f"case{n}" / "dotfiles" / "settings.json"
            real_file.parent.mkdir()
            real_file.write_bytes(operator)
            settings.symlink_to(real_file)
            settings = real_file  # owner, mode and links are the real file's; the link must stay a link
        else:
            settings.write_bytes(operator)
        tagged = rng.random() < 0.5
        if tagged:
            os.setxattr(settings, "user.backup-tag", b"keep me %d" % n)
        uid, gid = rng.choice(OWNERS), rng.choice(OWNERS)
        mode = rng.choice([0o600, 0o640, 0o644, 0o660, 0o664, 0o2644, 0o4700, 0o755])
        links = rng.choice([1, 1, 2, 3])
        in_place = rng.random() < 0.5
        os.chown(settings, uid, gid)
        settings.chmod(mode)
        others = [tmp_path / f"case{n}" / f"dotfiles-{i}.json" for i in range(links - 1)]
        for other in others:
            os.link(settings, other)
        monkeypatch.setenv("HOOKWEAVE_WRITE_IN_PLACE", "1") if in_place else monkeypatch.delenv("HOOKWEAVE_WRITE_IN_PLACE", raising=False)
        inode = settings.stat().st_ino
        before = _tree(project), _tree(settings.parent)
        xattrs = {name: os.getxattr(settings, name) for name in os.listxattr(settings)}
        trust = ["--trust"] if host == "codex" else []
        result = run("install", BUNDLE, "--host", host, *trust)
        what = (uid, gid, oct(mode), links, in_place, via_link, tagged)
        if links > 1 and not in_place:
            if result.exit_code != 2 or "hard links" not in result.stderr or (_tree(project), _tree(settings.parent)) != before:
                failures.append((what, "not refused", result.exit_code, result.stderr))
            continue
        if result.exit_code != 0:
            failures.append((what, "install failed", result.stderr))
            continue
        record = (project / settings_name).with_name(Path(settings_name).name.replace(".json", ".hookweave.json"))
        if via_link and not (project / settings_name).is_symlink():
            failures.append((what, "the symlink was replaced by a file"))
        if {name: os.getxattr(settings, name) for name in os.listxattr(settings)} != xattrs:
            failures.append((what, "extended attributes lost"))
        for path in (settings, record):
            info = path.stat()
            if (info.st_uid, info.st_gid) != (uid, gid) or stat.S_IMODE(info.st_mode) != (mode if path == settings else mode & 0o777):
                failures.append((what, "owner or mode lost", path.name, info.st_uid, info.st_gid, oct(info.st_mode)))
        if any(other.read_bytes() != settings.read_bytes() for other in others) or (others and settings.stat().st_ino != inode):
            failures.append((what, "links split"))
        if run("uninstall", "guard", "--host", host).exit_code != 0 or (_tree(project), _tree(settings.parent)) != before:
            failures.append((what, "uninstall did not give everything back"))
    attack_report(f"owners and links ({host})", cases=cases, failures=len(failures))
    assert failures == [], failures[:5]
