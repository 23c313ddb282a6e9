"""What comes in from outside, bounded and parsed in one place before any route or handler sees it.

- **JSON** (HTTP bodies and websocket messages alike) is parsed as the standard defines it: ``NaN``, ``Infinity``
  and numbers too large for a float are refused. Python's parser takes them, and they cannot be written back out,
  so an echo of one in an error message or a replay used to fail as a 500.
- **Bodies** are at most :data:`MAX_BODY_BYTES`; a longer one is refused with 413 before it is read into memory.
- **Malformed requests** get a 422 that names what is wrong, whatever the request held.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Coroutine

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest request body the server reads (a game record of the longest game is far smaller).
MAX_BODY_BYTES = 512 * 1024


def _not_a_number(token: str) -> float:
    raise ValueError(f"{token} is not a JSON number")


def _finite(token: str) -> float:
    value = float(token)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{token} is too large for a number")
    return value


def loads(data: str | bytes) -> Any:
    """Parse JSON from outside; every failure is a :class:`json.JSONDecodeError` (JSON nested deeper than the
    parser goes, a few kilobytes of ``[``, too: not a ``RecursionError``)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, (bytes, bytearray)) else data
    try:
        return json.loads(text, parse_constant=_not_a_number, parse_float=_finite)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
    except ValueError as exc:
        raise json.JSONDecodeError(str(exc), text, 0) from None


class _StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is parsed by :func:`loads` (FastAPI answers its error as a 422)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict


async def validation_problem(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 without the offending input echoed back (it may be anything, e.g. bytes or a huge string):
    where and what, as ``{"detail": [{"loc", "msg", "type"}]}``."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": [part if isinstance(part, (str, int)) else str(part) for part in error.get("loc", ())],
               "msg": str(error.get("msg", "invalid")), "type": str(error.get("type", "value_error"))}
              for error in errors[:20]]
    return JSONResponse({"detail": detail}, status_code=422)


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes is answered 413 without being read further."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        # Read the body here, counting (a chunked body declares no length), and hand it on as one message.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse({"detail": f"request bodies are limited to {self.limit} bytes"}, status_code=413)
        await response({"type": "http"}, _nothing, send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    queue = list(messages)

    async def replayed() -> Message:
        if queue:
            return queue.pop(0)
        return await receive()

    return replayed


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


class Problem(BaseModel):
    """Why a request was refused."""

    detail: str


def answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may give, for the OpenAPI schema (clients and schemathesis read it)."""
    return {code: {"model": Problem} for code in codes}
