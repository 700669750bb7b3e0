"""A mock model server on 127.0.0.1 for driving the real agent CLIs offline (HOSTS.md section 7).

It speaks Anthropic Messages (SSE), OpenAI Responses (SSE), OpenAI Chat Completions (Qwen Code, Factory, Cline)
and Gemini streamGenerateContent.
Stateless: a request whose conversation holds no tool result yet gets one shell tool call
(``echo hookweave-e2e``), or one call per command in ``commands`` (all in one reply, so one
agent run can put several hook outcomes side by side), or on Chat Completions the calls of other
tools in ``chat_calls`` (Copilot's ``create``: a matcher on another tool); a request with a tool
result gets a final text, ending the turn.
Every request is appended to ``requests`` for the tests to inspect.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SHELL = "echo hookweave-e2e"
DONE = "All done."


class MockModel:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.commands: list[str] = [SHELL]  # the shell calls of the first reply
        self.chat_calls: list[tuple[str, dict]] = []  # Chat Completions: other tools' calls (name, arguments), in place of commands
        handler = type("Handler", (self._handler(),), {"mock": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> MockModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    @staticmethod
    def _handler() -> type[BaseHTTPRequestHandler]:
        return _Handler  # mock_augment.py's server speaks another API on the same plumbing


class _Handler(BaseHTTPRequestHandler):
    mock: MockModel
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        if "models" in self.path:
            self._json({"data": [], "models": []})
        else:
            self._json({"error": "not found"}, 404)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        self.mock.requests.append({"path": self.path, "body": body})
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            self._json({"input_tokens": 10})
        elif path.endswith("/v1/messages"):
            self._anthropic(body)
        elif path.endswith("/responses"):
            self._openai(body)
        elif path.endswith("/chat/completions"):
            self._chat(body)
        elif ":streamGenerateContent" in path or ":generateContent" in path:
            self._gemini(body, stream=":streamGenerateContent" in path)
        else:
            self._json({"error": "not found"}, 404)

    # -- plumbing ------------------------------------------------------------------------------

    def _json(self, data: Any, status: int = 200) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _sse(self, events: list[tuple[str | None, Any]]) -> None:
        chunks = []
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(data)}\n\n")
        payload = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    # -- Anthropic Messages ----------------------------------------------------------------------

    def _anthropic(self, body: dict) -> None:
        messages = body.get("messages") or []
        done = any(isinstance(b, dict) and b.get("type") == "tool_result"
                   for m in messages for b in (m.get("content") if isinstance(m.get("content"), list) else []))
        wants_tool = not done and any(t.get("name") == "Bash" for t in body.get("tools") or [])
        usage = {"input_tokens": 10, "output_tokens": 5}
        if wants_tool:
            blocks = [{"type": "tool_use", "id": f"toolu_e2e{i}", "name": "Bash", "input": {"command": command}}
                      for i, command in enumerate(self.mock.commands)]
            stop = "tool_use"
        else:
            blocks = [{"type": "text", "text": DONE}]
            stop = "end_turn"
        message = {"id": "msg_e2e", "type": "message", "role": "assistant", "model": body.get("model", "mock"),
                   "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            self._json(message)
            return
        start = {**message, "content": [], "stop_reason": None}
        events: list[tuple[str | None, Any]] = []
        for i, block in enumerate(blocks):
            if block["type"] == "tool_use":
                events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {**block, "input": {}}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                               "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})]
            else:
                events += [("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {"type": "text", "text": ""}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                    "delta": {"type": "text_delta", "text": DONE}})]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        self._sse([("message_start", {"type": "message_start", "message": start}), *events,
                   ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 5}}),
                   ("message_stop", {"type": "message_stop"})])

    # -- OpenAI Responses ------------------------------------------------------------------------

    def _openai(self, body: dict) -> None:
        items = body.get("input") or []
        done = any(isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output",
                                                             "local_shell_call_output") for i in items)
        tools = {t.get("name") or t.get("type"): t for t in body.get("tools") or []}
        calls = [] if done else [_openai_shell_call(tools, c, f"call_e2e{i}") for i, c in enumerate(self.mock.commands)]
        items = [c for c in calls if c] or [{"type": "message", "role": "assistant", "id": "msg_e2e",
                                             "content": [{"type": "output_text", "text": DONE, "annotations": []}]}]
        usage = {"input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
                 "output_tokens_details": None, "total_tokens": 15}
        self._sse([("response.created", {"type": "response.created", "response": {"id": "resp_e2e"}}),
                   *[("response.output_item.done", {"type": "response.output_item.done", "output_index": i, "item": item})
                     for i, item in enumerate(items)],
                   ("response.completed", {"type": "response.completed",
                                           "response": {"id": "resp_e2e", "usage": usage}})])

    # -- OpenAI Chat Completions -------------------------------------------------------------------

    def _chat(self, body: dict) -> None:
        messages = body.get("messages") or []
        done = any(isinstance(m, dict) and m.get("role") == "tool" for m in messages)
        names = {(t.get("function") or {}).get("name") for t in body.get("tools") or []}
        shell = next((n for n in ("run_shell_command", "shell", "bash", "Bash", "Execute", "run_commands", "terminal")
                      if n in names), None)
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if not done and self.mock.chat_calls:
            calls = [{"index": i, "id": f"call_e2e{i}", "type": "function",
                      "function": {"name": name, "arguments": json.dumps(args)}}
                     for i, (name, args) in enumerate(self.mock.chat_calls)]
            message, finish = {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
        elif not done and shell:
            extra = {"riskLevelReason": "a harmless echo", "riskLevel": "low"} if shell == "Execute" else \
                {"description": "run the echo"} if shell == "Bash" else {}  # Droid's; Letta Code's Bash
            calls = [{"index": i, "id": f"call_e2e{i}", "type": "function",
                      "function": {"name": shell, "arguments": json.dumps(
                          {"commands": [c]} if shell == "run_commands" else {"command": c, **extra})}}  # Cline's
                     for i, c in enumerate(self.mock.commands)]
            message, finish = {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": DONE}, "stop"
        head = {"id": "chatcmpl-e2e", "created": 0, "model": body.get("model", "mock")}
        if not body.get("stream"):
            self._json({**head, "object": "chat.completion", "usage": usage,
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
            return
        chunk = {**head, "object": "chat.completion.chunk"}
        events = [{**chunk, "choices": [{"index": 0, "delta": message, "finish_reason": None}]},
                  {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage}]
        payload = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode() + b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    # -- Gemini ------------------------------------------------------------------------------------

    def _gemini(self, body: dict, *, stream: bool) -> None:
        contents = body.get("contents") or []
        done = any("functionResponse" in p for c in contents for p in c.get("parts") or [])
        declared = {d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []}
        if not done and "run_shell_command" in declared:
            parts = [{"functionCall": {"name": "run_shell_command", "args": {"command": c}}} for c in self.mock.commands]
        else:
            parts = [{"text": DONE}]
        reply = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
        if stream:
            self._sse([(None, reply)])
        else:
            self._json(reply)


def _openai_shell_call(tools: dict[str, Any], command: str = SHELL, call_id: str = "call_e2e") -> dict | None:
    """A call of whichever shell tool this Codex version offers."""
    if "shell" in tools:
        args = {"command": ["bash", "-lc", command]}
        return {"type": "function_call", "name": "shell", "arguments": json.dumps(args), "call_id": call_id}
    if "shell_command" in tools:
        return {"type": "function_call", "name": "shell_command", "arguments": json.dumps({"command": command}),
                "call_id": call_id}
    if "exec_command" in tools:
        return {"type": "function_call", "name": "exec_command", "arguments": json.dumps({"cmd": command}),
                "call_id": call_id}
    if "local_shell" in tools:
        return {"type": "local_shell_call", "call_id": call_id, "status": "completed",
                "action": {"type": "exec", "command": ["bash", "-lc", command]}}
    return None
