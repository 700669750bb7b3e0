"""What ``abc.ABC`` gave ``Host``, without its metaclass: a host class that leaves one of the
abstract methods unimplemented cannot be made, and says so with Python's own ``TypeError``
("Can't instantiate abstract class ... with abstract methods ...").

``ABCMeta`` made every host class through ``abc``'s class set-up and sent every ``isinstance`` and
``issubclass`` against ``Host`` through its registry caches. The refusal itself is the
interpreter's: a class whose ``__abstractmethods__`` is not empty is refused by ``object.__new__``,
whichever its metaclass; the set is computed as ``ABCMeta`` computes it (``abc.update_abstractmethods``:
the class's own abstract methods, and its bases' that it leaves abstract).
"""

from __future__ import annotations

import abc


def mark(cls: type) -> type:
    """Set ``cls.__abstractmethods__`` (empty: it can be made); returns ``cls``, so a class decorator too."""
    if "__abstractmethods__" not in cls.__dict__:
        cls.__abstractmethods__ = frozenset()  # update_abstractmethods passes over a class without one
    return abc.update_abstractmethods(cls)


def marked(cls: type) -> bool:
    """Whether ``mark`` ran for ``cls`` (a subclass's ``__init_subclass__`` that does not call its
    base's skips it: the registry marks such a class itself)."""
    return "__abstractmethods__" in cls.__dict__
