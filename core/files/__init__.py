"""Layer "files": the only code that touches the disk. Reads, locks, atomic compare-and-swap
writes, owners and modes, interrupts held during a write, and where settings live (``paths``).

May import: ``hookweave.core.errors`` and this package. Never a text format or a host.
"""
