"""Echo: an imaginary agent with Claude-shaped hooks in .echo/hooks.json, as a third party writes it."""

from pathlib import Path

from hookweave.core.files import paths
from hookweave.core.contract.hookspecs import hookimpl
from hookweave.core.contract.shapes import NestedGroupsHost


class EchoHost(NestedGroupsHost):
    name = "echo"
    title = "Echo Agent"
    events = {"pre_tool_use": "BeforeCall", "stop": "Done", "session_start": "Hello"}
    tools = {"shell": "sh"}
    project_ref = '"$ECHO_PROJECT"'
    execution = "Echo runs an event's hooks one after another in file order"

    def settings_path(self, scope: str, project: Path) -> Path:
        base = paths.home() if scope == "user" else project
        return base / ".echo" / "hooks.json"


@hookimpl
def hookweave_register_hosts(register):
    register(EchoHost)
