"""Bad input: every malformed, oversized, out-of-range or illegal input gets a clear answer (HTTP 4xx, a websocket
``rejected`` with a code or an ``error``), never a 500 or a server exception, and leaves every game unchanged.

- ``test_http_api_fuzzed_by_schemathesis``: schemathesis against the app's own OpenAPI schema, in process (ASGI),
  positive and negative data for every operation (also aimed at existing games); no 5xx, every response as the
  schema says; the stored rows of the games that existed before are byte for byte the same afterwards.
- ``test_websocket_messages_fuzzed``: hypothesis sends arbitrary JSON, wrong types, huge numbers, unknown types,
  oversized strings and random or near-miss notation from a seated connection and a spectator, with the server's
  exceptions raised into the test; every message gets an answer, and the stored game changes only by an action
  that was acknowledged.
- ``test_rules_texts_make_a_playable_game_or_a_400``: hypothesis over a new game's rules text (any edition, any
  settings and values): refused with a reason, or a game that plays to its end.
- Regression tests for what fuzzing found: JSON nested deeper than the parser goes (a ``RecursionError`` out of the
  socket handler), rules texts that made a 500 or games that crash mid-play, error statuses the OpenAPI schema did
  not declare, and an uploaded record with impossible rules answered with a 500.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)
from starlette.websockets import WebSocketDisconnect

from torres.engine.cards import Card
from torres.server.app import create_app
from torres.server.protocol import ClientMessage, Limits

FAST = Limits(burst=100_000, per_second=100_000)
#: The opening of a game the tests play before fuzzing (seat 0 then seat 1 place knights; seat 1 the king).
OPENING = [("start d8", 0), ("start c6", 1), ("king f6", 1), ("stack 3", 0), ("block d7", 0)]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{database}", client_limits=FAST), raise_server_exceptions=True) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"players": 2, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "hotseat": True, "bot_speed": "instant", **body}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def receive(ws: Any, *kinds: str) -> dict[str, Any]:
    for _ in range(50):
        message = dict(ws.receive_json())
        if message["type"] in kinds:
            return message
    raise AssertionError(f"no {kinds}")


def play_opening(client: TestClient, game: dict[str, Any], moves: list[tuple[str, int]]) -> None:
    tokens = {int(k): v for k, v in game["tokens"].items()}
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        version = game["version"]
        for i, (action, seat) in enumerate(moves):
            ws.send_json({"type": "hello", "seat": seat, "token": tokens[seat], "version": version})
            receive(ws, "welcome")
            ws.send_json({"type": "act", "id": f"o{i}", "version": version, "action": action})
            answer = receive(ws, "ack", "rejected")
            assert answer["type"] == "ack", answer
            version = answer["version"]


def rows(database: Path, game_ids: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row of these games (games, seats, events), as the database holds them."""
    marks = ",".join("?" * len(game_ids))
    with sqlite3.connect(database) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table} WHERE {key} IN ({marks})", game_ids).fetchall())
                for table, key in (("games", "id"), ("seats", "game_id"), ("events", "game_id"))}


# --- HTTP --------------------------------------------------------------------------------------------------------
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
#: The error answers docs/server.md promises ({"detail": "<why>"}) by operation; the app's OpenAPI schema declares
#: them (test_the_openapi_schema_documents_the_error_answers), so any other status or body fails the fuzzing.
PROMISED_ERRORS: dict[tuple[str, str], tuple[int, ...]] = {
    ("get", "/api/rules/{lang}"): (404,),
    ("post", "/api/games"): (400,),
    ("get", "/api/games/{game_id}"): (404,),
    ("post", "/api/games/{game_id}/join"): (400, 404, 409),
    ("get", "/api/games/{game_id}/record"): (403, 404),
    ("get", "/api/games/{game_id}/replay"): (403, 404),
    ("post", "/api/replay"): (400, 413),
    ("get", "/api/tutorial/{lesson_id}"): (404,),
    ("post", "/api/tutorial/{lesson_id}/try"): (400, 404),
    ("post", "/api/accounts"): (403, 409),
    ("post", "/api/session"): (401, 403, 429),
    ("delete", "/api/session"): (403,),
    ("post", "/api/account/password"): (401, 403, 429),
    ("delete", "/api/account"): (401, 403, 429),
    ("post", "/api/account/seats"): (401, 403),
    ("get", "/api/account/games"): (401,),
    ("post", "/api/lobby"): (400, 401, 403, 409),
    ("post", "/api/lobby/{seek_id}/join"): (401, 403, 404, 409),
    ("post", "/api/lobby/{seek_id}/leave"): (401, 403, 404, 409),
    ("delete", "/api/lobby/{seek_id}"): (401, 403, 404, 409),
    ("post", "/api/lobby/{seek_id}/start"): (401, 403, 404, 409),
    ("post", "/api/games/{game_id}/rematch"): (401, 403, 404, 409),
    ("get", "/api/players/{username}"): (404,),
    ("post", "/api/games/{game_id}/analysis"): (400, 403, 404),
    ("get", "/api/games/{game_id}/analysis"): (400, 403, 404),
    ("post", "/api/sandbox"): (400,),
    ("post", "/api/sandbox/hint"): (400, 503),
    ("post", "/api/sandbox/position"): (400,),
    ("get", "/api/games/{game_id}/position"): (400, 403, 404),
    ("get", "/api/puzzles/{puzzle_id}"): (404,),
    ("post", "/api/puzzles/{puzzle_id}/step"): (400, 404),
    ("post", "/api/puzzles/{puzzle_id}/attempt"): (400, 404),
    ("post", "/api/puzzles/{puzzle_id}/solution"): (404,),
}
def httpx_arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    """schemathesis's request arguments (made for ``requests``) as httpx takes them without a deprecation warning:
    cookies as a header (httpx wants them on the client, not per request) and a raw body as ``content``."""
    cookies = kwargs.pop("cookies", None)
    if cookies:
        headers = dict(kwargs.get("headers") or {})
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
        kwargs["headers"] = headers
    if isinstance(kwargs.get("data"), (bytes, str)):
        kwargs["content"] = kwargs.pop("data")
    return kwargs


def test_http_api_fuzzed_by_schemathesis(client: TestClient, database: Path) -> None:
    games = [new_game(client), new_game(client, players=3, edition="ravensburger",
                                        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])]
    play_opening(client, games[0], OPENING)
    ids = [g["id"] for g in games]
    before = rows(database, ids)
    assert len(before["events"]) == len(OPENING)

    schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8
    strategies = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        for operation in operations:
            strategies.append(operation.as_strategy(generation_mode=mode))
            if "{game_id}" in operation.path:  # aimed at the games that exist, not only at random ids
                strategies.append(operation.as_strategy(generation_mode=mode,
                                                        path_parameters={"game_id": ids[0]}))
    statuses: list[int] = []

    @given(case=st.one_of(strategies))
    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case: Any) -> None:
        response = client.request(**httpx_arguments(case.as_transport_kwargs(base_url="http://testserver")))
        statuses.append(response.status_code)
        case.validate_response(response, checks=CHECKS)

    fuzz()
    assert all(s < 500 for s in statuses) and {400, 404, 422} <= set(statuses)
    assert rows(database, ids) == before  # fuzzing changed no stored game


# --- the websocket -------------------------------------------------------------------------------------------
WORDS = ["keep", "play", "lift", "climb", "c3", "c4", "from:99", "c4-c4", "d8-d7", "buy", "end", "top:climb",
         "bottom:", "bottom:vault,gate", "start", "d8", "c6", "f6", "king", "block", "d7", "stack", "3", "-1", "0",
         "99999999999999999999", "first", "score", "?", "", "\u0000", "é", "from:", "to:h9", "six", "seven"]
WORDS += [c.text for c in Card]
NEAR_MISSES = ["c4-c4", "play lift c3 from:99", "keep", "keep ?", "start d8", "start c6", "king f6", "stack 3",
               "block d7", "buy", "end", "keep climb", "play six", "undo", "start a1", "start d8 d8", "START D8"]
notation = st.one_of(st.sampled_from(NEAR_MISSES), st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join),
                     st.text(max_size=40), st.text(alphabet="abcdefgh12345678-: ,", max_size=30))
numbers = st.one_of(st.integers(), st.integers(min_value=2**63, max_value=2**200), st.integers(max_value=-1),
                    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(), st.text(max_size=5))
json_values = st.recursive(st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=20)),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)
ids = st.one_of(st.text(min_size=1, max_size=64), st.text(max_size=80), numbers)
structured = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(["hello", "act", "undo", "hint", "speed", "ping", "bogus", "", "ACT"]),
                       st.text(max_size=10), numbers)},
    optional={"id": ids, "version": numbers, "action": st.one_of(notation, json_values), "seat": numbers,
              "token": st.one_of(st.none(), st.text(max_size=50), numbers), "value": st.one_of(st.text(), numbers),
              "extra": json_values})
well_formed_acts = st.builds(lambda i, v, a: {"type": "act", "id": i, "version": v, "action": a},
                             st.text(min_size=1, max_size=64), st.integers(min_value=0, max_value=12), notation)
raw_texts = st.one_of(st.text(max_size=60), st.just("[" * 2000 + "]" * 2000), st.just('{"type": "act"' * 2),
                      st.integers(min_value=4097, max_value=6000).map(lambda n: json.dumps({"type": "ping",
                                                                                             "pad": "x" * n})))
#: "LEGAL", "UNDO" and "NOW:<notation>" stand for a legal action, an undo and that notation at the game's current
#: version (filled in when sent).
messages = st.one_of(structured.map(lambda m: json.dumps(m)), well_formed_acts.map(json.dumps),
                     json_values.map(json.dumps), raw_texts, st.sampled_from(["LEGAL", "UNDO"]),
                     notation.map(lambda a: "NOW:" + a))

ANSWERS = {"pong", "welcome", "ack", "rejected", "error", "update", "game"}


class Seats:
    """A hot-seat game with a connection for the seat to act (re-introduced as play moves on) and a spectator."""

    def __init__(self, client: TestClient, game: dict[str, Any], stack: Any) -> None:
        self.client, self.game, self.stack = client, game, stack
        self.tokens = {int(k): v for k, v in game["tokens"].items()}
        self.sockets: dict[str, Any] = {}
        for who in ("seated", "spectator"):
            self.connect(who)

    def connect(self, who: str) -> None:
        ws = self.stack.enter_context(self.client.websocket_connect(f"/ws/{self.game['id']}"))
        self.sockets[who] = ws
        self.hello(who)

    def hello(self, who: str) -> None:
        seat = self.summary()["current"] if who == "seated" else None
        self.sockets[who].send_json({"type": "hello", "seat": seat, "token": self.tokens.get(seat), "version": None})
        welcome = receive(self.sockets[who], "welcome")
        self.version = welcome["version"]
        if who == "seated":
            self.legal = [a["action"] for a in welcome["view"]["legal"]]
        self.exchange(who, None)  # whatever followed the welcome (seat summaries)

    def summary(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/games/{self.game['id']}").json())

    def exchange(self, who: str, text: str | None) -> list[dict[str, Any]]:
        """Send ``text`` and a ping after it; every message up to that ping's pong. A connection that is cut
        off (too large) is reopened."""
        ws = self.sockets[who]
        answers: list[dict[str, Any]] = []
        if text is not None:
            self.exchange(who, None)  # first what was on its way (other connections' updates)
            ws.send_text(text)
        try:
            ws.send_json({"type": "ping"})
            for _ in range(100):
                message = dict(ws.receive_json())
                if message["type"] == "pong" and not any(m["type"] == "pong" for m in answers) and \
                        _is_ping(text):
                    answers.append(message)
                    continue
                if message["type"] == "pong":
                    return answers
                answers.append(message)
            raise AssertionError("no pong")
        except WebSocketDisconnect:
            self.connect(who)
            return answers + [{"type": "closed"}]


def _is_ping(text: str | None) -> bool:
    if text is None:
        return False
    try:
        message = ClientMessage.validate_python(json.loads(text))
    except Exception:
        return False
    return getattr(message, "type", None) == "ping"


def test_websocket_messages_fuzzed(client: TestClient, database: Path, caplog: pytest.LogCaptureFixture) -> None:
    from contextlib import ExitStack

    game = new_game(client)
    other = new_game(client)
    play_opening(client, other, OPENING[:2])
    untouched = rows(database, [other["id"]])
    caplog.set_level(logging.WARNING)
    seen: set[str] = set()
    acks: list[str] = []
    with ExitStack() as stack:
        seats = Seats(client, game, stack)

        @given(text=messages, who=st.sampled_from(["seated", "spectator"]))
        @settings(max_examples=600, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        def fuzz(text: str, who: str) -> None:
            if '"hint"' in text and who == "seated":
                return  # a real hint asks the strongest bot for a second: not what this test is for
            if text in ("LEGAL", "UNDO"):
                made = {"type": "act", "action": seats.legal[0]} if text == "LEGAL" else {"type": "undo"}
                text = json.dumps({**made, "id": f"{text}{len(acks)}", "version": seats.version})
            elif text.startswith("NOW:"):
                text = json.dumps({"type": "act", "id": f"n{len(acks)}", "version": seats.version, "action": text[4:]})
            before = rows(database, [game["id"]])
            answers = seats.exchange(who, text)
            kinds = [m["type"] for m in answers]
            assert answers and set(kinds) <= ANSWERS | {"closed"}, (text[:200], answers)
            for m in answers:
                if m["type"] in ("rejected", "error"):
                    assert isinstance(m["code"], str) and m["code"] and isinstance(m["message"], str) \
                        and m["message"], m
                    seen.add(m["code"])
            if len(text) > FAST.max_bytes:
                own = [m for m in answers if m["type"] != "game"]  # seat summaries may come in between
                assert own[0]["type"] == "error" and own[0]["code"] == "too_large" and kinds[-1] == "closed"
            after = rows(database, [game["id"]])
            if after["games"][0][:6] != before["games"][0][:6] or after["events"] != before["events"]:
                assert "ack" in kinds and who == "seated", (text, answers)
                assert json.loads(text)["type"] in ("act", "undo")
                seats.hello("seated")  # the turn may have passed to the other seat
                acks.append(text)
            elif "ack" in kinds:
                raise AssertionError(f"acknowledged but not stored: {text!r}")
            elif who == "seated" and "welcome" in kinds:
                seats.hello("seated")  # a fuzzed hello made it a spectator (or another seat): sit down again

        fuzz()
    assert {"bad_message", "illegal", "no_seat", "too_large"} <= seen, seen
    assert acks  # legal actions were among them, and only they changed the game
    assert rows(database, [other["id"]]) == untouched
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.parametrize("text", [
    "[" * 2000 + "]" * 2000,  # deeper than Python's JSON parser goes
    '{"id": ' + "[" * 2000 + "]" * 2000 + "}",
])
def test_deeply_nested_json_is_a_bad_message_not_a_crash(client: TestClient, text: str) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(text)
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_message", answer
        ws.send_json({"type": "ping"})
        assert receive(ws, "pong")


def test_the_flood_limit_is_per_connection(database: Path) -> None:
    """One page flooding the server is cut off; another page of the same game goes on."""
    with TestClient(create_app(f"sqlite:///{database}", client_limits=Limits(burst=5, per_second=1))) as client:
        game = new_game(client)
        with client.websocket_connect(f"/ws/{game['id']}") as calm, \
                client.websocket_connect(f"/ws/{game['id']}") as flood:
            for _ in range(6):
                flood.send_json({"type": "ping"})
            for _ in range(5):
                assert flood.receive_json() == {"type": "pong"}
            assert receive(flood, "error")["code"] == "too_many"
            with pytest.raises(WebSocketDisconnect):
                flood.receive_json()
            calm.send_json({"type": "ping"})
            assert receive(calm, "pong") == {"type": "pong"}


def test_the_openapi_schema_documents_the_error_answers(client: TestClient) -> None:
    raw = client.get("/openapi.json").json()
    missing = [(m, p, s) for (m, p), statuses in PROMISED_ERRORS.items() for s in statuses
               if str(s) not in raw["paths"][p][m]["responses"]]
    assert not missing, missing


def test_the_app_schema_loads_in_process(client: TestClient) -> None:
    """schemathesis reads the schema straight from the ASGI app (what the fuzz test extends)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    assert {op.ok().path for op in schema.get_all_operations()} == {p for _, p in PROMISED_ERRORS} | {
        "/api/meta", "/api/games", "/api/tutorial", "/api/leaderboard", "/api/puzzles"}


# --- rules texts -----------------------------------------------------------------------------------------------
SETTING_VALUES = ["0", "1", "-1", "3", "99", "999999999999", "abc", "", "d8", "d8.c6", "z9", "3.3.3|3.3|3", "own",
                  "common", "a4.a4.a4.a4.a4.a4", "player", "largest", "keep", "gap1_no_diagonal", "0.5"]


def rules_texts() -> st.SearchStrategy[str]:
    import dataclasses

    from torres.engine.rules import EDITIONS, Rules

    names = [f.name for f in dataclasses.fields(Rules)] + ["nope"]
    setting = st.tuples(st.sampled_from(names), st.one_of(st.sampled_from(SETTING_VALUES), st.text(max_size=6)))
    return st.builds(lambda e, items: e + (":" + ",".join(f"{k}={v}" for k, v in items) if items else ""),
                     st.sampled_from(list(EDITIONS)), st.lists(setting, max_size=3))


def test_rules_texts_make_a_playable_game_or_a_400(client: TestClient) -> None:
    """A new game's rules text is any edition with any settings: it is refused (400/422) or makes a game that plays
    to its end (``castles=z9`` was a 500; ``blocks_total=0``, ``phase_stacks=0`` crashed games in the middle)."""
    import random

    from torres.engine.rules import Rules
    from torres.engine.state import GameState

    statuses: list[int] = []

    @given(text=rules_texts(), players=st.integers(2, 4))
    @settings(max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def fuzz(text: str, players: int) -> None:
        answer = client.post("/api/games", json={"players": players, "edition": text, "hotseat": True,
                                                 "seats": [{"kind": "human"}] * players})
        statuses.append(answer.status_code)
        assert answer.status_code in (201, 400, 422), (text, answer.text)
        if answer.status_code != 201:
            assert answer.json()["detail"]
            return
        state = GameState(players, 1, Rules.from_text(answer.json()["game"]["rules"]))
        rng = random.Random(0)
        while not state.is_over():
            state.push(rng.choice(state.legal_action_ids()))

    fuzz()
    assert {201, 400} <= set(statuses)


def test_an_uploaded_record_with_impossible_rules_is_a_400(client: TestClient) -> None:
    from torres.records import FORMAT, VERSION

    record = {"format": FORMAT, "version": VERSION, "rules": "riogrande:castles=z9", "edition": "riogrande",
              "players": 2, "seed": 1, "actions": [], "result": {"scores": [0, 0], "winners": [], "finished": False}}
    with TestClient(client.app, raise_server_exceptions=False) as other:
        assert other.post("/api/replay", json=record).status_code == 400


@pytest.mark.parametrize("edition", ["riogrande:castles=z9", "riogrande:edition=0", "hebrew:phase_stacks=0",
                                     "ravensburger:blocks_total=0", "riogrande:castles=d8",
                                     "riogrande:master_card=99", "idw:knights_per_player=0"])
def test_rules_that_make_no_game_are_refused(client: TestClient, edition: str) -> None:
    answer = client.post("/api/games", json={"players": 2, "edition": edition, "hotseat": True,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 400 and answer.json()["detail"], answer.text


@pytest.mark.parametrize("edition", ["idw:master=1", "riogrande:card_mode=common,spacing=gap1_no_diagonal",
                                     "yucata:master=1,master_card=3", "riogrande:stack_cap=0"])
def test_rules_variants_are_still_welcome(client: TestClient, edition: str) -> None:
    answer = client.post("/api/games", json={"players": 2, "edition": edition, "hotseat": True,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.text
