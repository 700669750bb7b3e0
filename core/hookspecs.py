"""Deprecated import path, kept for plugins written before the layers: use ``hookweave.core.contract.hookspecs``."""

from hookweave.core.contract.hookspecs import PROJECT, hookimpl, hookspec, hookweave_register_hosts  # noqa: F401
