"""The games' homes above the engine: one registry that matches the engine's, player ranges read
from the engine's classes, and one walk over the events with its two exporters."""

from __future__ import annotations

import pytest

from appliance import i18n
from appliance.games import GAMES, new_game
from appliance.table import TABLES, find_table, game_name, kinds
from appliance.table.events import EnglishExporter, announcements, describe, english, walk


def test_the_tables_are_the_engines_games_in_one_list():
    assert kinds() == tuple(GAMES)
    assert [table.engine for table in TABLES] == list(GAMES.values())
    with pytest.raises(ValueError, match="no such game"):
        find_table("poker")
    assert game_name("poker") == "poker"


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_player_range_is_the_engines(kind):
    table, engine = find_table(kind), GAMES[kind]
    assert table.min_players() == engine.min_players
    assert table.seat_limit() == (engine.max_players or 20)
    assert str(engine.min_players) in table.players_range()


def test_the_player_ranges_as_the_setup_screen_says_them():
    assert [find_table(k).players_range() for k in kinds()] == ["2-20 players", "3+ players", "1-8 players"]
    i18n.set_language("ru")
    assert find_table("biscuit").players_range() == "от 3 игроков"


def biscuit_eleven() -> tuple[object, list[dict]]:
    game = new_game({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]})
    game.apply({"roll": [3, 4]})  # Ann is the Biscuit
    return game, game.apply({"roll": [1, 1]})


def test_one_walk_two_exporters_everyone_drinks_is_one_announcement_and_three_lines():
    game, events = biscuit_eleven()
    table = find_table("biscuit")()
    said = announcements(table, events, game.players, "drink")
    assert [(a.text, a.detail) for a in said] == [("Everyone drinks 1", "1-1")]
    lines = english(table, events)
    assert [line for line in lines if ": 1-1: everyone drinks" in line] == [
        f"{p} drinks 1: 1-1: everyone drinks" for p in game.players]
    assert lines[-1].startswith("-> Ann: roll 2 dice")


def test_an_unknown_event_is_skipped_in_words_and_kept_as_json_in_english():
    table = find_table("maexle")()
    assert announcements(table, [{"fanfare": 1}], ["Ann", "Bo"]) == []
    assert english(table, [{"fanfare": 1}, "not an event"]) == ['{"fanfare": 1}', '"not an event"']
    assert describe(table, {"out": "Bo"}) == "Bo is out"


def test_the_english_exporter_is_a_visitor_of_the_walk():
    game, events = biscuit_eleven()
    assert walk(events, EnglishExporter(find_table("biscuit")())) == english(find_table("biscuit")(), events)
