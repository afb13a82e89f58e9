"""Biscuit as RULES.md §2 states it (seed 000_5087ce7697fc0d6a.txt): all 21 rolls, every switch."""

import itertools

import pytest

from .helpers import game, of, play, refused

P6 = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]


def crowned(players=P6, **rules):
    """A game where Cy became the Biscuit: Ann rolls 6, Bo 4, Cy 7."""
    g = game("biscuit", players, **rules)
    play(g, {"roll": [3, 3]}, {"roll": [2, 2]}, {"roll": [3, 4]})
    assert g.biscuit == "Cy"
    return g


def delta(before, after):
    return {p: after[p] - before[p] for p in after if after[p] != before[p]}


# Cy is the Biscuit; Bo sits on Cy's right, Dee on Cy's left (seats are clockwise).
# roll -> (drinks, the Biscuit after, what is expected next, of whom, step)
ALL_21 = {
    (1, 1): ({p: 1 for p in P6}, "Cy", "roll", "Cy", "reign"),
    (1, 2): ({}, "Cy", "pick", "Cy", "duel"),
    (1, 3): ({"Cy": 1}, None, "roll", "Dee", "find"),
    (1, 4): ({}, "Cy", "roll", "Cy", "reign"),
    (1, 5): ({}, "Cy", "roll", "Cy", "reign"),
    (1, 6): ({}, "Cy", "thumbs", None, "thumbs"),
    (2, 2): ({}, "Cy", "pick", "Cy", "doubles"),
    (2, 3): ({"Cy": 1}, None, "roll", "Dee", "find"),
    (2, 4): ({}, "Cy", "roll", "Cy", "reign"),
    (2, 5): ({}, "Cy", "thumbs", None, "thumbs"),
    (2, 6): ({}, "Cy", "roll", "Cy", "reign"),
    (3, 3): ({}, "Cy", "pick", "Cy", "doubles"),
    (3, 4): ({"Cy": 1}, None, "thumbs", None, "thumbs"),
    (3, 5): ({"Cy": 1}, None, "roll", "Dee", "find"),
    (3, 6): ({"Bo": 1, "Cy": 1}, None, "roll", "Dee", "find"),
    (4, 4): ({}, "Cy", "pick", "Cy", "doubles"),
    (4, 5): ({"Bo": 1}, "Cy", "roll", "Cy", "reign"),
    (4, 6): ({"Cy": 1}, "Cy", "roll", "Cy", "reign"),
    (5, 5): ({}, "Cy", "pick", "Cy", "doubles"),
    (5, 6): ({"Dee": 1}, "Cy", "roll", "Cy", "reign"),
    (6, 6): ({}, "Cy", "roll", "Cy", "reign"),
}


def test_the_table_lists_all_21_distinct_rolls():
    assert set(ALL_21) == {tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=2)}


@pytest.mark.parametrize("roll", sorted(ALL_21), ids=lambda r: f"{r[0]}-{r[1]}")
@pytest.mark.parametrize("order", ["low_first", "high_first"])
def test_every_roll_of_the_biscuit(roll, order):
    drinks, biscuit, expects, player, step = ALL_21[roll]
    g = crowned()
    before = g.drinks
    dice = list(roll) if order == "low_first" else list(reversed(roll))
    ev = play(g, {"roll": dice})
    assert delta(before, g.drinks) == drinks
    assert sum(d["count"] for d in of(ev, "drink")) == sum(drinks.values())
    assert all(d["why"] for d in of(ev, "drink"))
    assert g.biscuit == biscuit
    assert (g.expects["expects"], g.expects["player"], g.expects["step"]) == (expects, player, step)
    assert of(ev, "rolled")[0]["row"] == f"{roll[0]}-{roll[1]}"


def test_finding_the_biscuit_goes_clockwise_and_rolls_have_no_other_effect():
    g = game("biscuit", ["Ann", "Bo", "Cy"])
    assert g.expects["player"] == "Ann" and g.expects["step"] == "find" and g.expects["dice"] == 2
    ev = play(g, {"roll": [1, 1]}, {"roll": [3, 3]}, {"roll": [6, 6]}, {"roll": [1, 2]})
    assert of(ev, "drink") == [] and g.biscuit is None and g.rule is None
    assert g.expects["player"] == "Bo"
    ev = play(g, {"roll": [5, 2]})
    assert of(ev, "biscuit") == ["Bo"] and g.expects == {
        "player": "Bo", "expects": "roll", "step": "reign", "actions": ["roll"], "dice": 2, "options": [],
        "biscuit": "Bo"}


def test_a_3_ends_the_reign_and_the_hunt_starts_left_of_the_old_biscuit():
    g = crowned()
    ev = play(g, {"roll": [3, 5]})
    assert of(ev, "biscuit") == [None]
    play(g, {"roll": [1, 1]})  # Dee, no effect while nobody is Biscuit
    assert g.expects["player"] == "Eve"
    play(g, {"roll": [6, 1]})
    assert g.biscuit == "Eve"


# combined = three_only (RULES.md §2 "Rolls that match two rows", gap): a roll with a 3 triggers the
# "any 3" row alone. roll -> (drinks, the events in order); the hunt for 7 then starts at Dee.
THREE_ONLY = {
    (1, 3): ({"Cy": 1}, "biscuit.3"),
    (2, 3): ({"Cy": 1}, "biscuit.3"),
    (3, 3): ({"Cy": 2}, "biscuit.3-3"),  # seed: "Ja tiek mests 3-3, Biskvītam ir jāizdzer divi dzērieni"
    (3, 4): ({"Cy": 1}, "biscuit.3"),  # no thumbs race: the new Biscuit is found by rolling for 7
    (3, 5): ({"Cy": 1}, "biscuit.3"),
    (3, 6): ({"Cy": 1}, "biscuit.3"),  # the right neighbour does not drink
}


@pytest.mark.parametrize("roll", sorted(THREE_ONLY), ids=lambda r: f"{r[0]}-{r[1]}")
def test_three_only_a_roll_with_a_3_triggers_the_3_row_alone(roll):
    drinks, code = THREE_ONLY[roll]
    g = crowned(combined="three_only")
    before = g.drinks
    ev = play(g, {"roll": list(reversed(roll))})
    assert [list(e)[0] for e in ev] == ["rolled", "drink", "biscuit", "turn"]
    assert delta(before, g.drinks) == drinks and of(ev, "drink")[0]["code"] == code
    assert of(ev, "rolled")[0]["row"] == f"{roll[0]}-{roll[1]}" and of(ev, "biscuit") == [None]
    assert g.biscuit is None and g.expects["expects"] == "roll"
    assert (g.expects["player"], g.expects["step"]) == ("Dee", "find")


@pytest.mark.parametrize("roll", sorted(set(ALL_21) - set(THREE_ONLY)), ids=lambda r: f"{r[0]}-{r[1]}")
def test_three_only_leaves_every_roll_without_a_3_as_it_was(roll):
    drinks, biscuit, expects, player, step = ALL_21[roll]
    g = crowned(combined="three_only")
    before = g.drinks
    play(g, {"roll": list(roll)})
    assert delta(before, g.drinks) == drinks and g.biscuit == biscuit
    assert (g.expects["expects"], g.expects["player"], g.expects["step"]) == (expects, player, step)


def test_combined_both_is_the_default_and_gives_both_rows():
    g = crowned(combined="both")
    assert g.rules["combined"] == "both"
    ev = play(g, {"roll": [3, 6]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Bo", 1), ("Cy", 1)]
    assert crowned().rules["combined"] == "both"


def test_three_only_with_rotate_the_roller_drinks_and_the_biscuit_steps_down():
    g = crowned(roller="rotate", combined="three_only")
    play(g, {"roll": [1, 4]})  # Cy; Dee rolls next
    ev = play(g, {"roll": [3, 3]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Dee", 2)]
    assert g.biscuit is None and g.expects["player"] == "Dee" and g.expects["step"] == "find"  # left of Cy


def test_three_only_a_duel_throw_with_a_3_still_triggers_nothing():
    g = crowned(combined="three_only")
    play(g, {"roll": [1, 2]}, {"pick": ["Eve"]}, {"roll": [3, 6]})
    ev = play(g, {"roll": [3, 3]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Cy", 3)] and g.biscuit == "Cy"


def test_double_3_picks_three_then_the_biscuit_drinks_2_and_steps_down():
    g = crowned()
    before = g.drinks
    play(g, {"roll": [3, 3]})
    assert g.expects["count"] == 3 and g.expects["options"] == P6 and g.expects["repeats"] is False
    ev = play(g, {"pick": ["Ann", "Eve", "Fay"]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Ann", 1), ("Eve", 1), ("Fay", 1), ("Cy", 2)]
    assert delta(before, g.drinks) == {"Ann": 1, "Eve": 1, "Fay": 1, "Cy": 2}
    assert g.biscuit is None and g.expects["player"] == "Dee" and g.expects["step"] == "find"


def test_3_4_the_thumbs_race_names_the_new_biscuit_at_once():
    g = crowned()
    ev = play(g, {"roll": [4, 3]})
    assert [list(e)[0] for e in ev] == ["rolled", "drink", "biscuit", "thumbs", "turn"]
    assert g.expects["expects"] == "thumbs" and g.expects["options"] == P6
    ev = play(g, {"thumbs_last": "Fay"})
    assert of(ev, "biscuit") == ["Fay"] and g.expects["player"] == "Fay" and of(ev, "drink") == []


def test_3_6_right_neighbour_drinks_then_the_biscuit_drinks_and_steps_down():
    g = crowned()
    ev = play(g, {"roll": [6, 3]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Bo", 1), ("Cy", 1)]
    assert of(ev, "biscuit") == [None]


@pytest.mark.parametrize("roll, n", [([2, 2], 2), ([4, 4], 4), ([5, 5], 5)])
def test_doubles_the_biscuit_picks_that_many_distinct_players(roll, n):
    g = crowned()
    play(g, {"roll": roll})
    assert "roll" not in g.expects["actions"]
    assert "not now" in refused(g, {"roll": [1, 4]})
    assert f"picks {n} players" in refused(g, {"pick": P6[: n - 1]})
    assert "different players" in refused(g, {"pick": ["Ann"] * n})
    assert "not at this table" in refused(g, {"pick": ["Zed"] + P6[: n - 1]})
    assert "list of player names" in refused(g, {"pick": "Ann"})
    before = g.drinks
    play(g, {"pick": P6[-n:]})
    assert delta(before, g.drinks) == {p: 1 for p in P6[-n:]}
    assert g.biscuit == "Cy" and g.expects["player"] == "Cy"


def test_the_biscuit_may_pick_themselves():
    g = crowned()
    play(g, {"roll": [2, 2]}, {"pick": ["Cy", "Ann"]})
    assert g.drinks["Cy"] == 1


def test_with_fewer_players_than_the_number_everyone_drinks():
    g = crowned(["Ann", "Bo", "Cy", "Dee"])
    ev = play(g, {"roll": [5, 5]})
    assert [d["player"] for d in of(ev, "drink")] == ["Ann", "Bo", "Cy", "Dee"]
    assert g.expects["expects"] == "roll" and g.expects["player"] == "Cy"
    ev = play(g, {"roll": [3, 3]})  # 3 of 4: a pick is needed
    assert g.expects["expects"] == "pick"
    g = crowned(["Ann", "Bo", "Cy"])
    ev = play(g, {"roll": [3, 3]})  # 3 of 3: everyone, then the Biscuit drinks 2 more and steps down
    assert g.drinks == {"Ann": 1, "Bo": 1, "Cy": 3} and g.biscuit is None


def test_with_exactly_as_many_players_as_the_number_nobody_is_said_to_pick_or_to_be_too_few():
    g = crowned(["Ann", "Bo", "Cy"])
    ev = play(g, {"roll": [3, 3]})
    rolled = of(ev, "rolled")[0]
    assert "picks" not in rolled["effect"] and rolled["effect"].startswith("everyone drinks 1 (no pick: 3 players)")
    whys = {d["why"] for d in of(ev, "drink") if d["count"] == 1}
    assert whys == {"3-3: 3 players to pick and 3 at the table, everyone drinks"}
    g = crowned(["Ann", "Bo", "Cy"])
    ev = play(g, {"roll": [4, 4]})  # 4 of 3: fewer players than the number
    assert "picks" not in of(ev, "rolled")[0]["effect"]
    assert {d["why"] for d in of(ev, "drink")} == {"4-4: fewer players than 4, everyone drinks"}


def test_hand_out_gives_n_drinks_to_anyone_repeats_allowed():
    g = crowned(doubles="hand_out")
    play(g, {"roll": [4, 4]})
    assert g.expects["repeats"] is True
    ev = play(g, {"pick": ["Bo", "Bo", "Ann", "Bo"]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Bo", 3), ("Ann", 1)]
    g = crowned(["Ann", "Bo", "Cy"], doubles="hand_out")
    ev = play(g, {"roll": [5, 5]})
    assert g.expects["count"] == 5  # handing out does not depend on the number of players
    assert of(ev, "rolled")[0]["effect"].endswith("hands out 5 drinks")  # not "picks 5 players" of 3


def test_duel_seed_example_challenger_9_biscuit_6_the_biscuit_drinks_3():
    g = crowned()
    play(g, {"roll": [2, 1]})
    exp = g.expects
    assert exp["count"] == 1 and "Cy" not in exp["options"] and exp["step"] == "duel"
    assert "cannot challenge themselves" in refused(g, {"pick": ["Cy"]})
    ev = play(g, {"pick": ["Eve"]})
    assert of(ev, "duel") == [{"challenger": "Eve", "against": "Cy"}]
    assert g.expects["player"] == "Eve" and g.expects["step"] == "duel"
    play(g, {"roll": [4, 5]})
    assert g.expects["player"] == "Cy"
    before = g.drinks
    ev = play(g, {"roll": [3, 3]})  # duel rolls trigger nothing else: no double 3 here
    assert delta(before, g.drinks) == {"Cy": 3} and g.biscuit == "Cy"
    assert g.expects["player"] == "Cy" and g.expects["step"] == "reign"


def test_duel_the_challenger_loses_the_difference():
    g = crowned()
    play(g, {"roll": [1, 2]}, {"pick": ["Ann"]}, {"roll": [1, 3]})
    ev = play(g, {"roll": [6, 6]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Ann", 8)]


def test_duel_tie_is_rolled_again_by_default():
    g = crowned()
    play(g, {"roll": [1, 2]}, {"pick": ["Ann"]}, {"roll": [2, 4]})
    ev = play(g, {"roll": [1, 5]})
    assert of(ev, "duel_tie") == [{"total": 6, "reroll": True}] and of(ev, "drink") == []
    assert g.expects["player"] == "Ann" and g.expects["step"] == "duel"
    play(g, {"roll": [1, 1]})
    ev = play(g, {"roll": [2, 2]})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Ann", 2)]


def test_duel_tie_no_drinks():
    g = crowned(duel_tie="no_drinks")
    play(g, {"roll": [1, 2]}, {"pick": ["Ann"]}, {"roll": [2, 4]})
    ev = play(g, {"roll": [3, 3]})
    assert of(ev, "drink") == [] and g.expects["player"] == "Cy" and g.expects["step"] == "reign"


def test_thumbs_the_last_player_becomes_the_biscuit():
    g = crowned()
    ev = play(g, {"roll": [1, 6]})
    assert of(ev, "thumbs") == [True]
    assert g.expects["player"] is None and g.expects["actions"] == ["thumbs_last"]
    assert "not at this table" in refused(g, {"thumbs_last": "Zed"})
    assert "not now" in refused(g, {"roll": [1, 4]})
    ev = play(g, {"thumbs_last": "Ann"})
    assert of(ev, "biscuit") == ["Ann"] and of(ev, "drink") == [] and g.expects["player"] == "Ann"


def test_thumbs_loser_drinks_switch():
    g = crowned(thumbs_loser_drinks="on")
    ev = play(g, {"roll": [2, 5]}, {"thumbs_last": "Ann"})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Ann", 1)]


def test_rule_made_broken_and_ended_by_a_new_biscuit():
    g = crowned()
    assert "no rule is in force" in refused(g, {"rule_broken": "Ann"})
    ev = play(g, {"roll": [6, 6]})
    assert of(ev, "rule") == [{"by": "Cy", "count": 1}] and g.rule == {"by": "Cy", "count": 1}
    assert "rule_broken" in g.expects["actions"]
    ev = play(g, {"rule_broken": "Eve"})
    assert [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Eve", 1)]
    assert "not at this table" in refused(g, {"rule_broken": "Zed"})
    # The rule lasts while nobody new takes over: through the hunt for 7, and if Cy is found again.
    play(g, {"roll": [1, 3]})
    assert g.rule is not None
    play(g, {"rule_broken": "Ann"})
    for _ in ["Dee", "Eve", "Fay", "Ann", "Bo"]:
        play(g, {"roll": [1, 1]})
    ev = play(g, {"roll": [6, 1]})  # Cy again
    assert of(ev, "biscuit") == ["Cy"] and g.rule is not None
    play(g, {"roll": [6, 6]})
    assert g.rule["count"] == 2
    play(g, {"roll": [1, 6]})
    ev = play(g, {"thumbs_last": "Bo"})
    assert of(ev, "rule") == [None] and g.rule is None


def test_neighbours_wrap_around_the_table():
    g = game("biscuit", ["Ann", "Bo", "Cy"])
    play(g, {"roll": [3, 4]})  # Ann is the Biscuit: right is Cy, left is Bo
    ev = play(g, {"roll": [4, 5]}, {"roll": [5, 6]})
    assert [d["player"] for d in of(ev, "drink")] == ["Cy", "Bo"]


def test_rotate_each_player_rolls_in_turn_counted_from_the_roller():
    g = crowned(roller="rotate")
    play(g, {"roll": [1, 4]})  # Cy
    assert g.expects["player"] == "Dee"
    ev = play(g, {"roll": [4, 6]})  # Dee drinks (counted from the roller)
    assert [d["player"] for d in of(ev, "drink")] == ["Dee"]
    ev = play(g, {"roll": [5, 6]})  # Eve rolls: her left (Fay) drinks
    assert [d["player"] for d in of(ev, "drink")] == ["Fay"]
    ev = play(g, {"roll": [4, 5]})  # Fay rolls: her right (Eve) drinks
    assert [d["player"] for d in of(ev, "drink")] == ["Eve"]
    play(g, {"roll": [2, 2]})  # Ann rolls doubles: Ann picks
    assert g.expects["player"] == "Ann" and g.expects["expects"] == "pick"
    play(g, {"pick": ["Bo", "Cy"]})
    assert g.expects["player"] == "Bo" and g.biscuit == "Cy"
    ev = play(g, {"roll": [3, 1]})  # Bo rolls a 3: Bo drinks, Cy stops being the Biscuit
    assert [d["player"] for d in of(ev, "drink")] == ["Bo"] and g.biscuit is None
    assert g.expects["player"] == "Dee" and g.expects["step"] == "find"  # left of the old Biscuit


@pytest.mark.parametrize("roll, picks, count", [([3, 1], [], 1), ([3, 6], [], 1), ([4, 3], [], 1),
                                               ([3, 3], [["Ann", "Dee", "Eve"]], 2)])
def test_rotate_a_3_names_the_roller_who_drinks_and_the_biscuit_who_steps_down(roll, picks, count):
    g = crowned(roller="rotate")
    play(g, {"roll": [1, 4]})  # Cy rolls nothing; Dee rolls next, Cy is still the Biscuit
    ev = play(g, {"roll": roll}, *({"pick": p} for p in picks))
    why = [d["why"] for d in of(ev, "drink") if d["player"] == "Dee"][-1]
    assert f"Dee (rolling for the Biscuit) drinks {count} and Cy stops being the Biscuit" in why
    assert g.biscuit is None


def test_a_3_6_says_both_its_rows_in_its_effect():
    g = crowned()
    ev = play(g, {"roll": [3, 6]})
    assert of(ev, "rolled")[0]["effect"] == "Bo (right of Cy) drinks 1, then Cy drinks 1 and the Biscuit steps down"


def test_the_biscuit_rolling_a_3_drinks_and_stops_being_the_biscuit_in_the_log():
    g = crowned()
    ev = play(g, {"roll": [3, 1]})
    assert "the Biscuit drinks 1 and stops being the Biscuit" in of(ev, "drink")[0]["why"]


def test_rotate_duel_and_thumbs():
    g = crowned(roller="rotate")
    play(g, {"roll": [1, 5]}, {"roll": [1, 2]})  # Dee duels
    assert g.expects["player"] == "Dee" and "Dee" not in g.expects["options"]
    play(g, {"pick": ["Ann"]}, {"roll": [6, 6]}, {"roll": [1, 1]})
    assert g.drinks["Dee"] == 10 and g.expects["player"] == "Eve"
    play(g, {"roll": [1, 6]}, {"thumbs_last": "Bo"})
    assert g.biscuit == "Bo" and g.expects["player"] == "Bo"


@pytest.mark.parametrize("dice", [[1, 2, 3], [7, 1], [0, 3], [1], [], [1.0, 2], [True, 2], "12", None])
def test_impossible_rolls_are_refused(dice):
    g = crowned()
    assert "rolls 2 dice" in refused(g, {"roll": dice})


def test_biscuit_never_ends():
    g = crowned()
    for _ in range(20):
        play(g, {"roll": [1, 1]})
    assert not g.over and g.winner is None and g.drinks["Ann"] == 20


def test_biscuit_needs_three_players():
    from appliance.games import SetupError, new_game

    with pytest.raises(SetupError, match="3 or more"):
        new_game({"game": "biscuit", "players": ["Ann", "Bo"]})
