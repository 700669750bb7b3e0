"""Layer "model": data and its validation. The manifest of a bundle, neutral names, the
record of what hookweave wrote, findings, the ownership marker, finding a bundle on disk.

May import: ``formats``, ``files``, ``errors``. Never a host, a plan or a command.
"""
