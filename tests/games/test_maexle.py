"""Mäxle as RULES.md §1 states it (seed 001_384ec687ee7ec7e5.txt): every row and every switch."""

import pytest

from appliance.games import maexle_values as mv

from .helpers import game, of, play, refused

P3 = ["Ann", "Bo", "Cy"]


def test_defaults_fill_the_setup():
    g = game("maexle", P3)
    assert g.setup["rules"] == {
        "truth": "at_least", "announce": "strictly_higher", "maexle": "accept_or_reveal",
        "maexle_accept_cost": 1, "maexle_reveal_cost": 2, "self_reveal": True, "self_reveal_beats": "free",
        "blind_pass": False, "direction": "right", "penalty": "points", "limit": 6,
    }


def test_any_value_opens_a_round_and_the_cup_goes_right():
    g = game("maexle", P3)
    assert g.expects["player"] == "Ann" and g.expects["expects"] == "announce"
    assert g.expects["options"] == list(mv.ORDER)
    ev = play(g, {"announce": 31})
    # Right = the previous seat clockwise: Ann's right neighbour is Cy.
    assert of(ev, "announcement") == [{"player": "Ann", "value": 31, "to": "Cy"}]
    assert g.cup_holder == "Cy" and g.announcement == {"value": 31, "by": "Ann"}


def test_direction_left_passes_to_the_next_seat():
    g = game("maexle", P3, direction="left")
    play(g, {"announce": 31})
    assert g.cup_holder == "Bo"


def test_receiver_may_announce_reveal_or_self_reveal():
    g = game("maexle", P3)
    play(g, {"announce": 54})
    exp = g.expects
    assert exp["expects"] == "decide" and exp["player"] == "Cy"
    assert exp["actions"] == ["announce", "reveal", "self_reveal"]
    assert exp["options"] == [61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21]
    assert exp["announced"] == {"value": 54, "by": "Ann"}


@pytest.mark.parametrize("value", [54, 53, 31])
def test_an_announcement_must_beat_the_last(value):
    g = game("maexle", P3)
    play(g, {"announce": 54})
    assert "does not beat 54" in refused(g, {"announce": value})


def test_higher_or_equal_allows_the_same_value():
    g = game("maexle", P3, announce="higher_or_equal")
    play(g, {"announce": 54}, {"announce": 54})
    assert 53 not in g.expects["options"] and 54 in g.expects["options"]
    assert "does not match or beat 54" in refused(g, {"announce": 53})


@pytest.mark.parametrize("bad", [12, 7, 0, 66.0, "54", True, None, [5, 4]])
def test_an_announcement_must_be_a_maexle_value(bad):
    g = game("maexle", P3)
    assert "not a Mäxle value" in refused(g, {"announce": bad})


def test_reveal_lifts_the_cup_and_the_next_roll_is_what_lay_under_it():
    g = game("maexle", P3)
    play(g, {"announce": 54})
    assert "stay under the cup" in refused(g, {"roll": [5, 4]})
    play(g, {"reveal": True})
    assert g.expects == {"player": "Cy", "expects": "roll", "step": "reveal", "actions": ["roll"],
                         "dice": 2, "options": [], "announced": {"value": 54, "by": "Ann"}}
    assert "not now" in refused(g, {"announce": 61})
    assert "2 dice" in refused(g, {"roll": [5, 4, 1]})
    assert "2 dice" in refused(g, {"roll": [7, 1]})


@pytest.mark.parametrize(
    "truth, dice, loser",
    [
        ("at_least", [5, 4], "Cy"),  # exactly as announced: the revealer pays
        ("at_least", [6, 1], "Cy"),  # higher than announced: "stimmt" read as at least
        ("at_least", [5, 3], "Ann"),  # lower: the announcer lied
        ("exact", [5, 4], "Cy"),
        ("exact", [6, 1], "Ann"),  # higher is not the announced value under truth = exact
        ("exact", [2, 2], "Ann"),
    ],
)
def test_reveal_truth_at_least_or_exact(truth, dice, loser):
    g = game("maexle", P3, truth=truth)
    ev = play(g, {"announce": 54}, {"reveal": True}, {"roll": dice})
    assert of(ev, "revealed")[0]["holds"] == (loser == "Cy")
    (pen,) = of(ev, "penalty")
    assert pen["player"] == loser and pen["points"] == 1
    # The player who took the penalty opens the next round with any value.
    assert g.expects["player"] == loser and g.expects["expects"] == "announce"
    assert g.penalties[loser] == 1 and g.announcement is None


def test_maexle_accept_costs_one_and_the_accepter_opens():
    g = game("maexle", P3)
    play(g, {"announce": 21})
    exp = g.expects
    assert exp["actions"] == ["reveal", "accept"] and exp["options"] == []
    ev = play(g, {"accept": True})
    assert of(ev, "penalty")[0] | {"why": None} == {"player": "Cy", "points": 1, "why": None,
                                                      "code": "maexle.accept"}
    assert g.expects["player"] == "Cy" and g.expects["expects"] == "announce"


@pytest.mark.parametrize("dice, loser", [([1, 2], "Cy"), ([6, 6], "Ann")])
def test_maexle_revealed_costs_two_to_whoever_is_wrong(dice, loser):
    g = game("maexle", P3)
    ev = play(g, {"announce": 21}, {"reveal": True}, {"roll": dice})
    assert [(p["player"], p["points"]) for p in of(ev, "penalty")] == [(loser, 2)]


def test_maexle_costs_are_switches():
    g = game("maexle", P3, maexle_accept_cost=2, maexle_reveal_cost=3)
    ev = play(g, {"announce": 21}, {"accept": True})
    assert of(ev, "penalty")[0]["points"] == 2
    ev = play(g, {"announce": 21}, {"reveal": True}, {"roll": [4, 4]})
    assert of(ev, "penalty")[0]["points"] == 3


def test_accept_answers_only_a_maexle():
    g = game("maexle", P3)
    play(g, {"announce": 66})
    assert "accept answers an announced Mäxle" in refused(g, {"accept": True})


@pytest.mark.parametrize("announce", ["strictly_higher", "higher_or_equal"])
@pytest.mark.parametrize("blind_pass", [False, True])
def test_after_a_maexle_the_receiver_only_accepts_or_reveals(announce, blind_pass):
    # Seed: "Wenn "Mäxle" gerufen wird, geht es um einen Punkt mehr - d.h. der Nächste kann
    # weiterwürfeln (neu anfangen) und bekommt einen Strafpunkt oder er deckt auf und es gibt zwei
    # Strafpunkte." Either accept (a new round) or reveal: a Mäxle is never matched, even where
    # announce = higher_or_equal lets any other value be matched, and it is not passed on blind.
    g = game("maexle", P3, announce=announce, blind_pass=blind_pass)
    play(g, {"announce": 21})
    assert g.expects["actions"] == ["reveal", "accept"] and g.expects["options"] == []
    assert "after a Mäxle: accept or reveal" in refused(g, {"announce": 21})
    assert "after a Mäxle: accept or reveal" in refused(g, {"self_reveal": True})
    reason = refused(g, {"blind_pass": True})
    assert ("after a Mäxle: accept or reveal" if blind_pass else "blind_pass is off") in reason
    ev = play(g, {"accept": True})
    assert of(ev, "penalty")[0]["player"] == "Cy" and g.expects["expects"] == "announce"


def test_under_higher_or_equal_every_other_value_may_still_be_matched():
    g = game("maexle", P3, announce="higher_or_equal")
    play(g, {"announce": 66})
    assert g.expects["actions"][0] == "announce" and g.expects["options"] == [66, 21]
    play(g, {"announce": 66})
    assert g.announcement == {"value": 66, "by": "Cy"}


def test_self_reveal_costs_one_and_the_self_revealer_opens():
    g = game("maexle", P3)
    ev = play(g, {"announce": 65}, {"self_reveal": True})
    assert g.expects["step"] == "self_reveal" and g.expects["player"] == "Cy"
    ev = play(g, {"roll": [4, 3]})
    assert of(ev, "revealed")[0]["lift"] == "self_reveal"
    assert [(p["player"], p["points"]) for p in of(ev, "penalty")] == [("Cy", 1)]
    assert g.expects["player"] == "Cy" and g.expects["expects"] == "announce"


def test_a_self_reveal_whose_dice_beat_the_announcement_costs_nobody_a_point():
    g = game("maexle", P3)
    play(g, {"announce": 54}, {"self_reveal": True})
    ev = play(g, {"roll": [6, 6]})
    assert of(ev, "revealed")[0]["beats"] is True
    assert of(ev, "penalty") == [] and g.penalties == {p: 0 for p in P3}
    assert g.expects["player"] == "Cy" and g.expects["expects"] == "announce"
    g = game("maexle", P3, announce="higher_or_equal")  # equal is enough when an equal announcement is
    play(g, {"announce": 54}, {"self_reveal": True})
    assert of(play(g, {"roll": [5, 4]}), "penalty") == []


def test_under_self_reveal_beats_costs_a_self_reveal_takes_one_whatever_it_shows():
    g = game("maexle", P3, self_reveal_beats="costs")
    play(g, {"announce": 54}, {"self_reveal": True})
    ev = play(g, {"roll": [6, 6]})
    assert "beats" not in of(ev, "revealed")[0]
    assert [(p["player"], p["points"]) for p in of(ev, "penalty")] == [("Cy", 1)]
    assert "instead of announcing it" in of(ev, "penalty")[0]["why"]
    assert g.expects["player"] == "Cy" and g.expects["expects"] == "announce"


def test_self_reveal_switch_off_and_not_after_a_maexle():
    g = game("maexle", P3, self_reveal="off")
    play(g, {"announce": 65})
    assert "self_reveal" not in g.expects["actions"]
    assert "self_reveal is off" in refused(g, {"self_reveal": True})
    g = game("maexle", P3)
    play(g, {"announce": 21})
    assert "accept or reveal" in refused(g, {"self_reveal": True})


def test_self_reveal_is_not_possible_when_opening():
    g = game("maexle", P3)
    assert "not now" in refused(g, {"self_reveal": True})
    assert "not now" in refused(g, {"reveal": True})


def test_believing_is_the_receivers_own_announcement_and_the_round_goes_on():
    g = game("maexle", P3)
    ev = play(g, {"announce": 43}, {"announce": 62}, {"announce": 11}, {"reveal": True}, {"roll": [1, 3]})
    # Ann -> Cy -> Bo -> Ann: Ann reveals Bo's 11; 31 is lower: Bo lied.
    assert of(ev, "penalty")[0]["player"] == "Bo"


def test_penalty_as_drinks():
    g = game("maexle", P3, penalty="drinks")
    ev = play(g, {"announce": 54}, {"reveal": True}, {"roll": [1, 3]})
    assert of(ev, "penalty") == [] and [(d["player"], d["count"]) for d in of(ev, "drink")] == [("Ann", 1)]
    assert g.penalties == {"Ann": 1, "Bo": 0, "Cy": 0}


def test_drinks_count_towards_the_limit_as_points_do():
    g = game("maexle", P3, penalty="drinks", limit=1)
    play(g, {"announce": 54}, {"reveal": True}, {"roll": [1, 3]})
    assert g.out == ["Ann"] and "Ann" not in g.expects.get("options", [])


def test_out_at_the_limit_the_other_player_opens_and_the_last_wins():
    g = game("maexle", P3, limit=2)
    play(g, {"announce": 54}, {"reveal": True}, {"roll": [5, 4]})  # Cy 1
    ev = play(g, {"announce": 21}, {"reveal": True}, {"roll": [1, 2]})  # Cy reveals a true Mäxle: Bo +2
    assert of(ev, "out") == ["Bo"] and g.out == ["Bo"]
    # Bo took the penalty and is out: the other player involved (Cy, the announcer) opens.
    assert g.expects["player"] == "Cy"
    ev = play(g, {"announce": 31})
    assert of(ev, "announcement")[0]["to"] == "Ann"  # Bo is skipped
    ev = play(g, {"reveal": True}, {"roll": [2, 2]})  # Ann +1
    ev = play(g, {"announce": 44}, {"reveal": True}, {"roll": [4, 4]})  # Ann -> Cy: Cy +1 -> out
    assert of(ev, "out") == ["Cy"] and of(ev, "winner") == [["Ann"]]
    assert g.over and g.winner == ["Ann"]
    assert g.expects == {"player": None, "expects": "nothing", "step": "over", "actions": [], "dice": None,
                         "options": [], "winner": ["Ann"]}
    assert "game is over" in refused(g, {"announce": 31})


def test_when_the_penalised_announcer_is_out_the_revealer_opens():
    g = game("maexle", ["Ann", "Bo", "Cy", "Dee"], limit=1)
    play(g, {"announce": 54}, {"reveal": True}, {"roll": [3, 1]})  # Dee reveals Ann's lie: Ann out
    assert g.out == ["Ann"] and g.expects["player"] == "Dee"


def test_no_limit_nobody_goes_out():
    g = game("maexle", ["Ann", "Bo"], limit=None)
    for _ in range(10):
        play(g, {"announce": 21}, {"accept": True})
    assert g.out == [] and g.penalties == {"Ann": 5, "Bo": 5} and not g.over


def test_immediate_reveal_a_real_maexle_costs_everyone_else_one():
    g = game("maexle", ["Ann", "Bo", "Cy", "Dee"], maexle="immediate_reveal")
    play(g, {"announce": 21})
    assert g.expects["expects"] == "roll" and g.expects["step"] == "maexle" and g.expects["player"] == "Dee"
    ev = play(g, {"roll": [2, 1]})
    assert sorted(p["player"] for p in of(ev, "penalty")) == ["Bo", "Cy", "Dee"]
    assert all(p["points"] == 1 for p in of(ev, "penalty"))
    assert g.expects["player"] == "Dee" and g.expects["expects"] == "announce"


def test_immediate_reveal_a_false_maexle_costs_the_announcer_one():
    g = game("maexle", P3, maexle="immediate_reveal")
    ev = play(g, {"announce": 21}, {"roll": [6, 6]})
    assert [(p["player"], p["points"]) for p in of(ev, "penalty")] == [("Ann", 1)]
    assert g.expects["player"] == "Ann"


def test_immediate_reveal_can_end_the_game_at_once():
    g = game("maexle", P3, maexle="immediate_reveal", limit=1)
    ev = play(g, {"announce": 21}, {"roll": [1, 2]})
    assert sorted(of(ev, "out")) == ["Bo", "Cy"] and of(ev, "winner") == [["Ann"]]


def test_accept_is_off_under_immediate_reveal():
    g = game("maexle", P3, maexle="immediate_reveal")
    play(g, {"announce": 66})
    assert "accept" not in g.expects["actions"]


def test_blind_pass_the_passer_answers_for_the_old_announcement():
    g = game("maexle", P3, blind_pass=True)
    play(g, {"announce": 54})
    assert g.expects["actions"][-1] == "blind_pass"
    ev = play(g, {"blind_pass": True})
    assert of(ev, "blind_pass") == [{"player": "Cy", "value": 54, "to": "Bo"}]
    assert g.announcement == {"value": 54, "by": "Cy"} and g.expects["options"][0] == 61
    ev = play(g, {"reveal": True}, {"roll": [2, 1]})  # Bo reveals: a Mäxle is at least 54, it holds
    assert of(ev, "penalty")[0]["player"] == "Bo"
    play(g, {"announce": 54}, {"blind_pass": True}, {"reveal": True})
    ev = play(g, {"roll": [3, 1]})
    # Bo announced to Ann, Ann passed blind to Cy, Cy revealed a lie: Ann answers for it, as the
    # one who passed it on blind, not as if she had announced it.
    penalty = of(ev, "penalty")[0]
    assert penalty["player"] == "Ann" and penalty["code"] == "maexle.reveal_blind"
    assert penalty["why"] == "Ann passed 54 on blind but the dice show 31"
    play(g, {"announce": 65}, {"reveal": True})
    ev = play(g, {"roll": [3, 1]})  # a lie of one's own in the next round: caught lying
    assert of(ev, "penalty")[0]["code"] == "maexle.reveal_lie"


def test_blind_pass_is_off_by_default():
    g = game("maexle", P3)
    play(g, {"announce": 54})
    assert "blind_pass is off" in refused(g, {"blind_pass": True})


@pytest.mark.parametrize("action", [{"reveal": False}, {"accept": 1}, {"undo": False}, {"shout": 1},
                                    {"pick": ["Bo"]}, {}, {"announce": 54, "roll": [1, 2]}, [], "roll", None])
def test_malformed_actions_are_refused(action):
    g = game("maexle", P3)
    play(g, {"announce": 21})
    refused(g, action)


def test_two_players_pass_the_cup_back_and_forth():
    g = game("maexle", ["Ann", "Bo"])
    play(g, {"announce": 41})
    assert g.cup_holder == "Bo"
    play(g, {"announce": 42})
    assert g.cup_holder == "Ann"


def test_immediate_reveal_a_real_maexle_charges_only_the_players_still_in():
    g = game("maexle", ["Ann", "Bo", "Cy", "Dee"], maexle="immediate_reveal", limit=1)
    play(g, {"announce": 54}, {"reveal": True}, {"roll": [3, 1]})  # Dee reveals Ann's lie: Ann is out
    assert g.out == ["Ann"] and g.expects["player"] == "Dee"
    ev = play(g, {"announce": 21}, {"roll": [1, 2]})  # Dee's real Mäxle: Bo and Cy, not Ann
    assert sorted(p["player"] for p in of(ev, "penalty")) == ["Bo", "Cy"]
    assert g.penalties["Ann"] == 1 and of(ev, "winner") == [["Dee"]]
