"""The built-in hosts as the tests expect to see them, kept in one place: a new built-in host adds
its line here once (tests/test_description.py checks these agree with the registry) instead of
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
    "letta": "Letta Code",
    "openhands": "OpenHands",
    "openharness": "OpenHarness",
    "qwen": "Qwen Code",
    "windsurf": "Windsurf",
}
# The hosts with a local scope beside user and project.
LOCAL_SCOPE = frozenset({"claude", "letta"})
# The hosts with a user file only (OpenHarness 0.1.9 reads no project file).
USER_ONLY = frozenset({"openharness"})


def scopes(name: str) -> list[str]:
    """A built-in host's writable scopes, as ``hooks hosts`` lists them."""
    return ["user"] if name in USER_ONLY else ["user", "project", "local"] if name in LOCAL_SCOPE else ["user", "project"]

NAMES = sorted(BUILT_IN)
LISTED = ", ".join(NAMES)  # how an error lists the registered hosts
