"""The vectorised turn programme against a plain reference written another way.

The reference shares nothing with the solver but ``score``: it enumerates every keep as a subset of
dice positions and every ordered outcome of the rerolled dice (6**n of them), with exact fractions.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import pytest

from appliance.coach.yacht_solver import dice_space
from appliance.games.yacht_scoring import CATEGORIES, score


@functools.cache  # one reference per category for the whole module
def reference(category: str):
    @functools.cache
    def after_keep(kept: tuple[int, ...], rolls_left: int) -> Fraction:
        outcomes = list(itertools.product(range(1, 7), repeat=5 - len(kept)))
        return sum((best(tuple(sorted(kept + o)), rolls_left) for o in outcomes), Fraction(0)) / len(outcomes)

    @functools.cache
    def best(dice: tuple[int, ...], rolls_left: int) -> Fraction:
        if rolls_left == 0:
            return Fraction(score(category, dice))
        return max(
            after_keep(tuple(sorted(kept)), rolls_left - 1)
            for n in range(6)
            for kept in set(itertools.combinations(dice, n))
        )

    return best


@pytest.mark.parametrize("category", ["full_house", "small_straight", "four_of_a_kind", "threes"])
def test_turn_values_equal_a_brute_force_reference_with_exact_fractions(solved, category):
    tables = solved()
    best = reference(category)
    c = CATEGORIES.index(category)
    for s, dice in enumerate(dice_space().states):
        for rolls_left in (1, 2):
            assert tables.turn[rolls_left, s, c] == pytest.approx(float(best(dice, rolls_left)), abs=1e-9)


@pytest.mark.parametrize("category", ["full_house", "small_straight", "four_of_a_kind", "choice"])
def test_the_advised_keep_reaches_the_optimal_value(solved, category):
    tables = solved()
    best = reference(category)
    c = CATEGORIES.index(category)
    for s, dice in enumerate(dice_space().states):
        mask = int(tables.keep[2, s, c])
        kept = tuple(d for i, d in enumerate(dice) if mask >> i & 1)
        outcomes = list(itertools.product(range(1, 7), repeat=5 - len(kept)))
        keep_value = sum(float(best(tuple(sorted(kept + o)), 1)) for o in outcomes) / len(outcomes)
        assert keep_value == pytest.approx(tables.turn[2, s, c], abs=1e-9)
