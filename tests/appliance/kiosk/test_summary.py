""""End the evening" (the menu, the winner screen, the setup screen once a game has ended): the
game ends, the evening's chart shows (readable from 2 metres in every language, with 3 players or
20), and "New evening" starts the counts again."""

from __future__ import annotations

import pygame
import pytest

from appliance import i18n
from appliance.kiosk import theme as th
from appliance.kiosk.app import App
from appliance.kiosk.draw import draw
from appliance.store import Store
from vision.reading import DiceReading, Die

SMALL, LARGE = (800, 480), (1920, 1080)
LONG = ["Bartholomäus W", "Jānis Ozoliņš", "Вячеслав Петр"]
TWENTY = [f"Player {n:02d} long" for n in range(1, 21)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


def play_biscuit(app: App, players: list[str]) -> None:
    app.setup.game_kind, app.setup.seats = "biscuit", list(players)
    assert app.start_game()
    for roll in ((3, 4), (1, 1), (4, 5), (5, 6), (4, 6), (6, 6)):
        app.on_reading(reading(*roll))
    app.choose("menu")


def test_end_the_evening_ends_the_game_and_charts_the_evening():
    app = App(players=list(LONG))
    play_biscuit(app, LONG)
    app.choose("evening"); app.choose("yes")
    assert app.screen == "summary" and app.session.ended
    s = app.view().summary
    assert s.games == ("biscuit",) and sum(v[-1] for v in s.drinks.values()) > 0 and s.rarest is not None


def test_a_new_evening_starts_the_counts_again_in_the_store_too(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(players=list(LONG), store=store)
        play_biscuit(app, LONG)
        app.choose("evening"); app.choose("yes")
        assert store.ended_games()
        app.choose("new_evening"); app.choose("yes")
        assert app.screen == "setup" and app.session is None
        assert store.ended_games() == [] and app.evening() == {}
        assert app.summary().empty


def test_the_winner_screen_ends_the_evening_after_the_last_game(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(players=list(LONG), store=store)
        play_biscuit(app, LONG)
        app.choose("end"); app.choose("yes")
        assert app.screen == "over" and "evening" in [c.id for c in app.view().choices]
        app.choose("evening")
        assert app.screen == "summary" and app.view().summary.games == ("biscuit",)
        app.choose("back")
        assert app.screen == "over"


def test_the_setup_screen_ends_the_evening_once_a_game_has_ended(tmp_path):
    pygame.init()
    with Store.open(tmp_path) as store:
        app = App(players=list(LONG), store=store)
        assert "evening" not in [c.id for c in app.view().choices]  # nothing to chart yet
        play_biscuit(app, LONG)
        app.choose("end"); app.choose("yes")
        app.choose("new")
        assert app.screen == "setup" and "evening" in [c.id for c in app.view().choices]
        draw(pygame.Surface(SMALL), app.view(), th.Theme(*SMALL))
        app.choose("evening")
        assert app.screen == "summary" and app.view().summary.games == ("biscuit",)
        app.choose("new_evening"); app.choose("yes")
        assert app.screen == "setup" and "evening" not in [c.id for c in app.view().choices]


def test_the_setup_screen_ends_the_evening_without_a_store_too():
    app = App(players=list(LONG))
    play_biscuit(app, LONG)
    app.choose("end"); app.choose("yes")
    app.choose("new")
    app.choose("evening")
    assert app.screen == "summary" and not app.view().summary.empty
    app.choose("back")
    assert app.screen == "setup"


def test_back_from_the_summary_is_the_game_over_screen():
    app = App(players=list(LONG))
    play_biscuit(app, LONG)
    app.choose("evening"); app.choose("yes")
    app.choose("back")
    assert app.screen == "over"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("players", [LONG, TWENTY], ids=["3 players", "20 players"])
def test_the_summary_is_readable_from_2_metres_in_every_language(lang, players, text_sizes):
    i18n.set_language(lang)
    try:
        app = App(players=list(players))
        play_biscuit(app, players)
        app.choose("end"); app.choose("yes")
        app.setup.game_kind = "yacht" if len(players) < 6 else "maexle"  # Yacht seats at most 6
        assert app.start_game()
        app.choose("menu")
        app.choose("evening"); app.choose("yes")
        for size in (SMALL, LARGE):
            draw(pygame.Surface(size), app.view(), th.Theme(*size))
            assert not text_sizes.small(size), "\n".join(text_sizes.small(size))
            text_sizes.clear()
    finally:
        i18n.set_language("en")


def test_an_evening_without_a_game_says_so():
    app = App(players=list(LONG))
    app.screen = "summary"
    assert app.view().summary.empty


SIX = ["Maximilian-Al", "Anastasija Jē", "Ёлкина-Палкин", "WWWWWWWWWWWWWW", "Bo", "Zoë"]


def six_player_evening() -> App:
    """Biscuit, then Mäxle, with six players: drinks and penalty points, several of them equal."""
    app = App(players=list(SIX))
    play_biscuit(app, SIX)
    app.choose("end"); app.choose("yes")
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:31")
    app.choose("reveal")
    app.on_reading(reading(3, 1))
    app.choose("menu")
    app.choose("evening"); app.choose("yes")
    return app


@pytest.mark.parametrize("size", [SMALL, (1280, 800), LARGE], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_chart_lists_every_one_of_six_players_with_their_totals(lang, size, text_sizes):
    """The legend uses the room: six players, each with their totals in words, at 20 px or more, no
    "and N more" (at 800x480, 1280x800 and 1920x1080, in every language)."""
    from appliance.kiosk.words import totals

    i18n.set_language(lang)
    try:
        app = six_player_evening()
        s = app.view().summary
        draw(pygame.Surface(size), app.view(), th.Theme(*size))
        drawn = {c for c, _h, _cut in text_sizes.drawn}
        said = {totals(s.drinks[p][-1], s.penalties[p][-1]) for p in SIX}
        assert set(SIX) <= drawn and said <= drawn, sorted(set(SIX) | said - drawn)
        more = i18n.ngettext("and {count} more player", "and {count} more players", 2).split("{count}")[0]
        assert not any(c.startswith(more) for c in drawn)
        assert not text_sizes.small(size), "\n".join(text_sizes.small(size))
    finally:
        i18n.set_language("en")


def test_players_with_equal_totals_draw_lines_apart_each_with_its_own_colour_and_marker():
    from appliance.kiosk.chart import spread
    from appliance.kiosk.legend import styles

    series = {"Ann": (0, 2, 2, 5), "Bo": (0, 2, 2, 5), "Cy": (0, 2, 3, 3), "Dora": (0, 1, 3, 5)}
    apart = spread(series, 4)
    assert all(apart[p][0] == 0 for p in series)  # everyone starts at 0, together
    for i in range(1, 4):
        for value in {v[i] for v in series.values()}:
            same = [apart[p][i] for p in series if series[p][i] == value]
            assert len(set(same)) == len(same), (i, value, same)  # equal totals: drawn apart
            assert all(abs(a - b) >= 4 for a in same for b in same if a != b)
    assert apart["Dora"][1] == 0  # a total nobody else has stays where it is
    many = styles([f"P{n}" for n in range(32)])
    assert len(set(many.values())) == 32


def test_the_rarest_throw_names_its_game_as_a_game_and_its_odds(tmp_path):
    """Not "Best throw: Ann, Mäxle (1 in 18)" (which reads as a thrown Mäxle), but the game's
    number and name as the game."""
    from appliance.kiosk.chart import rarest_text, summary_lines

    app = App(players=list(LONG))
    app.setup.game_kind, app.setup.seats = "maexle", list(LONG)
    assert app.start_game()
    app.choose("announce:31")
    app.choose("reveal")
    app.on_reading(reading(3, 2))
    app.end_evening()
    s = app.view().summary
    assert rarest_text(s.rarest) == f"Rarest throw: {LONG[0]} in game 1 (Mäxle), 1 in 18"
    assert f"Rarest throw: {LONG[0]} in game 1 (Mäxle), 1 in 18: 3 2" in summary_lines(s)
    for lang, words in (("de", "in Spiel 1 (Mäxle)"), ("lv", "1. spēlē (Mäxle)"), ("ru", "в игре 1 (Mäxle)")):
        i18n.set_language(lang)
        try:
            assert words in rarest_text(s.rarest)
        finally:
            i18n.set_language("en")


def test_the_text_summary_numbers_each_yacht_games_scores_by_its_game():
    """Several Yacht games in an evening are told apart, as the rarest throw's game is."""
    from appliance.evening import Summary
    from appliance.kiosk.chart import summary_lines

    s = Summary(games=("yacht", "maexle", "yacht"), players=("Ann", "Bo"),
                drinks={"Ann": (0, 0, 0, 0), "Bo": (0, 0, 0, 0)}, penalties={"Ann": (0, 0, 1, 1), "Bo": (0, 0, 0, 0)},
                yacht=((1, {"Ann": 18, "Bo": 16}), (3, {"Ann": 120, "Bo": 212})), rarest=None)
    lines = summary_lines(s)
    assert lines[-2:] == ["Yacht scores in game 1: Ann 18, Bo 16", "Yacht scores in game 3: Bo 212, Ann 120"]
