"""Deprecated import path, kept for plugins written before the layers: use
``hookweave.core.contract.host`` (``Host``) and ``hookweave.core.contract.shapes`` (the shapes)."""

from hookweave.core.contract.host import Host, kind_of  # noqa: F401
from hookweave.core.contract.shapes import (  # noqa: F401
    FlatHost,
    NestedGroupsHost,
    TopLevelEvents,
    every_entry,
    group_with,
)
