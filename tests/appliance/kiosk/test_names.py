"""Typing a seat's name on the on-screen keyboard: a seat that still has its default name ("Player
1") starts from an empty field with a capital offered; each word of a name starts with a capital
and ⇧ turns the next letter round, so "Anne-Marie", "McKay" and "O'Brien" can be typed; German has
ß and Russian Ъ."""

from __future__ import annotations

import pytest

from appliance import i18n
from appliance.kiosk.app import App
from appliance.kiosk.seat_names import default_name


def keys(app: App) -> list[str]:
    """The letters the keyboard offers now."""
    return [c.id.partition(":")[2] for c in app.view().choices if c.id.startswith("key:")]


def tap_out(app: App, text: str) -> None:
    """Type ``text`` as a player would: the key showing the letter, ⇧ first when it shows the other
    case, the ABC/АБВ key for the other script."""
    for ch in text:
        if ch == " ":
            app.choose("space")
            continue
        if ch not in keys(app) and ch.swapcase() not in keys(app):
            app.choose("layout")
        if ch not in keys(app):
            app.choose("shift")
        assert ch in keys(app), (ch, keys(app))
        app.choose(f"key:{ch}")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_renaming_a_seat_with_its_default_name_starts_empty_with_capitals(lang):
    i18n.set_language(lang)
    app = App(clock=lambda: 0.0)
    assert app.setup.seats[0] == default_name(1)
    app.choose("seat:0")
    assert app.screen == "names" and app.names.typed == ""
    letters = [k for k in keys(app) if k.isalpha() and k != "ß"]
    assert letters and all(k.isupper() for k in letters)
    tap_out(app, "Ann" if lang != "ru" else "Аня")
    app.choose("named")
    assert app.setup.seats[0] == ("Ann" if lang != "ru" else "Аня")


def test_renaming_a_typed_name_starts_from_it_to_mend_it():
    app = App(players=["Anna", "Bo"], clock=lambda: 0.0)
    app.choose("seat:0")
    assert app.names.typed == "Anna"
    app.choose("erase")
    tap_out(app, "e")
    app.choose("named")
    assert app.setup.seats == ["Anne", "Bo"]


@pytest.mark.parametrize("name", ["Anne-Marie", "McKay", "O'Brien", "Jānis Bērziņš", "van Dijk"])
def test_names_with_a_hyphen_an_apostrophe_or_a_capital_inside_can_be_typed(name):
    app = App(clock=lambda: 0.0)
    app.choose("add")
    tap_out(app, name)
    assert app.names.typed == name
    app.choose("named")
    assert app.setup.seats[-1] == name


def test_a_name_seated_already_in_another_case_is_refused_and_a_seat_keeps_its_own_name_mended():
    app = App(players=["Ann", "Bo"], clock=lambda: 0.0)
    app.choose("add")
    app.choose("shift")
    tap_out(app, "ann")
    app.choose("named")
    assert app.screen == "names" and app.setup.seats == ["Ann", "Bo"] and "already seated" in app.message
    app.choose("back")
    app.choose("seat:0")
    app.choose("erase")
    app.choose("erase")
    app.choose("erase")
    tap_out(app, "ANN")
    app.choose("named")
    assert app.setup.seats == ["ANN", "Bo"]


def test_each_word_starts_with_a_capital_and_shift_lasts_one_letter():
    app = App(clock=lambda: 0.0)
    app.choose("add")
    app.choose("key:A")
    assert "n" in keys(app) and "N" not in keys(app)     # small letters after the first
    app.choose("key:-")
    assert "M" in keys(app)                                # a capital after a hyphen
    app.choose("shift")
    assert "m" in keys(app)                                # ⇧ turns it round
    app.choose("key:m")
    assert "a" in keys(app) and not app.names.shift        # for one letter only


def test_the_keyboards_have_sharp_s_and_the_hard_sign():
    app = App(clock=lambda: 0.0)
    app.choose("add")
    tap_out(app, "Strauß")
    app.choose("named")
    i18n.set_language("ru")
    app.choose("add")
    assert app.names.layout == "cyrillic"
    tap_out(app, "Подъячев")
    app.choose("named")
    assert app.setup.seats[-2:] == ["Strauß", "Подъячев"]


def test_a_character_the_screen_cannot_show_is_refused_with_a_message():
    """A USB keyboard (or a phone's) may send an emoji: the font has no glyph for it, and the name
    would show as empty boxes on every screen; letters of the four languages go in."""
    from appliance.inputs import Command

    app = App(clock=lambda: 0.0)
    app.choose("seat:0")
    for ch in "ZoëЖ🎲":
        app.handle(Command("text", ch, source="key"))
    assert app.names.typed == "ZoëЖ" and app.message == "The screen cannot show that character"


def test_asking_which_characters_the_screen_shows_survives_pygame_quit_between_evenings():
    import pygame

    from appliance.kiosk.theme import drawable

    assert drawable("Jānis") and not drawable("🎲")
    pygame.quit()  # the demo's evening ended; the next one types names again
    assert drawable("Жанна") and not drawable("🍺")
