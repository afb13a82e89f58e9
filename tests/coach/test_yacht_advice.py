"""The coach's answers for the kiosk and the command line: declarations, keeps, hints."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.coach import YachtHint, coach_for, yacht_hint
from appliance.coach.yacht_advice import YachtCoach
from appliance.games.yacht_scoring import CATEGORIES


@pytest.fixture
def coach(solved):
    return YachtCoach(solved())


def test_declarations_list_every_open_category_best_total_first(coach):
    ranked = coach.declarations((5, 5, 2, 2, 1), used=["yacht", "ones"])
    assert sorted(d.category for d in ranked) == sorted(set(CATEGORIES) - {"yacht", "ones"})
    assert [d.total for d in ranked] == sorted((d.total for d in ranked), reverse=True)
    for d in ranked:
        assert d.total == pytest.approx(d.turn + coach.position_value(["yacht", "ones", d.category]))


def test_full_house_in_hand_is_declared_and_kept_when_only_chance_remains_elsewhere(coach):
    # With only full house and choice open, 5-5-5-2-2 (29 now) is declared full house and stopped.
    ranked = coach.declarations((5, 5, 5, 2, 2), used=[c for c in CATEGORIES if c not in ("full_house", "choice")])
    assert ranked[0].category == "full_house" and ranked[0].turn == pytest.approx(29)
    assert coach.hint((5, 5, 5, 2, 2), declared="full_house", rolls_left=2) == YachtHint(
        "stop", "full_house", 29.0, keep=(2, 2, 5, 5, 5)
    )


def test_the_seed_example_full_house_keeps_the_two_pairs(coach):
    keep = coach.keep((5, 5, 2, 2, 1), "full_house", 2)
    assert (keep.keep, keep.reroll, keep.stop) == ((2, 2, 5, 5), (1,), False)
    assert keep.turn == pytest.approx(5 / 9 * 27.5)


def test_the_hint_declares_first_then_keeps(coach):
    hint = coach.hint((1, 2, 3, 4, 6), used=[c for c in CATEGORIES if c != "small_straight"])
    assert (hint.action, hint.category) == ("declare", "small_straight")
    assert hint.expected == pytest.approx(30 * (1 - (5 / 6) ** 2))
    hint = coach.hint((1, 2, 3, 4, 6), declared="small_straight", rolls_left=1)
    assert (hint.action, hint.keep, hint.reroll) == ("keep", (1, 2, 3, 4), (6,))
    assert hint.expected == pytest.approx(5.0)


def test_no_hint_when_the_turn_is_over_or_the_sheet_full(coach):
    assert coach.hint((1, 2, 3, 4, 6), declared="choice", rolls_left=0) is None
    assert coach.hint((1, 2, 3, 4, 6), used=CATEGORIES) is None
    assert coach.position_value(CATEGORIES) == 0.0


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.declarations((1, 2, 3, 4), []),
        lambda c: c.declarations((0, 2, 3, 4, 5), []),
        lambda c: c.declarations((1, 2, 3, 4, 5), ["sevens"]),
        lambda c: c.declarations((1, 2, 3, 4, 5), CATEGORIES),
        lambda c: c.keep((1, 2, 3, 4, 5), "straight", 2),
        lambda c: c.keep((1, 2, 3, 4, 5), "choice", 3),
        lambda c: c.hint((1, 2, 3, 4, 5), declared="choice", rolls_left=-1),
    ],
)
def test_impossible_questions_raise_value_error(coach, call):
    with pytest.raises(ValueError):
        call(coach)


@settings(max_examples=200, deadline=None)
@given(
    roll=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    order=st.permutations(range(5)),
    category=st.sampled_from(CATEGORIES),
    rolls_left=st.integers(0, 2),
)
def test_advice_ignores_the_order_of_the_dice_and_keeps_part_of_the_roll(solved, roll, order, category, rolls_left):
    coach = YachtCoach(solved())
    shuffled = [roll[i] for i in order]
    assert coach.keep(roll, category, rolls_left) == coach.keep(shuffled, category, rolls_left)
    assert coach.declarations(roll) == coach.declarations(shuffled)
    keep = coach.keep(roll, category, rolls_left)
    assert Counter(keep.keep) + Counter(keep.reroll) == Counter(roll)
    assert keep.stop == (rolls_left == 0 or not keep.reroll)


def test_the_module_functions_use_one_cached_coach_per_rules(default_cache):
    assert coach_for({"scoring": "sackson"}) is coach_for({"scoring": "sackson", "players": 3})
    assert coach_for() is not coach_for({"scoring": "sackson"})
    assert (default_cache / "yacht-coach-v1-sackson-fh0.npz").is_file()
    hint = yacht_hint((6, 6, 6, 6, 6), used=[c for c in CATEGORIES if c != "yacht"])
    assert hint == YachtHint("declare", "yacht", 50.0)


def test_bad_rules_switches_raise_value_error(default_cache):
    with pytest.raises(ValueError):
        coach_for({"scoring": "classic"})
    with pytest.raises(ValueError):
        coach_for({"yacht_counts_as_full_house": "yes"})


@pytest.mark.parametrize("roll", [None, 12345, {"dice": [1, 2, 3, 4, 5]}])
def test_no_dice_or_a_roll_that_is_not_a_sequence_is_a_value_error(coach, roll):
    # The kiosk may ask before the first roll, when the engine's ``dice`` view is None.
    with pytest.raises(ValueError):
        coach.hint(roll)
    with pytest.raises(ValueError):
        coach.keep(roll, "choice", 1)


@pytest.mark.parametrize("rolls_left", [True, False, 1.0, "1", None])
def test_rolls_left_must_be_the_whole_number_0_1_or_2(coach, rolls_left):
    with pytest.raises(ValueError, match="rolls left"):
        coach.keep((1, 2, 3, 4, 5), "choice", rolls_left)
    with pytest.raises(ValueError, match="rolls left"):
        coach.hint((1, 2, 3, 4, 5), declared="choice", rolls_left=rolls_left)


def test_rules_read_on_and_off_as_a_setup_line_writes_them(default_cache):
    from appliance.coach import YachtRules

    assert YachtRules.from_mapping({"yacht_counts_as_full_house": "on"}) == YachtRules("seed", True)
    assert YachtRules.from_mapping({"yacht_counts_as_full_house": "off", "limit": 3}) == YachtRules()
    with pytest.raises(ValueError, match="yacht_counts_as_full_house"):
        YachtRules.from_mapping({"yacht_counts_as_full_house": 1})
