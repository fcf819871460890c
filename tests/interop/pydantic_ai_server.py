"""AG-UI interop server: Pydantic AI's built-in AG-UI adapter (pydantic_ai.ui.ag_ui) with a
scripted FunctionModel.

Endpoints (POST, SSE):
  /pydantic-ai   an Agent with server tools (get_weather, increment_counter), one needing
                 approval (delete_file), and the app's client tools
plus GET /_health, GET /_inputs, GET /_outputs, POST /_reset (see interop_common).

Run: python pydantic_ai_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, AsyncIterator

from ag_ui.core import EventType, StateSnapshotEvent
from fastapi import FastAPI
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from pydantic_ai import Agent, DeferredToolRequests, RunContext
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturn,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from pydantic_ai.ui import StateDeps
from pydantic_ai.ui.ag_ui import AGUIAdapter

import interop_common as common

log = logging.getLogger("interop.pydantic_ai")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Counter(BaseModel):
    counter: int = 0
    theme: str | None = None


# --- the scripted model ------------------------------------------------------

def _user_parts(messages: list[ModelMessage]) -> list[UserPromptPart]:
    return [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, UserPromptPart)]


def _text_of(part: UserPromptPart) -> str:
    if isinstance(part.content, str):
        return part.content
    return "".join(c for c in part.content if isinstance(c, str))


def _media_of(part: UserPromptPart) -> list:
    found = []
    for c in [] if isinstance(part.content, str) else part.content:
        if isinstance(c, BinaryContent):
            found.append((c.kind, c.media_type, c.data, None))
        elif not isinstance(c, str) and hasattr(c, "url"):
            found.append((getattr(c, "kind", "url"), getattr(c, "media_type", None), None, c.url))
    return found


def _plan(messages: list[ModelMessage], info: AgentInfo) -> tuple:
    last = messages[-1]
    results = [p for p in last.parts if isinstance(p, (ToolReturnPart, RetryPromptPart))] if isinstance(last, ModelRequest) else []
    if results:
        return _after_tools(results)
    offered = {t.name for t in info.function_tools}
    user = _user_parts(messages)
    scenario = common.pick_scenario(_text_of(user[-1]) if user else "")
    log.info("scenario=%s tools=%s", scenario, sorted(offered))
    if scenario == "media":
        # Every user message's media, oldest first (a second turn shows the history's).
        return ("text", [common.describe_media([m for p in user for m in _media_of(p)])])
    if scenario == "hello":
        return ("text", ["Hello", " from", " Pydantic AI!"])
    if scenario == "slow":
        return ("text", common.slow_chunks())
    if scenario == "weather":
        return ("calls", [("get_weather", {"city": "Paris"})])
    if scenario == "delete":
        return ("calls", [("delete_file", {"path": common.DELETE_PATH})])
    if scenario == "state":
        return ("calls", [("increment_counter", {})])
    if scenario in ("location", "compare", "fail"):
        name = {"location": "get_location", "compare": "get_price", "fail": "explode"}[scenario]
        if name not in offered:
            return ("text", [f"Client tool {name} is not available."])
        if scenario == "compare":
            return ("calls", [("get_price", {"item": "apple"}), ("get_price", {"item": "pear"})])
        return ("calls", [(name, {})])
    return ("text", [common.UNKNOWN_TEXT])


def _after_tools(results: list) -> tuple:
    last = results[-1]
    content = last.content if isinstance(last, ToolReturnPart) else str(last.content)
    text = content if isinstance(content, str) else _compact(content)
    if last.tool_name == "increment_counter" and json.loads(text).get("counter", 0) < 2:
        return ("calls", [("increment_counter", {})])
    if last.tool_name == "delete_file":
        return ("text", [text])
    lines = []
    for r in results:
        c = r.content if isinstance(r, ToolReturnPart) else str(r.content)
        lines.append(common.tool_result_text(r.tool_name, c if isinstance(c, str) else _compact(c)))
    return ("text", ["\n".join(lines)])


async def _stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    plan = _plan(messages, info)
    if plan[0] == "text":
        delay = common.SLOW_DELAY_S if len(plan[1]) == common.SLOW_CHUNKS else 0
        for chunk in plan[1]:
            if delay:
                await asyncio.sleep(delay)
            yield chunk
        return
    for i, (name, args) in enumerate(plan[1]):
        yield {i: DeltaToolCall(name=name, json_args=_compact(args))}


# DeferredToolRequests among the outputs: a call needing approval ends the run as an interrupt.
agent = Agent(
    FunctionModel(stream_function=_stream), deps_type=StateDeps[Counter], output_type=[str, DeferredToolRequests]
)


@agent.tool_plain
def get_weather(city: str) -> str:
    """Get the weather forecast for a city."""
    return _compact({"city": city, "forecast": "sunny"})


@agent.tool_plain(requires_approval=True)
def delete_file(path: str) -> str:
    """Delete a file once the user approved it."""
    # Nothing is deleted: the fixture only proves the approval round trip.
    return f"Deleted {path}"


@agent.tool
def increment_counter(ctx: RunContext[StateDeps[Counter]]) -> ToolReturn:
    """Increment the `counter` in the agent state."""
    ctx.deps.state.counter += 1
    snapshot = StateSnapshotEvent(type=EventType.STATE_SNAPSHOT, snapshot=ctx.deps.state.model_dump(exclude_none=True))
    return ToolReturn(return_value=_compact({"counter": ctx.deps.state.counter}), metadata=[snapshot])


def build_app() -> Any:
    app = FastAPI(title="pydantic-ai ag-ui interop")

    @app.post("/pydantic-ai")
    async def run(request: Request) -> Response:
        return await AGUIAdapter.dispatch_request(request, agent=agent, deps=StateDeps(Counter()))

    return common.build_asgi(app, ["/pydantic-ai"])


if __name__ == "__main__":
    common.serve(build_app(), "pydantic_ai")
