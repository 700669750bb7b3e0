"""Pure: ``FieldTuple``, a named tuple class built without compiling code as its module loads.

``typing.NamedTuple`` compiles a ``__new__`` for every class (``collections.namedtuple`` evals its
source) and checks each annotation: about 0.5 million instructions a class, and a no-op ``install``
loads twenty of them (about 4% of the command). A ``FieldTuple`` class is written the same way
(annotated fields, defaults after them, methods) and behaves as a named tuple does: a tuple of its
fields in order, compared, hashed and unpacked as one, with ``_fields``, ``_field_defaults``,
``_replace``, ``_asdict``, ``_make`` and the same ``repr``. Its one ``__new__`` is shared: given
every field by position it makes the tuple at once, else it places keywords and defaults.
Annotations are only read for their names, so postponed annotations cost nothing either.
"""

from __future__ import annotations

try:
    from collections import _tuplegetter  # the C field accessor collections.namedtuple uses
except ImportError:  # an interpreter without it: what collections.namedtuple falls back to
    from operator import itemgetter

    def _tuplegetter(index, doc):
        return property(itemgetter(index), doc=doc)


class _FieldTupleMeta(type):
    def __new__(mcls, name, bases, namespace):
        if namespace.get("__module__") == __name__ and name == "FieldTuple":
            return super().__new__(mcls, name, bases, namespace)
        if "__annotations__" not in namespace and any(isinstance(base, _FieldTupleMeta) for base in bases):
            return super().__new__(mcls, name, bases, namespace)  # a subclass adding methods only
        fields = tuple(namespace.get("__annotations__", {}))
        defaults = {}
        for index, field in enumerate(fields):
            if field.startswith("_"):
                raise TypeError(f"{name}: a field name cannot start with an underscore: {field!r}")
            if field in namespace:
                defaults[field] = namespace[field]
            elif defaults:
                raise TypeError(f"{name}: field {field} without a default follows a field with one")
            namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
        namespace.update(__slots__=(), _fields=fields, _field_defaults=defaults, __match_args__=fields)
        return super().__new__(mcls, name, bases, namespace)


class FieldTuple(tuple, metaclass=_FieldTupleMeta):
    """Subclass with annotated fields: ``class Point(FieldTuple): x: int; y: int = 0``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _field_defaults: dict = {}  # noqa: RUF012 - each class sets its own, read only

    def __new__(cls, *args, **kwargs):
        if kwargs or len(args) != len(cls._fields):
            args = _placed(cls, args, kwargs)
        return tuple.__new__(cls, args)

    @classmethod
    def _make(cls, iterable):
        values = tuple(iterable)
        if len(values) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(values)}")
        return tuple.__new__(cls, values)

    def _replace(self, **changes):
        values = tuple(changes.pop(field, value) for field, value in zip(self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return tuple.__new__(type(self), values)

    def _asdict(self) -> dict:
        return dict(zip(self._fields, self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={v!r}' for f, v in zip(self._fields, self))})"

    def __getnewargs__(self):  # copy and pickle make the object again from its values
        return tuple(self)


def _placed(cls, args: tuple, kwargs: dict) -> tuple:
    """The values in field order from positions, keywords and defaults, refused as a call would be."""
    fields = cls._fields
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}() takes {len(fields)} arguments but {len(args)} were given")
    values = list(args)
    for field in fields[len(args):]:
        if field in kwargs:
            values.append(kwargs.pop(field))
        elif field in cls._field_defaults:
            values.append(cls._field_defaults[field])
        else:
            raise TypeError(f"{cls.__name__}() missing required argument: {field!r}")
    for field in kwargs:
        raise TypeError(f"{cls.__name__}() got {'multiple values for' if field in fields else 'an unexpected keyword'}"
                        f" argument {field!r}")
    return tuple(values)
