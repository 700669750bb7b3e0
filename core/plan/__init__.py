"""Layer "plan": pure decisions. A bundle resolved for one host, merged into one settings
file at its place and order, env policies, chains as one registration, portable paths, adoption.

May import: ``reading``, ``contract``, ``model``, ``formats``, ``files``, ``errors`` and ``standalone``
(to embed its sources). Hosts are reached through the registry, never imported.
"""
