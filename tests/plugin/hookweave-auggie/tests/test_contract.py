"""Auggie CLI passes hookweave's host contract: this plugin's whole test suite."""

from hookweave.testing import HostContract


class TestAuggie(HostContract):
    hosts = ["auggie"]
