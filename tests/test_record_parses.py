"""A command parses each record text once (issue 38): a no-op install validated the same record 8 times
(the plan, its proof, the gates, the chain files, the cross-agent check), each a ``json.loads`` and
a full validation. Counted in a fresh ``python`` running ``hooks`` as the console does."""

from __future__ import annotations

import pytest

from tests.shipping.test_startup_imports import installed, probed  # noqa: F401 - the fixture

PROBE = """
import atexit, json, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
from hookweave.core.model import record
texts = []
read = record.read_record
def counted(data):
    texts.append(json.dumps(data, sort_keys=True))
    return read(data)
record.read_record = counted
atexit.register(lambda: open({out!r}, "w").write(json.dumps(texts)))
from hookweave.core.cli.entry import main
main()
"""


@pytest.mark.parametrize("argv", [["install", "example-guard", "--host", "claude"], ["verify", "--host", "claude"],
                                  ["status"]])
def test_each_record_is_parsed_once_per_command(installed, tmp_path, argv):  # noqa: F811
    texts = probed(PROBE, installed, tmp_path / "parses.json", *argv)
    assert texts  # the probe saw the record read
    assert len(texts) == len(set(texts)), f"{len(texts)} parses of {len(set(texts))} records"
