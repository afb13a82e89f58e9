"""The play screen's right column read from 2 m: the prompt is never smaller than the info line under
it (the dice beside it give way), the Yacht score sheet there is shown only at a legible size, and
the dice on the table never vanish.

Each play screen of the three games is drawn with the real layouts in every language, with long
player names; every text's final font is recorded through ``widgets.fitted_font`` and ``text_hook``.
"""

from __future__ import annotations

import pygame
import pytest

from appliance import i18n
from appliance.games.yacht_scoring import CATEGORIES
from appliance.kiosk import draw as kiosk_draw
from appliance.kiosk import theme as th
from appliance.kiosk import widgets
from appliance.kiosk.app import App
from appliance.table.yacht import category_name
from vision.reading import DiceReading, Die

PLAYERS = ["Bartholomäus W", "Jānis Ozoliņš", "Вячеслав Петр"]  # 14 characters: the kiosk's limit
# The 7-inch touch display, and the narrowest size accepted (3:2, theme.MIN_ASPECT).
SIZES = [(800, 480), (720, 480)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


def quiet(app: App) -> None:
    """The announcements gone by: the screen under them is what is checked."""
    app.banners.clear()
    app.banner = None


def play_screens(app: App):
    """Every kind of play screen of the three games, as the app shows it (yields after each step)."""
    app.setup.game_kind = "maexle"
    assert app.start_game()
    yield
    app.choose("announce:54"); quiet(app); yield                     # the next player decides
    app.choose("reveal"); quiet(app); yield                          # lift the cup
    app.on_reading(reading(6, 4)); quiet(app); yield
    app.choose("menu"); app.choose("end"); app.choose("yes"); quiet(app)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    yield
    for roll in [(3, 4), (2, 2)]:                                    # a Biscuit, then a pick
        app.on_reading(reading(*roll)); quiet(app); yield
    app.choose("menu"); app.choose("end"); app.choose("yes"); quiet(app)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    yield
    for roll in [(6, 6, 6, 6, 5), (1, 2, 3, 4, 6), (1, 1, 2, 2, 3)]:  # the order: the first player starts
        app.on_reading(reading(*roll)); quiet(app); yield
    for _round in range(2):
        for roll, category in [((6, 6, 6, 5, 5), "sixes"), ((1, 1, 2, 2, 3), "ones"), ((1, 1, 2, 2, 3), "choice")]:
            if _round:
                category = {"sixes": "full_house", "ones": "twos", "choice": "yacht"}[category]
            app.on_reading(reading(*roll)); quiet(app); yield            # declare
            app.choose(f"declare:{category}"); quiet(app); yield         # reroll, 2 left
            app.on_reading(reading(*roll)); quiet(app); yield            # reroll, 1 left
            app.choose("stop"); quiet(app); yield                        # the next player's roll


class Drawn:
    """Draws views and keeps each text with the font it got: ``texts`` [(content, box, font height px)]."""

    def __init__(self, monkeypatch, size):
        self.surface = pygame.Surface(size)
        self.theme = th.Theme(*size)
        self.texts: list[tuple[str, pygame.Rect, int]] = []
        self.dice_rows: list[list[int]] = []
        fitted, dice_row = widgets.fitted_font, widgets.dice_row

        def fitted_font(t, content, size, box, **kw):
            self._font, lines = fitted(t, content, size, box, **kw)
            return self._font, lines

        def record_dice(surface, t, rect, values, **kw):
            self.dice_rows.append(list(values))
            dice_row(surface, t, rect, values, **kw)

        monkeypatch.setattr(widgets, "fitted_font", fitted_font)
        monkeypatch.setattr(widgets, "text_hook", lambda content, drawn, box: self.texts.append(
            (content, box, self._font.get_height())))
        monkeypatch.setattr(widgets, "dice_row", record_dice)

    def draw(self, view) -> None:
        self.texts.clear()
        self.dice_rows.clear()
        kiosk_draw.draw(self.surface, view, self.theme)

    def height(self, content: str) -> int:
        """The font height (px) ``content`` was drawn at; the largest if drawn more than once."""
        found = [h for text, _box, h in self.texts if text == content]
        assert found, f"{content!r} was not drawn"
        return max(found)


@pytest.fixture
def table():
    pygame.init()
    yield App(players=list(PLAYERS), drink_word="sip", maexle_odds=True, clock=lambda: 0.0)
    i18n.set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_prompt_is_never_smaller_than_the_info_line_and_the_dice_never_vanish(table, monkeypatch, lang, size):
    """The Yacht reroll prompt ("Перебросьте кости (осталось 2 броска) или стоп") once shared its row
    with the five dice and was fitted down to half the info line's size. Now the dice give way."""
    i18n.set_language(lang)
    drawn = Drawn(monkeypatch, size)
    seen = set()
    for _step in play_screens(table):
        view = table.view()
        if view.screen != "play":
            continue
        drawn.draw(view)
        seen.add(view.key)
        if view.prompt and view.info:
            assert drawn.height(view.prompt) >= drawn.height(view.info), \
                f"{lang} {view.key}: {view.prompt!r} smaller than {view.info!r}"
        if view.dice:
            assert drawn.dice_rows == [view.dice], f"{lang} {view.key}: the dice {view.dice} not drawn once"
    assert {"play-yacht-reroll", "play-yacht-declare", "play-yacht-roll", "play-maexle-decide"} <= seen


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_play_screens_sheet_is_the_player_on_turn_at_a_legible_size(table, monkeypatch, lang):
    """At 800x480 the play screen's sheet was ~8 px text. Now it is the player on turn's 12 categories
    at no less than the info line's size (or not there at all: the Sheet button has the whole table)."""
    i18n.set_language(lang)
    drawn = Drawn(monkeypatch, (800, 480))
    legible = drawn.theme.font(kiosk_draw.INFO_SIZE).get_height()
    names = {category_name(c) for c in CATEGORIES}
    shown = []
    for _step in play_screens(table):
        view = table.view()
        if view.screen != "play" or view.sheet is None or any(c.id.startswith("declare:") for c in view.choices):
            continue
        drawn.draw(view)
        # The right column's category names (the game's title "Yacht" is one too, in the header).
        sheet = [(text, box, h) for text, box, h in drawn.texts if text in names and box.x > 800 * 0.4]
        for text, _box, h in sheet:
            assert h >= legible, f"{lang} {view.key}: {text!r} at {h} px, the info line at {legible}"
        if view.key == "play-yacht-roll" and table.session.game.round == 2 and sheet:
            shown.append(view)
            # The player on turn's own scores, in the right column; the other players' are not there.
            right = [text for text, box, _h in drawn.texts if box.x > 800 * 0.4]
            own = table.session.game.sheet[view.player]
            assert {str(v) for v in own.values() if v is not None} <= set(right), (view.player, own, right)
            assert len(sheet) == len(CATEGORIES)
    assert len(shown) == len(PLAYERS), f"{lang}: the sheet did not show on the roll screens of round 2"
    assert all(any(c.id == "sheet" for c in v.bar) for v in shown)  # the whole table, one tap away
