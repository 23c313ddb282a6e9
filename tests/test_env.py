"""torres.env: the PettingZoo AEC environment, its observation, bots as agents and policies as bots, OpenSpiel."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import torres  # noqa: E402
from torres.ai import make_bot  # noqa: E402
from torres.env import (  # noqa: E402
    LAYOUT, OBS_SIZE, BotAgent, MaskedRandom, PolicyBot, PublicFields, action_mask, encode, raw_env, torres_v0,
    unflatten,
)

SETTINGS = [
    dict(players=2, rules="riogrande"),
    dict(players=3, rules="idw:master=1"),
    dict(players=4, rules="ravensburger", card_mode="common"),
    dict(players=3, rules="yucata"),
]


def random_game(env: object, seed: int, check: object = None) -> list[int]:
    """Masked-random play to the end; ``check(env)`` before every live step. Returns the actions taken."""
    rng = random.Random(seed)
    taken = []
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, _reward, terminated, truncated, _info = env.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            env.step(None)  # type: ignore[attr-defined]
            continue
        if check is not None:
            check(env)  # type: ignore[operator]
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        taken.append(action)
        env.step(action)  # type: ignore[attr-defined]
    return taken


@pytest.mark.parametrize("kwargs", SETTINGS[:3], ids=["2p", "3p-idw-master", "4p-common"])
def test_pettingzoo_api(kwargs: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "observation is all zeros" warnings do not apply
        api_test(torres_v0.env(**kwargs), num_cycles=1000)
        api_test(raw_env(**kwargs), num_cycles=1000)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: torres_v0.env(players=3), num_cycles=100)
    seed_test(lambda: torres_v0.env(players=2, rules="riogrande", card_mode="common"), num_cycles=100)


def test_spaces_declared_once() -> None:
    env = raw_env(players=4)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == torres.NUM_ACTIONS
        assert env.observation_space(agent)["observation"].shape == (OBS_SIZE,)
        assert env.observation_space(agent)["action_mask"].dtype == np.int8
    assert LAYOUT["rules"].stop == OBS_SIZE


@pytest.mark.parametrize("kwargs", SETTINGS, ids=["2p", "3p-idw-master", "4p-common", "3p-yucata"])
def test_observation_is_the_views_encoding(kwargs: dict) -> None:
    """At every step and for every seat, the environment's observation is exactly the encoding of the seat's own
    ``game.view(seat)`` (the fast path and its cache agree with the real view), and the mask is its legal ids."""
    env = raw_env(**kwargs)
    env.reset(seed=5)
    space = env.observation_space(env.possible_agents[0])

    def check(env: raw_env) -> None:
        for agent in env.possible_agents:
            seat = int(agent.split("_")[1])
            view = env.game.view(seat)
            obs = env.observe(agent)
            assert np.array_equal(obs["observation"], encode(view)), (agent, env.game.position())
            assert np.array_equal(obs["action_mask"], action_mask(view.legal))
            assert space.contains(obs)
        mine = env.observe(env.agent_selection)["action_mask"]
        assert sorted(np.flatnonzero(mine).tolist()) == env.game.legal_action_ids()

    random_game(env, seed=2, check=check)
    assert env.game.is_over()


def test_observation_layout() -> None:
    game = torres.GameState(players=3, seed=7).play(["start d8", "start c6", "start f6", "king h5"])
    game.push("stack 3")
    game.push("block d7")
    game.push("buy")
    me = game.current  # seat 0 keeps a card
    obs = unflatten(encode(game.view(1)))
    assert obs["height"][torres.parse_square("d7")] == 1
    assert obs["castle_area"][torres.parse_square("d7")] == 2  # d7 joined the castle of d8
    assert obs["knights"][0][torres.parse_square("c6")] == 1  # seat 1's own knight in slot 0
    assert obs["knights"][2][torres.parse_square("d8")] == 1  # seat 0 is two seats after seat 1
    assert obs["king"][torres.parse_square("h5")] == 1
    assert obs["to_act"].tolist() == [0, 0, 1, 0] and me == 0
    assert obs["stage"][torres.Stage.KEEP] == 1
    assert obs["drawn_count"][0] == 3 and obs["drawn"].sum() == 0  # seat 1 does not see seat 0's draw
    assert obs["ap"][0] == 3 and obs["buys"][0] == 1 and obs["turn_stack"][0] == 2
    assert obs["stacks"][2].tolist()[1:3] == [2, 1]  # seat 0 took a 3 of 3.3.2.2: stacks 3.2.2 left
    mine = unflatten(encode(game.view(0)))
    assert mine["drawn"].sum() == 3
    assert mine["players"].tolist() == [0, 1, 0]


def test_hidden_cards_do_not_change_the_observation() -> None:
    """Two full states that differ only in what seat 1 cannot see give seat 1 the same observation."""
    game = torres.GameState(players=2, seed=3).play(["start d8", "start c6", "king f6", "buy"])
    view = game.view(1)
    for state in (view.determinize(random.Random(1)), view.determinize(random.Random(2))):
        assert state.position(1) == game.position(1)
    a, b = view.determinize(random.Random(1)), view.determinize(random.Random(2))
    assert a.position() != b.position() and a.position() != game.position()  # the hidden cards differ
    expected = encode(view)
    for state in (game, a, b):
        assert np.array_equal(encode(PublicFields(state, 1)), expected)
        assert np.array_equal(encode(state.view(1)), expected)
    assert not np.array_equal(encode(PublicFields(a, 0)), encode(PublicFields(game, 0)))  # seat 0 sees its draw

    # Through the environment: different seeds, the same public actions.
    envs = [raw_env(players=2), raw_env(players=2)]
    obs = []
    for env, seed in zip(envs, (11, 12)):
        env.reset(seed=seed)
        for text in ("start d8", "start c6", "king f6", "buy"):
            env.step(env.string_to_action(text))
        assert env.game.stage is torres.Stage.KEEP
        obs.append((env.observe("player_0")["observation"], env.observe("player_1")["observation"]))
    assert envs[0].game.drawn != envs[1].game.drawn
    assert np.array_equal(obs[0][1], obs[1][1])
    assert not np.array_equal(obs[0][0], obs[1][0])


def test_action_strings_round_trip() -> None:
    env = raw_env(players=3, rules="idw:master=1")
    env.reset(seed=3)
    seen = 0

    def check(env: raw_env) -> None:
        nonlocal seen
        for action in env.game.legal_action_ids():
            text = env.action_to_string(action)
            assert env.string_to_action(text) == action
            assert text == str(torres.Action(action))
            seen += 1

    random_game(env, seed=4, check=check)
    env2 = raw_env(players=2)
    env2.reset(seed=8)
    random_game(env2, seed=8, check=check)
    assert seen > 2000
    with pytest.raises(ValueError):
        env.string_to_action("fly a1")


def test_same_seed_same_game_and_rewards() -> None:
    runs = []
    for _ in range(2):
        env = torres_v0.env(players=4, rules="riogrande")
        env.reset(seed=21)
        actions = random_game(env, seed=9)
        runs.append((actions, env.unwrapped.game.position(), env.unwrapped.game.returns()))
    assert runs[0] == runs[1]
    other = torres_v0.env(players=4)
    other.reset(seed=22)
    assert random_game(other, seed=9) != runs[0][0]


@pytest.mark.parametrize("reward", ["returns", "phase"])
def test_rewards(reward: str) -> None:
    env = raw_env(players=3, reward=reward)
    env.reset(seed=4)
    got = {a: 0.0 for a in env.possible_agents}
    rng = random.Random(1)
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        got[agent] += r
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    game = env.game
    values = [got[a] for a in env.possible_agents]
    if reward == "returns":
        assert values == game.returns()
        assert abs(sum(values)) < 1e-9
    else:
        assert values == [float(s) for s in game.scores]


def test_bots_act_in_the_env() -> None:
    env = torres_v0.env(players=2)
    env.reset(seed=5)
    agents = {"player_0": BotAgent("beginner", seed=1), "player_1": MaskedRandom(2)}
    for agent in env.agent_iter():
        obs, _r, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        actor = agents[agent]
        action = actor.act(env) if isinstance(actor, BotAgent) else actor(obs)
        assert obs["action_mask"][action] == 1
        env.step(action)
    game = env.unwrapped.game
    assert game.is_over() and game.scores[0] > game.scores[1]  # the beginner bot beats random play


def test_policy_as_a_bot_and_in_the_tournament() -> None:
    from torres.cli.tournament import run_tournament

    bot = make_bot("policy:module=examples.masked_random", seed=3)
    assert isinstance(bot, PolicyBot)
    game = torres.GameState(players=2, seed=1)
    while not game.is_over():
        game.push(bot.choose(game.view(game.current)))
    summary = run_tournament(["policy:module=examples.masked_random:name=make_policy", "beginner"], games=2,
                             players=2, rules_text="riogrande", seed=0)
    assert summary.games == 2
    for bad in ("policy", "policy:module=examples.nothing_here", "policy:module=examples.masked_random:name=x"):
        with pytest.raises(ValueError):
            make_bot(bad)
    illegal = PolicyBot(lambda obs: 0)
    with pytest.raises(ValueError):
        illegal.choose(torres.GameState(players=2, seed=1).view(0))


def test_render_and_close() -> None:
    env = torres_v0.env(players=2, render_mode="ansi")
    env.reset(seed=1)
    for text in ("start d8", "start c6", "king f6"):
        env.step(env.unwrapped.string_to_action(text))
    board = env.render()
    assert isinstance(board, str) and "1a" in board and "1K" in board
    env.close()
    with pytest.raises(ValueError):
        raw_env(render_mode="rgb_array")


def test_illegal_action() -> None:
    env = raw_env(players=2)
    env.reset(seed=1)
    with pytest.raises(torres.IllegalActionError):
        env.step(env.string_to_action("start a1"))
    wrapped = torres_v0.env(players=2)
    wrapped.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(wrapped.unwrapped.string_to_action("start a1"))
    assert all(wrapped.terminations.values())
    assert wrapped.rewards["player_0"] == -1


@pytest.mark.parametrize("action", [3.7, 3.0, True, np.bool_(True), "3", None])
def test_an_action_that_is_not_an_integer_is_refused_not_rounded(action: object) -> None:
    # int() took 3.7 as action 3 and True as action 1 (an outside probe)
    env = raw_env(players=2)
    env.reset(seed=1)
    before = env.game.position()
    with pytest.raises(TypeError, match="an action is an integer id"):
        env.step(action)
    assert env.game.position() == before
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.int64(legal))  # NumPy's integers are integers
    assert env.game.history == [legal]


def test_openspiel_game() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install torres[openspiel])")
    import torres.env.openspiel  # noqa: F401  (registers python_torres)
    from open_spiel.python.algorithms import ismcts, mcts

    for params, chance in (({"players": 2}, 20), ({"players": 3, "rules": "yucata:card_mode=common"}, 41),
                           ({"players": 2, "rules": "idw:master=1"}, 1)):
        game = pyspiel.load_game("python_torres", params)
        rng = np.random.RandomState(1)
        state = game.new_initial_state()
        chance_nodes = 0
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            actions, probs = zip(*outcomes)
            state.apply_action(int(rng.choice(actions, p=probs)))
            chance_nodes += 1
        assert chance_nodes == chance
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            if rng.random_sample() < 0.02:
                sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.legal_actions() == legal
                assert np.array_equal(sample.information_state_tensor(player), state.information_state_tensor(player))
            state.apply_action(int(rng.choice(legal)))
        assert sum(state.returns()) == pytest.approx(0.0)
    game = pyspiel.load_game("python_torres", {"players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(2)), uct_c=2.0,
                           max_simulations=4, random_state=np.random.RandomState(3))
    assert bot.step(state) in state.legal_actions()
