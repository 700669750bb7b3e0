"""Fixtures for the tests that drive the real agent CLIs offline against a mock model server.

The agents come from scripts/install-hosts (npm, pinned, cached in .cache/hosts). Where a binary
is missing, its tests are skipped with a message saying how to get it. Every agent runs with the
test's temporary HOME; the only network traffic is to the mock server on 127.0.0.1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # mock_model and realhosts sit here (tests/ is no package)

from mock_model import MockModel  # noqa: E402
from realhosts import Probe  # noqa: E402


@pytest.fixture
def mock():
    with MockModel() as server:
        yield server


@pytest.fixture
def probe(tmp_path: Path) -> Probe:
    return Probe(tmp_path / "probe")
