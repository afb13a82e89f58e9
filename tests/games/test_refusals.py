"""Every refusal names itself: a code the game lists (``Game.refusals``) and the facts a table needs
to say it in its own language (the kiosk does, ``appliance.kiosk.words.refusal_text``), beside the
English reason of the log and ``dicetable replay``. So does every refused setup (``SETUP_REFUSALS``,
worded by ``appliance.kiosk.words.setup_refusal_text``)."""

from __future__ import annotations

import pytest

from appliance.games import GAMES

from .helpers import game, play, refusal

ABC = ["Ann", "Bo", "Cy"]


def maexle(**rules):
    return game("maexle", ABC, **rules)


def announced(value=54, **rules):
    g = maexle(**rules)
    play(g, {"announce": value})
    return g


def biscuit_pick(roll):
    g = game("biscuit", ABC)
    play(g, {"roll": [3, 4]}, {"roll": roll})
    return g


def yacht_declaring():
    g = game("yacht", ["Ann"])
    play(g, {"roll": [1, 2, 3, 4, 5]})
    return g


# (a game in a state, the action refused there, its code, the facts it carries)
CASES = [
    (maexle(), ["announce", 54], "action.form", {}),
    (maexle(), {"shout": True}, "action.unknown", {}),
    (maexle(), {"undo": True}, "undo.nothing", {}),
    (maexle(), {"reveal": True}, "not_now", {"player": "Ann", "expects": "announce"}),
    (announced(), {"announce": 31}, "maexle.too_low", {"value": 31, "standing": 54, "strictly": True}),
    (announced(announce="higher_or_equal"), {"announce": 53}, "maexle.too_low",
     {"value": 53, "standing": 54, "strictly": False}),
    (announced(), {"announce": 7}, "maexle.not_a_value", {}),
    (announced(), {"accept": True}, "maexle.accept_maexle_only", {"standing": 54}),
    (announced(self_reveal="off"), {"self_reveal": True}, "maexle.switched_off", {"switch": "self_reveal"}),
    (announced(21), {"announce": 21}, "maexle.after_maexle", {}),
    (announced(), {"roll": [3, 1]}, "maexle.under_cup", {}),
    (biscuit_pick([2, 2]), {"pick": ["Ann"]}, "biscuit.pick_count", {"player": "Ann", "count": 2, "got": 1}),
    (biscuit_pick([2, 2]), {"pick": ["Bo", "Bo"]}, "biscuit.pick_twice", {"player": "Ann", "count": 2}),
    (biscuit_pick([2, 2]), {"pick": ["Bo", "Zoe"]}, "player.unknown", {"player": "Zoe"}),
    (biscuit_pick([1, 2]), {"pick": ["Ann"]}, "biscuit.self_duel", {"player": "Ann"}),
    (game("biscuit", ABC), {"rule_broken": "Bo"}, "biscuit.no_rule", {}),
    (game("biscuit", ABC), {"roll": [3, 9]}, "roll.dice", {"player": "Ann", "dice": 2}),
    (yacht_declaring(), {"roll": [1, 2, 3, 4, 5]}, "yacht.declare_first", {"player": "Ann"}),
    (yacht_declaring(), {"declare": "sevens"}, "yacht.not_a_category", {}),
]


@pytest.mark.parametrize("g, action, code, facts", CASES, ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_a_refusal_carries_its_code_and_facts(g, action, code, facts):
    error = refusal(g, action)
    assert error["code"] == code
    assert {k: v for k, v in error.items() if k not in ("action", "reason", "code")} == facts


def test_a_category_used_already_and_a_game_over_say_which():
    g = yacht_declaring()
    play(g, {"declare": "ones"}, {"stop": True}, {"roll": [1, 1, 2, 3, 4]})
    error = refusal(g, {"declare": "ones"})
    assert (error["code"], error["player"], error["category"]) == ("yacht.used", "Ann", "ones")
    g = maexle(limit=1)
    play(g, {"announce": 54}, {"reveal": True}, {"roll": [6, 5]}, {"announce": 54}, {"reveal": True},
         {"roll": [6, 5]})
    assert g.over
    assert refusal(g, {"announce": 31})["winner"] == g.winner


def test_every_code_a_game_names_is_pinned_here():
    reached = {c[2] for c in CASES} | {"yacht.used", "game.over"}
    assert {code for cls in GAMES.values() for code in cls.refusals} == reached


# (a setup the engine refuses, its code, the facts it carries)
SETUP_CASES = [
    (["maexle"], "setup.form", {}),
    ({"game": "poker", "players": ABC}, "setup.game", {}),
    ({"game": "yacht", "players": ["Ann"], "seats": 2}, "setup.key", {}),
    ({"game": "maexle", "players": ["Ann", ""]}, "setup.players", {}),
    ({"game": "maexle", "players": ["Ann", "Bo", "Ann"]}, "setup.seated_twice", {"player": "Ann"}),
    ({"game": "yacht", "players": [f"P{n}" for n in range(9)]}, "setup.player_count", {"game": "yacht", "got": 9}),
    ({"game": "maexle", "players": ABC, "rules": []}, "setup.rules", {}),
    ({"game": "maexle", "players": ABC, "rules": {"scoring": "seed"}}, "setup.switch", {"switch": "scoring"}),
    ({"game": "maexle", "players": ABC, "rules": {"limit": 0}}, "setup.switch_value", {"switch": "limit"}),
]


@pytest.mark.parametrize("setup, code, facts", SETUP_CASES, ids=[c[1] for c in SETUP_CASES])
def test_a_refused_setup_carries_its_code_and_facts_beside_its_english_reason(setup, code, facts):
    from appliance.games import SetupError, new_game

    with pytest.raises(SetupError) as exc:
        new_game(setup)
    assert (exc.value.code, exc.value.facts) == (code, facts) and str(exc.value)


@pytest.mark.parametrize("players, reason", [(["Ann", " "], "a name is empty"), ("Ann", "must be a list of names"),
                                             (["Ann", 3], "must be a list of names")])
def test_a_setup_whose_players_are_not_names_says_which_fault(players, reason):
    from appliance.games import SetupError, new_game

    with pytest.raises(SetupError, match=reason):
        new_game({"game": "maexle", "players": players})


def test_every_setup_refusal_code_is_pinned_here():
    from appliance.games import SETUP_REFUSALS

    assert sorted(SETUP_REFUSALS) == sorted(c[1] for c in SETUP_CASES)
