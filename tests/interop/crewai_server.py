"""AG-UI interop server: a CrewAI Flow behind ag-ui-crewai, its model calls scripted through
litellm's mock responses (no LLM, no network).

Endpoints (POST, SSE):
  /crewai   a Flow that answers from the script: text, the get_weather server tool, the app's
            client tools, and state (the flow's counter, emitted twice, beside the app's state)
  /crewai-approval  a Flow whose first method asks for approval through crewai's
            `@human_feedback` and the adapter's `agui_feedback_provider`; the answer comes back
            in `RunAgentInput.resume` (`emit_interrupt_outcome=True`)
plus GET /_health, GET /_inputs, GET /_outputs, POST /_reset (see interop_common).

Run: python crewai_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import atexit
import base64
import json
import logging
import os
import shutil
import tempfile
import uuid
from typing import Any

# No telemetry or tracing from a test fixture.
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
# litellm fetches its model price list from GitHub at import; the copy it ships will do.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# crewai keeps a paused flow (`@human_feedback`) in a SQLite file under the user's data dir
# (appdirs, so XDG_DATA_HOME): one of this process's own, so no run sees another's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="agentui-interop-crewai-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)

import litellm
from crewai.flow.flow import Flow, listen, start
from crewai.flow.human_feedback import human_feedback
from fastapi import FastAPI
from litellm.types.utils import ChatCompletionMessageToolCall, Choices, Function, Message, ModelResponse

from ag_ui_crewai import (
    CopilotKitState,
    add_crewai_flow_fastapi_endpoint,
    agui_feedback_provider,
    copilotkit_emit_state,
    copilotkit_stream,
)
from pydantic import ConfigDict

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
    if scenario == "state":
        return ("text", "Counter is 2.")
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


class InteropState(CopilotKitState):
    # The app's own state keys (its `theme`) come in with the request's state and must stay.
    model_config = ConfigDict(extra="allow")
    counter: int = 0


def _latest_user_text(messages: list) -> str:
    users = [m for m in messages if _get(m, "role") == "user"]
    return _text_of(_get(users[-1], "content")) if users else ""


class InteropFlow(Flow[InteropState]):
    @start()
    async def chat(self) -> None:
        offered = {(a.get("function") or a).get("name") for a in self.state.copilotkit.actions if isinstance(a, dict)}
        if common.pick_scenario(_latest_user_text(self.state.messages)) == "state":
            # Two progressive snapshots (the adapter's `copilotkit_emit_state`), then the answer.
            for value in (1, 2):
                self.state.counter = value
                await copilotkit_emit_state(self.state.model_dump())
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


APPROVAL_MESSAGE = f'Approve delete_file({{"path":"{common.DELETE_PATH}"}})?'


async def _say(flow: Flow, text: str) -> None:
    """Streams `text` as the model's answer and keeps it in the flow's messages."""
    await copilotkit_stream(
        await litellm.acompletion(model="openai/scripted", messages=flow.state.messages, stream=True, mock_response=text)
    )
    flow.state.messages.append({"role": "assistant", "content": text})


class ApprovalFlow(Flow[InteropState]):
    @start()
    @human_feedback(message=APPROVAL_MESSAGE, provider=agui_feedback_provider)
    async def ask(self) -> str:
        return f"delete {common.DELETE_PATH}"

    @listen(ask)
    async def answer(self, result: Any) -> None:
        feedback = getattr(result, "feedback", result)
        log.info("approval feedback=%r", feedback)
        if common.is_approval(feedback):
            await _say(self, f"Deleted {common.DELETE_PATH}")
        else:
            await _say(self, "The deletion was rejected.")


def build_app() -> Any:
    app = FastAPI(title="ag-ui-crewai interop")
    add_crewai_flow_fastapi_endpoint(app, InteropFlow(), "/crewai")
    add_crewai_flow_fastapi_endpoint(app, ApprovalFlow(), "/crewai-approval", emit_interrupt_outcome=True)
    return common.build_asgi(app, ["/crewai", "/crewai-approval"])


if __name__ == "__main__":
    common.serve(build_app(), "crewai")
