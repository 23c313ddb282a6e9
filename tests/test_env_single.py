"""torres.env's single-agent Gymnasium environment, batched play, PettingZoo rendering, and the policy seat's layering."""

from __future__ import annotations

import ast
import contextlib
import io
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import performance_benchmark, render_test  # noqa: E402

import torres  # noqa: E402
from torres.ai import make_bot  # noqa: E402
from torres.env import (  # noqa: E402
    SingleAgentEnv, action_features, feature_observation, raw_env, single_agent_env, torres_v0, vector_env,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent


def play_out(env: SingleAgentEnv, seed: int, check: object = None) -> tuple[float, dict]:
    """Masked-random learner to the end of one episode; ``check(env, obs)`` before each step."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    while True:
        if check is not None:
            check(env, obs)  # type: ignore[operator]
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return reward, info
        assert reward == 0.0


@pytest.mark.parametrize("kwargs", [dict(players=2), dict(players=3, actions="features"),
                                    dict(players=2, opponent="beginner", actions="features", reward="margin")],
                         ids=["flat-2p", "features-3p", "features-beginner"])
def test_gymnasium_check_env(kwargs: dict) -> None:
    env = single_agent_env(**{"opponent": "random", **kwargs})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any of check_env's warnings fails the test
        check_env(env, skip_render_check=True)
    made = gymnasium.make("torres/SingleAgent-v0", opponent="random", render_mode="ansi")
    with contextlib.redirect_stdout(io.StringIO()):  # the "human" mode is checked too: it prints
        check_env(made.unwrapped)  # registered: the render check makes it in every render mode


def test_the_learner_plays_one_seat_and_the_bots_the_others() -> None:
    env = single_agent_env(opponent=["beginner", "random"], players=3)
    seats = set()

    def check(env: SingleAgentEnv, obs: np.ndarray) -> None:
        game = env.game
        assert game.current == env.seat  # the learner is asked only on its own turns
        assert sorted(np.flatnonzero(env.action_masks()).tolist()) == game.legal_action_ids()
        assert np.array_equal(obs, torres.env.encode(game.view(env.seat)))  # its own view only

    for seed in range(6):
        reward, info = play_out(env, seed, check)
        seats.add(env.seat)
        assert info["scores"] == env.game.scores and env.game.is_over()
        assert reward == env.game.returns()[env.seat]
        others = [s for s in range(3) if s != env.seat]
        assert [env.bots[s].name for s in others] == ["beginner", "random"]
    assert len(seats) > 1  # seat=None: drawn per episode
    fixed = single_agent_env(opponent="random", seat=1)
    for seed in range(3):
        fixed.reset(seed=seed)
        assert fixed.seat == 1


def test_same_seed_same_episode() -> None:
    runs = []
    for _ in range(2):
        env = single_agent_env(opponent="casual", actions="features")
        taken: list[np.ndarray] = []
        play_out(env, 7, lambda env, obs: taken.append(obs["observation"].copy()))
        runs.append((env.seat, env.game.position(), taken))
    assert runs[0][:2] == runs[1][:2]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][2], runs[1][2]))


def test_margin_reward_and_illegal_actions() -> None:
    env = single_agent_env(opponent="beginner", reward="margin", seat=0)
    reward, info = play_out(env, 3)
    scores = info["scores"]
    assert reward == pytest.approx(env.game.returns()[0] + (scores[0] - scores[1]) / 100)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, _t, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    strict = single_agent_env(opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)
    with pytest.raises(ValueError):
        single_agent_env(opponent="no-such-bot")
    with pytest.raises(ValueError):
        single_agent_env(opponent=["random"], players=3)


def test_feature_actions_are_the_legal_ids_in_order() -> None:
    env = single_agent_env(opponent="random", actions="features", players=2)

    def check(env: SingleAgentEnv, obs: dict) -> None:
        legal = env.legal_action_ids()
        assert legal == env.game.legal_action_ids()
        n = len(legal)
        assert obs["action_mask"].sum() == n and obs["action_mask"][:n].all()
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert np.array_equal(obs["actions"][:n], action_features(env.game, legal))
        assert not obs["actions"][n:].any()

    play_out(env, 5, check)


def test_a_features_policy_is_seated_in_the_tournament() -> None:
    """A policy with ``observation = "features"`` gets, from the bot's view, the observation the environment gives
    in the same position, and its row becomes the action."""
    from torres.cli.tournament import run_tournament
    from torres.env.agents import PolicyBot

    seen = []

    class MostPoints:
        observation = "features"

        def __call__(self, obs: dict) -> int:
            seen.append(obs)
            n = int(obs["action_mask"].sum())
            return int(np.argmax(obs["actions"][:n, 9]))  # d_score

    bot = PolicyBot(MostPoints(), seed=1)
    game = torres.GameState(players=2, seed=4)
    for _ in range(40):
        view = game.view(game.current)
        action = bot.choose(view)
        expected = feature_observation(game, game.current, game.legal_action_ids())
        for key in expected:
            assert np.array_equal(seen[-1][key], expected[key]), key
        game.push(action)
    summary = run_tournament(["policy:module=examples.feature_greedy", "random"], games=2, players=2,
                             rules_text="riogrande", seed=0)
    assert summary.games == 2


@pytest.mark.parametrize("actions", ["flat", "features"])
def test_vector_env_batches_observations_and_masks(actions: str) -> None:
    envs = vector_env(3, opponent="random", actions=actions)
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        masks = envs.action_masks()
        assert masks.shape == (3, envs.single_action_space.n) and masks.dtype == bool
        for row, env in zip(masks, envs.envs):
            assert np.array_equal(row, env.action_masks()) and row.any()  # reset in the same step: never empty
        batch = obs if actions == "flat" else obs["observation"]
        assert batch.shape == (3, torres.env.OBS_SIZE)
        obs, rewards, terminated, _t, infos = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        finished += int(terminated.sum())
        assert all(rewards[~terminated] == 0)
    assert finished >= 3
    envs.close()


def test_pettingzoo_render_and_performance() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        render_test(torres_v0.env)
        render_test(raw_env)
    assert "a  b  c  d" in out.getvalue()  # human mode printed the board
    with contextlib.redirect_stdout(io.StringIO()):
        performance_benchmark(torres_v0.env(players=3))
    with pytest.raises(ValueError):
        raw_env(render_mode="rgb_array")
    printed = io.StringIO()
    env = single_agent_env(opponent="random", render_mode="human")
    env.reset(seed=1)
    with contextlib.redirect_stdout(printed):
        assert env.render() is None
    assert "phase 1" in printed.getvalue()


def test_torres_ai_imports_nothing_above_it() -> None:
    for path in (ROOT / "torres" / "ai").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                target = "." * node.level + (node.module or "")
                assert not target.startswith(("..env", "..cli", "..server", "..tui", "torres.env", "torres.cli",
                                              "torres.server")), (path.name, target)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith(("torres.env", "torres.cli", "torres.server"))
                               for a in node.names), path.name
    # torres.ai alone cannot seat a policy and says why; the env (or the CLI) registers the factory
    code = ("import sys\nfrom torres.ai import make_bot\n"
            "try:\n    make_bot('policy:module=examples.masked_random')\n"
            "except ValueError as e:\n    print(e)\n"
            "assert 'torres.env' not in sys.modules and 'numpy' not in sys.modules\n"
            "import torres.env\nprint(type(make_bot('policy:module=examples.masked_random')).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert 'pip install "torres[env]"' in done.stdout and done.stdout.strip().endswith("PolicyBot")


def test_too_many_actions_for_the_feature_rows() -> None:
    from torres.env.single_agent import TooManyActions

    env = single_agent_env(opponent="random", actions="features", max_actions=4)
    with pytest.raises(TooManyActions):
        env.reset(seed=1)  # the first knight may go on any of many castles
