"""The evening's summary: running drink and penalty totals game by game, the Yacht scores and the
rarest throw (the least likely faces), from the game logs the store keeps."""

from __future__ import annotations

from appliance.evening import Played, Throw, from_store, summarize, thrown
from appliance.games import new_game
from appliance.session import in_effect
from appliance.store import Store


def played(setup: dict, actions: list[dict]) -> Played:
    """A game of ``actions`` as the store keeps it once ended: its log in effect and its tally."""
    game = new_game(setup)
    events = [game.apply(a) for a in actions]
    pairs = in_effect(actions, events)
    tally = {p: {"drinks": 0, "penalties": 0} for p in setup["players"]}
    for _a, evs in pairs:
        for e in evs:
            if "drink" in e:
                tally[e["drink"]["player"]]["drinks"] += e["drink"]["count"]
            if "penalty" in e:
                tally[e["penalty"]["player"]]["penalties"] += e["penalty"]["points"]
    return Played(game.setup, pairs, tally)


BISCUIT = {"game": "biscuit", "players": ["Ann", "Bo", "Cy"]}
MAEXLE = {"game": "maexle", "players": ["Ann", "Bo", "Cy"]}


def test_drinks_and_penalty_points_are_running_totals_from_0_then_after_each_game():
    a = Played(BISCUIT, [], {"Ann": {"drinks": 2, "penalties": 0}, "Bo": {"drinks": 1, "penalties": 0}})
    b = Played(MAEXLE, [], {"Ann": {"drinks": 0, "penalties": 1}, "Cy": {"drinks": 3, "penalties": 2}})
    s = summarize([a, b])
    assert s.games == ("biscuit", "maexle") and s.players == ("Ann", "Bo", "Cy")
    assert s.drinks == {"Ann": (0, 2, 2), "Bo": (0, 1, 1), "Cy": (0, 0, 3)}
    assert s.penalties == {"Ann": (0, 0, 1), "Bo": (0, 0, 0), "Cy": (0, 0, 2)}


def test_the_rarest_throw_is_the_least_likely_faces_and_an_undone_throw_does_not_count():
    game = played(BISCUIT, [{"roll": [2, 4]}, {"roll": [6, 6]}, {"undo": True}, {"roll": [3, 3]}])
    s = summarize([game])
    assert s.rarest == Throw("Bo", (3, 3), 1, "biscuit") and s.rarest.odds == 36


def test_a_maexle_reveal_is_the_throw_of_the_holder_who_shook_it():
    game = played(MAEXLE, [{"announce": 54}, {"reveal": True}, {"roll": [1, 2]}])
    assert summarize([game]).rarest == Throw("Ann", (1, 2), 1, "maexle")


def test_a_blind_pass_leaves_the_revealed_throw_with_the_announcer_who_shook_it():
    # RULES.md §1 blind_pass: Cy passes Ann's 64 on unrolled and answers for it; Ann shook the dice.
    setup = {**MAEXLE, "rules": {"blind_pass": True}}
    game = played(setup, [{"announce": 64}, {"blind_pass": True}, {"reveal": True}, {"roll": [6, 6]}])
    assert summarize([game]).rarest == Throw("Ann", (6, 6), 1, "maexle")


def test_odds_are_one_in_the_chance_of_those_faces():
    assert Throw("Ann", (6, 6, 6, 6, 6), 1, "yacht").odds == 7776
    assert Throw("Ann", (1, 2), 1, "maexle").odds == 18
    assert Throw("Ann", (1, 2, 3, 4, 5), 1, "yacht").odds == 65  # 7776 / 120


def test_yacht_scores_are_each_players_points_in_effect():
    setup = {"game": "yacht", "players": ["Ann", "Bo"]}
    game = played(setup, [{"roll": [6, 6, 6, 6, 5]}, {"roll": [1, 2, 3, 4, 6]},
                          {"roll": [6, 6, 6, 6, 6]}, {"declare": "yacht"}, {"stop": True}])
    s = summarize([game])
    assert s.yacht == ((1, {"Ann": 50, "Bo": 0}),)
    assert s.rarest.dice == (6, 6, 6, 6, 6) and s.rarest.player == "Ann"


def test_a_yacht_reroll_is_a_throw_of_the_dice_whose_faces_changed_only():
    # RULES.md §3: the kept dice stay. Four sixes kept and the fifth rerolled into a six is a 1 in 6,
    # and the turn's first roll, four sixes and a one, stays the rarer throw.
    setup = {"game": "yacht", "players": ["Ann", "Bo"]}
    order = [{"roll": [1, 2, 3, 4, 5]}, {"roll": [1, 1, 2, 3, 4]}]  # Ann's 15 against Bo's 11: Ann starts
    game = played(setup, order + [{"roll": [6, 6, 6, 6, 1]}, {"declare": "yacht"}, {"roll": [6, 6, 6, 6, 6]},
                                  {"stop": True}])
    s = summarize([game])
    assert s.rarest == Throw("Ann", (1, 6, 6, 6, 6), 1, "yacht") and s.rarest.odds == 1555
    game = played(setup, order + [{"roll": [6, 6, 1, 2, 3]}, {"declare": "yacht"},
                                  {"roll": [6, 6, 6, 6, 6]}, {"roll": [6, 6, 6, 6, 6]}])
    assert [t.dice for t in thrown(game, 1)][2:] == [(1, 2, 3, 6, 6), (6, 6, 6)]  # the last: no face changed


def test_a_yacht_game_whose_log_lost_its_end_shows_no_scores_rather_than_wrong_ones():
    # A damaged store salvaged: the game's winner and tally were kept, its log up to a damaged action.
    setup = {"game": "yacht", "players": ["Ann", "Bo"]}
    whole = played(setup, [{"roll": [6, 6, 6, 6, 5]}, {"roll": [1, 2, 3, 4, 6]},
                           {"roll": [6, 6, 6, 6, 6]}, {"declare": "yacht"}, {"stop": True}])
    cut = Played(setup, whole.actions[:2], whole.tally, winner=["Ann"])
    assert cut.cut_short and summarize([cut]).yacht == ()
    stopped = Played(setup, whole.actions, whole.tally, winner=None)  # left for another game: its scores so far
    assert not stopped.cut_short and summarize([stopped]).yacht == ((1, {"Ann": 50, "Bo": 0}),)


def test_no_game_ended_is_an_empty_summary():
    s = summarize([])
    assert s.empty and s.rarest is None and s.yacht == ()


def test_the_store_gives_the_current_evenings_ended_games_only(tmp_path):
    with Store.open(tmp_path) as store:
        old = store.start_game(new_game(BISCUIT).setup)
        store.end_game(old, {"Ann": {"drinks": 5, "penalties": 0}})
        store.new_evening()
        game = new_game(BISCUIT)
        gid = store.start_game(game.setup)
        store.record(gid, {"roll": [5, 5]}, game.apply({"roll": [5, 5]}))
        store.end_game(gid, {"Ann": {"drinks": 1, "penalties": 0}})
        s = from_store(store)
    assert s.games == ("biscuit",) and s.drinks["Ann"] == (0, 1)
    assert s.rarest == Throw("Ann", (5, 5), 1, "biscuit")
