"""AG-UI interop server: a CrewAI Flow behind ag-ui-crewai, its model calls scripted through
litellm's mock responses (no LLM, no network).

Endpoints (POST, SSE):
  /crewai   a Flow that answers from the script: text, the get_weather server tool, the app's
            client tools
plus GET /_health, GET /_inputs, GET /_outputs, POST /_reset (see interop_common).

Run: python crewai_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import base64
import json
import logging
import os
import uuid
from typing import Any

# No telemetry or tracing from a test fixture.
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
# litellm fetches its model price list from GitHub at import; the copy it ships will do.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import litellm
from crewai.flow.flow import Flow, start
from fastapi import FastAPI
from litellm.types.utils import ChatCompletionMessageToolCall, Choices, Function, Message, ModelResponse

from ag_ui_crewai import CopilotKitState, add_crewai_flow_fastapi_endpoint, copilotkit_stream

import interop_common as common

log = logging.getLogger("interop.crewai")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _get(message: Any, key: str) -> Any:
    return message.get(key) if isinstance(message, dict) else getattr(message, key, None)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict))


def _media_of(content: Any) -> list:
    found = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and part.get("type") == "image_url":
            url = (part.get("image_url") or {}).get("url", "")
            if url.startswith("data:") and "," in url:
                header, payload = url.split(",", 1)
                found.append(("image_url", header[5:].split(";")[0], base64.b64decode(payload), None))
            else:
                found.append(("image_url", None, None, url))
    return found


def _plan(messages: list, offered: set) -> tuple:
    if messages and _get(messages[-1], "role") == "tool":
        names = {}
        for m in messages:
            for call in _get(m, "tool_calls") or []:
                names[_get(call, "id")] = _get(_get(call, "function"), "name")
        tail = []
        for m in reversed(messages):
            if _get(m, "role") != "tool":
                break
            tail.insert(0, m)
        return ("text", "\n".join(common.tool_result_text(names.get(_get(m, "tool_call_id"), "unknown"), _text_of(_get(m, "content"))) for m in tail))
    users = [m for m in messages if _get(m, "role") == "user"]
    scenario = common.pick_scenario(_text_of(_get(users[-1], "content")) if users else "")
    log.info("scenario=%s tools=%s", scenario, sorted(offered))
    if scenario == "media":
        return ("text", common.describe_media([p for m in users for p in _media_of(_get(m, "content"))]))
    if scenario == "hello":
        return ("text", "Hello from CrewAI!")
    if scenario == "weather":
        return ("calls", [("get_weather", {"city": "Paris"})])
    if scenario in ("location", "compare", "fail"):
        name = {"location": "get_location", "compare": "get_price", "fail": "explode"}[scenario]
        if name not in offered:
            return ("text", f"Client tool {name} is not available.")
        if scenario == "compare":
            return ("calls", [("get_price", {"item": "apple"}), ("get_price", {"item": "pear"})])
        return ("calls", [(name, {})])
    return ("text", common.UNKNOWN_TEXT)


async def _scripted_completion(messages: list, offered: set) -> Any:
    """A litellm stream of the script's answer: text in litellm's mock chunks, or one chunk
    with the tool calls, as litellm streams a real provider's."""
    plan = _plan(messages, offered)
    if plan[0] == "text":
        mock: Any = plan[1]
    else:
        calls = [
            ChatCompletionMessageToolCall(id=f"call_{uuid.uuid4().hex[:24]}", type="function", function=Function(name=n, arguments=_compact(a)))
            for n, a in plan[1]
        ]
        mock = ModelResponse(choices=[Choices(index=0, finish_reason="tool_calls", message=Message(role="assistant", content=None, tool_calls=calls))])
    return await litellm.acompletion(model="openai/scripted", messages=messages or [{"role": "user", "content": ""}], stream=True, mock_response=mock)


class InteropFlow(Flow[CopilotKitState]):
    @start()
    async def chat(self) -> None:
        offered = {(a.get("function") or a).get("name") for a in self.state.copilotkit.actions if isinstance(a, dict)}
        for _ in range(4):
            response = await copilotkit_stream(await _scripted_completion(self.state.messages, offered))
            message = response.choices[0].message
            calls = message.tool_calls or []
            self.state.messages.append(
                {"role": "assistant", "content": message.content or "", **({"tool_calls": [c.model_dump() for c in calls]} if calls else {})}
            )
            server_calls = [c for c in calls if c.function.name == "get_weather"]
            if not server_calls or len(server_calls) != len(calls):
                return  # text, or the app's tools: the run ends and the client answers
            for call in server_calls:
                city = json.loads(call.function.arguments).get("city")
                self.state.messages.append({"role": "tool", "tool_call_id": call.id, "content": _compact({"city": city, "forecast": "sunny"})})


def build_app() -> Any:
    app = FastAPI(title="ag-ui-crewai interop")
    add_crewai_flow_fastapi_endpoint(app, InteropFlow(), "/crewai")
    return common.build_asgi(app, ["/crewai"])


if __name__ == "__main__":
    common.serve(build_app(), "crewai")
