"""Declared Yacht as RULES.md §3 states it (seed 002_eb2fdbc33035b68e.txt), through the engine."""

import pytest

from appliance.games import SetupError, new_game
from appliance.games.yacht_scoring import CATEGORIES

from .helpers import game, of, play, refused


def ordered(players=("Ann", "Bo"), **rules):
    """A game whose order is found at once: the first seat rolls 30, everyone else 5."""
    g = game("yacht", list(players), **rules)
    if len(players) > 1:
        play(g, {"roll": [6, 6, 6, 6, 6]}, *[{"roll": [1, 1, 1, 1, 1]}] * (len(players) - 1))
    assert g.order == list(players)
    return g


def turn(g, first, category, *rerolls, stop=False):
    """One whole turn: roll, declare, rerolls (and stop); returns the score event's payload."""
    actions = [{"roll": first}, {"declare": category}, *[{"roll": r} for r in rerolls]]
    if stop:
        actions.append({"stop": True})
    (scored,) = of(play(g, *actions), "score")
    return scored


def test_the_highest_total_starts_and_play_passes_left():
    g = game("yacht", ["Ann", "Bo", "Cy", "Dee"])
    assert g.expects["expects"] == "roll" and g.expects["step"] == "order" and g.expects["dice"] == 5
    ev = play(g, {"roll": [1, 2, 3, 4, 5]}, {"roll": [2, 2, 2, 2, 2]}, {"roll": [6, 6, 6, 5, 5]})
    assert g.order is None and g.expects["player"] == "Dee"
    ev = play(g, {"roll": [1, 1, 1, 1, 2]})
    assert of(ev, "order") == [["Cy", "Dee", "Ann", "Bo"]]
    assert g.expects["player"] == "Cy" and g.expects["step"] == "turn" and g.round == 1


def test_order_ties_roll_again_among_themselves():
    g = game("yacht", ["Ann", "Bo", "Cy"])
    ev = play(g, {"roll": [6, 6, 6, 1, 1]}, {"roll": [1, 1, 1, 1, 1]}, {"roll": [5, 5, 5, 4, 1]})
    assert of(ev, "order_tie") == [{"players": ["Ann", "Cy"], "total": 20}]
    assert g.expects["player"] == "Ann" and g.expects["rolling"] == ["Ann", "Cy"]
    ev = play(g, {"roll": [3, 3, 3, 3, 5]}, {"roll": [5, 5, 5, 1, 1]})  # tied again
    assert of(ev, "order_tie") == [{"players": ["Ann", "Cy"], "total": 17}]
    ev = play(g, {"roll": [1, 1, 1, 1, 1]}, {"roll": [2, 1, 1, 1, 1]})
    assert of(ev, "order") == [["Cy", "Ann", "Bo"]]


@pytest.mark.parametrize("throws, tied, starts", [
    ([[6, 6, 6, 1, 1], [1, 1, 1, 1, 1], [5, 5, 5, 4, 1]], ["Ann", "Cy"], "Ann"),
    ([[1, 1, 1, 1, 1], [6, 6, 6, 1, 1], [5, 5, 5, 4, 1]], ["Bo", "Cy"], "Bo"),
    ([[4, 4, 4, 4, 4], [6, 6, 6, 1, 1], [5, 5, 5, 4, 1]], ["Ann", "Bo", "Cy"], "Ann"),
])
def test_order_tie_seat_the_tied_player_seated_first_starts(throws, tied, starts):
    g = game("yacht", ["Ann", "Bo", "Cy"], order_tie="seat")
    ev = play(g, *[{"roll": d} for d in throws])
    assert of(ev, "order_tie") == []
    assert of(ev, "order_seat") == [{"players": tied, "total": 20, "starts": starts}]
    assert g.order[0] == starts and g.expects["player"] == starts and g.expects["step"] == "turn"
    assert len(of(ev, "rolled")) == 3  # one throw each, nobody rolls again


def test_order_tie_seat_without_a_tie_is_the_highest_total():
    g = game("yacht", ["Ann", "Bo", "Cy"], order_tie="seat")
    ev = play(g, {"roll": [1, 1, 1, 1, 1]}, {"roll": [6, 6, 6, 1, 1]}, {"roll": [6, 6, 6, 6, 1]})
    assert of(ev, "order_seat") == [] and of(ev, "order") == [["Cy", "Ann", "Bo"]]


def test_one_player_practises_without_an_order_roll():
    g = game("yacht", ["Ann"])
    assert g.order == ["Ann"] and g.expects["step"] == "turn"


def test_a_turn_roll_declare_two_rerolls_then_scored():
    g = ordered()
    play(g, {"roll": [5, 5, 2, 2, 1]})
    exp = g.expects
    assert exp["expects"] == "declare" and exp["options"] == list(CATEGORIES) and exp["showing"] == [5, 5, 2, 2, 1]
    assert "declares a category before rolling again" in refused(g, {"roll": [5, 5, 2, 2, 1]})
    assert "not now" in refused(g, {"stop": True})
    play(g, {"declare": "full_house"})
    assert g.expects["expects"] == "reroll" and g.expects["actions"] == ["roll", "stop"]
    assert g.expects["rolls_left"] == 2
    assert "not now" in refused(g, {"declare": "choice"})
    play(g, {"roll": [5, 5, 2, 2, 3]})
    assert g.expects["rolls_left"] == 1
    ev = play(g, {"roll": [5, 5, 5, 2, 2]})
    assert of(ev, "score") == [{"player": "Ann", "category": "full_house", "points": 29,
                                "dice": [5, 5, 5, 2, 2], "total": 29}]
    assert g.expects["player"] == "Bo" and g.expects["expects"] == "roll"


def test_declare_only_after_the_first_roll():
    g = ordered()
    assert "not now" in refused(g, {"declare": "choice"})


# The seed's examples (and its corrected worked example, RULES.md §3 note).
@pytest.mark.parametrize(
    "first, category, rerolls, points",
    [
        ([3, 3, 3, 5, 5], "full_house", [], 29),
        ([6, 6, 5, 5, 3], "choice", [], 25),
        ([5, 5, 2, 2, 1], "four_of_a_kind", [[5, 5, 5, 2, 1], [5, 5, 5, 5, 1]], 30),  # four fives
        ([5, 5, 2, 2, 1], "full_house", [[5, 5, 2, 2, 5]], 29),  # rerolling the 1 gives a five
        ([5, 5, 2, 2, 1], "full_house", [[5, 5, 2, 2, 2]], 26),  # ... or a two
        ([5, 5, 2, 2, 1], "fives", [], 10),
        ([5, 5, 2, 2, 1], "yacht", [[5, 5, 5, 5, 1], [5, 5, 5, 5, 5]], 50),
        ([5, 5, 2, 2, 1], "small_straight", [[5, 4, 3, 2, 1]], 30),
        ([1, 1, 2, 3, 4], "ones", [], 2),  # two ones = 2
    ],
)
def test_seed_examples(first, category, rerolls, points):
    g = ordered()
    assert turn(g, first, category, *rerolls, stop=len(rerolls) < 2)["points"] == points


def test_four_of_a_kind_declared_and_a_yacht_rolled_scores_as_four_of_a_kind():
    g = ordered()
    assert turn(g, [4, 4, 4, 4, 4], "four_of_a_kind", stop=True)["points"] == 26


@pytest.mark.parametrize(
    "category, dice",
    [("yacht", [5, 5, 5, 5, 1]), ("small_straight", [2, 3, 4, 5, 6]), ("large_straight", [1, 2, 3, 4, 5]),
     ("full_house", [5, 5, 5, 5, 5]), ("full_house", [1, 1, 2, 2, 3]), ("four_of_a_kind", [5, 5, 5, 2, 2]),
     ("sixes", [1, 2, 3, 4, 5])],
)
def test_zero_when_the_declared_category_is_missed(category, dice):
    g = ordered()
    scored = turn(g, [1, 1, 2, 3, 4], category, [1, 1, 1, 1, 1], dice)
    assert scored["points"] == 0 and g.sheet["Ann"][category] == 0


def test_sackson_scoring_preset():
    g = ordered(scoring="sackson")
    assert turn(g, [3, 3, 3, 5, 5], "full_house", stop=True)["points"] == 19
    assert turn(g, [5, 5, 5, 5, 1], "four_of_a_kind", stop=True)["points"] == 20


def test_yacht_counts_as_full_house_switch():
    g = ordered(yacht_counts_as_full_house=True)
    assert turn(g, [2, 2, 2, 2, 2], "full_house", stop=True)["points"] == 20
    g = ordered()
    assert turn(g, [2, 2, 2, 2, 2], "full_house", stop=True)["points"] == 0


def test_each_category_once_and_only_known_categories():
    g = ordered(["Ann"])
    turn(g, [1, 2, 3, 4, 5], "choice", stop=True)
    play(g, {"roll": [6, 6, 6, 6, 6]})
    assert "choice" not in g.expects["options"] and len(g.expects["options"]) == 11
    assert "used choice already" in refused(g, {"declare": "choice"})
    for bad in ["pair", "Choice", None, 3, ["yacht"]]:
        assert "not a category" in refused(g, {"declare": bad})


@pytest.mark.parametrize("dice", [[1, 2, 3, 4, 5, 6, 6], [1, 2, 3, 4], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], "12345"])
def test_impossible_rolls_are_refused(dice):
    g = ordered()
    assert "rolls 5 dice" in refused(g, {"roll": dice})


def test_twelve_rounds_then_the_highest_total_wins():
    g = ordered(["Ann", "Bo"])
    for i, category in enumerate(CATEGORIES):
        assert g.round == i + 1
        turn(g, [6, 6, 6, 6, 6], category, stop=True)  # Ann
        turn(g, [1, 1, 1, 1, 1], category, stop=True)  # Bo
    assert g.over and g.winner == ["Ann"]
    assert g.totals == {"Ann": sum(g.sheet["Ann"].values()), "Bo": sum(g.sheet["Bo"].values())}
    assert all(v is not None for cats in g.sheet.values() for v in cats.values())
    assert g.expects["expects"] == "nothing" and g.expects["winner"] == ["Ann"]
    assert "game is over" in refused(g, {"roll": [1, 1, 1, 1, 1]})


def test_a_tie_shares_the_win():
    g = ordered(["Ann", "Bo", "Cy"])
    for category in CATEGORIES:
        for dice in ([3, 3, 3, 3, 3], [3, 3, 3, 3, 3], [1, 1, 1, 1, 1]):
            turn(g, dice, category, stop=True)
    assert g.winner == ["Ann", "Bo"]


def tie_after_12_rounds(g):
    """Play the 12 rounds of an ordered game: Ann and Bo write the same scores, the others less."""
    events = []
    for category in CATEGORIES:
        for p in g.order:
            dice = [4, 4, 4, 4, 4] if p in ("Ann", "Bo") else [1, 2, 1, 2, 1]
            events += play(g, {"roll": dice}, {"declare": category}, {"stop": True})
    return events


def test_final_tie_share_is_the_default():
    g = ordered(["Ann", "Bo", "Cy"])
    ev = tie_after_12_rounds(g)
    assert g.rules["final_tie"] == "share" and of(ev, "final_tie") == []
    assert g.over and g.winner == ["Ann", "Bo"] and of(ev, "winner") == [["Ann", "Bo"]]


def test_final_tie_roll_off_the_tied_throw_in_seat_order_until_one_is_highest():
    # Seats Ann, Bo, Cy; Bo starts, so the play order is Bo, Cy, Ann but the roll-off goes by seat.
    g = game("yacht", ["Ann", "Bo", "Cy"], final_tie="roll_off")
    play(g, {"roll": [1, 1, 1, 1, 1]}, {"roll": [6, 6, 6, 6, 6]}, {"roll": [1, 1, 1, 1, 1]})
    assert g.order == ["Bo", "Cy", "Ann"]
    ev = tie_after_12_rounds(g)
    totals, sheet = g.totals, g.sheet
    assert totals["Ann"] == totals["Bo"] > totals["Cy"]
    assert of(ev, "winner") == [] and not g.over and g.winner is None
    assert of(ev, "final_tie") == [{"players": ["Ann", "Bo"], "total": totals["Ann"]}]
    assert [list(e)[0] for e in ev[-3:]] == ["score", "final_tie", "turn"]
    assert g.expects == {"player": "Ann", "expects": "roll", "step": "roll_off", "actions": ["roll"], "dice": 5,
                         "options": [], "rolling": ["Ann", "Bo"], "round": 12, "showing": None, "declared": None}
    assert "not now" in refused(g, {"stop": True})
    assert "not now" in refused(g, {"declare": "choice"})
    assert "rolls 5 dice" in refused(g, {"roll": [1, 2]})
    ev = play(g, {"roll": [5, 5, 5, 4, 1]})
    assert of(ev, "rolled") == [{"player": "Ann", "dice": [5, 5, 5, 4, 1], "total": 20, "step": "roll_off"}]
    assert g.expects["player"] == "Bo" and g.expects["step"] == "roll_off"
    ev = play(g, {"roll": [6, 6, 6, 1, 1]})  # 20 again: they roll off again among themselves
    assert of(ev, "final_tie") == [{"players": ["Ann", "Bo"], "total": 20}] and g.expects["player"] == "Ann"
    ev = play(g, {"roll": [2, 2, 2, 2, 2]}, {"roll": [1, 1, 1, 1, 2]})
    assert of(ev, "winner") == [["Ann"]] and of(ev, "score") == []
    assert g.over and g.winner == ["Ann"] and g.expects["winner"] == ["Ann"]
    assert g.totals == totals and g.sheet == sheet  # the roll-off throws score nothing
    assert "game is over" in refused(g, {"roll": [1, 1, 1, 1, 1]})


def test_final_tie_roll_off_three_tied_then_two():
    g = ordered(["Ann", "Bo", "Cy", "Dee"], final_tie="roll_off")
    for category in CATEGORIES:
        for p in g.order:
            play(g, {"roll": [1, 2, 1, 2, 1] if p == "Dee" else [4, 4, 4, 4, 4]}, {"declare": category}, {"stop": True})
    assert g.expects["rolling"] == ["Ann", "Bo", "Cy"]
    ev = play(g, {"roll": [6, 6, 6, 6, 6]}, {"roll": [1, 1, 1, 1, 1]}, {"roll": [6, 6, 6, 6, 6]})
    assert of(ev, "final_tie") == [{"players": ["Ann", "Cy"], "total": 30}]
    ev = play(g, {"roll": [1, 1, 1, 1, 1]}, {"roll": [1, 1, 1, 1, 2]})
    assert of(ev, "winner") == [["Cy"]]


def test_final_tie_roll_off_without_a_tie_ends_at_once():
    g = ordered(["Ann", "Bo"], final_tie="roll_off")
    for category in CATEGORIES:
        turn(g, [6, 6, 6, 6, 6], category, stop=True)
        turn(g, [1, 1, 1, 1, 1], category, stop=True)
    assert g.over and g.winner == ["Ann"]


def test_undo_takes_back_a_roll_off_throw_and_the_score_that_started_it():
    g = ordered(["Ann", "Bo"], final_tie="roll_off")
    tie_after_12_rounds(g)
    play(g, {"roll": [6, 6, 6, 6, 6]}, {"roll": [1, 1, 1, 1, 1]})
    assert g.winner == ["Ann"]
    play(g, {"undo": True})
    assert not g.over and g.expects["player"] == "Bo" and g.expects["step"] == "roll_off"
    play(g, {"undo": True}, {"undo": True})  # Ann's throw, then Bo's last stop
    assert g.expects["expects"] == "reroll" and g.expects["player"] == "Bo" and g.sheet["Bo"]["yacht"] is None


def test_yacht_player_count():
    for n in (0, 9):
        with pytest.raises(SetupError, match="1-8 players"):
            new_game({"game": "yacht", "players": [f"P{i}" for i in range(n)]})
