"""hookweave.testing: the host contract suite, shipped for plugin authors (a pytest plugin).

A host plugin's tests subclass ``HostContract`` and name their hosts::

    from hookweave.testing import HostContract

    class TestMyAgent(HostContract):
        hosts = ["myagent"]

Each test then runs once per host and per operator file: golden round trips on files full of
foreign hooks (CRLF, a BOM, tab indentation, comments where the host allows them) that must come
back byte for byte, a reinstall that writes nothing, an edit that is reported and kept,
``hooks check`` answering for every hook, ``hooks adopt`` taking over a hand-written copy of a hook
in every writable scope, and a chained bundle that round-trips and, run as the agent runs it, lets
the first block win. The fixtures come from the ``pytest11`` entry point
``hookweave`` (``hookweave.testing.plugin``); they point HOME and every variable a described
host's paths name at the test's folder.
"""

__all__ = ["HostContract"]


def __getattr__(name: str):
    """``HostContract`` loads with pytest, which a plain install of hookweave does not bring."""
    if name == "HostContract":
        from hookweave.testing.contract import HostContract

        return HostContract
    raise AttributeError(f"module 'hookweave.testing' has no attribute {name!r}")
