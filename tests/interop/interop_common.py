"""Pieces shared by the interop servers: scenario choice, input recording,
the /_health and /_reset routes, and the CLI/uvicorn bootstrap.

Both servers are test fixtures for the Rust AG-UI client. They run real
adapter packages (ag-ui-adk, ag-ui-langgraph) against a scripted model, so
everything here is deliberately small and deterministic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import socket
import sys
from typing import Any, Awaitable, Callable, Iterable, Optional

import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse

log = logging.getLogger("interop")

# Keyword -> scenario. Checked in this order against the lower-cased text of
# the latest user message; the first keyword found wins.
SCENARIOS = ("hello", "weather", "location", "compare", "fail", "delete", "state", "slow", "media")

UNKNOWN_TEXT = "I did not understand."
DELETE_PATH = "/tmp/report.txt"
# "slow": ~40 chunks, ~100 ms apart, so a client can cancel mid-text.
SLOW_CHUNKS = 40
SLOW_DELAY_S = 0.1

# Words a human-in-the-loop answer may use to approve.
_APPROVE_WORDS = {"yes", "y", "true", "approve", "approved", "accept", "accepted", "confirm", "confirmed", "ok"}


def pick_scenario(text: str) -> Optional[str]:
    lowered = (text or "").lower()
    for keyword in SCENARIOS:
        if keyword in lowered:
            return keyword
    return None


def tool_result_text(name: str, content: str) -> str:
    """The sentence the fake models answer with after a tool result.

    The content is embedded verbatim so a test can assert that exactly what
    it sent reached the model.
    """
    return f"Tool {name} returned: {content}"


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits: the hash the Rust tests recompute (agentui_demo_agent::fnv1a64)."""
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def describe_media(parts: list[tuple[str, Optional[str], Optional[bytes], Optional[str]]]) -> str:
    """The "media" scenario's answer: one line per media part the model received, as
    (kind, mime type, bytes or None, url or None), so a test can prove the bytes arrived intact.
    "no media" when the adapter passed none on."""
    if not parts:
        return "no media"
    lines = []
    for kind, mime, data, url in parts:
        if data is not None:
            lines.append(f"media {kind} {mime or '-'} bytes={len(data)} fnv={fnv1a64(data):016x}")
        else:
            lines.append(f"media {kind} {mime or '-'} url={url}")
    return "\n".join(lines)


def is_approval(value: Any) -> bool:
    """Interpret a human-in-the-loop answer leniently.

    Accepts a bare boolean, an approval word, or an object with one of the
    usual keys ("approved", "confirmed", "accepted", "approve"), so tests can
    exercise the adapters' resume plumbing without caring about the
    payload shape.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        stripped = value.strip()
        try:
            parsed = json.loads(stripped)
        except ValueError:
            return stripped.lower() in _APPROVE_WORDS
        if isinstance(parsed, str):
            return parsed.strip().lower() in _APPROVE_WORDS
        return is_approval(parsed)
    if isinstance(value, dict):
        for key in ("approved", "confirmed", "accepted", "approve", "answer", "decision"):
            if key in value:
                return is_approval(value[key])
    return False


def slow_chunks() -> list[str]:
    return [f"chunk {i:02d}. " for i in range(1, SLOW_CHUNKS + 1)]


# Set (to anything) to also record each agent response's SSE bytes, served
# by GET /_outputs: the evidence for a flaky test (which events the adapter
# really sent). Off by default: the suite keeps no copy of every stream.
CAPTURE_SSE = bool(os.environ.get("INTEROP_CAPTURE_SSE"))


class InputRecorder:
    """Pure ASGI middleware that records every agent request body (and,
    with INTEROP_CAPTURE_SSE, every response body).

    It wraps `receive` instead of reading the body up front, so the adapter
    downstream still gets the exact bytes (BaseHTTPMiddleware-style body
    reading would also interfere with the SSE streaming responses).
    """

    def __init__(self, app: Any, agent_paths: Iterable[str]):
        self.app = app
        self.agent_paths = set(agent_paths)
        self.inputs: list[dict[str, Any]] = []
        self.outputs: list[dict[str, Any]] = []

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]], send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST" or scope.get("path") not in self.agent_paths:
            await self.app(scope, receive, send)
            return

        path = scope["path"]
        chunks: list[bytes] = []
        recorded = False

        async def recording_receive() -> dict:
            nonlocal recorded
            message = await receive()
            if message["type"] == "http.request" and not recorded:
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    recorded = True
                    raw = b"".join(chunks)
                    try:
                        body: Any = json.loads(raw)
                    except ValueError:
                        # Keep malformed bodies visible to tests too.
                        body = raw.decode("utf-8", "replace")
                    self.inputs.append({"path": path, "body": body})
            return message

        if not CAPTURE_SSE:
            await self.app(scope, recording_receive, send)
            return

        sent: list[bytes] = []

        async def recording_send(message: dict) -> None:
            if message["type"] == "http.response.body":
                sent.append(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, recording_receive, recording_send)
        finally:
            # Also what a cancelled or failed response had sent so far.
            self.outputs.append({"path": path, "sse": b"".join(sent).decode("utf-8", "replace")})


def add_test_routes(app: FastAPI, recorder_ref: "list[InputRecorder]") -> None:
    """/_health, /_inputs, /_outputs and /_reset. The recorder is looked up lazily
    because it wraps the app and so exists only after the app does."""

    @app.get("/_health")
    async def health() -> dict:
        return {"status": "ok"}

    @app.get("/_inputs")
    async def inputs() -> JSONResponse:
        return JSONResponse(recorder_ref[0].inputs)

    @app.get("/_outputs")
    async def outputs() -> JSONResponse:
        return JSONResponse(recorder_ref[0].outputs)

    @app.post("/_reset")
    async def reset() -> dict:
        recorder_ref[0].inputs.clear()
        recorder_ref[0].outputs.clear()
        return {"status": "ok"}


def build_asgi(app: FastAPI, agent_paths: Iterable[str]) -> InputRecorder:
    ref: list[InputRecorder] = []
    add_test_routes(app, ref)
    recorder = InputRecorder(app, agent_paths)
    ref.append(recorder)
    return recorder


def serve(asgi_app: Any, name: str) -> None:
    """Parse --port, bind 127.0.0.1 only, print `READY <port>` once the
    server accepts connections; everything else goes to stderr."""
    parser = argparse.ArgumentParser(description=f"AG-UI interop test server ({name})")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = any free port)")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args()

    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, args.log_level.upper(), logging.INFO),
        format=f"%(asctime)s {name} %(levelname)s %(name)s: %(message)s",
    )

    # Binding the socket ourselves lets --port 0 work and lets READY report
    # the real port.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]

    config = uvicorn.Config(
        asgi_app,
        log_config=None,  # keep our stderr-only logging; uvicorn logs access to stdout by default
        log_level=args.log_level,
        lifespan="on",
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            await asyncio.sleep(0.02)
        print(f"READY {port}", flush=True)

    async def main() -> None:
        announcer = asyncio.create_task(announce())
        await server.serve(sockets=[sock])
        announcer.cancel()

    asyncio.run(main())
