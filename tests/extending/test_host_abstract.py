"""``Host`` is a plain class (``core/contract/abstractness.py``), no longer an ``abc.ABC``: a
plugin's host class that leaves an abstract method unimplemented must still fail to be made with
the very ``TypeError`` it got before, and every other class behave as it did."""

from __future__ import annotations

import abc
import inspect
from pathlib import Path

import pytest

from hookweave.core.contract.admission import host_class_of
from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput

ABSTRACT = ("owner", "render", "settings_path")


class Reference(abc.ABC):
    """What ``Host`` was: the same abstract methods under ``ABCMeta``."""

    settings_path = Host.settings_path
    render = Host.render
    owner = Host.owner


def _error(base: type, namespace: dict) -> str:
    with pytest.raises(TypeError) as caught:
        type("Partial", (base,), dict(namespace))()
    return str(caught.value)


@pytest.mark.parametrize("given", [(), ("owner",), ("owner", "render"), ("settings_path",)])
def test_a_class_missing_abstract_methods_fails_as_under_abc(given: tuple[str, ...]) -> None:
    namespace = {name: (lambda self, *args: None) for name in given}
    message = _error(Host, namespace)
    assert message == _error(Reference, namespace)
    assert message.startswith("Can't instantiate abstract class Partial with abstract method")
    assert all((name in message) == (name not in given) for name in ABSTRACT)


def test_host_itself_is_abstract_and_a_full_class_is_not() -> None:
    assert Host.__abstractmethods__ == frozenset(ABSTRACT) and inspect.isabstract(Host)
    with pytest.raises(TypeError, match="Can't instantiate abstract class Host"):
        Host()
    full = type("Full", (Host,), {name: (lambda self, *args: None) for name in ABSTRACT} | {"name": "full"})
    assert not inspect.isabstract(full) and isinstance(full(), Host) and issubclass(full, Host)


def test_an_abstract_method_a_plugin_declares_is_kept_and_can_be_implemented() -> None:
    class Base(Host):
        def settings_path(self, scope: str, project: Path) -> Path:
            return project / "x.json"

        def render(self, hook, native_event, bundle):
            return {}

        def owner(self, entry):
            return None

        @abc.abstractmethod
        def extra(self) -> None:
            """A method of the plugin's own family of hosts."""

    with pytest.raises(TypeError, match="abstract method extra$"):
        Base()

    class Done(Base):
        def extra(self) -> None:
            return None

    assert isinstance(Done(), Host)


def test_a_host_mixed_with_another_abc_keeps_both_abstract_sets() -> None:
    class Sized(abc.ABC):
        @abc.abstractmethod
        def size(self) -> int: ...

    class Both(Host, Sized):
        def owner(self, entry):
            return None

    assert Both.__abstractmethods__ == {"render", "settings_path", "size"}
    assert _error(Both, {}) == _error(type("Partial", (Reference, Sized), {"owner": lambda self, e: None}), {})


def test_a_base_whose_init_subclass_skips_hosts_still_refuses_an_abstract_plugin() -> None:
    class Quiet(Host):
        name, title = "quiet", "Quiet"

        def __init_subclass__(cls, **kwargs) -> None:  # never calls Host's
            pass

    class Half(Quiet):
        def owner(self, entry):
            return None

    with pytest.raises(BadInput, match="cannot be created: TypeError: Can't instantiate abstract class Half with "
                                       "abstract methods render, settings_path"):
        host_class_of(Half)
