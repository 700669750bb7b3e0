"""verify asks each settings entry whose it is once per check that reads the file (issue 38): on a
file of 10,000 operator entries, that marker search was most of verify's own work, and it asked
five times per entry for the registrations alone (each event's classification, the copies twice,
the over-long commands, the strays). The cross-agent check asks once more, for the matchers.
Counted in a fresh ``python`` running ``hooks`` as the console does."""

from __future__ import annotations

import json

from tests.shipping.test_startup_imports import installed, probed  # noqa: F401 - the fixture

OPERATOR_GROUPS = 40

PROBE = """
import atexit, collections, json, sys
sys.argv = ["hooks", *json.loads(sys.argv[1])]
from hookweave.core.contract import shapes
asked = collections.Counter()
owner = shapes.NestedGroupsHost.owner
def counted(self, entry):
    if isinstance(entry, dict):
        asked[json.dumps(entry, sort_keys=True)] += 1
    return owner(self, entry)
shapes.NestedGroupsHost.owner = counted
atexit.register(lambda: open({out!r}, "w").write(json.dumps(asked)))
from hookweave.core.cli.entry import main
main()
"""


def test_verify_asks_each_entry_its_owner_once_per_check(installed, tmp_path):  # noqa: F811
    settings = installed / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    operator = [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"~/bin/check-{i}.sh"}]}
                for i in range(OPERATOR_GROUPS)]
    doc["hooks"]["PreToolUse"] = operator + doc["hooks"]["PreToolUse"]
    settings.write_text(json.dumps(doc, indent=2) + "\n")
    asked = probed(PROBE, installed, tmp_path / "asked.json", "verify", "--host", "claude")
    times = sorted(asked[json.dumps(group, sort_keys=True)] for group in operator)
    assert times == [2] * OPERATOR_GROUPS  # the registrations' checks, then the cross-agent check's matchers
