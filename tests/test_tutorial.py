"""The guided first game (issue #32): every lesson checked with the engine, its HTTP API, and the whole tutorial in
the browser, in English and German, from the home page to a game against the beginner bot.

- the engine: each lesson's position builds, its solution is legal action by action and reaches the goal (every
  action before the last one "on the way"), and at least one other legal action does not, with a reason in both
  languages;
- the API: the list, a lesson, attempts (goal, not the goal, an illegal action → 400 with the engine's reason, too
  many or too long actions → 422, an action after the end → 400, an unknown lesson → 404, NaN → 422);
- the browser (Playwright on Debian's chromium): the home page's link, every lesson by clicking what a person
  clicks (squares by their accessible names, buttons by their names), the server's messages read from the page's
  status region, a wrong move and "Try again", the progress kept, and "Play a game against the beginner bot".
  Screenshots of lessons in both languages go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient

from torres.engine.actions import Kind
from torres.server.app import create_app
from torres.tutorial import LESSONS, MAX_ACTIONS, AttemptError, attempt

from board_clicks import click_from_any_side

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: axe-core (scripts/test: `npm ci --prefix tests/axe`): the pages' accessibility, checked where it is installed.
AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


# --- the lessons, with the engine ------------------------------------------------------------------------------
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_lesson_solution_is_legal_and_reaches_the_goal(lesson: Any) -> None:
    state = lesson.setup()
    assert state.current == 0 and state.legal_action_ids(), "the learner is to act"
    for i in range(len(lesson.solution)):
        result = attempt(lesson, list(lesson.solution[:i + 1]))
        expected = "goal" if i == len(lesson.solution) - 1 else "step"
        assert result.last is not None and result.last.kind == expected, (lesson.id, lesson.solution[:i + 1])
        assert result.last.message["en"] and result.last.message["de"]
    for text in (lesson.title, lesson.text, lesson.task):
        assert set(text) == {"en", "de"} and all(text.values())


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_lesson_has_a_legal_action_that_is_not_the_goal(lesson: Any) -> None:
    """Among the actions the page offers at the first step, some are legal but not the goal: each is judged
    ``wrong`` (or ``step``, on the way) with a reason in both languages, never ``goal``."""
    state = lesson.setup()
    offered = {"move": {Kind.MOVE}, "knight": {Kind.KNIGHT}, "block": {Kind.BLOCK}, "stack": {Kind.STACK},
               "score": {Kind.SCORE}, "end": {Kind.END}, "card": {Kind.CLIMB}}
    kinds = set().union(*(offered[o] for o in lesson.offer))
    others = [str(a) for a in state.legal_actions if a.kind in kinds and str(a) != lesson.solution[0]]
    if lesson.id == "build":  # the first step is the stack: the other choices come with the block
        prefix = ["stack 3"]
        state.push("stack 3")
        others = [str(a) for a in state.legal_actions if a.kind is Kind.BLOCK and str(a) != lesson.solution[1]]
    else:
        prefix = []
    judged = {text: attempt(lesson, prefix + [text]).last for text in others}
    assert any(o is not None and o.kind == "wrong" for o in judged.values()), lesson.id
    for text, outcome in judged.items():
        assert outcome is not None and outcome.message["en"] and outcome.message["de"]
        assert outcome.kind != "goal", (lesson.id, text)


def test_the_castles_lesson_goal_is_the_engines_best_move() -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.id == "castles")
    state = lesson.setup()
    scored = {}
    for action in state.legal_actions:
        if action.kind is Kind.MOVE:
            state.push(action)
            scored[str(action)] = state.scoring_now().castle_points(0)
            state.pop()
    best = max(scored.values())
    for text, points in scored.items():
        assert (attempt(lesson, [text]).last.kind == "goal") == (points == best), text  # type: ignore[union-attr]


def test_the_scoring_lesson_scores_phase_one() -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.id == "scoring")
    result = attempt(lesson, list(lesson.solution))
    assert len(result.state.scorings) == 1
    scoring = result.state.scorings[0]
    assert str(scoring.after[0]) in result.last.message["en"]  # type: ignore[union-attr]
    assert scoring.after[0] > scoring.after[1], "the learner's better move wins the phase"


def test_an_attempt_refuses_illegal_and_late_actions() -> None:
    lesson = LESSONS[0]
    with pytest.raises(AttemptError, match="b4-d4"):  # two levels up: the engine's reason
        attempt(lesson, ["b4-d4"])
    with pytest.raises(AttemptError, match="unknown action"):
        attempt(lesson, ["fly away"])
    with pytest.raises(AttemptError, match="ended"):
        attempt(lesson, ["b4-a4", "a4-b4"])
    with pytest.raises(AttemptError, match="at most"):
        attempt(lesson, ["b4-c4"] * (MAX_ACTIONS + 1))


# --- the HTTP API --------------------------------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as c:
        yield c


def test_api_lists_the_lessons(client: TestClient) -> None:
    answer = client.get("/api/tutorial")
    assert answer.status_code == 200
    lessons = answer.json()["lessons"]
    assert [lesson["id"] for lesson in lessons] == [lesson.id for lesson in LESSONS]
    assert all(set(lesson["title"]) == {"en", "de"} for lesson in lessons)


def test_api_serves_a_lesson_with_the_learners_view(client: TestClient) -> None:
    answer = client.get("/api/tutorial/move")
    assert answer.status_code == 200
    data = answer.json()
    assert data["index"] == 0 and data["count"] == len(LESSONS) and data["next"] == LESSONS[1].id
    assert data["offer"] == ["move"] and data["view"]["seat"] == 0 and data["view"]["knights"][0] == ["b4"]
    move = {"action": "b4-c4", "kind": "move", "from": "b4", "to": "c4", "card": None, "cost": 1}
    assert move in data["view"]["legal"]
    assert data["points_now"] == [0, 1]
    assert client.get(f"/api/tutorial/{LESSONS[-1].id}").json()["next"] is None


def test_api_try_goal_step_and_wrong(client: TestClient) -> None:
    step = client.post("/api/tutorial/move/try", json={"actions": ["b4-c4"]}).json()
    assert step["outcome"] == "step" and not step["goal"] and step["view"]["knights"][0] == ["c4"]
    goal = client.post("/api/tutorial/move/try", json={"actions": ["b4-c4", "c4-d4", "d4-e4"]}).json()
    assert goal["outcome"] == "goal" and goal["goal"] and "Well done" in goal["message"]["en"]
    assert "Gut gemacht" in goal["message"]["de"]
    wrong = client.post("/api/tutorial/move/try", json={"actions": ["b4-a4"]}).json()
    assert wrong["outcome"] == "wrong" and not wrong["goal"] and "stayed on level 0" in wrong["message"]["en"]
    empty = client.post("/api/tutorial/move/try", json={"actions": []}).json()
    assert empty["outcome"] is None and empty["view"]["knights"][0] == ["b4"]


def test_api_refuses_bad_attempts(client: TestClient) -> None:
    illegal = client.post("/api/tutorial/move/try", json={"actions": ["b4-d4"]})
    assert illegal.status_code == 400 and "up at most one level" in illegal.json()["detail"]
    late = client.post("/api/tutorial/move/try", json={"actions": ["b4-a4", "a4-b4"]})
    assert late.status_code == 400 and "ended" in late.json()["detail"]
    assert client.post("/api/tutorial/move/try", json={"actions": ["b4-c4"] * 21}).status_code == 422
    assert client.post("/api/tutorial/move/try", json={"actions": ["x" * 65]}).status_code == 422
    assert client.post("/api/tutorial/move/try", json={"actions": [1]}).status_code == 422
    assert client.post("/api/tutorial/move/try", json={"actions": [], "more": 1}).status_code == 422
    nan = client.post("/api/tutorial/move/try", content=b'{"actions": [NaN]}',
                      headers={"Content-Type": "application/json"})
    assert nan.status_code == 422
    for path in ("/api/tutorial/nope", "/api/tutorial/nope/try"):
        answer = client.post(path, json={"actions": []}) if path.endswith("try") else client.get(path)
        assert answer.status_code == 404 and "no lesson" in answer.json()["detail"]
    assert client.get("/api/tutorial/" + "x" * 500).status_code == 422


def test_api_tutorial_pages_are_the_single_page_app(client: TestClient) -> None:
    for path in ("/tutorial", "/tutorial/move"):
        answer = client.get(path)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]


def test_api_tutorial_fuzzed_by_schemathesis(client: TestClient) -> None:
    """schemathesis over the tutorial's operations (positive and negative data): never a 5xx, every answer as the
    schema says."""
    schemathesis = pytest.importorskip("schemathesis")
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from schemathesis.generation import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                                   status_code_conformance)

    raw = client.get("/openapi.json").json()
    raw["paths"] = {p: v for p, v in raw["paths"].items() if p.startswith("/api/tutorial")}
    assert len(raw["paths"]) == 3
    schema = schemathesis.openapi.from_dict(raw)
    strategies = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        for result in schema.get_all_operations():
            operation = result.ok()
            strategies.append(operation.as_strategy(generation_mode=mode))
            if "{lesson_id}" in operation.path:  # aimed at the lessons that exist, not only at random ids
                for lesson in ("move", "build", "card"):
                    strategies.append(operation.as_strategy(generation_mode=mode,
                                                            path_parameters={"lesson_id": lesson}))
    statuses: list[int] = []

    @given(case=st.one_of(strategies))
    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def fuzz(case: Any) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        cookies = kwargs.pop("cookies", None)
        if cookies:
            kwargs.setdefault("headers", {})["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if isinstance(kwargs.get("data"), (bytes, str)):
            kwargs["content"] = kwargs.pop("data")
        response = client.request(**kwargs)
        statuses.append(response.status_code)
        assert response.status_code < 500, (kwargs, response.text)
        case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                 content_type_conformance, response_schema_conformance])

    fuzz()
    assert {200, 404, 422} <= set(statuses), sorted(set(statuses))


def test_attempts_with_any_text_are_judged_or_refused() -> None:
    """Whatever the actions say, an attempt is judged or refused with a reason (``AttemptError``): never another
    exception (the server would answer it with a 500)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    words = ["b4-c4", "c4-d4", "d4-e4", "stack 3", "block d4", "knight c4", "end", "play climb c3-c4", "play",
             "climb", "keep", "buy", "score", "c3", "-", "from:9", "", "é", "\u0000", "a1-h8", "king f6"]
    texts = st.one_of(st.sampled_from(words), st.lists(st.sampled_from(words), max_size=4).map(" ".join),
                      st.text(max_size=64))

    @given(index=st.integers(0, len(LESSONS) - 1), actions=st.lists(texts, max_size=MAX_ACTIONS))
    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def fuzz(index: int, actions: list[str]) -> None:
        try:
            result = attempt(LESSONS[index], actions)
        except AttemptError as exc:
            assert str(exc)
        else:
            assert len(result.outcomes) == len(actions)

    fuzz()


# --- the browser ---------------------------------------------------------------------------------------------------

#: What a person reads on the page, by language.
WORDS = {
    "en": {"tutorial": "Tutorial", "start": "Start the first lesson", "next": "Next lesson", "again": "Try again",
           "all": "All lessons", "done": "done", "continue": "Continue: Add a knight", "knight": "Add a knight",
           "block": "Build a block", "stack": "Take stack of {n}", "end": "End turn", "flat": "Flat",
           "score": "Score 1 point (1 AP)",
           "rotate": "Rotate", "climb": "Climb", "play": "Play a game against the beginner bot",
           "bot": "Bot 2 (beginner)", "first": "Place a first knight on a castle", "lesson": "Lesson {n} of 8"},
    "de": {"tutorial": "Einführung", "start": "Erste Lektion beginnen", "next": "Nächste Lektion",
           "again": "Noch einmal", "all": "Alle Lektionen", "done": "erledigt", "continue": "Weiter: Ritter einsetzen",
           "knight": "Ritter einsetzen", "block": "Baustein setzen", "stack": "Turm mit {n} nehmen",
           "end": "Zug beenden", "flat": "Flach", "rotate": "Drehen", "climb": "Klettern",
           "score": "1 Punkt vorziehen (1 AP)",
           "play": "Eine Partie gegen den Anfänger-Bot spielen", "bot": "Bot 2 (Anfänger)",
           "first": "Einen ersten Ritter auf eine Burg setzen", "lesson": "Lektion {n} von 8"},
}




def square(p: Any, name: str) -> Any:
    """A square of the board, found by its accessible name ("c4, level 1, …")."""
    return p.get_by_role("button", name=re.compile(rf"^{name},"))


def click_square(p: Any, name: str, words: dict[str, str]) -> None:
    """Click a square, from a side of the 3D view where no taller square covers it."""
    click_from_any_side(lambda: square(p, name), lambda: p.get_by_role("button", name=words["rotate"]).click(), name)


def act(p: Any, action: str, words: dict[str, str]) -> None:
    """Do one action of a lesson as a person does: buttons by their names, squares by theirs."""
    if action in ("end", "score"):
        p.get_by_role("button", name=words[action]).click()
    elif action.startswith("stack "):
        p.get_by_role("button", name=words["stack"].format(n=action.split()[1])).click()
    elif action.startswith("knight "):
        p.get_by_role("button", name=re.compile("^" + re.escape(words["knight"]))).click()
        click_square(p, action.split()[1], words)
    elif action.startswith("block "):
        p.get_by_role("button", name=re.compile("^" + re.escape(words["block"]))).click()
        click_square(p, action.split()[1], words)
    elif action.startswith("play climb "):
        p.get_by_role("button", name=re.compile("^" + words["climb"])).click()
        click_square(p, action.split()[-1].split("-")[1], words)
    else:
        src, dst = action.split("-")
        click_square(p, src, words)
        click_square(p, dst, words)


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (none where axe is not installed)."""
    if not AXE.exists():
        return []
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes']][:4]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def take_the_tutorial(browser: Any, base: str, lang: str, view: str, shots: Path) -> None:
    from playwright.sync_api import expect

    words = WORDS[lang]
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10000)
    try:
        page.goto(base + "/")
        page.get_by_role("button", name=lang.upper()).click()
        page.get_by_role("link", name=words["tutorial"], exact=True).click()
        page.wait_for_url(re.compile(r".*/tutorial$"))
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert not axe_violations(page), axe_violations(page)
        page.get_by_role("link", name=words["start"]).click()
        for n, lesson in enumerate(LESSONS, start=1):
            page.wait_for_url(re.compile(rf".*/tutorial/{lesson.id}$"))
            expect(page.get_by_role("heading", name=lesson.title[lang])).to_be_visible()
            expect(page.get_by_text(words["lesson"].format(n=n))).to_be_visible()
            if n == 1 and view == "flat":
                page.get_by_role("button", name=words["flat"]).click()
            status = page.get_by_role("status")
            if n == 1:  # a wrong move first: the reason, then "Try again"
                act(page, "b4-a4", words)
                expect(status).to_have_text(attempt(lesson, ["b4-a4"]).last.message[lang])  # type: ignore[union-attr]
                page.screenshot(path=str(shots / f"tutorial-{lang}-{view}-wrong.png"))
                page.get_by_role("button", name=words["again"]).click()
                expect(status).to_have_text("")
            for i, action in enumerate(lesson.solution):
                act(page, action, words)
                expected = attempt(lesson, list(lesson.solution[:i + 1])).last
                expect(status).to_have_text(expected.message[lang])  # type: ignore[union-attr]
            if lesson.id in ("build", "scoring"):
                page.screenshot(path=str(shots / f"tutorial-{lang}-{view}-{lesson.id}.png"))
            if lesson.id in ("move", "card"):
                assert not axe_violations(page), (lesson.id, axe_violations(page))
            if n == 1:  # progress is kept: the list shows the lesson done and goes on with the next one
                page.get_by_role("link", name=words["all"]).click()
                expect(page.get_by_role("listitem").filter(has_text=lesson.title[lang])).to_contain_text(words["done"])
                page.get_by_role("link", name=words["continue"]).click()
                continue
            if n < len(LESSONS):
                page.get_by_role("link", name=words["next"]).click()
        page.get_by_role("button", name=words["play"]).click()
        page.wait_for_url(re.compile(r".*/game/[\w-]+$"))
        expect(page.get_by_text(words["bot"]).first).to_be_visible()
        expect(page.get_by_text(words["first"]).first).to_be_visible()
        page.screenshot(path=str(shots / f"tutorial-{lang}-{view}-game.png"))
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang,view", [("en", "iso"), ("de", "flat")])
def test_the_tutorial_in_the_browser(browser: Any, live_server: str, lang: str, view: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    take_the_tutorial(browser, live_server, lang, view, ARTIFACTS)
