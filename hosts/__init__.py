"""Built-in host plugins, registered through the plugin hook exactly as entry-point plugins are.

Each is imported by name (``hookweave.core.contract.builtin``) only when a command needs that host.
"""
