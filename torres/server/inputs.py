"""What comes in from outside, bounded and parsed in one place before any route or handler sees it.

- **JSON** (HTTP bodies and websocket messages alike) is parsed as the standard defines it: ``NaN``, ``Infinity``
  and numbers too large for a float are refused. Python's parser takes them, and they cannot be written back out,
  so an echo of one in an error message or a replay used to fail as a 500.
- **Bodies** are at most :data:`MAX_BODY_BYTES`; a longer one is refused with 413 before it is read into memory.
- **Malformed requests** get a 422 that names what is wrong, whatever the request held.
- **Ids** in a path (:data:`GameId`, :data:`SeekId`, :func:`is_id`) are what the server makes them of, URL-safe
  letters and digits: any other text names nothing (404), and never reaches the database (PostgreSQL refuses a
  NUL byte in text with an error, which was a 500 where SQLite found nothing).
- **Text other people read** (a seat's name, a seek's note: :func:`one_line`) is one line without control or
  invisible formatting characters (a NUL, an escape sequence, a right-to-left override that reverses what follows).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Any, Callable, Coroutine

from fastapi import Depends, HTTPException, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest request body the server reads (a game record of the longest game is far smaller).
MAX_BODY_BYTES = 512 * 1024

#: What the server's ids (``secrets.token_urlsafe``) and usernames are made of.
URL_SAFE = r"^[A-Za-z0-9_-]+$"
#: The longest id the server makes is 12 characters; some room is left for ids made by another version.
MAX_ID_LENGTH = 64
_ID = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_ID_LENGTH)


def is_id(text: str) -> bool:
    """Whether ``text`` could be an id the server made."""
    return _ID.fullmatch(text) is not None


def _game_id(game_id: Annotated[str, Path(description="a game's id")]) -> str:
    if not is_id(game_id):
        raise HTTPException(404, "no such game")
    return game_id


def _seek_id(seek_id: Annotated[str, Path(description="an open game's id in the lobby")]) -> str:
    if not is_id(seek_id):
        raise HTTPException(404, "no such open game")
    return seek_id


#: A game's or an open game's id in a path: one the server cannot have made names nothing (404), as one it did not
#: make does, and is not looked up.
GameId = Annotated[str, Depends(_game_id)]
SeekId = Annotated[str, Depends(_seek_id)]


#: Invisible characters of category C that writing needs: the zero-width non-joiner and joiner (Persian, Indic
#: scripts, emoji sequences).
_JOINERS = {"\u200c", "\u200d"}


def one_line(text: str) -> str:
    """Text other people read, as they will see it: its runs of white space one space, and no control, private-use,
    unassigned or invisible formatting character (``ValueError`` names the first)."""
    line = " ".join(text.split())
    for char in line:
        if unicodedata.category(char).startswith("C") and char not in _JOINERS:
            raise ValueError(f"the character U+{ord(char):04X} ({unicodedata.category(char)}) is not allowed in "
                             "text others read")
    return line


def printable(text: str) -> str:
    """A client's id of a message: any printable text (it is stored and sent back), ``ValueError`` otherwise."""
    if not text.isprintable():
        raise ValueError("ids are printable text")
    return text


def _not_a_number(token: str) -> float:
    raise ValueError(f"{token} is not a JSON number")


def _finite(token: str) -> float:
    value = float(token)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{token} is too large for a number")
    return value


#: The deepest nesting of arrays and objects the server takes: a record is four levels deep. Deeper values are
#: refused before anything walks them: at 500 levels, handing a record to the upload worker failed as a 500
#: (pickling recursed too deeply).
MAX_DEPTH = 32


def loads(data: str | bytes) -> Any:
    """Parse JSON from outside; every failure is a :class:`json.JSONDecodeError` (JSON nested deeper than
    :data:`MAX_DEPTH`, or than the parser goes, too: not a ``RecursionError``)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, (bytes, bytearray)) else data
    try:
        value = json.loads(text, parse_constant=_not_a_number, parse_float=_finite)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, 0) from None
    except ValueError as exc:
        raise json.JSONDecodeError(str(exc), text, 0) from None
    if _too_deep(value):
        raise json.JSONDecodeError(f"arrays and objects nested more than {MAX_DEPTH} deep", text, 0)
    return value


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests arrays and objects more than :data:`MAX_DEPTH` deep (walked level by level, without
    recursion)."""
    containers = [value] if isinstance(value, (list, dict)) else []
    depth = 0
    while containers:
        depth += 1
        if depth > MAX_DEPTH:
            return True
        containers = [child for c in containers for child in (c.values() if isinstance(c, dict) else c)
                      if isinstance(child, (list, dict))]
    return False


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
