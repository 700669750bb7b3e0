"""Built-in host plugins, registered by module name exactly as entry-point plugins are."""

DEFAULT_HOSTS = (
    "hookweave.hosts.claude",
    "hookweave.hosts.codex",
    "hookweave.hosts.cursor",
    "hookweave.hosts.gemini",
)
