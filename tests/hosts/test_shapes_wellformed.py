"""``NestedGroupsHost.check_document`` asks a whole event's groups at once (``_well_formed``) and
leaves to its loop only the events that loop must judge: a pass is a pass of the loop's too."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookweave.core.contract import registry as plugins
from hookweave.core.contract.shapes import NestedGroupsHost
from hookweave.core.errors import BadInput

NESTED = [h for h in plugins.registry().resolve(["all"]) if isinstance(h, NestedGroupsHost)]
HANDLERS = st.sampled_from([{"type": "command", "command": "x"}, {"command": "x"}, {"type": "command"},
                            {"type": "command", "command": 7}, {"type": "prompt", "prompt": "p"}, {"type": "prompt"},
                            {"type": None, "command": "x"}, {"type": "command", "command": None}, "x", 3, None, [],
                            {"type": "command", "command": "x # hookweave:b/h", "timeout": 5}])
GROUPS = st.one_of(st.builds(lambda hs, m: {"matcher": m, "hooks": hs}, st.lists(HANDLERS, max_size=3),
                             st.sampled_from(["Bash", "", None])),
                   st.sampled_from([{}, {"hooks": None}, {"hooks": {}}, {"matcher": "x"}, {"type": "command", "command": "y"},
                                    [], "g", 0]))


def _loop_says(host: NestedGroupsHost, doc: dict) -> str | None:
    """What the loop alone says of ``doc``: the error, or ``None``."""
    try:
        _without_fast_path(host, doc)
    except BadInput as exc:
        return str(exc)
    return None


def _without_fast_path(host: NestedGroupsHost, doc: dict) -> None:
    host._well_formed = lambda groups: False  # an instance attribute: this host only, this test only
    try:
        host.check_document(doc, "f.json")
    finally:
        del host._well_formed


@pytest.mark.parametrize("host", NESTED, ids=lambda h: h.name)
@settings(max_examples=60, deadline=None)
@given(groups=st.lists(GROUPS, max_size=4))
def test_the_fast_pass_says_what_the_loop_says(host, groups):
    event = sorted(host.native_events)[0]
    doc = json.loads(json.dumps({host.hooks_key: {event: groups}}))
    loop = _loop_says(host, doc)
    if host._well_formed(doc[host.hooks_key][event]):
        assert loop is None, groups
    try:
        host.check_document(doc, "f.json")
    except BadInput as exc:
        assert str(exc) == loop
    else:
        assert loop is None


EDGES = [[], [{"hooks": []}], [{"hooks": [{"command": "x"}]}], [{"hooks": [{"type": "command"}]}],
         [{"hooks": [{"type": "command", "command": 7}]}], [{"hooks": [{"type": "prompt"}]}], [{"matcher": "x"}],
         [{"hooks": None}], [{"hooks": ["x"]}], [{"type": "command", "command": "y"}], ["g"],
         [{"hooks": [{"type": "command", "command": "x"}]}, {"hooks": [{"command": "x"}]}]]


@pytest.mark.parametrize("host", NESTED, ids=lambda h: h.name)
@pytest.mark.parametrize("groups", EDGES, ids=lambda g: json.dumps(g))
def test_the_fast_pass_says_what_the_loop_says_on_edges(host, groups):
    test_the_fast_pass_says_what_the_loop_says.hypothesis.inner_test(host, groups)


def test_a_big_well_formed_event_takes_the_fast_pass():
    host = next(h for h in NESTED if h.name == "claude")
    groups = [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"~/bin/check-{i}.sh", "timeout": 5}]}
              for i in range(1000)] + [{"hooks": [{"type": "prompt", "prompt": "p"}]}]
    assert host._well_formed(groups)
    assert not host._well_formed([*groups, {"matcher": "Bash"}])
    assert not host._well_formed([*groups, {"hooks": [{"type": "command"}]}])
