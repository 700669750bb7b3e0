"""Layer "formats": text formats, pure. JSON/JSONC spans, splices and checks, TOML through
tomlkit, RFC 6902 diffs and hashes: ``str -> str`` and parse, no disk, no hosts.

May import: ``hookweave.core.errors`` and this package. Nothing here knows a host or a bundle.
"""
