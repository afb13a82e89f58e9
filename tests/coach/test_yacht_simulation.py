"""The solver against Monte Carlo of its own policy with real random dice (seeded numpy RNG).

Each check asks the simulated mean's 99.9 % confidence interval to cover the solver's expectation.
benchmarks/yacht_solver.py runs the same with a million games.
"""

from __future__ import annotations

import numpy as np
import pytest

from appliance.coach.yacht_simulation import estimate, play_rerolls, simulate_games
from appliance.coach.yacht_solver import YachtRules, dice_space
from appliance.games.yacht_scoring import CATEGORIES, score


@pytest.mark.parametrize("rules", [YachtRules("seed"), YachtRules("sackson", True)], ids=lambda r: r.key)
def test_simulated_games_average_the_solver_s_expected_total(solved, rules):
    tables = solved(rules)
    totals = simulate_games(tables, n_games=40_000, seed=2024)
    result = estimate(totals)
    assert result.covers(tables.expected_game), (result, tables.expected_game)
    assert result.stderr < 0.25  # the check has teeth: the interval is under +-0.8 points


@pytest.mark.parametrize(
    "roll, category", [((5, 5, 2, 2, 1), "full_house"), ((1, 2, 3, 4, 6), "small_straight"), ((6, 6, 1, 2, 3), "yacht")]
)
def test_simulated_turns_average_the_solver_s_turn_value(solved, roll, category):
    tables = solved()
    n = 40_000
    c = CATEGORIES.index(category)
    start = np.tile(np.array(sorted(roll)), (n, 1))
    final = play_rerolls(tables, start, np.full(n, c), np.random.default_rng(11))
    scores = np.array([score(category, tuple(d)) for d in final.tolist()])  # scored by the rules module itself
    expected = tables.turn[2, dice_space().state_index[tuple(sorted(roll))], c]
    assert estimate(scores).covers(expected), (estimate(scores), expected)


def test_a_simulation_is_reproducible_from_its_seed(solved):
    tables = solved()
    assert np.array_equal(simulate_games(tables, 500, seed=3), simulate_games(tables, 500, seed=3))
    assert not np.array_equal(simulate_games(tables, 500, seed=3), simulate_games(tables, 500, seed=4))
