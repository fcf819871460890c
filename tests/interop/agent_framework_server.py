"""AG-UI interop server: Microsoft Agent Framework + agent-framework-ag-ui with a scripted chat client.

Endpoints (POST, SSE):
  /agent-framework   an Agent with two server tools (get_weather, increment_counter), one
                     needing approval (delete_file), and the app's client tools
plus GET /_health, GET /_inputs, GET /_outputs, POST /_reset (see interop_common).

Run: python agent_framework_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import uuid
from typing import Any, Sequence

from fastapi import FastAPI

from agent_framework import (
    Agent,
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
    ResponseStream,
    tool,
)
from agent_framework_ag_ui import add_agent_framework_fastapi_endpoint, state_update

import interop_common as common

log = logging.getLogger("interop.agent_framework")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- server-side tools -------------------------------------------------------

@tool
def get_weather(city: str) -> str:
    """Get the weather forecast for a city."""
    return _compact({"city": city, "forecast": "sunny"})


@tool(approval_mode="always_require")
def delete_file(path: str) -> str:
    """Delete a file once the user approved it."""
    # Nothing is deleted: the fixture only proves the approval round trip.
    return f"Deleted {path}"


@tool
def increment_counter(counter: int) -> Content:
    """Increment the `counter` in the agent state (the model passes the current value)."""
    value = counter + 1
    return state_update(_compact({"counter": value}), state={"counter": value})


SERVER_TOOLS = [get_weather, delete_file, increment_counter]


# --- the scripted chat client --------------------------------------------------

def _text_of(message: Message) -> str:
    return "".join(c.text or "" for c in message.contents if c.type == "text")


def _media_of(message: Message) -> list:
    found = []
    for c in message.contents:
        if c.type == "data":
            uri = c.uri or ""
            payload = uri.split(",", 1)[1] if "," in uri else ""
            found.append(("data", c.media_type, base64.b64decode(payload), None))
        elif c.type == "uri":
            found.append(("uri", c.media_type, None, c.uri))
    return found


class ScriptedChatClient(FunctionInvocationLayer, BaseChatClient):
    """Decides from the messages alone, like the other servers' scripted models."""

    def _plan(self, messages: Sequence[Message], options: Any) -> tuple:
        offered = {getattr(t, "name", None) for t in (options or {}).get("tools") or []}
        tail = []
        for message in reversed(messages):
            if message.role != "tool":
                break
            tail.insert(0, message)
        if tail:
            return self._after_tools(messages, tail)
        user = next((m for m in reversed(messages) if m.role == "user"), None)
        scenario = common.pick_scenario(_text_of(user) if user else "")
        log.info("scenario=%s tools=%s", scenario, sorted(n for n in offered if n))
        if scenario == "media":
            # Every user message's media, oldest first: a second turn shows whether the
            # attachment of the first is still in the history the client sends.
            media = [part for m in messages if m.role == "user" for part in _media_of(m)]
            return ("text", [common.describe_media(media)])
        if scenario == "hello":
            return ("text", ["Hello", " from", " Agent Framework!"])
        if scenario == "slow":
            return ("text", common.slow_chunks())
        if scenario == "weather":
            return ("calls", [("get_weather", {"city": "Paris"})])
        if scenario == "delete":
            return ("calls", [("delete_file", {"path": common.DELETE_PATH})])
        if scenario == "state":
            return ("calls", [("increment_counter", {"counter": 0})])
        if scenario in ("location", "compare", "fail"):
            name = {"location": "get_location", "compare": "get_price", "fail": "explode"}[scenario]
            if name not in offered:
                return ("text", [f"Client tool {name} is not available."])
            if scenario == "compare":
                return ("calls", [("get_price", {"item": "apple"}), ("get_price", {"item": "pear"})])
            return ("calls", [(name, {})])
        return ("text", [common.UNKNOWN_TEXT])

    def _after_tools(self, messages: Sequence[Message], tail: list) -> tuple:
        names = {}
        for message in messages:
            for c in message.contents:
                if c.type == "function_call":
                    names[c.call_id] = c.name
        results = [c for m in tail for c in m.contents if c.type == "function_result"]
        last = results[-1] if results else None
        if last is not None and names.get(last.call_id) == "increment_counter":
            counter = json.loads(str(last.result)).get("counter", 0)
            if counter < 2:
                return ("calls", [("increment_counter", {"counter": counter})])
        if last is not None and names.get(last.call_id) == "delete_file":
            return ("text", [str(last.result)])
        text = "\n".join(
            common.tool_result_text(names.get(c.call_id, "unknown"), c.result if isinstance(c.result, str) else _compact(c.result))
            for c in results
        )
        return ("text", [text])

    def _updates(self, plan: tuple) -> list:
        if plan[0] == "text":
            return [ChatResponseUpdate(role="assistant", contents=[Content.from_text(chunk)]) for chunk in plan[1]]
        calls = [
            Content.from_function_call(call_id=f"call_{uuid.uuid4().hex[:24]}", name=name, arguments=_compact(args))
            for name, args in plan[1]
        ]
        return [ChatResponseUpdate(role="assistant", contents=[call]) for call in calls]

    def _inner_get_response(self, *, messages, stream, options, **kwargs):
        plan = self._plan(messages, options)
        updates = self._updates(plan)
        if stream:
            async def produce():
                for update in updates:
                    if plan[0] == "text" and len(plan[1]) == common.SLOW_CHUNKS:
                        await asyncio.sleep(common.SLOW_DELAY_S)
                    yield update

            return ResponseStream(produce(), finalizer=ChatResponse.from_updates)

        async def whole() -> ChatResponse:
            return ChatResponse.from_updates(updates)

        return whole()


def build_app() -> Any:
    app = FastAPI(title="agent-framework-ag-ui interop")
    agent = Agent(client=ScriptedChatClient(), name="interop_agent", instructions="scripted", tools=SERVER_TOOLS)
    # A test fixture with one user: the adapter wants that said outright.
    add_agent_framework_fastapi_endpoint(app, agent, path="/agent-framework", single_user=True)
    return common.build_asgi(app, ["/agent-framework"])


if __name__ == "__main__":
    common.serve(build_app(), "agent_framework")
