"""Deprecated import path, kept for plugins written before the layers: use ``hookweave.core.contract.shapes``."""

from hookweave.core.contract.shapes import (  # noqa: F401
    FlatHost,
    NestedGroupsHost,
    TopLevelEvents,
    every_entry,
    group_with,
)
