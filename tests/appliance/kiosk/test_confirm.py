"""What cannot be taken back is asked first: ending a game that is still on (the menu's "End this
game" and "End the evening") and a new evening. "Back" is the first choice (a keypad's 1 pressed
twice keeps the game), the keyboard's focus does not carry over onto the question, and its "yes"
pressed by a person sooner than CONFIRM_PAUSE_S after it showed is dropped (a double tap, a digit
pressed twice, meant for the menu button under it)."""

from __future__ import annotations

import pygame
import pytest

from appliance.inputs import Command
from appliance.kiosk import theme as th
from appliance.kiosk.app import App
from appliance.kiosk.draw import draw
from vision.reading import DiceReading, Die


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


def playing(kind: str = "maexle", now=None) -> App:
    app = App(players=["Ann", "Bo", "Cy"], clock=(lambda: now[0]) if now else (lambda: 0.0))
    app.setup.game_kind = kind
    assert app.start_game()
    return app


def test_ending_a_game_that_is_still_on_is_asked_first_and_back_keeps_it():
    app = playing()
    app.choose("menu")
    app.choose("end")
    assert app.screen == "confirm" and not app.session.ended
    assert [c.id for c in app.view().choices] == ["back", "yes"]
    app.choose("back")
    assert app.screen == "menu" and not app.session.ended
    app.choose("end")
    app.choose("yes")
    assert app.screen == "over" and app.session.ended


def test_a_keypad_1_pressed_twice_in_the_menu_keeps_the_game():
    app = playing()
    app.choose("menu")
    assert app.view().choices[0].id == "end"  # nothing to undo yet: "End this game" is the first
    app.select(1)
    app.select(1)
    assert app.screen == "menu" and not app.session.ended
    app.back()
    assert app.screen == "play" and not app.session.ended


def test_ending_the_evening_with_a_game_on_is_asked_first():
    app = playing("biscuit")
    app.choose("menu")
    app.choose("evening")
    assert app.screen == "confirm" and not app.session.ended
    app.back()  # Esc
    assert app.screen == "menu"
    app.choose("evening")
    app.choose("yes")
    assert app.screen == "summary" and app.session.ended


def test_a_game_already_over_ends_without_a_question():
    app = playing()
    app.choose("menu")
    app.choose("end")
    app.choose("yes")
    app.choose("evening")  # the game over screen's: nothing left to lose
    assert app.screen == "summary"


def test_a_new_evening_is_asked_first():
    app = playing("biscuit")
    app.choose("menu")
    app.choose("evening")
    app.choose("yes")
    app.choose("new_evening")
    assert app.screen == "confirm"
    app.choose("back")
    assert app.screen == "summary" and app.session is not None
    app.choose("new_evening")
    app.choose("yes")
    assert app.screen == "setup" and app.session is None


def test_a_roll_settling_while_the_question_shows_still_counts():
    app = playing()
    app.act({"announce": 31})
    app.choose("reveal")
    app.choose("menu")
    app.choose("end")
    app.on_reading(reading(3, 1))
    assert sorted(app.last_seen) == [1, 3] and not app.session.ended  # the game went on


def test_the_question_draws_with_both_choices_a_finger_wide():
    pygame.init()
    app = playing()
    app.choose("menu")
    app.choose("end")
    for size in ((800, 480), (1920, 1080)):
        t = th.Theme(*size)
        hits = draw(pygame.Surface(size), app.view(), t)
        assert sorted(cid for _r, cid in hits) == ["back", "yes"]
        assert all(min(r.size) >= t.px(56) for r, _cid in hits)


def test_a_yes_pressed_sooner_than_the_pause_after_the_question_is_dropped():
    from appliance.kiosk.app import CONFIRM_PAUSE_S

    now = [0.0]
    app = playing(now=now)
    app.act({"announce": 31})
    app.choose("menu")
    app.select(2)  # the menu's second choice (after Undo): "End this game"
    assert app.screen == "confirm"
    now[0] += 0.4
    app.select(2)  # the same key again, a moment later: meant for the menu
    assert app.screen == "confirm" and not app.session.ended
    now[0] += CONFIRM_PAUSE_S
    app.select(2)  # a considered answer
    assert app.screen == "over" and app.session.ended


def test_enter_pressed_twice_does_not_answer_the_question():
    now = [0.0]
    app = playing(now=now)
    app.act({"announce": 31})
    app.choose("menu")
    app.handle(Command("move", 1, "key"))
    app.handle(Command("move", 1, "key"))  # the focus on "End this game"
    app.handle(Command("activate", None, "key"))
    assert app.screen == "confirm" and app.focus == -1
    now[0] += 5
    app.handle(Command("activate", None, "key"))  # nothing has the focus: nothing happens
    assert app.screen == "confirm" and not app.session.ended
    app.handle(Command("move", 1, "key"))
    app.handle(Command("activate", None, "key"))  # the first choice: Back
    assert app.screen == "menu" and not app.session.ended


def test_a_double_tap_on_end_the_evening_keeps_the_game(pg_kiosk):
    kiosk, app, now = pg_kiosk
    app.act({"announce": 31})
    app.choose("menu")
    kiosk.redraw()
    (where,) = [r.center for r, cid in kiosk.hits if cid == "evening"]
    for dt in (0.0, 0.4):
        now[0] += dt
        kiosk.dispatch(Command("tap", where, source="touch"))
    assert app.screen == "confirm" and not app.session.ended


@pytest.fixture
def pg_kiosk():
    from appliance.inputs import CommandQueue
    from appliance.kiosk.loop import Kiosk

    now = [0.0]
    app = playing(now=now)
    kiosk = Kiosk(app, CommandQueue(), size=(800, 480))
    yield kiosk, app, now


def test_reveal_held_over_the_menu_the_sheet_or_the_question_opens_the_correction_and_elsewhere_says_why_not():
    # Held, it was dropped there without a word, while a press gave way to the game.
    for opened in (["menu"], ["menu", "end"], ["sheet"]):
        app = playing("yacht" if opened == ["sheet"] else "maexle")
        for cid in opened:
            app.choose(cid)
        app.handle(Command("correct", source="button"))
        assert app.screen == "correct" and not app.session.ended
    app = playing()
    app.end_game()  # left from the menu: its counts are the evening's, nothing to correct
    app.handle(Command("correct", source="button"))
    assert app.screen == "over" and app.message == "Nothing to correct now"
    app.new_game()
    app.handle(Command("correct", source="button"))
    assert app.screen == "setup" and app.message == "Nothing to correct now"


def test_the_reveal_button_over_the_menu_or_the_question_reveals_as_its_light_says():
    for opened in (["menu"], ["menu", "end"]):
        app = playing()
        app.act({"announce": 31})
        for cid in opened:
            app.choose(cid)
        assert app.reveal_light() == "on"
        app.handle(Command("reveal", 1.0, "button"))
        assert app.screen == "play" and app.session.need.kind == "lift" and not app.session.ended
