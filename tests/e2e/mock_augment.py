"""A mock of Augment's API on 127.0.0.1, for driving the real Auggie CLI offline (HOST-FACTS.md,
"Auggie CLI 0.36.0"; Auggie logs in with ``AUGMENT_SESSION_AUTH`` naming this server as its tenant).

What Auggie 0.36.0 calls in a ``--print`` run, measured: ``get-models`` (whose ``feature_flags``
carry ``enable_hooks``: without it Auggie runs no hook), ``settings/get-mcp-user-configs``,
``settings/get-mcp-tenant-configs``, ``agents/list-remote-tools`` (it wants a ``tools`` list) and
``chat-stream``; on trouble ``report-error``. Everything but these answers ``{}``.

``chat-stream`` answers one JSON object a line. Stateless, like mock_model.py: a request that holds
no tool result yet gets one ``launch-process`` call per command in ``commands`` (all in one reply);
a request with a tool result gets a final text, ending the turn.
"""

from __future__ import annotations

import json
from typing import Any

from mock_model import DONE, SHELL, MockModel, _Handler

SHELL_TOOL = "launch-process"


class MockAugment(MockModel):
    def __init__(self) -> None:
        super().__init__()
        self.flags: dict[str, Any] = {"enable_hooks": True}  # get-models' feature_flags

    @staticmethod
    def _handler() -> type[_Handler]:
        return _AugmentHandler

    @property
    def session(self) -> str:
        """What ``AUGMENT_SESSION_AUTH`` holds to make this server Auggie's tenant."""
        return json.dumps({"accessToken": "mock-token", "tenantURL": f"{self.url}/", "scopes": ["email"]})

    def chats(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["path"] == "/chat-stream"]

    def tool_results(self) -> dict[str, dict[str, Any]]:
        """What the model was told about each shell call of the first reply, by the call's command."""
        calls = {f"tu_e2e{i}": c for i, c in enumerate(self.commands)}
        results = [n["tool_result_node"] for chat in self.chats() for n in chat.get("nodes") or [] if n.get("type") == 1]
        return {calls[r["tool_use_id"]]: r for r in results if r["tool_use_id"] in calls}


class _AugmentHandler(_Handler):
    mock: MockAugment

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        self.mock.requests.append({"path": path, "body": body})
        if path == "/get-models":
            self._json({"default_model": "mock", "models": [{"name": "mock", "suggested_prefix_char_count": 0,
                                                             "suggested_suffix_char_count": 0}],
                        "languages": [], "feature_flags": self.mock.flags, "user_tier": "COMMUNITY_TIER",
                        "user": {"id": "u1", "email": "mock@example.invalid"}})
        elif path == "/chat-stream":
            self._chat(body)
        elif path == "/agents/list-remote-tools":
            self._json({"tools": []})
        else:
            self._json({})

    def _chat(self, body: dict) -> None:
        done = any(n.get("type") == 1 for n in body.get("nodes") or [])
        offered = {t.get("name") for t in body.get("tool_definitions") or []}
        if not done and SHELL_TOOL in offered:
            lines = [{"text": "", "nodes": [{"id": i + 1, "type": 5, "content": "", "tool_use": {
                "tool_use_id": f"tu_e2e{i}", "tool_name": SHELL_TOOL,
                "input_json": json.dumps({"command": c, "wait": True, "max_wait_seconds": 20})}}]}
                for i, c in enumerate(self.mock.commands)]
        else:
            lines = [{"text": DONE, "nodes": [{"id": 0, "type": 0, "content": DONE}]}]
        payload = "".join(json.dumps(line) + "\n" for line in lines).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


__all__ = ["MockAugment", "SHELL", "SHELL_TOOL"]
