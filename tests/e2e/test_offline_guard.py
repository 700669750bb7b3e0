"""The guard that fails a real-agent test whose agent tried to reach anything but loopback."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from realhosts import off_loopback, run_agent

TRACE = """\
101 connect(7, {sa_family=AF_INET, sin_port=htons(41000), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
101 connect(8, {sa_family=AF_UNIX, sun_path="/run/some.sock"}, 110) = -1 ENOENT
102 connect(9, {sa_family=AF_INET6, sin6_port=htons(41000), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0
103 connect(19, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0
104 connect(4, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1
"""


def test_only_non_loopback_addresses_are_reported() -> None:
    assert off_loopback(TRACE) == ["10.255.255.53", "2606:4700::1"]
    assert off_loopback(TRACE.split("103")[0]) == []


@pytest.mark.skipif(not shutil.which("strace"), reason="the guard needs strace")
def test_a_program_that_reaches_off_loopback_fails_its_run(tmp_path: Path) -> None:
    """The trace run_agent takes (connect() only, under seccomp) still sees a child's connect."""
    (tmp_path / "runs").mkdir()
    reach = ("import socket, subprocess, sys\n"
             "if len(sys.argv) == 1:\n"
             "    sys.exit(subprocess.call([sys.executable, __file__, 'child']))\n"
             "s = socket.socket()\ns.setblocking(False)\ns.connect_ex(('10.255.255.1', 9))\n")
    (tmp_path / "reach.py").write_text(reach)
    with pytest.raises(AssertionError, match=r"tried to reach \['10.255.255.1'\]"):
        run_agent([sys.executable, str(tmp_path / "reach.py")], tmp_path / "runs", {})
