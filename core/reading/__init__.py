"""Layer "reading": a host's files read as the host reads them. Each scope's settings and
record, the other files its gates look at, and which folder a host takes as the project.

May import: ``contract``, ``model``, ``formats``, ``files``, ``errors``.
"""
