"""The message line ("Nothing to reveal now", "Cannot read the dice …") never lets a tap press a
button the table cannot see: it lies across the top of the screen, over the title and the prompt,
clear of every choice and of the standings; a tap on it hides it and presses nothing; and where a
long one had to cover a button, a tap on its place just after it ran out is taken as aimed at it."""

from __future__ import annotations

import pygame
import pytest

from appliance import i18n
from appliance.inputs import Command, CommandQueue
from appliance.kiosk import widgets
from appliance.kiosk.app import App
from appliance.kiosk.loop import MESSAGE_GRACE_S, Kiosk
from appliance.kiosk.theme import Theme
from vision.reading import DiceReading, Die

SIX = ["Maximilian-Al", "Anastasija Jē", "Ёлкина-Палкин", "Bartholomäus W", "Bo", "Zoë"]
SIZES = [(800, 480), (1920, 1080)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


def quiet(app: App) -> None:
    """The announcements gone by (tapped away)."""
    app.banners.clear()
    app.banner = None


class Table:
    """A kiosk window (dummy SDL) on a virtual clock: ``tap(pos)``, ``at(cid)``, ``later(s)``."""

    def __init__(self, size=(800, 480), players=("Ann", "Bo", "Cy")) -> None:
        self.now = 0.0
        self.app = App(players=list(players), clock=lambda: self.now)
        self.kiosk = Kiosk(self.app, CommandQueue(), size=size)

    def show(self) -> None:
        self.kiosk.redraw()

    def at(self, cid: str) -> pygame.Rect:
        found = [r for r, c in self.kiosk.hits if c == cid]
        assert found, f"no {cid!r} on the {self.app.screen} screen"
        return found[-1]

    def tap(self, pos) -> None:
        self.kiosk.dispatch(Command("tap", (int(pos[0]), int(pos[1])), source="touch"))
        self.show()

    def later(self, seconds: float) -> None:
        self.now += seconds
        self.app.tick()
        self.show()


def choices_under(table: Table) -> list[str]:
    """The choices the message line covers now."""
    message = table.at("hush")
    return [cid for r, cid in table.kiosk.hits if cid not in ("hush", "dismiss") and r.colliderect(message)]


def test_a_tap_on_the_message_line_hides_it_and_presses_nothing():
    """The report's case: REVEAL pressed before anyone announced; the table taps the message that
    says so. No announcement is made (the Mäxle button is not pressed), the message goes."""
    table = Table()
    table.app.setup.game_kind = "maexle"
    assert table.app.start_game()
    table.app.handle(Command("reveal", 0.0, source="button"))
    table.show()
    assert table.app.message == i18n._("Nothing to reveal now")
    actions = len(table.app.session.history)
    table.tap(table.at("hush").center)
    assert table.app.message == "" and len(table.app.session.history) == actions
    assert table.app.view().key == "play-maexle-announce"


def mid_evening_screens(table: Table):
    """(name, how to get there) for the screens a message shows over, busiest first."""
    app = table.app

    def setup_full():
        app.setup.seats = list(SIX)

    def maexle_announce():
        app.setup.seats = list(SIX)
        app.setup.game_kind = "maexle"
        assert app.start_game()
        quiet(app)

    def maexle_decide():
        maexle_announce()
        app.choose("announce:54")
        quiet(app)

    def yacht_reroll():
        app.setup.seats = list(SIX[:4])
        app.setup.game_kind = "yacht"
        assert app.start_game()
        for r in [(1, 2, 3, 4, 5), (6, 6, 6, 5, 5), (2, 2, 3, 4, 5), (1, 1, 2, 2, 3), (5, 5, 2, 2, 1)]:
            app.on_reading(reading(*r))
        quiet(app)

    def biscuit_roll():
        app.setup.seats = list(SIX)
        app.setup.game_kind = "biscuit"
        assert app.start_game()
        app.on_reading(reading(2, 4))
        quiet(app)

    def correct():
        biscuit_roll()
        app.choose("fix")

    def menu():
        yacht_reroll()
        app.choose("menu")

    def over():
        biscuit_roll()
        app.on_reading(reading(3, 4))
        app.on_reading(reading(1, 1))
        quiet(app)
        app.choose("menu")
        app.choose("end"); app.choose("yes")

    def names():
        app.choose("add")

    return [("setup", setup_full), ("maexle", maexle_announce), ("decide", maexle_decide), ("yacht", yacht_reroll),
            ("biscuit", biscuit_roll), ("correct", correct), ("menu", menu), ("over", over), ("names", names)]


SCREENS = ("setup", "maexle", "decide", "yacht", "biscuit", "correct", "menu", "over", "names")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_message_line_covers_no_button_and_no_standings_row(lang, size, monkeypatch):
    """On every busy screen a short message leaves every choice uncovered, and a long one every
    choice but the buttons at the top's right when it cannot keep to three lines beside them; both
    leave every player's name in the standings uncovered (at 800x480 and 1920x1080, in every
    language)."""
    i18n.set_language(lang)
    for name in SCREENS:
        table = Table(size)
        dict(mid_evening_screens(table))[name]()
        for text in (i18n._("Nothing to reveal now"), i18n._("Cannot read the dice ({reason}). Throw again, or fix them "
                                                              "by hand.").format(reason=i18n._("a die is unclear"))):
            drawn: list[tuple[str, pygame.Rect]] = []
            monkeypatch.setattr(widgets, "text_hook", lambda content, rect, box: drawn.append((content, rect)))
            table.app.say(text)
            table.show()
            monkeypatch.setattr(widgets, "text_hook", None)
            covered = choices_under(table)
            if text == i18n._("Nothing to reveal now"):
                assert not covered, f"{lang} {name}: {text!r} covers {covered}"
            else:  # too long beside the buttons at the top's right, it may lie over them (a tap hides it)
                top = Theme(*size).gap
                assert all(table.at(c).top <= top for c in covered), f"{lang} {name}: {text!r} covers {covered}"
            message = table.at("hush")
            seated = set(table.app.setup.seats) | set(table.app.session.players if table.app.session else ())
            # The standings' names (the play screen's header, whose turn it is, is the head the
            # message lies over; the setup's seats are buttons, checked above).
            head = Theme(*size).px(76)
            hidden = [c for c, r in drawn if c in seated and r.top >= head and r.colliderect(message)]
            assert not hidden, f"{lang} {name}: the message hides {hidden}"


def test_a_tap_on_where_a_covering_message_just_ran_out_is_not_taken():
    """A message too long for the room beside the buttons covers them (the correction screen's
    first choice under three lines): a tap on it hides it; a tap on its place within
    MESSAGE_GRACE_S after it ran out was aimed at it and is dropped; a later one is a choice."""
    table = Table()
    table.app.setup.game_kind = "biscuit"
    assert table.app.start_game()
    table.app.choose("fix")
    long = "A message as long as the longest the kiosk may say, three lines on the small screen, so that it " \
           "reaches down over the first of the correction screen's choices, which it must not let a tap reach"
    table.app.say(long)
    table.show()
    covered = choices_under(table)
    assert covered, "the message was meant to cover a choice here"
    first = table.at(covered[0])
    message = table.at("hush")
    spot = first.clip(message).center
    table.tap(spot)                                   # on the message: it goes, nothing pressed
    assert table.app.message == "" and table.app.screen == "correct"
    table.app.say(long, seconds=2.0)
    table.show()
    table.later(2.0)                                  # it runs out
    assert table.app.message == "" and table.app.screen == "correct"
    table.later(MESSAGE_GRACE_S / 2)
    table.tap(spot)                                   # aimed at the message that just went
    assert table.app.screen == "correct"
    table.later(MESSAGE_GRACE_S)
    table.tap(spot)                                   # the choice itself, now in plain view
    assert table.app.screen != "correct" or table.app.message


def test_a_message_taken_away_by_a_choice_leaves_no_grace():
    """The table moved on (a choice pressed): the next tap on the message's old place counts."""
    table = Table()
    table.app.setup.game_kind = "biscuit"
    assert table.app.start_game()
    table.app.choose("fix")
    table.app.say("A message as long as the longest the kiosk may say, three lines on the small screen, so that "
                  "it reaches down over the first of the correction screen's choices, which it must not let a tap reach")
    table.show()
    covered = choices_under(table)
    spot = table.at(covered[0]).clip(table.at("hush")).center
    table.app.handle(Command("move", 1, source="key"))   # a key: the message goes with it
    table.show()
    table.later(0.1)
    table.tap(spot)
    assert table.app.screen != "correct" or table.app.message
