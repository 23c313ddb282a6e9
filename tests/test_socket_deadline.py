"""A test waiting for a websocket message that never comes fails after ``SOCKET_DEADLINE`` instead of hanging the
whole run (tests/conftest.py): a lobby message lost between two processes once left a run waiting for ever."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

import conftest
from torres.server.app import create_app


def test_a_message_that_never_comes_fails_the_test_at_the_deadline(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "SOCKET_DEADLINE", 1.0)
    with TestClient(create_app(db)) as client, client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "lobby"  # messages that come still arrive
        started = time.monotonic()
        with pytest.raises(AssertionError, match="no websocket message came within 1 s"):
            ws.receive_json()  # an anonymous lobby page hears nothing more while nothing changes
        assert time.monotonic() - started >= 1.0
