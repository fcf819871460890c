"""AG-UI interop server: langgraph + ag-ui-langgraph with a scripted fake model.

Endpoints (POST, SSE):
  /langgraph               default adapter config: an interrupt ends the run
                           with CUSTOM "on_interrupt" + a plain RUN_FINISHED
  /langgraph-outcome       emit_interrupt_outcome=True: CUSTOM "on_interrupt"
                           AND RUN_FINISHED.outcome {"type": "interrupt", ...}
  /langgraph-outcome-only  enable_legacy_on_interrupt_event=False: only the
                           RUN_FINISHED interrupt outcome, no CUSTOM event
plus GET /_health, GET /_inputs, GET /_outputs (with INTEROP_CAPTURE_SSE set),
POST /_reset (see interop_common).

Run: python langgraph_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import uuid
from typing import Annotated, Any, AsyncIterator, Optional, Sequence

from fastapi import FastAPI
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import InjectedState, ToolNode
from langgraph.types import interrupt

from ag_ui_langgraph import LangGraphAgent, add_langgraph_fastapi_endpoint

import interop_common as common

log = logging.getLogger("interop.langgraph")


# --- server-side tools -------------------------------------------------------

def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@tool
def get_weather(city: str) -> str:
    """Get the weather forecast for a city."""
    return _compact({"city": city, "forecast": "sunny"})


@tool
def delete_file(path: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
    """Delete a file once the user approved it."""
    # interrupt() suspends the `tools` node; on resume LangGraph re-runs the
    # node and interrupt() returns the client's resume value instead.
    # ag-ui-langgraph maps "message" and "toolCallId" of the payload onto the
    # AG-UI Interrupt (outcome mode), so both are set for the client tests.
    answer = interrupt(
        {
            "type": "approval",
            "action": "delete_file",
            "path": path,
            "message": f"Approve deleting {path}?",
            "toolCallId": tool_call_id,
        }
    )
    log.info("delete_file resumed with %r", answer)
    # Nothing is deleted: the fixture only proves the interrupt round trip.
    return f"Deleted {path}" if common.is_approval(answer) else "Not deleted"


@tool
def increment_counter(state: Annotated[dict, InjectedState]) -> str:
    """Increment the `counter` in the agent state."""
    # The write itself happens in the record_counter node: ag-ui-langgraph
    # emits a mid-run STATE_SNAPSHOT when a node returns a dict, but not for
    # the Command objects a tool would have to return to write state.
    return _compact({"counter": int(state.get("counter") or 0) + 1})


SERVER_TOOLS = [get_weather, delete_file, increment_counter]
SERVER_TOOL_NAMES = {t.name for t in SERVER_TOOLS}


# --- the scripted model ------------------------------------------------------

def _tool_name(spec: Any) -> Optional[str]:
    if isinstance(spec, dict):
        return spec.get("name") or (spec.get("function") or {}).get("name")
    return getattr(spec, "name", None)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


def _media_blocks(content: Any) -> list:
    """The media blocks of a HumanMessage's content as the adapter converted them: LangChain's
    standard blocks (`image`/`audio`/`video`/`file` with `base64` or `url`) or `image_url`."""
    found = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict) or block.get("type") == "text":
            continue
        kind = block.get("type")
        if kind == "image_url":
            url = (block.get("image_url") or {}).get("url", "")
            if url.startswith("data:") and "," in url:
                header, payload = url.split(",", 1)
                found.append((kind, header[5:].split(";")[0], base64.b64decode(payload), None))
            else:
                found.append((kind, None, None, url))
        elif block.get("base64") is not None:
            found.append((kind, block.get("mime_type"), base64.b64decode(block["base64"]), None))
        else:
            found.append((kind, block.get("mime_type"), None, block.get("url")))
    return found


class ScriptedChatModel(BaseChatModel):
    """Deterministic chat model; decides from the messages alone.

    A plan is either text chunks (streamed when LangGraph streams, which it
    does under astream_events) or a list of tool calls in one AI message.
    """

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any):  # type: ignore[override]
        # Only the names matter: the script needs to know whether a client
        # tool was actually offered in RunAgentInput.tools.
        return self.bind(tool_names=[n for n in (_tool_name(t) for t in tools) if n], **kwargs)

    # plan: ("text", [chunks], delay) | ("calls", [(name, args), ...])
    def _plan(self, messages: list[BaseMessage], tool_names: Sequence[str]) -> tuple:
        tail: list[ToolMessage] = []
        for message in reversed(messages):
            if not isinstance(message, ToolMessage):
                break
            tail.insert(0, message)
        if tail:
            return self._after_tools(messages, tail)

        user_text = next((_content_text(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), "")
        scenario = common.pick_scenario(user_text)
        log.info("scenario=%s tools=%s", scenario, list(tool_names))
        if scenario == "media":
            human = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
            return ("text", [common.describe_media(_media_blocks(human.content if human else ""))], 0.0)
        if scenario == "hello":
            return ("text", ["Hello", " from", " LangGraph!"], 0.0)
        if scenario == "slow":
            return ("text", common.slow_chunks(), common.SLOW_DELAY_S)
        if scenario == "weather":
            return ("calls", [("get_weather", {"city": "Paris"})])
        if scenario == "delete":
            return ("calls", [("delete_file", {"path": common.DELETE_PATH})])
        if scenario == "state":
            return ("calls", [("increment_counter", {})])
        if scenario in ("location", "compare", "fail"):
            name = {"location": "get_location", "compare": "get_price", "fail": "explode"}[scenario]
            if name not in tool_names:
                return ("text", [f"Client tool {name} is not available."], 0.0)
            if scenario == "compare":
                return ("calls", [("get_price", {"item": "apple"}), ("get_price", {"item": "pear"})])
            return ("calls", [(name, {})])
        return ("text", [common.UNKNOWN_TEXT], 0.0)

    def _after_tools(self, messages: list[BaseMessage], tail: list[ToolMessage]) -> tuple:
        # Client tool messages carry no name; recover it from the AI message's call.
        names = {}
        for message in messages:
            for call in getattr(message, "tool_calls", None) or []:
                names[call["id"]] = call["name"]
        last = tail[-1]
        last_name = last.name or names.get(last.tool_call_id, "unknown")
        last_text = _content_text(last.content)
        if last_name == "increment_counter" and json.loads(last_text).get("counter", 0) < 2:
            return ("calls", [("increment_counter", {})])  # second write: counter 1, then 2
        if last_name == "delete_file":
            return ("text", [last_text], 0.0)  # "Deleted /tmp/report.txt" or "Not deleted"
        text = "\n".join(
            common.tool_result_text(m.name or names.get(m.tool_call_id, "unknown"), _content_text(m.content))
            for m in tail
        )
        return ("text", [text], 0.0)

    @staticmethod
    def _calls(calls: list[tuple[str, dict]]) -> list[dict]:
        return [{"name": n, "args": a, "id": f"call_{uuid.uuid4().hex[:24]}", "type": "tool_call"} for n, a in calls]

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: Optional[list[str]] = None,
        run_manager: Optional[CallbackManagerForLLMRun] = None,
        tool_names: Sequence[str] = (),
        **kwargs: Any,
    ) -> ChatResult:
        plan = self._plan(messages, tool_names)
        if plan[0] == "text":
            message = AIMessage(content="".join(plan[1]))
        else:
            message = AIMessage(content="", tool_calls=self._calls(plan[1]))
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: Optional[list[str]] = None,
        run_manager: Optional[AsyncCallbackManagerForLLMRun] = None,
        tool_names: Sequence[str] = (),
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        plan = self._plan(messages, tool_names)
        if plan[0] == "text":
            _, chunks, delay = plan
            for chunk in chunks:
                if delay:
                    await asyncio.sleep(delay)
                # BaseChatModel reports each chunk to the callbacks (and so to
                # astream_events) itself; doing it here would double them.
                yield ChatGenerationChunk(message=AIMessageChunk(content=chunk))
            return
        # Stream tool calls the way real providers do, one call after the
        # other: a chunk with name+id, then a chunk with the arguments.
        # ag-ui-langgraph reads only the first tool_call_chunk of each chunk,
        # so packing several calls (or name and args) into one chunk would
        # lose TOOL_CALL_ARGS and the second parallel call.
        for i, call in enumerate(self._calls(plan[1])):
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[{"name": call["name"], "args": "", "id": call["id"], "index": i, "type": "tool_call_chunk"}],
                )
            )
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[{"name": None, "args": _compact(call["args"]), "id": None, "index": i, "type": "tool_call_chunk"}],
                )
            )
        # BaseChatModel appends a final empty chunk, which closes the last call.


# --- graph -------------------------------------------------------------------

class AgentState(MessagesState):
    # ag-ui-langgraph writes RunAgentInput.tools here (the frontend tools).
    tools: list
    counter: int


async def agent_node(state: AgentState, config: RunnableConfig) -> dict:
    model = ScriptedChatModel().bind_tools([*SERVER_TOOLS, *(state.get("tools") or [])])
    response = await model.ainvoke(state["messages"], config)
    return {"messages": [response]}


def route_after_agent(state: AgentState) -> str:
    calls = getattr(state["messages"][-1], "tool_calls", None) or []
    if calls and all(c["name"] in SERVER_TOOL_NAMES for c in calls):
        return "tools"
    # Text, or frontend tool calls: the run ends and the client executes them,
    # then sends the results in a follow-up run.
    return END


def route_after_tools(state: AgentState) -> str:
    last = state["messages"][-1]
    return "record_counter" if getattr(last, "name", None) == "increment_counter" else "agent"


def record_counter(state: AgentState) -> dict:
    return {"counter": json.loads(_content_text(state["messages"][-1].content))["counter"]}


def build_graph():
    graph = StateGraph(AgentState)
    graph.add_node("agent", agent_node)
    graph.add_node("tools", ToolNode(SERVER_TOOLS))
    graph.add_node("record_counter", record_counter)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route_after_agent, ["tools", END])
    graph.add_conditional_edges("tools", route_after_tools, ["record_counter", "agent"])
    graph.add_edge("record_counter", "agent")
    # The adapter needs a checkpointer (it reads state per thread and resumes
    # interrupts from it). One per endpoint keeps the variants' threads apart.
    return graph.compile(checkpointer=InMemorySaver())


def build_app() -> Any:
    app = FastAPI(title="ag-ui-langgraph interop")
    variants = {
        "/langgraph": {},
        "/langgraph-outcome": {"emit_interrupt_outcome": True},
        "/langgraph-outcome-only": {"enable_legacy_on_interrupt_event": False},
    }
    for path, options in variants.items():
        agent = LangGraphAgent(name="interop_agent", graph=build_graph(), **options)
        add_langgraph_fastapi_endpoint(app, agent, path=path)
    return common.build_asgi(app, variants.keys())


if __name__ == "__main__":
    common.serve(build_app(), "langgraph")
