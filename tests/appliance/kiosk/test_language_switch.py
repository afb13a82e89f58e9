"""The language button pressed mid-evening leaves nothing in the old language: the seats' default
names ("Player 1") follow it on every screen (typed names and the game log stay as they are), an
announcement already queued is worded in the new one; and the texts it brings read well (one colon
in Latvian's "Not now", no number alone on a title's last line, a button's label clear of its top)."""

from __future__ import annotations

import pygame
import pytest

from appliance import i18n
from appliance.kiosk import theme as th
from appliance.kiosk import widgets
from appliance.kiosk.app import App
from appliance.kiosk.draw import draw
from appliance.kiosk.seat_names import default_name, default_number, shown
from appliance.kiosk.words import waiting_for
from appliance.session import Need
from vision.reading import DiceReading, Die


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


def switch_to(app: App, lang: str) -> None:
    """The language button until ``lang`` is on."""
    for _ in i18n.LANGUAGES:
        if i18n.language() == lang:
            return
        app.next_language()
    assert i18n.language() == lang


def every_text(view) -> str:
    parts = [view.title, view.player, view.prompt, view.info, view.hint, view.standings_title]
    parts += [f"{c.label} {c.sub}" for c in view.choices + view.bar] + [f"{r.name} {r.value}" for r in view.standings]
    parts += [view.banner.text, view.banner.detail] if view.banner else []
    return "\n".join(parts)


def test_default_names_are_told_in_every_language_and_typed_names_are_not_defaults():
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        assert default_number(default_name(7)) == 7
    assert default_number("Spieler 12") == 12 and default_number("Игрок 3") == 3
    assert default_number("Ann") is None and default_number("Player 1a") is None and default_number("Players 2") is None
    i18n.set_language("de")
    assert shown("Player 1 says 54, Player 12 believes", ["Player 1", "Player 12"]) == "Spieler 1 says 54, Spieler 12 believes"
    assert shown("Spieler 14 lang says 54", ["Spieler 14 lang"]) == "Spieler 14 lang says 54"
    assert shown("Player 1 Jr drinks, Player 1 too", ["Player 1", "Player 1 Jr"]) == "Player 1 Jr drinks, Spieler 1 too"


@pytest.mark.parametrize("lang", ["de", "lv", "ru"])
def test_default_seat_names_follow_the_language_switched_mid_game(lang):
    app = App(clock=lambda: 0.0)                    # Player 1, Player 2, Player 3
    app.setup.seats[1] = "Bo"                       # a typed name
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    switch_to(app, lang)
    view = app.view()
    assert view.player == shown(app.session.need.player, app.session.players) and view.player
    text = every_text(view)
    assert "Player" not in text, text
    assert {r.name for r in view.standings} == {default_name(1), "Bo", default_name(3)}
    assert list(app.session.players) == ["Player 1", "Bo", "Player 3"]   # the game log keeps its names
    app.choose("menu")
    app.choose("end"); app.choose("yes")
    assert "Player" not in every_text(app.view())
    app.choose("new")
    assert [c.label for c in app.view().choices if c.id.startswith("seat:")] == [default_name(1), "Bo", default_name(3)]


def test_a_name_typed_as_another_languages_default_of_a_seated_player_is_refused():
    app = App(clock=lambda: 0.0)                    # Player 1, 2, 3
    switch_to(app, "de")
    app.choose("add")
    for ch in "Spieler":
        app.choose(f"key:{ch}")
    app.choose("space")
    app.names.type("2")                             # a keyboard's digit
    app.choose("named")
    assert app.screen == "names" and "Spieler 2" in app.message


def test_an_announcement_queued_before_the_switch_shows_in_the_new_language():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(3, 4))                   # a Biscuit: "Ann is the Biscuit", then more
    app.on_reading(reading(1, 1))                   # everyone drinks
    assert app.banner is not None and app.banners
    english = [app.banner.announcement.text] + [b.announcement.text for b in app.banners]
    switch_to(app, "ru")
    shown_now = []
    while app.banner is not None:
        shown_now.append(app.view().banner.text)
        app.dismiss_banner()
    i18n.set_language("ru")
    assert len(shown_now) == len(english) and not set(shown_now) & set(english), (shown_now, english)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_not_now_says_who_acts_first_with_one_colon(lang):
    from appliance.kiosk.words import problem_text
    from appliance.session import Problem

    i18n.set_language(lang)
    for kind in ("announce", "decide", "pick", "thumbs", "declare", "roll", "lift", "reroll"):
        text = problem_text(Problem("not_now", need=Need(kind, "Ann", None, (), (), "", {})))
        assert text.count(":") == 1, text
        assert "Ann" in text or kind == "thumbs", text
    assert waiting_for(Need("roll", "Ann", None, (), (), "", {}))


def test_a_number_is_not_left_alone_on_a_titles_last_line():
    pygame.init()
    t = th.Theme(800, 480)
    font = t.font(th.READABLE)
    title = "Штраф: очки (вылет при 3)"
    width = font.size("Штраф: очки (вылет при")[0] + 4    # one word short of the whole line
    lines = widgets.wrap(title, font, width)
    assert lines == ["Штраф: очки (вылет", "при 3)"], lines
    assert widgets.wrap("Strafe: Punkte (raus bei 3)", font, 1000) == ["Strafe: Punkte (raus bei 3)"]


def test_a_menu_buttons_label_over_two_sub_lines_keeps_clear_of_its_top_edge():
    """German "Spiel beenden" over "die Zähler bleiben für den Abend" (two lines)."""
    pygame.init()
    i18n.set_language("de")
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    app.on_reading(reading(1, 2, 3, 4, 5))
    app.banners.clear()
    app.banner = None
    app.choose("menu")
    drawn = []
    widgets.text_hook = lambda content, rect, box: drawn.append((content, rect))
    try:
        t = th.Theme(800, 480)
        hits = draw(pygame.Surface((800, 480)), app.view(), t)
    finally:
        widgets.text_hook = None
    (button,) = [r for r, cid in hits if cid == "end"]
    (label,) = [r for c, r in drawn if c == i18n._("End this game")]
    font = t.font(th.READABLE, True)
    ink = label.top + font.render(i18n._("End this game"), True, (255, 255, 255)).get_bounding_rect().top
    assert ink - button.top >= t.px(10), (button, label)
