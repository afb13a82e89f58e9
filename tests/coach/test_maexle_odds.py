"""Mäxle odds over the 36 outcomes of two dice (RULES.md §1 value order)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from appliance.coach.maexle_odds import maexle_odds, odds_table
from appliance.games.maexle_values import ORDER


@pytest.mark.parametrize(
    "announcement, beat, at_least, exact",
    [
        (31, 34, 36, 2),  # the lowest: everything but a 31 beats it
        (54, 18, 20, 2),  # the middle of the mixed values: an even chance
        (65, 8, 10, 2),  # only the six doubles and the two Mäxle rolls beat it
        (11, 7, 8, 1),  # five higher doubles and Mäxle
        (66, 2, 3, 1),  # only Mäxle
        (21, 0, 2, 2),  # nothing beats Mäxle
    ],
)
def test_hand_counted_odds(announcement, beat, at_least, exact):
    odds = maexle_odds(announcement)
    assert (odds.beat, odds.at_least, odds.exact) == (beat, at_least, exact)
    assert odds.p_beat == Fraction(beat, 36)


def test_every_announcement_the_counts_fit_together():
    table = odds_table()
    assert [o.announcement for o in table] == list(ORDER)
    assert sum(o.exact for o in table) == 36
    for i, o in enumerate(table):
        assert o.at_least == o.beat + o.exact
        assert o.beat == sum(higher.exact for higher in table[i + 1:])
    assert all(a.beat > b.beat for a, b in itertools.pairwise(table[:-1]))  # strictly harder up the order


def test_the_chance_to_top_follows_the_announce_switch():
    odds = maexle_odds(63)
    assert odds.to_top() == odds.to_top("strictly_higher") == Fraction(12, 36)
    assert odds.to_top("higher_or_equal") == Fraction(14, 36)
    with pytest.raises(ValueError):
        odds.to_top("lower")


@pytest.mark.parametrize("bad", [12, 70, 0, None, "54", 54.0, True])
def test_an_impossible_announcement_raises_value_error(bad):
    with pytest.raises(ValueError):
        maexle_odds(bad)
