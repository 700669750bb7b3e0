"""Deprecated import path, kept for plugins written before the layers: use ``hookweave.core.model.findings``."""

from hookweave.core.model.findings import Finding  # noqa: F401
