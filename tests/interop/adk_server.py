"""AG-UI interop server: google-adk + ag-ui-adk with a scripted fake model.

Endpoints (POST, SSE):
  /adk          ADKAgent with the default ag-ui-adk config
  /adk-outcome  ADKAgent(emit_interrupt_outcome=True): tool confirmations end
                the run with RUN_FINISHED.outcome {"type": "interrupt", ...}
  /adk-snapshot ADKAgent(emit_messages_snapshot=True): MESSAGES_SNAPSHOT
                before RUN_FINISHED of runs that complete
plus GET /_health, GET /_inputs, GET /_outputs (with INTEROP_CAPTURE_SSE set),
POST /_reset (see interop_common).

Run: python adk_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any, AsyncGenerator

from fastapi import FastAPI
from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.sessions import InMemorySessionService
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types

from ag_ui_adk import ADKAgent, AGUIToolset, add_adk_fastapi_endpoint

import interop_common as common

log = logging.getLogger("interop.adk")

SERVER_TOOLS = {"get_weather", "delete_file", "increment_counter"}


# --- server-side tools -------------------------------------------------------

def get_weather(city: str) -> dict:
    """Get the weather forecast for a city."""
    return {"city": city, "forecast": "sunny"}


def delete_file(path: str) -> dict:
    """Delete a file. Requires the user's confirmation (see FunctionTool below)."""
    # Nothing is deleted: the fixture only proves the confirmation round trip.
    return {"deleted": path}


def increment_counter(tool_context: ToolContext) -> dict:
    """Increment the `counter` in the agent state."""
    # Writing through tool_context.state is what makes ADK attach a
    # state_delta to the event, which ag-ui-adk turns into STATE_DELTA.
    value = int(tool_context.state.get("counter", 0) or 0) + 1
    tool_context.state["counter"] = value
    return {"counter": value}


# --- the scripted model ------------------------------------------------------

def _text_response(text: str, partial: bool) -> LlmResponse:
    return LlmResponse(
        content=types.Content(role="model", parts=[types.Part(text=text)]),
        partial=partial,
        turn_complete=not partial,
    )


def _calls_response(calls: list[tuple[str, dict]]) -> LlmResponse:
    return LlmResponse(
        content=types.Content(
            role="model",
            parts=[
                types.Part(function_call=types.FunctionCall(id=f"adk-{uuid.uuid4()}", name=name, args=args))
                for name, args in calls
            ],
        ),
        turn_complete=True,
    )


def _render_response(response: Any) -> str:
    """Recover the tool result string from an ADK FunctionResponse payload.

    ag-ui-adk parses a client tool message as JSON (objects kept as-is,
    other JSON values wrapped as {"result": v}) and wraps non-JSON text as
    {"success": true, "result": text, "status": "completed"}. Plain text is
    unwrapped here; objects are re-serialised compactly, so a client that
    sends compact JSON (no spaces) sees its bytes quoted back exactly.
    """
    if (
        isinstance(response, dict)
        and set(response) == {"success", "result", "status"}
        and response.get("status") == "completed"
        and isinstance(response.get("result"), str)
    ):
        return response["result"]
    return json.dumps(response, separators=(",", ":"), ensure_ascii=False)


def _user_media(contents: list) -> list:
    """The media parts of the latest user content, as ADK handed them to the model."""
    for content in reversed(contents):
        if content.role != "user":
            continue
        found = []
        for p in content.parts or []:
            if p.inline_data is not None:
                found.append(("inline", p.inline_data.mime_type, bytes(p.inline_data.data or b""), None))
            elif p.file_data is not None:
                found.append(("file", p.file_data.mime_type, None, p.file_data.file_uri))
        return found
    return []


class ScriptedLlm(BaseLlm):
    """Deterministic stand-in for Gemini.

    Decides from the request contents alone, so every ADK resume path
    (function responses appended to the session) replays correctly.
    """

    model: str = "scripted-fake"

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"scripted-fake.*"]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        contents = list(llm_request.contents or [])
        available = set(llm_request.tools_dict or {})

        # Function responses at the tail of the conversation: answer them.
        tail_responses: list[types.FunctionResponse] = []
        for content in reversed(contents):
            responses = [p.function_response for p in (content.parts or []) if p.function_response]
            if not responses:
                break
            tail_responses[:0] = responses
        if tail_responses:
            async for r in self._after_tools(tail_responses, available, stream):
                yield r
            return

        user_text = ""
        for content in reversed(contents):
            if content.role == "user":
                texts = [p.text for p in (content.parts or []) if p.text]
                if texts:
                    user_text = "".join(texts)
                    break
        scenario = common.pick_scenario(user_text)
        log.info("scenario=%s available_tools=%s", scenario, sorted(available))

        if scenario == "media":
            yield _text_response(common.describe_media(_user_media(contents)), False)
        elif scenario == "hello":
            async for r in self._stream_text(["Hello", " from", " ADK!"], stream, 0.0):
                yield r
        elif scenario == "slow":
            async for r in self._stream_text(common.slow_chunks(), stream, common.SLOW_DELAY_S):
                yield r
        elif scenario == "weather":
            yield _calls_response([("get_weather", {"city": "Paris"})])
        elif scenario == "delete":
            yield _calls_response([("delete_file", {"path": common.DELETE_PATH})])
        elif scenario == "state":
            yield _calls_response([("increment_counter", {})])
        elif scenario in ("location", "compare", "fail"):
            name = {"location": "get_location", "compare": "get_price", "fail": "explode"}[scenario]
            if name not in available:
                # Calling a tool ADK does not know would crash the run; say so instead.
                yield _text_response(f"Client tool {name} is not available.", False)
            elif scenario == "compare":
                yield _calls_response([("get_price", {"item": "apple"}), ("get_price", {"item": "pear"})])
            else:
                yield _calls_response([(name, {})])
        else:
            yield _text_response(common.UNKNOWN_TEXT, False)

    async def _after_tools(
        self, responses: list[types.FunctionResponse], available: set[str], stream: bool
    ) -> AsyncGenerator[LlmResponse, None]:
        last = responses[-1]
        payload = last.response or {}
        if last.name == "increment_counter" and int(payload.get("counter", 0)) < 2:
            # Second write, so the state changes twice (counter 1, then 2).
            yield _calls_response([("increment_counter", {})])
            return
        if last.name == "delete_file":
            # A rejected confirmation makes ADK return {"error": ...} without running the tool.
            text = f"Deleted {payload['deleted']}" if "deleted" in payload else "Not deleted"
            yield _text_response(text, False)
            return
        text = "\n".join(common.tool_result_text(r.name, _render_response(r.response)) for r in responses)
        yield _text_response(text, False)

    async def _stream_text(
        self, chunks: list[str], stream: bool, delay: float
    ) -> AsyncGenerator[LlmResponse, None]:
        if not stream:
            yield _text_response("".join(chunks), False)
            return
        for chunk in chunks:
            if delay:
                await asyncio.sleep(delay)
            yield _text_response(chunk, True)
        # ADK's streaming contract: partials, then one aggregated final response.
        yield _text_response("".join(chunks), False)


# --- app ---------------------------------------------------------------------

def build_agent() -> LlmAgent:
    return LlmAgent(
        name="interop_agent",
        model=ScriptedLlm(),
        instruction="You are a scripted test agent.",
        tools=[
            get_weather,
            FunctionTool(delete_file, require_confirmation=True),
            increment_counter,
            # Placeholder that ag-ui-adk swaps per run for the client's
            # RunAgentInput.tools (the adapter's standard frontend-tool setup).
            AGUIToolset(),
        ],
    )


# ag-ui-adk (0.11.0) keeps a thread whose run ended with a client tool call
# unanswered as an "active execution" (ADKAgent._active_executions, removed
# only once the call is answered or after execution_timeout_seconds, 600 s),
# and refuses every new run of that agent with RUN_ERROR "Maximum concurrent
# executions (10) reached" once there are max_concurrent_executions of them.
# The suite leaves such a thread on purpose (the confirmation an app does
# not declare), about one per run on /adk: a server reused across runs (the
# `run.sh bash` loop) refused everything from the tenth run on. The bound is
# not what the tests are about, so it is set far above what they can park.
MAX_PARKED_EXECUTIONS = 10_000


def build_app() -> Any:
    app = FastAPI(title="ag-ui-adk interop")
    variants = {
        "/adk": {},
        "/adk-outcome": {"emit_interrupt_outcome": True},
        # Not a brief requirement: ag-ui-adk only emits MESSAGES_SNAPSHOT
        # when asked to, so this variant exists to exercise it.
        "/adk-snapshot": {"emit_messages_snapshot": True},
    }
    for path, options in variants.items():
        agent = ADKAgent(
            adk_agent=build_agent(),
            app_name="interop" + path.replace("/", "_").replace("-", "_"),
            user_id="interop-user",
            # A session service per endpoint: without one, ADKAgents share a
            # process-wide session manager and the variants would see each
            # other's threads.
            session_service=InMemorySessionService(),
            max_concurrent_executions=MAX_PARKED_EXECUTIONS,
            **options,
        )
        add_adk_fastapi_endpoint(app, agent, path=path)
    return common.build_asgi(app, variants.keys())


if __name__ == "__main__":
    common.serve(build_app(), "adk")
