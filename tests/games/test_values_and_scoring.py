"""Mäxle value order and Yacht category scores, against the seed texts' own examples."""

import itertools

import pytest

from appliance.games import maexle_values as mv
from appliance.games.yacht_scoring import CATEGORIES, score


def test_maexle_value_is_higher_die_first():
    assert mv.value_of((3, 6)) == 63
    assert mv.value_of((2, 1)) == 21
    assert mv.value_of([4, 4]) == 44


def test_maexle_order_mixed_then_doubles_then_maexle():
    assert mv.beats(11, 65) and mv.beats(22, 11) and mv.beats(21, 66) and mv.beats(32, 31)
    assert not mv.beats(54, 54) and mv.at_least(54, 54)


def test_every_two_dice_roll_has_one_of_the_21_values():
    values = {mv.value_of(r) for r in itertools.product(range(1, 7), repeat=2)}
    assert values == set(mv.ORDER) and len(mv.ORDER) == 21


@pytest.mark.parametrize("bad", [(1,), (0, 3), (7, 1), (1, 2, 3), (True, 2)])
def test_maexle_value_rejects_impossible_rolls(bad):
    with pytest.raises(ValueError):
        mv.value_of(bad)


@pytest.mark.parametrize(
    "category, dice, points",
    [
        ("full_house", (3, 3, 3, 5, 5), 29),  # seed example
        ("choice", (6, 6, 5, 5, 3), 25),  # seed example
        ("four_of_a_kind", (5, 5, 5, 5, 1), 30),  # four fives = 30
        ("full_house", (5, 5, 5, 2, 2), 29),  # the corrected worked example
        ("full_house", (5, 5, 2, 2, 2), 26),
        ("ones", (1, 1, 2, 3, 4), 2),
        ("fives", (5, 5, 2, 2, 1), 10),
        ("small_straight", (5, 4, 3, 2, 1), 30),
        ("large_straight", (6, 5, 4, 3, 2), 30),
        ("small_straight", (2, 3, 4, 5, 6), 0),
        ("yacht", (4, 4, 4, 4, 4), 50),
        ("four_of_a_kind", (4, 4, 4, 4, 4), 26),  # the seed's exception: a Yacht scores as four of a kind
        ("full_house", (4, 4, 4, 4, 4), 0),
        ("full_house", (1, 1, 2, 2, 3), 0),
    ],
)
def test_seed_scoring(category, dice, points):
    assert score(category, dice) == points


def test_sackson_scoring_drops_the_ten_point_bonus():
    assert score("full_house", (3, 3, 3, 5, 5), scoring="sackson") == 19
    assert score("four_of_a_kind", (5, 5, 5, 5, 1), scoring="sackson") == 20


def test_yacht_counts_as_full_house_switch():
    assert score("full_house", (2, 2, 2, 2, 2), yacht_counts_as_full_house=True) == 20


def test_unknown_category_and_bad_dice_raise():
    with pytest.raises(ValueError):
        score("pair", (1, 2, 3, 4, 5))
    with pytest.raises(ValueError):
        score("choice", (1, 2, 3, 4))
    assert len(CATEGORIES) == 12


@pytest.mark.parametrize("bad", [None, 5, 3.5, {"a": 1}, "12345", [1, 2, 3, 4, None], list(range(100_000))])
def test_a_yacht_roll_that_is_not_five_faces_raises_a_short_value_error(bad):
    with pytest.raises(ValueError) as exc:
        score("choice", bad)
    assert len(str(exc.value)) < 300


@pytest.mark.parametrize("bad", [None, 5, 3.5, {"a": 1}, "7", [1, None], list(range(100_000))])
def test_a_maexle_roll_that_is_not_two_faces_raises_a_short_value_error(bad):
    with pytest.raises(ValueError) as exc:
        mv.value_of(bad)
    assert len(str(exc.value)) < 300
