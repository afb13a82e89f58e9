"""The menu's "forget these dice": shown only when dice were taught, a single tap forgets nothing,
a second tap, not too quick and not too late, removes them from the store and from the camera's reader at once."""

from __future__ import annotations

import numpy as np

from appliance.kiosk.app import FORGET_PAUSE_S, FORGET_S, App
from appliance.store import Store


def app_with_taught_dice(tmp_path, clock):
    store = Store.open(tmp_path)
    store.add_throws([(np.zeros((2, 32, 32, 3), np.uint8), [4, 5])] * 3, "teach")
    app = App(store=store, players=["Ann", "Bo", "Cy"], clock=lambda: clock[0])
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("menu")
    return app


def test_one_tap_forgets_nothing_and_a_second_one_soon_after_forgets_the_dice(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    forgot = []
    app.hooks.forgot = lambda: forgot.append(True)
    assert "forget" in [c.id for c in app.view().choices]
    app.choose("forget")
    clock[0] += FORGET_S + 1  # too late for the second tap: it asks again
    app.choose("forget")
    assert app.taught_throws() == 3 and not forgot
    clock[0] += 1
    app.choose("forget")
    assert app.taught_throws() == 0 and forgot == [True]
    assert "forget" not in [c.id for c in app.view().choices]
    app.store.close()


def test_without_taught_dice_the_menu_offers_no_forgetting(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(store=store, players=["Ann", "Bo", "Cy"])
        app.setup.game_kind = "biscuit"
        assert app.start_game()
        app.choose("menu")
        assert "forget" not in [c.id for c in app.view().choices]


def test_a_quick_double_tap_forgets_nothing_a_considered_second_tap_does(tmp_path):
    clock = [0.0]
    app = app_with_taught_dice(tmp_path, clock)
    app.choose("forget")
    for gap in (0.05, 0.25):  # a double tap or a bounce is no "yes"
        clock[0] += gap
        app.choose("forget")
    assert app.taught_throws() == 3
    clock[0] = FORGET_PAUSE_S + 0.1
    app.choose("forget")
    assert app.taught_throws() == 0
    app.store.close()
