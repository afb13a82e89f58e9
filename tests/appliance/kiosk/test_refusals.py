"""What the kiosk says when the table asks for something it cannot do now: a wrong number of players,
an extra GPIO button whose action the game does not take now, undo with nothing to take back. Each is
one message in the kiosk's language (never the engine's English reason) and changes nothing."""

from __future__ import annotations

import pytest

from appliance import i18n
from appliance.inputs import Command
from appliance.kiosk.app import App


@pytest.fixture
def russian():
    i18n.set_language("ru")
    yield
    i18n.set_language("en")


def test_a_game_started_with_too_few_or_too_many_players_says_its_range_in_the_kiosks_language(russian):
    app = App(players=["Аня"], clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert not app.start_game()
    assert app.message == "Нельзя начать: Mäxle — 2-20 игроков" and app.session is None
    app.setup.seats = [f"Игрок {n}" for n in range(1, 10)]
    app.setup.game_kind = "yacht"
    assert not app.start_game()
    assert app.message == "Нельзя начать: Яхта — 1-8 игроков" and app.screen == "setup"


def test_an_extra_button_the_game_does_not_take_now_says_what_is_due(russian):
    app = App(players=["Аня", "Боря", "Вика"], clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.handle(Command("press", "stop", source="button"))  # a Yacht button pressed during Biscuit
    assert app.message.startswith("Не сейчас: ") and "Аня" in app.message
    app.handle(Command("press", "accept", source="button"))
    assert app.message.startswith("Не сейчас: ")
    app.handle(Command("press", "rule_broken", source="button"))  # no rule made yet
    assert app.message.startswith("Не сейчас: ") and app.play.sub == ""
    assert app.session.game.actions == []


def test_the_undo_button_with_nothing_to_take_back_says_so(russian):
    app = App(players=["Аня"], clock=lambda: 0.0)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    app.handle(Command("press", "undo", source="button"))
    assert app.message == "Нечего отменять" and app.session.game.actions == []


@pytest.mark.parametrize("lang, said", [("de", "Jetzt nicht erlaubt: 31 schlägt 31 nicht"),
                                        ("lv", "Tagad nav atļauts: 31 nepārspēj 31"),
                                        ("ru", "Сейчас нельзя: 31 не бьёт 31"),
                                        ("en", "Not allowed now: 31 does not beat 31")])
def test_a_refusal_of_the_engine_is_said_in_the_kiosks_language(lang, said):
    """A double tap on an announcement: the second one reaches the engine after the first was taken,
    as the next player's, and does not beat it. Once it came in English inside every language."""
    i18n.set_language(lang)
    try:
        app = App(players=["Аня", "Боря", "Вика"], clock=lambda: 0.0)
        app.setup.game_kind = "maexle"
        assert app.start_game()
        app.choose("announce:31")
        app.choose("announce:31")
        assert app.message == said and app.session.game.actions == [{"announce": 31}]
    finally:
        i18n.set_language("en")


# Facts enough for every refusal code (each takes the ones it names).
FACTS = {"player": "Аня", "value": 31, "standing": 21, "strictly": True, "switch": "self_reveal", "count": 2,
         "got": 1, "dice": 5, "category": "full_house", "expects": "announce", "winner": ["Аня"]}


@pytest.mark.parametrize("lang", ["de", "lv", "ru"])
def test_every_refusal_code_of_every_game_has_its_own_words_in_every_language(lang):
    from appliance.games import GAMES
    from appliance.kiosk.words import refusal_text
    from appliance.table.base import Table

    codes = sorted({code for game in GAMES.values() for code in game.refusals})
    english = {code: refusal_text({"code": code, **FACTS}) for code in codes}
    i18n.set_language(lang)
    try:
        general = Table().refusal({"code": "?"})
        for code in codes:
            said = refusal_text({"code": code, **FACTS})
            assert general not in said and said != english[code], (code, said)
    finally:
        i18n.set_language("en")
