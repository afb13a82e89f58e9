"""Every kiosk screen, in every language, at 800x480: no text overflows its box, none is cut short,
the font has every glyph, and no text a player reads is under 20 px (readable from 2 metres, the
sweep at the end, also at 1920x1080).

A scripted tour drives the kiosk's real core (``App``) through all its screens and sub-screens in all
three games, with every announcement banner, and draws each state with the real layouts. Every text
goes through ``widgets.text``; its ``text_hook`` and a wrapper around ``widgets.fitted_font`` record
what was drawn where. Long player names (14 characters, the kiosk's limit) make it hard on purpose.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pygame
import pygame.freetype
import pytest

from appliance import i18n
from appliance.fonts import font_path
from appliance.kiosk import theme as th
from appliance.kiosk import widgets
from appliance.kiosk.app import App
from appliance.kiosk.draw import CameraFeed, draw
from vision.reading import DiceReading, Die

SIZE = (800, 480)
# Long names from each language, at the 14-character limit (appliance.kiosk.app.MAX_NAME).
PLAYERS = ["Bartholomäus W", "Jānis Ozoliņš", "Вячеслав Петр"]
# px a text's ink may reach past its box. widgets.text clips at 1 px outside the box, and its fit
# lets two-line banners' line boxes exceed theirs by a quarter line, so a descender (g, p, у) may
# lose its lowest pixel row: still legible. Anything more is an overflow.
INK_SLACK = 2
# A folder to save every state drawn to, to look at (None: not saved).
SCREENSHOTS = os.environ.get("DICETABLE_SCREENSHOTS")
if SCREENSHOTS:
    os.makedirs(SCREENSHOTS, exist_ok=True)  # a folder that is not there yet failed every test


def reading(values) -> DiceReading:
    """An ok reading of ``values``, dice in a row."""
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


class Recorder:
    """Draws each state of the app and keeps every text's problems."""

    def __init__(self, app: App, lang: str, size: tuple[int, int] = SIZE):
        self.app, self.lang = app, lang
        self.camera: CameraFeed | None = None  # what the live view shows (None: an empty panel)
        self.sizes = None  # a conftest TextSizes told which screen each text is on, if any
        self.shots = 0
        self.surface = pygame.Surface(size)
        self.theme = th.Theme(*size)
        self.problems: list[str] = []
        self.drawn = 0
        self.texts: set[str] = set()
        self.screens: set[str] = set()
        self.smallest_px = 999
        self._fitted = None
        self.glyphs = [pygame.freetype.Font(str(font_path(b)), 20) for b in (False, True)]

    def fitted_font(self, original):
        def wrapper(t, content, size, box, **kw):
            font, wrapped = original(t, content, size, box, **kw)
            self._fitted = (font, wrapped)
            return font, wrapped
        return wrapper

    def hook(self, content: str, drawn: pygame.Rect, box: pygame.Rect) -> None:
        self.drawn += 1
        self.texts.add(content)
        font, wrapped = self._fitted
        where = f"{self.lang} {self.key}: {content!r}"
        self.smallest_px = min(self.smallest_px, font.get_height())
        if " ".join(wrapped).split() != content.split():
            self.problems.append(f"{where} cut to {wrapped!r} in a {box.size} box")
        if drawn.left < box.left - INK_SLACK or drawn.right > box.right + INK_SLACK:
            self.problems.append(f"{where} is {drawn.width} px wide in a {box.width} px box")
        # Ink, not line boxes: the first line's highest and the last line's lowest inked pixel.
        line_h = font.get_linesize()
        ink_top = drawn.top + font.render(wrapped[0], True, (255, 255, 255)).get_bounding_rect().top
        last = font.render(wrapped[-1], True, (255, 255, 255)).get_bounding_rect()
        ink_bottom = drawn.top + (len(wrapped) - 1) * line_h + last.bottom
        if last.height and (ink_top < box.top - INK_SLACK or ink_bottom > box.bottom + INK_SLACK):
            self.problems.append(f"{where} inks rows {ink_top}-{ink_bottom} of a box {box.top}-{box.bottom}")
        for font_ in self.glyphs:
            missing = {ch for ch, m in zip(content, font_.get_metrics(content)) if m is None and not ch.isspace()}
            if missing:
                self.problems.append(f"{where}: no glyph for {sorted(missing)}")

    @property
    def key(self) -> str:
        return getattr(self, "_key", "")

    def show(self) -> None:
        """Draw the screen as it is, then each queued announcement on top of it."""
        self.app.tick()
        self._draw()
        while self.app.banner is not None:
            self.app.dismiss_banner()
            if self.app.banner is not None:
                self._draw()

    def _draw(self) -> None:
        view = self.app.view()
        self._key = view.key
        self.screens.add(view.screen)
        if self.sizes is not None:
            self.sizes.where = f"{self.lang} {view.key}"
        draw(self.surface, view, self.theme, self.camera)
        if SCREENSHOTS:
            self.shots += 1
            w, h = self.surface.get_size()
            pygame.image.save(self.surface, f"{SCREENSHOTS}/{self.lang}-{w}x{h}-{self.shots:03d}-{view.key}.png")


def tour_maexle(app: App, show) -> None:
    app.rules = {"maexle": {"limit": 2, "blind_pass": "on"}}
    app.setup.game_kind = "maexle"
    assert app.start_game()
    show()
    s = app.session
    app.choose("announce:54")                      # Ann announces, Bo decides
    show()
    app.choose("believe"); show(); app.choose("back"); show()
    app.choose("reveal"); show()                   # lift the cup
    app.on_reading(reading((6, 4))); show()        # it held: the revealer takes a point
    app.choose("announce:31"); show()
    app.choose("blind_pass"); show()               # passed on unseen
    app.choose("reveal"); show()
    app.on_reading(reading((2, 3))); show()        # a lie
    app.choose("announce:21"); show()              # Mäxle: accept or reveal
    app.choose("accept"); show()
    while not s.over:                              # self-reveals until two are out
        need = s.need
        if need.kind == "announce":
            app.choose("announce:31")
        elif need.kind == "decide" and "self_reveal" in need.actions:
            app.choose("self_reveal")
        elif need.kind == "decide":
            app.choose("reveal")
        elif need.kind == "lift":  # 31 shown against 31: lower than a beating roll, so it costs 1
            app.on_reading(reading((3, 1)))
        else:
            raise AssertionError(f"unexpected {need}")
        show()
    show()


def tour_biscuit(app: App, show) -> None:
    app.rules = {"biscuit": {}}
    app.drink_cap = 2  # drinks past it are water: announced so, and counted apart on the evening's screens
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    s = app.session
    show()
    app.on_reading(reading((2, 4))); show()        # 6: no Biscuit yet
    app.choose("fix"); show(); app.choose("back")  # a misread roll and a roll due: five choices, by hand first
    app.camera = SimpleNamespace(gives_no_picture=False)    # with a camera that gives pictures: reading again first
    app.choose("fix"); show(); app.choose("back")
    app.camera = None
    app.on_reading(reading((3, 4))); show()        # 7: a Biscuit
    app.on_reading(reading((2, 2))); show()        # pick 2 players
    pick = list(s.need.options)
    app.choose(f"pick:{pick[0]}"); show(); app.choose(f"pick:{pick[1]}"); show()
    app.on_reading(reading((1, 2))); show()        # duel: pick a challenger
    app.choose(f"pick:{s.need.options[0]}"); show()
    app.on_reading(reading((5, 6))); show()        # the challenger
    app.on_reading(reading((1, 3))); show()        # the Biscuit loses
    app.on_reading(reading((6, 6))); show()        # a rule
    app.choose("breaker"); show()
    app.choose(f"broke:{s.players[0]}"); show()
    app.on_reading(reading((1, 1))); show()        # everyone drinks
    app.on_reading(reading((1, 4))); show()        # nothing happens
    app.on_reading(reading((4, 5))); show()        # right neighbour
    app.on_reading(reading((5, 6))); show()        # left neighbour
    app.on_reading(reading((4, 6))); show()        # the Biscuit drinks
    app.on_reading(reading((2, 5))); show()        # thumbs
    app.choose(f"thumbs:{s.need.options[-1]}"); show()
    app.on_reading(reading((3, 3))); show()        # picks 3, drinks 2, steps down
    for p in s.need.options[:3]:
        app.choose(f"pick:{p}")
    show()
    app.choose("menu"); show()
    app.choose("end"); show(); app.choose("yes"); show()
    # hand-out doubles: "Hand out 4 drinks", Done (n/m)
    app.rules = {"biscuit": {"doubles": "hand_out"}}
    assert app.start_game()
    app.on_reading(reading((3, 4))); app.on_reading(reading((4, 4))); show()
    for _ in range(4):
        app.choose(f"pick:{app.session.need.options[0]}")
        show()
    app.choose("picked"); show()
    app.choose("menu"); app.choose("end"); app.choose("yes")
    # roller = rotate: the rows counted from the roller, who picks too
    app.rules, app.drink_cap = {"biscuit": {"roller": "rotate"}}, 0  # no water: each row's words shown
    assert app.start_game()
    app.on_reading(reading((3, 4)))
    for dice in ((1, 4), (4, 6), (5, 6), (3, 1), (3, 4), (4, 5), (3, 3)):  # the next rolls; the roller drinks;
        # left; a 3: the roller drinks, the Biscuit steps down; a new Biscuit; right; 3-3
        app.on_reading(reading(dice)); show()
    for p in app.session.need.options[:3]:
        app.choose(f"pick:{p}")
    show()                                         # the roller drinks 2, the Biscuit steps down
    app.drink_cap = 2


def tour_yacht(app: App, show) -> None:
    app.rules = {"yacht": {}}
    app.setup.game_kind = "yacht"
    assert app.start_game()
    s = app.session
    show()
    app.on_reading(reading((6, 6, 6, 5, 5))); show()   # order: a tie between the first two
    app.on_reading(reading((6, 6, 6, 5, 5))); show()
    app.on_reading(reading((1, 1, 2, 2, 3))); show()
    while s.need.kind == "roll" and s.need.step == "order":
        app.on_reading(reading((6, 6, 6, 6, 5) if s.need.player == s.players[0] else (1, 2, 3, 4, 6)))
        show()
    turn = 0
    every = show

    def skip() -> None:  # later rounds look like round 1: played, not drawn, to keep the test quick
        app.banners.clear()
        app.banner = None

    while not s.over:
        show = every if turn < len(s.players) else skip
        need = s.need
        if need.kind == "roll":
            app.on_reading(reading((5, 5, 2, 2, 1))); show()
            if turn == 0:                              # the side screens, once
                app.choose("fix"); show(); app.choose("hand"); show(); app.choose("back"); show()
                app.choose("sheet"); show(); app.choose("back"); show()
        elif need.kind == "declare":
            app.choose(f"declare:{need.options[0]}"); show()
        elif need.kind == "reroll":
            if turn % 3 == 0:
                app.on_reading(reading((5, 5, 5, 2, 2))); show()
            else:
                app.choose("stop"); show()
            turn += 1
        else:
            raise AssertionError(f"unexpected {need}")
    every()


def tour_setup(app: App, show) -> None:
    show()
    app.choose("add"); show()                          # the name screen, Latin keys
    app.choose("shift"); show()                        # ⇧ down: small letters
    app.choose("layout"); show()                       # Cyrillic keys
    app.choose("back"); show()


# A full table of long names at the 14-character limit: Biscuit and Mäxle seat 20, Yacht 8.
CROWD = [f"{PLAYERS[n % 3][:11]} {n + 1:02d}" for n in range(20)]


def every_page(app: App, show) -> None:
    """Show each page of a paged list of choices (its "page" choice), back to the first."""
    first = [c.id for c in app.view().choices]
    for _ in range(10):
        if "page" not in [c.id for c in app.view().choices]:
            return
        app.choose("page"); show()
        if [c.id for c in app.view().choices] == first:
            return
    raise AssertionError("the pages do not come round to the first")


def tour_crowd(app: App, show) -> None:
    """The screens that list every player, with a full table: the setup's seats, Biscuit's picks,
    thumbs and rule breakers, Mäxle's standings, a Yacht sheet of 8, the game over screens."""
    app.new_game()
    app.setup.seats = list(CROWD)
    app.setup.game_kind = "biscuit"
    show()
    every_page(app, show)
    app.choose("seat:19"); show()
    app.rules = {"biscuit": {}}
    assert app.start_game()
    s = app.session
    app.on_reading(reading((3, 4)))                                       # a Biscuit
    app.on_reading(reading((2, 2))); show(); every_page(app, show)       # pick 2 to drink
    app.choose(f"pick:{s.need.options[-1]}"); show(); every_page(app, show)
    app.choose(f"pick:{s.need.options[0]}"); show()
    app.on_reading(reading((1, 2))); show(); every_page(app, show)       # pick a challenger
    app.choose(f"pick:{s.need.options[-1]}"); show()
    app.on_reading(reading((5, 6))); app.on_reading(reading((1, 3))); show()
    app.on_reading(reading((6, 6))); show()                               # a rule
    app.choose("breaker"); show(); every_page(app, show); app.choose("back")
    app.on_reading(reading((2, 5))); show(); every_page(app, show)       # thumbs
    app.choose(f"thumbs:{s.need.options[-1]}"); show()
    app.choose("menu"); show(); app.choose("end"); show(); app.choose("yes"); show()
    app.rules = {"biscuit": {"doubles": "hand_out"}}                      # picks that repeat: ×2
    assert app.start_game()
    app.on_reading(reading((3, 4))); app.on_reading(reading((4, 4))); show()
    for _ in range(2):
        app.choose(f"pick:{app.session.need.options[-1]}")
    show(); every_page(app, show)
    app.choose("menu"); app.choose("end"); app.choose("yes")
    app.rules = {"maexle": {"announce": "higher_or_equal"}}  # the "same or higher" words
    app.setup.game_kind = "maexle"
    assert app.start_game()
    show(); app.choose("announce:54"); show(); app.choose("believe"); show(); app.choose("back")
    app.choose("reveal"); show(); app.on_reading(reading((6, 4))); show()
    app.choose("menu"); app.choose("end"); app.choose("yes"); show()
    app.setup.seats = CROWD[:8]
    app.rules = {"yacht": {}}
    app.setup.game_kind = "yacht"
    assert app.start_game()
    s = app.session
    while s.need.kind == "roll" and s.need.step == "order":
        app.on_reading(reading((6, 6, 6, 6, 5) if s.need.player == s.players[0] else (1, 2, 3, 4, 6)))
    show()
    app.on_reading(reading((5, 5, 2, 2, 1))); show()
    app.choose("sheet"); show(); every_page(app, show); app.choose("back")
    app.choose("menu"); app.choose("end"); app.choose("yes"); show()
    app.choose("sheet"); show()


def camera_feeds() -> list[CameraFeed]:
    """Every status line of the live view: over a picture (the dice read, moving, none, why they
    cannot be read) and alone (a camera fault, starting)."""
    from typing import get_args

    import numpy as np

    from appliance.i18n import _
    from appliance.kiosk.words import camera_fault, unreadable_reason
    from vision.reading import ReasonKind, unreadable
    from vision.sources import FAULT_KINDS

    two = reading((5, 3)).dice
    said = [("5 3", True), (_("Dice moving…"), True), (_("No dice in view"), True), (_("Tray empty"), True),
            (_("No more frames"), False)] + [
        (_("Cannot read: {reason}").format(reason=unreadable_reason(unreadable("why", two, kind or "other"))), False)
        for kind in get_args(ReasonKind)]
    frame = np.full((480, 640, 3), 60, np.uint8)
    return [CameraFeed(frame, two, ok, text) for text, ok in said] + [
        CameraFeed(None, (), False, camera_fault(kind)) for kind in (*FAULT_KINDS, "closed", "unknown")] + [
        CameraFeed(None, (), True, _("Camera starting…"))]


def tour_camera(app: App, rec: "Recorder") -> None:
    """Each status line of the live view on the screens that show it: the game and the correction."""
    app.setup.seats = list(PLAYERS)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    for screen in ("play", "correct"):
        if screen == "correct":
            app.open_correction()
        for feed in camera_feeds():
            rec.camera = feed
            rec.show()
    rec.camera = None


def messages(state_dir, write_past_checks) -> list[str]:
    """Every message line the kiosk says, in the active language, its blanks filled with long names:
    each ``say(_("..."))`` in the kiosk's code, each problem of the session (every unreadable kind,
    every waiting, every refusal code of every game), every setup refusal of every game, the saved
    game that cannot be continued, the store's notice of a damaged file and that the games cannot be
    saved. ``state_dir``: an empty folder for the damaged stores; ``write_past_checks``: the fixture."""
    import re
    from pathlib import Path
    from typing import get_args

    from appliance.games import GAMES, SETUP_REFUSALS
    from appliance.i18n import _
    from appliance.kiosk import app as kiosk_app
    from appliance.kiosk.words import (continued_shorter, games_not_saved, not_continued, problem_text,
                                       setup_refusal_text)
    from appliance.session import PROBLEMS, Need, Problem
    from appliance.store import Store
    from vision.reading import ReasonKind, unreadable

    class Long(dict):
        def __missing__(self, key):
            return PLAYERS[0]

    source = "".join(p.read_text("utf-8") for p in Path(kiosk_app.__file__).parent.rglob("*.py"))
    said = [_(m).format_map(Long()) for m in re.findall(r'say\(_\("((?:[^"\\]|\\.)*)"\)', source)]
    assert len(said) > 15, said
    problems = [Problem("ended"), Problem("over")]
    problems += [Problem("unreadable", reading=unreadable("why", reading((5, 3)).dice, kind or "other"))
                 for kind in get_args(ReasonKind)]
    problems += [Problem("not_now", need=Need(kind, PLAYERS[0], None, (), (), "", {}))
                 for kind in ("announce", "decide", "pick", "thumbs", "declare", "roll")]
    problems += [Problem("count", found=4, needed=5), Problem("unsaved", reason="[Errno 28] No space left on device")]
    facts = {"player": PLAYERS[0], "value": 65, "standing": 21, "strictly": False, "switch": "self_reveal",
             "count": 3, "got": 2, "dice": 5, "category": "four_of_a_kind", "expects": "declare", "winner": PLAYERS}
    problems += [Problem("refused", refusal={"code": code, **facts}) for game in GAMES.values() for code in game.refusals]
    (state_dir / "dicetable.sqlite3").write_bytes(b"not a database, a shopping list")
    with Store.open(state_dir) as store:
        notice = store.notice
        store.record(store.start_game({"game": "maexle", "players": PLAYERS[:2]}), {"announce": 54}, [])
    # A game row whose setup no longer parses: the rest still reads.
    write_past_checks(state_dir / "dicetable.sqlite3",
                      "INSERT INTO games (evening_id, setup, started) VALUES (1, '{\"game\":', 0)")
    with Store.open(state_dir) as store:
        kept = store.notice  # what still read of it was kept
    # The trial table's peeks (appliance/trial.py, said on the play screen).
    peeks = [_("Under the cup: {dice} (only you peek)").format(dice="6 6"),
             _("You shook: {dice} (only you peek)").format(dice="6 6")]
    assert {p.code for p in problems} == set(PROBLEMS)
    setups = [setup_refusal_text(game, {"code": code, "player": PLAYERS[0]})
              for game in GAMES for code in SETUP_REFUSALS]
    restarts = [not_continued(), not_continued(put_aside=False), continued_shorter(1), continued_shorter(12),
                notice, kept, games_not_saved()]
    return said + peeks + [problem_text(p) for p in problems] + setups + restarts


def tour_messages(app: App, show, state_dir, write_past_checks) -> None:
    """Each message line over the game screen and the setup screen: where it lies beside the most
    buttons at the top's right (Yacht's three; End the evening and Set up the table)."""
    texts = messages(state_dir, write_past_checks)
    app.setup.seats = list(PLAYERS)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    for text in texts:
        app.say(text)
        show()
    app.new_game()
    assert "evening" in [c.id for c in app.view().choices]
    for text in texts:
        app.say(text)
        show()
    app.message = ""


@pytest.fixture
def recorder(request, monkeypatch):
    pygame.init()
    pygame.freetype.init()
    lang, size = request.param if isinstance(request.param, tuple) else (request.param, SIZE)
    i18n.set_language(lang)
    clock = [0.0]
    app = App(players=list(PLAYERS), drink_word="sip", maexle_odds=True, clock=lambda: clock[0])
    rec = Recorder(app, lang, size)
    rec.clock = clock  # the app's clock, s: a test moves it on
    monkeypatch.setattr(widgets, "fitted_font", rec.fitted_font(widgets.fitted_font))
    monkeypatch.setattr(widgets, "text_hook", rec.hook)
    yield rec
    i18n.set_language("en")


def test_the_kiosk_draws_with_the_bundled_font():
    assert th.font_file(False) == font_path(False)
    assert th.font_file(True) == font_path(True)


@pytest.mark.parametrize("recorder", i18n.LANGUAGES, indirect=True)
def test_every_screen_fits_its_boxes_in_every_language(recorder):
    app, show = recorder.app, recorder.show
    tour_setup(app, show)
    tour_maexle(app, show)
    tour_biscuit(app, show)
    tour_yacht(app, show)
    tour_crowd(app, show)
    assert recorder.screens >= {"setup", "names", "play", "correct", "hand", "sheet", "menu", "over"}
    assert recorder.drawn > 500
    assert not recorder.problems, f"{len(recorder.problems)} problems:\n" + "\n".join(recorder.problems[:40])


@pytest.mark.parametrize("size", [SIZE, (1920, 1080)], ids=lambda p: f"{p[0]}x{p[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_screen_is_readable_from_2_metres_in_every_language(lang, size, text_sizes, tmp_path, write_past_checks):
    """At 800x480 no text a player reads is under 20 px or cut short, on any screen of any game in
    any state: the tours above with three long names, then a full table (20 seats, 8 at Yacht),
    every status line of the live view and every message line. The exempt texts are
    ``text_sizes``'s (conftest.py)."""
    i18n.set_language(lang)
    try:
        app = App(players=list(PLAYERS), drink_word="sip", maexle_odds=True, yacht_hint=True, clock=lambda: 0.0)
        rec = Recorder(app, lang, size)
        rec.sizes = text_sizes
        rec.camera = camera_feeds()[0]  # a picture with two dice read
        for tour in (tour_setup, tour_maexle, tour_biscuit, tour_yacht, tour_crowd):
            tour(app, rec.show)
        tour_camera(app, rec)
        tour_messages(app, rec.show, tmp_path, write_past_checks)
        app.end_evening()
        rec.show()
    finally:
        i18n.set_language("en")
    assert rec.screens >= {"setup", "names", "play", "correct", "hand", "sheet", "menu", "over", "summary"}
    small = text_sizes.small(size)
    assert not small, f"{len(small)} texts too small:\n" + "\n".join(dict.fromkeys(small))


# The narrowest size the kiosk lays out (theme.MIN_ASPECT, 3:2); a narrower screen lends it a band of this.
NARROWEST = (720, 480)


@pytest.mark.parametrize("recorder", [(lang, NARROWEST) for lang in i18n.LANGUAGES], indirect=True,
                         ids=lambda p: f"{p[0]}-{p[1][0]}x{p[1][1]}")
def test_every_screen_fits_its_boxes_at_the_narrowest_size_laid_out(recorder):
    assert th.layout_area(*NARROWEST) == (0, 0, *NARROWEST)
    test_every_screen_fits_its_boxes_in_every_language(recorder)


@pytest.mark.parametrize("recorder", i18n.LANGUAGES, indirect=True)
def test_every_camera_fault_status_fits_the_live_view_in_every_language(recorder):
    """A camera fault leaves the live view without a picture and its status in the panel (the game
    screen's and the correction screen's), in the kiosk's language."""
    from appliance.inputs import Command
    from appliance.kiosk.draw import CameraFeed
    from appliance.kiosk.words import camera_fault
    from vision.sources import FAULT_KINDS

    app = recorder.app
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading((2, 4)))
    app.banners.clear()
    app.banner = None
    for screen in ("play", "correct"):
        if screen == "correct":
            app.handle(Command("correct", source="button"))
        view = app.view()
        assert view.screen == screen
        for kind in FAULT_KINDS + ("closed", "unknown"):
            recorder._key = f"{view.key} camera {kind}"
            draw(recorder.surface, view, recorder.theme, CameraFeed(status=camera_fault(kind), ok=False))
    assert {camera_fault(kind) for kind in FAULT_KINDS} <= recorder.texts
    assert not recorder.problems, "\n".join(recorder.problems)


@pytest.mark.parametrize("recorder", i18n.LANGUAGES, indirect=True)
def test_every_unreadable_status_fits_the_live_view_in_every_language(recorder):
    """Why the dice cannot be read (each ``ReasonKind``) is worded in the kiosk's language, never the
    reader's English, and fits the live view's status line."""
    from typing import get_args

    from appliance.i18n import _
    from appliance.kiosk.draw import CameraFeed
    from appliance.kiosk.words import unreadable_reason
    from vision.reading import ReasonKind, unreadable

    app = recorder.app
    app.setup.game_kind = "yacht"
    assert app.start_game()
    view = app.view()
    four = reading((6, 6, 5, 4)).dice
    for kind in get_args(ReasonKind):
        status = _("Cannot read: {reason}").format(reason=unreadable_reason(unreadable("why", four, kind or "other")))
        recorder._key = f"{view.key} unreadable {kind}"
        draw(recorder.surface, view, recorder.theme, CameraFeed(status=status, ok=False))
        assert "why" not in status
    assert not recorder.problems, "\n".join(recorder.problems)


@pytest.mark.parametrize("recorder", i18n.LANGUAGES, indirect=True)
def test_the_language_that_could_not_be_saved_is_said_in_full_in_every_language(recorder):
    """The language button with the store's disk gone: the message line on the setup screen and the menu."""
    app, show = recorder.app, recorder.show
    text = i18n._("The language could not be saved: it lasts until the next start")
    app.say(text)
    show()
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("menu")
    app.say(text)
    show()
    assert text in recorder.texts and recorder.screens == {"setup", "menu"}
    assert not recorder.problems, "\n".join(recorder.problems)


@pytest.mark.parametrize("recorder", i18n.LANGUAGES, indirect=True)
def test_the_games_that_cannot_be_saved_are_said_in_full_on_the_setup_screen_in_every_language(recorder):
    """A kiosk that cannot write its store says so on the setup screen it starts on, and at each game."""
    from appliance.kiosk.words import games_not_saved

    app, show = recorder.app, recorder.show
    app.cannot_save = True
    app.resume()
    show()
    app.setup.game_kind = "maexle"
    assert app.start_game()
    show()
    assert games_not_saved() in recorder.texts and recorder.screens == {"setup", "play"}
    assert not recorder.problems, "\n".join(recorder.problems)


def test_the_check_notices_a_text_that_cannot_fit():
    pygame.init()
    rec = Recorder(App(players=list(PLAYERS)), "en")
    original = widgets.fitted_font
    widgets.fitted_font = rec.fitted_font(original)
    widgets.text_hook = rec.hook
    try:
        widgets.text(rec.surface, rec.theme, "Donaudampfschifffahrtsgesellschaft", pygame.Rect(10, 10, 60, 12))
        widgets.text(rec.surface, rec.theme, "one two three four five six seven eight nine ten eleven",
                     pygame.Rect(10, 40, 80, 14), lines=2)
        widgets.text(rec.surface, rec.theme, "中", pygame.Rect(10, 80, 100, 40))
        rec.hook("overflow", pygame.Rect(10, 120, 90, 12), pygame.Rect(10, 120, 40, 12))  # drawn past its box
    finally:
        widgets.fitted_font = original
        widgets.text_hook = None
    assert any("Donaudampf" in p and "cut to ['Do" in p and "…" in p for p in rec.problems)  # its start and "…"
    assert any("eleven" in p and "cut to" in p for p in rec.problems)
    assert any("px wide" in p for p in rec.problems)
    assert any("no glyph" in p for p in rec.problems)


# 800x480 is the tightest; DICETABLE_SCREENSHOTS=DIR FORGET_SIZES=800x480,1920x1080 saves both to look at.
FORGET_SIZES = [tuple(int(v) for v in size.split("x")) for size in os.environ.get("FORGET_SIZES", "800x480").split(",")]


@pytest.mark.parametrize("recorder", [(lang, size) for lang in i18n.LANGUAGES for size in FORGET_SIZES],
                         indirect=True, ids=lambda p: f"{p[0]}-{p[1][0]}x{p[1][1]}")
def test_forgetting_the_taught_dice_fits_the_menu_in_every_language(recorder, tmp_path):
    """The menu's "forget these dice" with its count of taught throws (every plural form), its
    question and its "forgot" message, with the longest menu (undo and the score sheet shown)."""
    import numpy as np

    from appliance.store import Store

    app, show = recorder.app, recorder.show
    app.store = Store.open(tmp_path)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    app.on_reading(reading((1, 2, 3, 4, 5)))
    for n in (1, 2, 5, 21):
        have = app.taught_throws()
        app.store.add_throws([(np.zeros((2, 32, 32, 3), np.uint8), [3, 3])] * (n - have), "teach")
        app.choose("menu")
        show()
        assert "forget" in [c.id for c in app.view().choices]
        app.choose("back")
    app.choose("menu")
    app.choose("forget")
    show()
    assert app.screen == "confirm"
    if SCREENSHOTS:
        pygame.image.save(recorder.surface, f"{SCREENSHOTS}/menu-forget-{recorder.lang}-{recorder.surface.get_width()}.png")
    recorder.clock[0] += 2.0  # a considered "yes" (a quick one is dropped)
    app.choose("yes")
    show()
    assert app.screen == "menu"
    assert app.taught_throws() == 0 and "forget" not in [c.id for c in app.view().choices]
    assert i18n._("The table forgot its dice: it reads as shipped") in recorder.texts
    app.store.close()
    assert not recorder.problems, "\n".join(recorder.problems)
