"""What the heaviest upload the server accepts costs everyone else (issue #31): the round trip of another
connection's ``ping`` while ``POST /api/replay`` replays the longest record the limits allow.

The record is a whole 4-player game under the rules that allow the longest games (action points, buys, knights and
rounds at the top of their ranges, docs/notation.md §4), played by random legal actions that end a turn only when
nothing else is left, the longest of ``--candidates`` seeds.
One ``torres serve`` on loopback with a fresh SQLite file; a websocket pings 25 times a second throughout: first alone
(``--seconds``), then while ``--uploads`` uploads are replayed one after another (after one
unmeasured upload that starts the server's upload process). Prints the ping round trips
(median, p99, max) in both windows and the uploads' times. Bounded and loopback only.

    .venv/bin/python bench/upload_stall.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from torres.engine import GameState, Rules  # noqa: E402
from torres.engine.actions import O_END  # noqa: E402
from torres.engine.rules import INT_LIMITS  # noqa: E402
from torres.records import record_of  # noqa: E402

#: The rules of the longest games the engine accepts (docs/notation.md §4): the most action points, buys, knights
#: and rounds a phase.
LONGEST_RULES = (f"riogrande:action_points={INT_LIMITS['action_points'][1]},max_buys={INT_LIMITS['max_buys'][1]},"
                 f"knights_per_player={INT_LIMITS['knights_per_player'][1]},"
                 "phase_stacks=3.3.3.3.3|3.3.3.3.3|3.3.3.3.3")


def longest_record(candidates: int) -> dict[str, Any]:
    """The longest of ``candidates`` 4-player games whose players never end a turn while they can do anything
    else."""
    best: dict[str, Any] | None = None
    for seed in range(candidates):
        rng = random.Random(seed)
        state = GameState(4, seed, Rules.from_text(LONGEST_RULES))
        while not state.is_over():
            legal = state.legal_action_ids()
            busy = [a for a in legal if a != O_END]
            state.push(rng.choice(busy or legal), check=False)
        record = record_of(state, meta={"players": [{"name": f"Player {i + 1}"} for i in range(4)]})
        if best is None or len(record["actions"]) > len(best["actions"]):
            best = record
    assert best is not None
    return best


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, game_id: str, record: bytes, seconds: float, uploads: int) -> dict[str, Any]:
    import websockets

    alone: list[float] = []
    during: list[float] = []
    upload_times: list[float] = []
    phase = {"now": alone}
    done = asyncio.Event()

    async def pinger() -> None:
        async with websockets.connect(url.replace("http", "ws") + f"/ws/{game_id}") as ws:
            while not done.is_set():
                sent = time.perf_counter()
                await ws.send('{"type":"ping"}')
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                phase["now"].append(time.perf_counter() - sent)
                await asyncio.sleep(0.04)  # (under the flood limit of 30 messages a second)

    def post() -> float:
        request = urllib.request.Request(url + "/api/replay", data=record,
                                         headers={"content-type": "application/json"})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as answer:
            answer.read()
            assert answer.status == 200
        return time.perf_counter() - started

    await asyncio.to_thread(post)  # the first upload starts the server's upload process: not measured
    task = asyncio.create_task(pinger())
    await asyncio.sleep(seconds)
    phase["now"] = during
    for _ in range(uploads):
        upload_times.append(await asyncio.to_thread(post))
    done.set()
    await task

    def summary(values: list[float]) -> dict[str, float]:
        return {"pings": len(values), "p50_ms": round(1000 * statistics.median(values), 2),
                "p99_ms": round(1000 * _percentile(values, 0.99), 2), "max_ms": round(1000 * max(values), 2)}

    return {"alone": summary(alone), "during_uploads": summary(during),
            "upload_s": {"median": round(statistics.median(upload_times), 3), "max": round(max(upload_times), 3)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=20, help="seeds tried for the longest record")
    parser.add_argument("--seconds", type=float, default=3.0, help="pinging alone before the uploads")
    parser.add_argument("--uploads", type=int, default=10)
    args = parser.parse_args()

    record = longest_record(args.candidates)
    body = json.dumps(record).encode()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "torres.cli.main", "serve", "--port", str(port),
             "--database", f"sqlite:///{tmp}/bench.db"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(url + "/api/meta", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("torres serve did not start")
                    time.sleep(0.2)
            game = json.loads(urllib.request.urlopen(urllib.request.Request(
                url + "/api/games", data=b"{}", headers={"content-type": "application/json"})).read())
            result = asyncio.run(measure(url, game["id"], body, args.seconds, args.uploads))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
    result["record"] = {"rules": record["rules"], "actions": len(record["actions"]), "bytes": len(body)}
    result["load_average"] = os.getloadavg()[0]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
