"""An operator's env value that install replaces comes back on uninstall in the file's own
spelling (``\\u`` escapes and all), not only as the same data: the bytes are the promise."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data" / "claude"
# The operator's whole settings file (the fixture every Claude write test uses), with two
# env values spelled with \\u escapes, and one plain.
OPERATOR = (DATA / "operator.settings.json").read_text(encoding="utf-8").replace(
    '"GREETING": "grüß dich ☕"', '"GREETING": "gr\\u00fc\\u00df dich \\u2615"'
).replace('"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "12"', '"CAP": "1\\u0030",\n        "PLAIN": "grüß"')
BUNDLE = (
    '[bundle]\nname = "envs"\nversion = "1"\n'
    '[env.GREETING]\nvalue = "hallo"\npolicy = "override"\n'
    '[env.CAP]\nvalue = "20"\npolicy = "at-least"\n'
    '[env.PLAIN]\nvalue = "x"\npolicy = "override"\n'
)


@pytest.fixture
def settings(project: Path) -> Path:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(OPERATOR, encoding="utf-8")
    os.chdir(project)
    return path


def test_uninstall_puts_back_the_operators_spelling(run, settings: Path, write_bundle) -> None:
    bundle = str(write_bundle(BUNDLE))
    assert run("install", bundle, "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR.replace('"gr\\u00fc\\u00df dich \\u2615"', '"hallo"').replace(
        '"1\\u0030"', '"20"').replace('"PLAIN": "grüß"', '"PLAIN": "x"')
    record = json.loads(settings.with_name("settings.hookweave.json").read_text(encoding="utf-8"))
    env = record["bundles"]["envs"]["env"]
    assert env["GREETING"]["prior"] == "grüß dich ☕" and env["GREETING"]["prior_text"] == '"gr\\u00fc\\u00df dich \\u2615"'
    assert env["CAP"]["prior"] == "10" and env["CAP"]["prior_text"] == '"1\\u0030"'
    assert "prior_text" not in env["PLAIN"]  # spelled as we write values: nothing to keep
    assert run("install", bundle, "--host", "claude").stdout.endswith("nothing written\n")  # the spelling stays recorded
    assert run("uninstall", "envs", "--host", "claude").exit_code == 0
    assert settings.read_text(encoding="utf-8") == OPERATOR


def test_a_policy_that_now_keeps_the_operators_value_puts_back_its_spelling(run, settings: Path, write_bundle) -> None:
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude").exit_code == 0
    kept = BUNDLE.replace('value = "20"\npolicy = "at-least"', 'value = "5"\npolicy = "at-least"').replace('version = "1"', 'version = "2"')
    assert run("install", str(write_bundle(kept)), "--host", "claude").exit_code == 0
    assert '"CAP": "1\\u0030"' in settings.read_text(encoding="utf-8")  # 10 is at least 5: the operator's, as written


@pytest.mark.parametrize("bad", ['"1\\u0031"', '11', '"10" ', None])
def test_a_recorded_spelling_that_is_not_the_prior_is_refused(run, settings: Path, write_bundle, bad) -> None:
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude").exit_code == 0
    record_path = settings.with_name("settings.hookweave.json")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["bundles"]["envs"]["env"]["CAP"]["prior_text"] = bad
    record_path.write_text(json.dumps(record), encoding="utf-8")
    before = settings.read_text(encoding="utf-8")
    result = run("uninstall", "envs", "--host", "claude")
    if bad is None:  # null: no spelling recorded, the value is written as we write values
        assert result.exit_code == 0
        return
    assert result.exit_code == 2
    assert "bundles.envs.env.CAP.prior_text: must be the JSON text of the prior string" in result.stderr
    assert settings.read_text(encoding="utf-8") == before
