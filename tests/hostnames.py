"""The built-in hosts as the tests expect to see them, kept in one place: a new built-in host adds
its line here once (tests/extending/test_description.py checks these agree with the registry) instead of
editing every test that prints the host list."""

from hookweave.core.contract.builtin import BUILT_IN

TITLES = {
    "antigravity": "Antigravity CLI",
    "claude": "Claude Code",
    "cline": "Cline",
    "codex": "Codex",
    "copilot": "Copilot CLI",
    "cursor": "Cursor",
    "factory": "Factory Droid",
    "gemini": "Gemini CLI",
    "hermes": "Hermes Agent",
    "kimi": "Kimi Code",
    "letta": "Letta Code",
    "openhands": "OpenHands",
    "openharness": "OpenHarness",
    "qoder": "Qoder CLI",
    "qwen": "Qwen Code",
    "windsurf": "Windsurf",
}
# The scopes each offers (``hooks hosts``): user and project, but where it says otherwise.
SCOPES = {name: ("user", "project") for name in TITLES} | {
    "claude": ("user", "project", "local", "managed"), "copilot": ("user", "project", "managed"), "letta": ("user", "project", "local"), "qoder": ("user", "project", "local"), "kimi": ("user",), "openharness": ("user",),
    "hermes": ("user",)}

NAMES = sorted(BUILT_IN)
LISTED = ", ".join(NAMES)  # how an error lists the registered hosts
