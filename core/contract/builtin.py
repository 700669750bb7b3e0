"""The built-in host plugins, by name: modules of ``hookweave.hosts``, loaded by name as entry
points are (pytest's ``default_plugins``), each only when a command needs that host."""

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
    "letta": "hookweave.hosts.letta",
    "openhands": "hookweave.hosts.openhands",
    "kimi": "hookweave.hosts.kimi",
    "openharness": "hookweave.hosts.openharness",
    "hermes": "hookweave.hosts.hermes",
    "qoder": "hookweave.hosts.qoder",
}
