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
    app.choose("evening")
    assert app.screen == "summary" and app.session.ended
    s = app.view().summary
    assert s.games == ("biscuit",) and sum(v[-1] for v in s.drinks.values()) > 0 and s.best is not None


def test_a_new_evening_starts_the_counts_again_in_the_store_too(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(players=list(LONG), store=store)
        play_biscuit(app, LONG)
        app.choose("evening")
        assert store.ended_games()
        app.choose("new_evening")
        assert app.screen == "setup" and app.session is None
        assert store.ended_games() == [] and app.evening() == {}
        assert app.summary().empty


def test_the_winner_screen_ends_the_evening_after_the_last_game(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(players=list(LONG), store=store)
        play_biscuit(app, LONG)
        app.choose("end")
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
        app.choose("end")
        app.choose("new")
        assert app.screen == "setup" and "evening" in [c.id for c in app.view().choices]
        draw(pygame.Surface(SMALL), app.view(), th.Theme(*SMALL))
        app.choose("evening")
        assert app.screen == "summary" and app.view().summary.games == ("biscuit",)
        app.choose("new_evening")
        assert app.screen == "setup" and "evening" not in [c.id for c in app.view().choices]


def test_the_setup_screen_ends_the_evening_without_a_store_too():
    app = App(players=list(LONG))
    play_biscuit(app, LONG)
    app.choose("end")
    app.choose("new")
    app.choose("evening")
    assert app.screen == "summary" and not app.view().summary.empty
    app.choose("back")
    assert app.screen == "setup"


def test_back_from_the_summary_is_the_game_over_screen():
    app = App(players=list(LONG))
    play_biscuit(app, LONG)
    app.choose("evening")
    app.choose("back")
    assert app.screen == "over"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("players", [LONG, TWENTY], ids=["3 players", "20 players"])
def test_the_summary_is_readable_from_2_metres_in_every_language(lang, players, text_sizes):
    i18n.set_language(lang)
    try:
        app = App(players=list(players))
        play_biscuit(app, players)
        app.choose("end")
        app.setup.game_kind = "yacht" if len(players) < 6 else "maexle"  # Yacht seats at most 6
        assert app.start_game()
        app.choose("menu")
        app.choose("evening")
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
