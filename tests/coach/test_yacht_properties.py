"""Properties of the solved tables: symmetries of the dice, monotonicity, the game recursion."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.coach.yacht_solver import ALL_USED, YachtRules, dice_space
from appliance.games.yacht_scoring import CATEGORIES, UPPER

RULE_SETS = [YachtRules(scoring, counts) for scoring in ("seed", "sackson") for counts in (False, True)]
C = {name: i for i, name in enumerate(CATEGORIES)}
FACE_ORDERS = list(itertools.permutations(range(1, 7)))


def row(dice) -> int:
    return dice_space().state_index[tuple(sorted(dice))]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_more_rerolls_never_lower_a_value(solved, rules):
    turn = solved(rules).turn
    assert (turn[1] >= turn[0] - 1e-9).all() and (turn[2] >= turn[1] - 1e-9).all()


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_an_extra_open_category_never_lowers_the_expected_rest_of_the_game(solved, rules):
    game = solved(rules).game
    assert game[ALL_USED] == 0
    for c in range(12):
        without = np.arange(ALL_USED + 1)
        assert (game[without] >= game[without | 1 << c] - 1e-9).all()


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_with_one_category_open_the_position_is_that_category_s_expected_turn(solved, rules):
    tables = solved(rules)
    for c in range(12):
        assert tables.game[ALL_USED & ~(1 << c)] == pytest.approx(dice_space().first_roll @ tables.turn[2, :, c])


def test_the_game_value_satisfies_its_recursion_written_as_loops(solved):
    tables = solved()
    rng = np.random.default_rng(7)
    for used in rng.integers(0, ALL_USED, size=20):
        expected = 0.0
        for s, p in enumerate(dice_space().first_roll):
            expected += p * max(
                tables.turn[2, s, c] + tables.game[used | 1 << c] for c in range(12) if not used >> c & 1
            )
        assert tables.game[used] == pytest.approx(expected)


def test_sackson_scoring_is_never_worth_more_than_seed_scoring(solved):
    seed, sackson = solved(YachtRules("seed")), solved(YachtRules("sackson"))
    assert (sackson.turn <= seed.turn + 1e-9).all() and (sackson.game <= seed.game + 1e-9).all()


@pytest.mark.parametrize("scoring", ["seed", "sackson"])
def test_yacht_counting_as_full_house_changes_only_the_full_house_and_never_lowers_it(solved, scoring):
    off, on = solved(YachtRules(scoring, False)), solved(YachtRules(scoring, True))
    others = [c for c in range(12) if c != C["full_house"]]
    assert np.array_equal(off.turn[:, :, others], on.turn[:, :, others])
    assert (on.turn[:, :, C["full_house"]] >= off.turn[:, :, C["full_house"]] - 1e-9).all()
    assert (on.game >= off.game - 1e-9).all()


dice = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=200, deadline=None)
@given(dice=dice, relabel=st.sampled_from(FACE_ORDERS), rolls_left=st.integers(0, 2))
def test_relabelling_the_faces_keeps_the_yacht_value_and_scales_the_upper_section(solved, dice, relabel, rolls_left):
    tables = solved()
    moved = [relabel[d - 1] for d in dice]
    assert tables.turn[rolls_left, row(moved), C["yacht"]] == pytest.approx(tables.turn[rolls_left, row(dice), C["yacht"]])
    for name, face in UPPER.items():
        target = CATEGORIES[relabel[face - 1] - 1]
        assert tables.turn[rolls_left, row(moved), C[target]] / relabel[face - 1] == pytest.approx(
            tables.turn[rolls_left, row(dice), C[name]] / face
        )


@settings(max_examples=200, deadline=None)
@given(dice=dice, rolls_left=st.integers(0, 2))
def test_the_small_straight_mirrors_the_large_straight_under_seven_minus_each_face(solved, dice, rolls_left):
    # 7 - (1 2 3 4 5) = (6 5 4 3 2): the straights are mirror images.
    turn = solved().turn[rolls_left]
    assert turn[row(dice), C["small_straight"]] == pytest.approx(turn[row([7 - d for d in dice]), C["large_straight"]])
