"""The menu's "forget these dice": shown only when dice were taught, asked first on the question
screen (as ending a game is), then removed from the store and from the camera's reader at once."""

from __future__ import annotations

import sqlite3

import numpy as np

from appliance.kiosk.app import CONFIRM_PAUSE_S, App
from appliance.store import Store


def app_with_taught_dice(tmp_path, clock):
    store = Store.open(tmp_path)
    store.add_throws([(np.zeros((2, 32, 32, 3), np.uint8), [4, 5])] * 3, "teach")
    app = App(store=store, players=["Ann", "Bo", "Cy"], clock=lambda: clock[0])
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("menu")
    return app


def failing(error: str):
    """A store method that fails as SQLite does with ``error``."""
    def fail(*_args, **_kwargs):
        raise sqlite3.OperationalError(error)
    return fail


def test_forget_asks_first_and_yes_forgets_the_dice_back_on_the_menu(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    forgot = []
    app.hooks.forgot = lambda: forgot.append(True)
    app.press("forget")
    question = app.view()
    assert app.screen == "confirm" and [c.id for c in question.choices] == ["back", "yes"]
    assert "3" in question.prompt  # the taught throws it would forget
    assert app.taught_throws() == 3 and not forgot
    clock[0] += CONFIRM_PAUSE_S + 0.1
    app.press("yes")
    assert app.taught_throws() == 0 and forgot == [True]
    assert app.screen == "menu" and "forget" not in [c.id for c in app.view().choices]
    assert "forgot" in app.message
    app.store.close()


def test_back_on_the_question_forgets_nothing(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    app.press("forget")
    clock[0] += 2.0
    app.press("back")
    assert app.screen == "menu" and app.taught_throws() == 3
    app.store.close()


def test_a_quick_double_tap_forgets_nothing_a_considered_yes_does(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    app.press("forget")
    for gap in (0.05, 0.25):  # a double tap or a bounce is no "yes"
        clock[0] += gap
        app.press("yes")
    assert app.taught_throws() == 3 and app.screen == "confirm"
    clock[0] = CONFIRM_PAUSE_S + 0.1
    app.press("yes")
    assert app.taught_throws() == 0
    app.store.close()


def test_a_store_that_cannot_forget_says_so_and_keeps_the_dice(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)

    app.store.forget_examples = failing("attempt to write a readonly database")
    app.press("forget")
    clock[0] += 2.0
    app.press("yes")
    assert app.screen == "menu" and app.taught_throws() == 3
    assert "could not be forgotten" in app.message
    app.store.close()


def test_without_taught_dice_the_menu_offers_no_forgetting(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(store=store, players=["Ann", "Bo", "Cy"])
        app.setup.game_kind = "biscuit"
        assert app.start_game()
        app.choose("menu")
        assert "forget" not in [c.id for c in app.view().choices]


def test_a_store_that_cannot_count_its_taught_dice_leaves_the_menu_drawn(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)

    app.store.count_examples = failing("disk I/O error")
    assert app.taught_throws() == 0
    assert "forget" not in [c.id for c in app.view().choices]
    app.store.close()


def test_a_tap_right_after_the_answer_is_the_same_tap_again_and_is_dropped(tmp_path):
    from appliance.kiosk.app import ANSWER_PAUSE_S

    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    app.press("forget")
    clock[0] += CONFIRM_PAUSE_S + 0.1
    app.press("yes")
    assert app.screen == "menu" and app.taught_throws() == 0
    under = app.view().choices[-1].id  # whatever the menu now shows where the answering tap was
    clock[0] += 0.4
    app.press(under)  # the same finger again: asks nothing, does nothing
    assert app.screen == "menu"
    clock[0] += ANSWER_PAUSE_S
    app.press("back")  # a considered press
    assert app.screen == "play"
    app.store.close()
