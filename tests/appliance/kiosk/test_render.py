"""Every screen renders at 800x480 and 1920x1080: a PNG that is not blank, no text outside its box,
touch targets big enough for a finger on the 7-inch screen."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from appliance import i18n
from appliance.games.yacht_scoring import CATEGORIES
from appliance.kiosk import theme as th
from appliance.kiosk import widgets
from appliance.kiosk.app import App
from appliance.kiosk.draw import CameraFeed, draw
from appliance.kiosk.theme import Theme
from vision.reading import DiceReading, Die

SIZES = [(800, 480), (1920, 1080)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


def settle(app: App) -> None:
    """Let every announcement go by."""
    for _ in range(50):
        app.dismiss_banner()


def _maexle(app: App, need: str) -> App:
    app.setup.game_kind = "maexle"
    app.start_game()
    if need in ("decide", "believe", "lift", "banner", "answer"):
        app.choose("announce:21" if need in ("banner", "answer") else "announce:54")
        if need != "banner":
            settle(app)
    if need == "believe":
        app.choose("believe")
    if need == "lift":
        app.choose("reveal")
    return app


def _biscuit(app: App, need: str) -> App:
    app.setup.game_kind = "biscuit"
    app.start_game()
    rolls = {"roll": [(1, 6)], "pick": [(1, 6), (2, 2)], "thumbs": [(1, 6), (2, 5)], "breaker": [(1, 6), (6, 6)]}[need]
    for r in rolls:
        app.on_reading(reading(*r))
    settle(app)
    if need == "pick":
        app.choose("pick:Bo")
    if need == "breaker":
        app.choose("breaker")
    return app


def _yacht(app: App, need: str) -> App:
    if need in ("rolloff", "won"):
        return _yacht_roll_off(app, need)
    app.setup.game_kind = "yacht"
    app.start_game()
    for r in [(1, 2, 3, 4, 5), (6, 6, 6, 5, 5), (2, 2, 3, 4, 5), (1, 1, 2, 2, 3), (1, 1, 1, 2, 2), (6, 6, 6, 6, 1)]:
        app.on_reading(reading(*r))  # the order (Bo starts), then Bo's first roll
    assert app.session.need.kind == "declare"
    if need == "reroll":
        app.choose("declare:four_of_a_kind")
    settle(app)
    return app


def _yacht_roll_off(app: App, need: str) -> App:
    """Two players tied after 12 rounds under final_tie = roll_off: the roll-off, or its winner."""
    app.setup.seats = ["Ann", "Jānis"]
    app.rules = {"yacht": {"final_tie": "roll_off"}}
    app.setup.game_kind = "yacht"
    app.start_game()
    for r in [(6, 6, 6, 6, 5), (1, 1, 1, 2, 2)]:
        app.on_reading(reading(*r))
    for category in CATEGORIES:
        for _player in range(2):
            app.on_reading(reading(1, 2, 3, 4, 5))
            app.choose(f"declare:{category}")
            app.choose("stop")
    assert app.session.need.step == "roll_off"
    if need == "won":
        app.on_reading(reading(6, 6, 6, 6, 6))
        app.on_reading(reading(1, 1, 1, 1, 2))
    while app.banner is not None or app.banners:  # 24 scores and more
        app.dismiss_banner()
    return app


def state(name: str) -> App:
    """An app showing the screen ``name``."""
    app = App(players=["Ann", "Bo", "Cy", "Dace", "Jānis"], clock=lambda: 0.0, yacht_hint=False, maexle_odds=True)
    kind, _, need = name.partition("-")
    if kind == "setup":
        return app
    if kind == "names":
        app.choose("add")
        app.names.typed = "Liene"
        if need == "message":  # one line over a screen with no head: still a finger's height to hide
            app.say("Ann is already at the table")
        return app
    if kind == "maexle":
        return _maexle(app, need)
    if kind == "biscuit":
        return _biscuit(app, need)
    if kind == "yacht":
        return _yacht(app, need)
    _maexle(app, "lift")
    app.on_reading(reading(6, 3))
    settle(app)
    if kind == "correct":
        app.choose("fix")
    elif kind == "hand":
        app.choose("fix")
        app.choose("hand")
    elif kind == "menu":
        app.choose("menu")
    elif kind == "message":
        app.say("Cannot read the dice (glare). Throw again, or fix them by hand.")
    elif kind == "sheet":
        _yacht(app, "reroll")
        app.choose("sheet")
    elif kind == "over":
        app.choose("menu")
        app.choose("end"); app.choose("yes")
    return app


SCREENS = ["setup", "names", "names-message", "maexle-announce", "maexle-decide", "maexle-believe", "maexle-lift", "maexle-banner",
           "maexle-answer", "biscuit-roll", "biscuit-pick", "biscuit-thumbs", "biscuit-breaker", "yacht-declare",
           "yacht-reroll", "yacht-rolloff", "yacht-won", "correct", "hand", "menu", "message", "sheet", "over"]


@pytest.fixture(scope="module")
def pg():
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(0)
    img = np.full((480, 640, 3), (40, 110, 60), np.uint8)
    img += rng.integers(0, 12, img.shape, dtype=np.uint8)
    return img


DIALOGS = ("setup", "names", "correct", "hand", "menu", "sheet", "over")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCREENS)
def test_every_screen_renders_readably(pg, frame, tmp_path, name, size):
    app = state(name)
    view = app.view()
    first = name.split("-")[0]
    assert view.screen == ("over" if name == "yacht-won" else first if first in DIALOGS else "play")
    check_drawn(view, size, frame, tmp_path / f"{name}.png")


# The screens of the engine's newer switches and steps, whose texts are the newest in the catalogs.
NEWER = ["maexle-answer", "biscuit-roll", "yacht-rolloff", "yacht-won"]


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
@pytest.mark.parametrize("name", NEWER)
def test_the_newer_screens_fit_in_every_language(pg, frame, tmp_path, name, lang):
    i18n.set_language(lang)
    try:
        check_drawn(state(name).view(), (800, 480), frame, tmp_path / f"{name}-{lang}.png")
    finally:
        i18n.set_language("en")


def check_drawn(view, size, frame, path) -> None:
    """Draw ``view`` at ``size``, save it to ``path``, and check: not blank, every text inside its box,
    touch targets big enough for a finger at 800x480."""
    surface = pygame.Surface(size)
    texts = []
    widgets.text_hook = lambda text, drawn, box: texts.append((text, drawn, box))
    try:
        hits = draw(surface, view, Theme(*size), CameraFeed(frame, reading(6, 3).dice, True, "6 3"))
    finally:
        widgets.text_hook = None
    pygame.image.save(surface, str(path))
    pixels = pygame.surfarray.array3d(pygame.image.load(str(path)))[::3, ::3].astype(np.int32)
    colours = np.unique((pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2])
    assert pixels.std() > 20 and len(colours) > 50, "the screen is blank"
    assert texts, "no text drawn"
    for text, drawn, box in texts:
        # Across, a text stays inside its box; down, the font's line box may reach a little past it
        # (ascent and descent are part of the line, not of the glyphs).
        assert box.x - 2 <= drawn.x and drawn.right <= box.right + 2, (text, drawn, box)
        assert box.y - 0.1 * box.height - 2 <= drawn.y and drawn.bottom <= box.bottom + 0.1 * box.height + 2, \
            (text, drawn, box)
    key_box = Theme(*size).px(16)
    keys = [drawn for text, drawn, box in texts if text.isdigit() and box.size == (key_box, key_box)]
    for text, drawn, box in texts:  # a button's label keeps clear of its keyboard digit in the corner
        if box.size != (key_box, key_box):
            assert not any(drawn.colliderect(k) for k in keys), (text, drawn, keys)
    if size == (800, 480):
        for rect, cid in hits:
            smallest = th.FINGER_KEY if cid.startswith("key:") or cid == "shift" else th.FINGER
            assert min(rect.width, rect.height) >= smallest or cid.startswith("die:"), (cid, rect)
    assert hits, "nothing to touch"


def test_setup_offers_three_games_and_the_seats_in_order(pg):
    view = state("setup").view()
    ids = [c.id for c in view.choices]
    assert ids[:3] == ["game:maexle", "game:biscuit", "game:yacht"]
    assert [c.label for c in view.choices if c.id.startswith("seat:")] == ["Ann", "Bo", "Cy", "Dace", "Jānis"]


def test_the_maexle_picker_offers_only_values_that_beat_the_standing_one(pg):
    app = state("maexle-believe")
    values = [int(c.id.split(":")[1]) for c in app.view().choices if c.id.startswith("announce:")]
    assert values[0] == 61 and values[-1] == 21 and 54 not in values and 31 not in values


def test_the_yacht_sheet_has_players_across_and_twelve_categories_down_over_its_pages(pg):
    app = state("sheet")
    players, categories = [], []
    for _ in range(4):  # 5 players: 2 groups across, 2 halves of the sheet down
        view = app.view()
        assert len(view.sheet.totals) == len(view.sheet.players) <= 3
        players += [p for p in view.sheet.players if p not in players]
        categories += [c for c in view.sheet.categories if c not in categories]
        app.choose("page")
    assert sorted(players) == sorted(("Ann", "Bo", "Cy", "Dace", "Jānis")) and len(categories) == 12


def test_a_drawing_bug_shows_a_notice_not_a_traceback(pg, mock_pins, monkeypatch):
    from appliance.inputs import CommandQueue
    from appliance.kiosk import loop

    kiosk = loop.Kiosk(App(clock=lambda: 0.0), CommandQueue(), size=(800, 480))
    monkeypatch.setattr(loop, "draw", lambda *a, **k: 1 / 0)
    kiosk.step()
    assert kiosk.hits and kiosk.hits[0][1] == "back"
    kiosk.close()


@pytest.mark.parametrize("name, dice", [("biscuit-roll", 2), ("yacht-rolloff", 5)])
def test_the_roll_prompt_shows_dice_in_the_air_without_pips(pg, frame, monkeypatch, name, dice):
    """Right after a roll (Ann threw 1-6 and became the Biscuit; the last roll-off totals) the prompt to
    roll must not show dice faces a player could take for that roll."""
    view = state(name).view()
    assert view.big_prompt and view.icon == "throw" and view.throw_dice == dice
    faces, thrown = [], []
    monkeypatch.setattr(widgets, "die", lambda surface, rect, value, **kw: faces.append(value))
    real = widgets.tumbling_dice
    monkeypatch.setattr(widgets, "tumbling_dice", lambda *a, **kw: (thrown.append(a[3]), real(*a, **kw)))
    draw(pygame.Surface((800, 480)), view, Theme(800, 480), CameraFeed(frame, reading(6, 1).dice, True, "6 1"))
    assert faces == []  # no die face with pips anywhere on the play screen
    assert thrown == ([2] if name == "biscuit-roll" else [])  # Yacht shows the sheet under its prompt


@pytest.mark.parametrize("bad", [np.zeros((480, 640, 3), np.float32), np.zeros((480, 640, 3), np.uint16),
                                 np.zeros((0, 0, 3), np.uint8), np.zeros((480, 640, 4), np.uint8),
                                 np.zeros((480, 640), np.uint8)], ids=["float", "16-bit", "empty", "4-channel", "grey"])
def test_a_camera_frame_that_is_not_a_colour_picture_leaves_the_screen_working(pg, bad):
    """The live view gets whatever the camera gave; a frame it cannot show is no picture, and the
    game's buttons stay on screen."""
    view = state("biscuit-pick").view()
    hits = draw(pygame.Surface((800, 480)), view, Theme(800, 480), CameraFeed(bad, (), False, "Reader problem"))
    assert {"pick:Ann", "fix", "menu"} <= {cid for _r, cid in hits}


LONG_NAMES = ["Александрина", "Святослава", "Ярославушка", "Владимировна", "Щукинский Жук", "Ксенофонтова",
              "Варфоломей", "Прасковьюшка"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_eight_long_cyrillic_names_on_the_score_sheet_each_show_their_start_inside_their_column(pg, monkeypatch, size):
    """A name too long for its column is cut at the end with "…": never clipped at both ends or drawn
    over its neighbour's column."""
    app = App(players=list(LONG_NAMES), clock=lambda: 0.0)
    app.setup.game_kind = "yacht"
    app.start_game()
    app.choose("sheet")
    fitted, last = widgets.fitted_font, {}

    def spy(*args, **kw):  # the lines of the latest fit: the ones the next drawn text shows
        font, last["lines"] = fitted(*args, **kw)
        return font, last["lines"]

    monkeypatch.setattr(widgets, "fitted_font", spy)
    shown = {}
    monkeypatch.setattr(widgets, "text_hook", lambda content, rect, box: shown.update({content: (last["lines"], rect, box)}))
    for _ in range(6):  # the pages of 3 players each, upper and lower half
        draw(pygame.Surface(size), app.view(), Theme(*size))
        app.choose("page")
    for name in LONG_NAMES:
        lines, rect, box = shown[name]
        assert rect.left >= box.left - 2 and rect.right <= box.right + 2, (name, rect, box)
        assert " ".join(lines).startswith(name[:5]), (name, lines)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_tab_focus_on_a_die_of_the_hand_entry_is_drawn(pg, size):
    """Tab moves the keyboard focus onto the dice too, and Return turns the focused die: the focus
    must show, as a ring of its own around that die."""
    from appliance.inputs import Command
    from appliance.kiosk.theme import TEXT

    app = state("hand")
    app.handle(Command("move", 1, source="key"))  # Tab
    app.handle(Command("move", 1, source="key"))  # Tab again: the second die
    view = app.view()
    surface = pygame.Surface(size)
    theme = Theme(*size)
    rects = dict((cid, rect) for rect, cid in draw(surface, view, theme, CameraFeed()))
    die = rects["die:1"]
    ring = die.inflate(3 * theme.gap, 3 * theme.gap)
    band = [surface.get_at((x, ring.top + 1))[:3] for x in range(ring.centerx - 5, ring.centerx + 5)]
    assert all(tuple(c) == TEXT for c in band)
    other = rects["die:0"].inflate(3 * theme.gap, 3 * theme.gap)
    assert tuple(surface.get_at((other.centerx, other.top + 1))[:3]) != TEXT


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", ["biscuit-pick", "maexle-announce"])  # Yacht's sheet leaves no camera panel
def test_the_longest_camera_fault_on_a_game_screen_is_readable(frame, text_sizes, monkeypatch, name, lang):
    """A fault the table must act on ("the tray area lies outside the picture") takes a third line
    over the picture rather than shrink below the readable size."""
    i18n.set_language(lang)
    try:
        status = i18n._("The tray area lies outside the picture: set up the tray again")
        for size in ((800, 480), (1920, 1080)):
            text_sizes.clear()
            drawn = []
            monkeypatch.setattr(widgets, "text_hook", lambda text, *box: (drawn.append(text), text_sizes.hook(text, *box)))
            draw(pygame.Surface(size), state(name).view(), Theme(*size), CameraFeed(frame, (), False, status))
            assert status in drawn and not [p for p in text_sizes.small(size) if status[:12] in p], (lang, size)
    finally:
        i18n.set_language("en")
