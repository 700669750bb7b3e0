"""``FieldTuple`` (formats/fieldtuple.py) behaves as the ``typing.NamedTuple`` it replaced: the same
class written both ways is checked side by side, value for value."""

from __future__ import annotations

import copy
import pickle
from typing import NamedTuple

import pytest

from hookweave.core.formats.fieldtuple import FieldTuple


class Hook(FieldTuple):
    """A hook."""

    id: str
    event: str
    timeout: int | None = None
    hosts: tuple = ()

    def label(self) -> str:
        return f"{self.id}@{self.event}"


class HookNT(NamedTuple):
    id: str
    event: str
    timeout: int | None = None
    hosts: tuple = ()


class Labelled(Hook):  # a subclass adding a method keeps its parent's fields
    def loud(self) -> str:
        return self.label().upper()


CALLS = [(("a", "b"), {}), (("a", "b", 5), {}), (("a",), {"event": "b", "hosts": ("x",)}),
         ((), {"id": "a", "event": "b", "timeout": 1, "hosts": ()}), (("a", "b", None, ("y",)), {})]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_field_tuple_is_the_named_tuple_it_replaced(args, kwargs):
    ours, theirs = Hook(*args, **kwargs), HookNT(*args, **kwargs)
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert isinstance(ours, tuple) and len(ours) == len(theirs)
    assert (ours.id, ours.event, ours.timeout, ours.hosts) == (theirs.id, theirs.event, theirs.timeout, theirs.hosts)
    assert repr(ours) == repr(theirs).replace("HookNT(", "Hook(")
    assert ours._asdict() == theirs._asdict()
    assert ours._replace(timeout=9) == theirs._replace(timeout=9) and type(ours._replace(timeout=9)) is Hook
    assert Hook._make(list(ours)) == ours and type(Hook._make(ours)) is Hook
    for again in (copy.copy(ours), copy.deepcopy(ours), pickle.loads(pickle.dumps(ours))):
        assert again == ours and type(again) is Hook
    id_, event, timeout, hosts = ours
    assert (id_, event, timeout, hosts) == tuple(theirs)
    assert ours.label() == f"{theirs.id}@{theirs.event}"


def test_the_class_describes_itself_as_a_named_tuple_does():
    assert Hook._fields == HookNT._fields == Hook.__match_args__
    assert Hook._field_defaults == HookNT._field_defaults
    assert Hook.__doc__ == "A hook." and Hook.__slots__ == ()
    with pytest.raises(AttributeError):
        Hook("a", "b").extra = 1  # no instance dict, as a named tuple
    with pytest.raises(AttributeError):
        Hook("a", "b").id = "c"  # fields are read only
    match Hook("a", "b", 3):
        case Hook(id_, "b", timeout):
            assert (id_, timeout) == ("a", 3)


def test_a_subclass_adding_methods_keeps_the_fields():
    value = Labelled("a", "b")
    assert Labelled._fields == Hook._fields and value.timeout is None and value.loud() == "A@B"
    assert value == Hook("a", "b") and repr(value) == "Labelled(id='a', event='b', timeout=None, hosts=())"


@pytest.mark.parametrize(("args", "kwargs"), [(("a",), {}), (("a", "b", 1, (), 2), {}), (("a", "b"), {"id": "c"}),
                                              (("a", "b"), {"colour": 1}), ((), {"event": "b"})])
def test_a_wrong_call_is_refused_as_the_named_tuple_refuses_it(args, kwargs):
    with pytest.raises(TypeError):
        HookNT(*args, **kwargs)
    with pytest.raises(TypeError):
        Hook(*args, **kwargs)


def test_replace_and_make_refuse_what_the_named_tuple_refuses():
    with pytest.raises(ValueError, match="colour"):
        Hook("a", "b")._replace(colour=1)
    with pytest.raises(TypeError):
        Hook._make(["a"])


def test_a_class_is_refused_where_named_tuple_refuses_it():
    with pytest.raises(TypeError, match="follows a field with one"):
        class Wrong(FieldTuple):
            a: int = 1
            b: int
    with pytest.raises(TypeError, match="underscore"):
        class Hidden(FieldTuple):
            _a: int
