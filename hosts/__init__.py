"""Built-in host plugins, registered through the plugin hook exactly as entry-point plugins are.

Each is imported only when a command needs that host (``core.plugins.HostRegistry``).
"""

BUILT_IN = {
    "claude": "hookweave.hosts.claude",
    "codex": "hookweave.hosts.codex",
    "cursor": "hookweave.hosts.cursor",
    "gemini": "hookweave.hosts.gemini",
    "copilot": "hookweave.hosts.copilot",
    "qwen": "hookweave.hosts.qwen",
    "factory": "hookweave.hosts.factory",
    "windsurf": "hookweave.hosts.windsurf",
    "antigravity": "hookweave.hosts.antigravity",
    "cline": "hookweave.hosts.cline",
}
DEFAULT_HOSTS = tuple(BUILT_IN.values())
