"""AG-UI interop server: AWS Strands behind ag-ui-strands, with a scripted model.

Endpoints (POST, SSE):
  /strands   a Strands Agent with server tools (get_weather, increment_counter, and
             delete_file, which interrupts for approval), and the app's client tools
plus GET /_health, GET /_inputs, GET /_outputs, POST /_reset (see interop_common).

Run: python strands_server.py --port N   (prints `READY <port>` on stdout)
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any, AsyncIterable, Optional

from fastapi import FastAPI
from strands import Agent, tool
from strands.models.model import Model

from ag_ui_strands import StrandsAgent, StrandsAgentConfig, ToolBehavior, add_strands_fastapi_endpoint

import interop_common as common

log = logging.getLogger("interop.strands")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- server-side tools -------------------------------------------------------

@tool
def get_weather(city: str) -> str:
    """Get the weather forecast for a city."""
    return _compact({"city": city, "forecast": "sunny"})


@tool
def increment_counter(counter: int) -> str:
    """Increment the `counter` in the agent state (the model passes the current value)."""
    return _compact({"counter": counter + 1})


@tool
def delete_file(path: str) -> str:
    """Delete a file once the user approved it."""
    # Nothing is deleted: the fixture only proves the approval round trip.
    return f"Deleted {path}"


# --- the scripted model --------------------------------------------------------

def _user_messages(messages: list) -> list:
    # Tool results travel in user-role messages too; a user turn has no toolResult block.
    return [m for m in messages if m["role"] == "user" and not any("toolResult" in b for b in m["content"])]


def _text_of(message: dict) -> str:
    return "".join(b.get("text", "") for b in message["content"])


# Strands hands a model the format ("png", "pdf"), not a MIME type; the report spells the MIME
# type it implies, so the tests compare it with what the app attached.
_FORMAT_MIME = {"image": "image/{}", "video": "video/{}", "document": "application/{}"}


def _media_of(message: dict) -> list:
    found = []
    for block in message["content"]:
        for kind, mime in _FORMAT_MIME.items():
            if kind in block:
                media = block[kind]
                data = (media.get("source") or {}).get("bytes")
                found.append((kind, mime.format(media.get("format")), data, None))
    return found


class ScriptedModel(Model):
    """Decides from the messages alone; streams Bedrock-style events, as every Strands model does."""

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):  # type: ignore[override]
        raise NotImplementedError("the scripted model has no structured output")
        yield {}

    def _plan(self, messages: list, offered: set) -> tuple:
        last = messages[-1]
        results = [b["toolResult"] for b in last["content"] if "toolResult" in b] if last["role"] == "user" else []
        if results:
            return self._after_tools(messages, results)
        users = _user_messages(messages)
        scenario = common.pick_scenario(_text_of(users[-1]) if users else "")
        log.info("scenario=%s tools=%s", scenario, sorted(offered))
        if scenario == "media":
            return ("text", [common.describe_media([p for m in users for p in _media_of(m)])])
        if scenario == "hello":
            return ("text", ["Hello", " from", " Strands!"])
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

    def _after_tools(self, messages: list, results: list) -> tuple:
        names = {}
        for m in messages:
            for b in m["content"]:
                if "toolUse" in b:
                    names[b["toolUse"]["toolUseId"]] = b["toolUse"]["name"]
        texts = []
        for r in results:
            text = "".join(c.get("text", "") if "json" not in c else _compact(c["json"]) for c in r.get("content", []))
            texts.append((names.get(r["toolUseId"], "unknown"), text))
        name, text = texts[-1]
        if name == "increment_counter" and json.loads(text).get("counter", 0) < 2:
            return ("calls", [("increment_counter", {"counter": json.loads(text)["counter"]})])
        if name == "delete_file":
            return ("text", [text])
        return ("text", ["\n".join(common.tool_result_text(n, t) for n, t in texts)])

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kwargs) -> AsyncIterable[Any]:  # type: ignore[override]
        offered = {spec["name"] for spec in tool_specs or []}
        plan = self._plan(messages, offered)
        yield {"messageStart": {"role": "assistant"}}
        if plan[0] == "text":
            delay = common.SLOW_DELAY_S if len(plan[1]) == common.SLOW_CHUNKS else 0
            yield {"contentBlockStart": {"start": {}}}
            for chunk in plan[1]:
                if delay:
                    await asyncio.sleep(delay)
                yield {"contentBlockDelta": {"delta": {"text": chunk}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        for name, args in plan[1]:
            call_id = f"call_{uuid.uuid4().hex[:24]}"
            yield {"contentBlockStart": {"start": {"toolUse": {"toolUseId": call_id, "name": name}}}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": _compact(args)}}}}
            yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def _counter_state(context: Any) -> Optional[dict]:
    text = context.result_data if isinstance(context.result_data, str) else _compact(context.result_data)
    try:
        return {"counter": json.loads(text)["counter"]}
    except (ValueError, KeyError, TypeError):
        return None


def build_app() -> Any:
    app = FastAPI(title="ag-ui-strands interop")
    core = Agent(model=ScriptedModel(), tools=[get_weather, increment_counter, delete_file], callback_handler=None)
    config = StrandsAgentConfig(
        tool_behaviors={
            "increment_counter": ToolBehavior(state_from_result=_counter_state),
            "delete_file": ToolBehavior(interrupt_on_call=True),
        }
    )
    agent = StrandsAgent(agent=core, name="interop_agent", config=config)
    add_strands_fastapi_endpoint(app, agent, "/strands")
    return common.build_asgi(app, ["/strands"])


if __name__ == "__main__":
    common.serve(build_app(), "strands")
