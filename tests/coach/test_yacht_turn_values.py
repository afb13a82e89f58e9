"""Within-turn values of a declared category, checked by hand and against the published constant.

Sources: RULES.md §3 (scores, two rerolls after the declaration), seeds/002_eb2fdbc33035b68e.txt
(the worked example 5-5-2-2-1).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from appliance.coach.yacht_solver import YachtRules, dice_space
from appliance.games.yacht_scoring import CATEGORIES, score

C = {name: i for i, name in enumerate(CATEGORIES)}


def value(tables, dice, category, rolls_left):
    return tables.turn[rolls_left, dice_space().state_index[tuple(sorted(dice))], C[category]]


@pytest.mark.parametrize("fifth", [1, 4, 6])
def test_finishing_a_small_straight_from_1234_with_two_rerolls_is_one_minus_five_sixths_squared(solved, fifth):
    tables = solved()
    assert value(tables, (1, 2, 3, 4, fifth), "small_straight", 2) == pytest.approx(30 * (1 - (5 / 6) ** 2))
    assert value(tables, (1, 2, 3, 4, fifth), "small_straight", 1) == pytest.approx(30 / 6)


def test_large_straight_from_3456_needs_a_two(solved):
    assert value(solved(), (3, 4, 5, 6, 6), "large_straight", 2) == pytest.approx(30 * (1 - (5 / 6) ** 2))


@pytest.mark.parametrize("scoring, mean_score", [("seed", (29 + 26) / 2), ("sackson", (19 + 16) / 2)])
def test_seed_example_full_house_from_55221_rerolls_the_one_for_a_five_or_a_two(solved, scoring, mean_score):
    # Keep 5-5-2-2: each reroll of the 1 hits a 5 (5-5-5-2-2) or a 2 (5-5-2-2-2) with chance 2/6.
    tables = solved(YachtRules(scoring))
    assert value(tables, (5, 5, 2, 2, 1), "full_house", 2) == pytest.approx((1 - (4 / 6) ** 2) * mean_score)


def test_fives_from_55221_keeps_the_fives(solved):
    # Each of the three other dice becomes a five within two rerolls with chance 11/36.
    assert value(solved(), (5, 5, 2, 2, 1), "fives", 2) == pytest.approx(10 + 3 * 5 * 11 / 36)


def test_choice_keeps_dice_above_the_value_of_a_reroll(solved):
    # One reroll left: a die is worth max(face, 3.5); two left: max(face, 4.25), 4.25 = E[max(X, 3.5)].
    tables = solved()
    assert value(tables, (6, 6, 5, 5, 3), "choice", 1) == pytest.approx(22 + 3.5)
    assert value(tables, (6, 6, 5, 5, 3), "choice", 2) == pytest.approx(22 + 4.25)
    assert value(tables, (1, 2, 3, 4, 6), "choice", 2) == pytest.approx(6 + 4 * 4.25)


def test_chance_of_a_yacht_within_three_rolls_is_the_published_2783176_in_6_to_the_10th(solved):
    # The classic figure (about 4.60 %) for keeping the largest group, which is optimal for Yacht.
    p = dice_space().first_roll @ solved().turn[2, :, C["yacht"]] / 50
    assert p == pytest.approx(2783176 / 6**10, abs=1e-12)


@pytest.mark.parametrize("face", range(1, 7))
def test_five_alike_is_worth_50_as_a_yacht_at_any_point_of_the_turn(solved, face):
    tables = solved()
    s = dice_space().state_index[(face,) * 5]
    assert tables.turn[:, s, C["yacht"]].tolist() == [50, 50, 50]
    assert tables.keep[:, s, C["yacht"]].tolist() == [31, 31, 31]


def test_with_no_reroll_left_the_value_is_the_score_of_the_dice(solved):
    for rules in (YachtRules(), YachtRules("sackson", True)):
        tables = solved(rules)
        for s, dice in enumerate(dice_space().states):
            for c, category in enumerate(CATEGORIES):
                assert tables.turn[0, s, c] == score(
                    category, dice, scoring=rules.scoring, yacht_counts_as_full_house=rules.yacht_counts_as_full_house
                )


def test_first_roll_probabilities_are_those_of_7776_ordered_rolls():
    counts = np.zeros(252)
    for roll in itertools.product(range(1, 7), repeat=5):
        counts[dice_space().state_index[tuple(sorted(roll))]] += 1
    assert np.allclose(dice_space().first_roll, counts / 6**5)
    assert dice_space().transition.sum(axis=1) == pytest.approx(np.ones(462))
