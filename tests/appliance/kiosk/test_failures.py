"""What the kiosk says when something fails under the game (the engine refuses a setup, the store
fails, the kiosk has a bug): what happened and what the table can do, in the kiosk's language, in a
player's words. The English detail (the engine's reason, SQLite's or the disk's error, the
exception) goes to the journal only."""

from __future__ import annotations

import logging
import re

import pytest

from appliance import i18n
from appliance.games import GAMES, SETUP_REFUSALS
from appliance.kiosk.app import App
from appliance.kiosk.words import setup_refusal_text
from appliance.store import FILENAME, Store

# Words the kiosk's texts may share with English: names (players, games) and a key's label.
NAMES = {"Mäxle", "Yacht", "Biscuit", "Esc", "Ann", "Bo", "Cy"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def in_every_language(provoke) -> dict[str, str]:
    """``provoke(lang)`` run with each language active; what it returns (the kiosk's text) by language."""
    said = {}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        said[lang] = provoke(lang)
    i18n.set_language("en")
    return said


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-zÄäÖöÜü]{3,}", text)) - NAMES


def assert_translated_without(said: dict[str, str], *details: str) -> None:
    """Each language's text is there, quotes none of ``details`` (the English detail) and, but for
    English, is translated: not one of the English text's words in it."""
    for lang, text in said.items():
        assert text, lang
        for detail in details:
            assert detail.lower() not in text.lower(), (lang, detail, text)
        if lang != "en":
            assert not words(text) & words(said["en"]), (lang, text)


def assert_logged(caplog, *details: str) -> None:
    journal = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    for detail in details:
        assert detail in journal, detail


# -- a setup the engine refuses ------------------------------------------------------------------

@pytest.mark.parametrize("seats, rules, detail", [
    (["Ann", "Ann", "Bo"], {}, "names must be distinct"),
    (["Ann", "Bo"], {"maexle": {"limit": 0}}, "rules.limit = 0: must be"),
], ids=["seated-twice", "bad-house-rule"])
def test_a_setup_the_engine_refuses_says_why_in_every_language_and_the_engines_english_goes_to_the_journal(
        seats, rules, detail, caplog):
    def provoke(lang):
        app = App(players=list(seats), rules=rules, clock=lambda: 0.0)
        app.setup.game_kind = "maexle"
        assert not app.start_game() and app.session is None and app.screen == "setup"
        return app.message

    with caplog.at_level(logging.WARNING, logger="appliance.kiosk.app"):
        said = in_every_language(provoke)
    assert_translated_without(said, detail, "rules.", "players:", "must be")
    assert said["en"] in ("Cannot start: Ann is seated twice: change one name",
                          "Cannot start: a house rule in the settings is wrong. Call the staff.")
    assert_logged(caplog, detail)


@pytest.mark.parametrize("lang", ["de", "lv", "ru"])
def test_every_setup_refusal_code_is_worded_for_every_game_in_every_language(lang):
    english = {(game, code): setup_refusal_text(game, {"code": code, "player": "Ann"})
               for game in GAMES for code in SETUP_REFUSALS}
    i18n.set_language(lang)
    for (game, code), text in english.items():
        said = setup_refusal_text(game, {"code": code, "player": "Ann"})
        assert said != text and not words(said) & words(text), (game, code, said)


# -- a saved game that does not replay -----------------------------------------------------------

def test_a_saved_game_that_cannot_be_continued_says_so_in_every_language_and_the_engines_english_goes_to_the_journal(
        tmp_path, caplog):
    def provoke(lang):
        state = tmp_path / lang
        with Store.open(state) as store:
            app = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
            app.setup.game_kind = "maexle"
            assert app.start_game()
            app.choose("announce:54")
            store.db.execute("UPDATE games SET setup = '{\"game\": \"poker\", \"players\": [\"Ann\", \"Bo\"]}'")
        with Store.open(state) as store:
            again = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
            assert not again.resume() and again.screen == "setup"
            return again.message

    with caplog.at_level(logging.ERROR, logger="appliance.kiosk.app"):
        said = in_every_language(provoke)
    assert_translated_without(said, "poker", "must be one of", "game =")
    assert said["en"] == ("The saved game could not be continued: its record is damaged or from another version. "
                          "It was put aside; start a new game.")
    assert_logged(caplog, "game = 'poker': must be one of maexle, biscuit, yacht")


# -- a store that cannot save -------------------------------------------------------------------

def closed(store: Store) -> str:
    """The disk is gone: SQLite refuses every write (the detail it gives)."""
    store.db.close()
    return "Cannot operate on a closed database"


def full(store: Store) -> str:
    """The disk is full: every write raises the OSError the SD card gives (its detail)."""
    def record(*_args, **_kw):
        raise OSError(28, "No space left on device")
    store.record = record
    store.start_game = record
    return "No space left on device"


@pytest.mark.parametrize("spoil", [closed, full])
def test_a_move_the_store_cannot_save_says_so_in_every_language_and_the_disks_english_goes_to_the_journal(
        spoil, tmp_path, caplog):
    details = []

    def provoke(lang):
        store = Store.open(tmp_path / lang)
        app = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
        app.setup.game_kind = "maexle"
        assert app.start_game()
        details.append(spoil(store))
        app.choose("announce:54")
        assert app.session.game.actions == []  # taken back: nothing announced that is not saved
        return app.message

    with caplog.at_level(logging.ERROR, logger="appliance.session"):
        said = in_every_language(provoke)
    assert_translated_without(said, details[0], "Error", "Errno")
    assert said["en"] == "The game could not be saved: the storage is full or broken. Call the staff."
    assert_logged(caplog, details[0])


@pytest.mark.parametrize("spoil", [closed, full])
def test_a_new_game_the_store_cannot_save_does_not_start_and_says_so_in_every_language(spoil, tmp_path, caplog):
    """Once "Something went wrong: ProgrammingError: Cannot operate on a closed database"."""
    details = []

    def provoke(lang):
        store = Store.open(tmp_path / lang)
        app = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
        details.append(spoil(store))
        app.setup.game_kind = "maexle"
        assert not app.start_game() and app.session is None and app.screen == "setup"
        return app.message

    with caplog.at_level(logging.ERROR, logger="appliance.kiosk.app"):
        said = in_every_language(provoke)
    assert_translated_without(said, details[0], "Error", "Errno")
    assert said["en"] == "The game could not be saved: the storage is full or broken. Call the staff."
    assert_logged(caplog, details[0])


# -- a store that cannot be read ----------------------------------------------------------------

def not_sqlite(path) -> str:
    path.write_bytes(b"this is not an SQLite file" * 40)
    return "file is not a database"


def damaged_pages(path) -> str:
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's schema: SQLite cannot read the tables
    path.write_bytes(bytes(data))
    return "malformed"


@pytest.mark.parametrize("spoil", [not_sqlite, damaged_pages])
def test_a_damaged_store_is_announced_in_every_language_and_sqlites_english_goes_to_the_journal(
        spoil, tmp_path, caplog):
    details = []

    def provoke(lang):
        state = tmp_path / lang
        with Store.open(state) as store:
            store.record(store.start_game({"game": "maexle", "players": ["Ann", "Bo"]}), {"announce": 54}, [])
        details.append(spoil(state / FILENAME))
        with Store.open(state) as store:
            app = App(store=store, clock=lambda: 0.0)
            assert not app.resume() and store.moved_to is not None
            return app.message

    with caplog.at_level(logging.WARNING, logger="appliance.store"):
        said = in_every_language(provoke)
    assert_translated_without(said, details[0], "database", "sqlite", "broken-")
    assert said["en"] == ("The saved games could not be read (the file is damaged). They were put aside for the "
                          "staff; play starts fresh.")
    assert_logged(caplog, details[0])


# -- a bug in the kiosk -------------------------------------------------------------------------

def test_a_bug_in_a_handler_says_something_went_wrong_in_every_language_and_the_error_goes_to_the_journal(
        monkeypatch, caplog):
    from appliance.inputs import Command, CommandQueue
    from appliance.kiosk import loop

    def provoke(lang):
        kiosk = loop.Kiosk(App(clock=lambda: 0.0), CommandQueue(), size=(800, 480))
        try:
            monkeypatch.setattr(kiosk.app, "handle", lambda cmd: {}["rules.limit"])
            kiosk.dispatch(Command("reveal", source="button"))
            return kiosk.app.message
        finally:
            kiosk.close()

    with caplog.at_level(logging.ERROR, logger="appliance.kiosk.loop"):
        said = in_every_language(provoke)
    assert_translated_without(said, "KeyError", "rules.limit")
    assert said["en"] == "Something went wrong. Try again; if it happens again, call the staff."
    assert_logged(caplog, "KeyError: 'rules.limit'")


def test_a_drawing_bug_says_so_in_every_language_at_20_px_and_the_error_goes_to_the_journal(
        monkeypatch, caplog, text_sizes):
    from appliance.inputs import CommandQueue
    from appliance.kiosk import loop

    monkeypatch.setattr(loop, "draw", lambda *a, **k: {}["rules.limit"])

    def provoke(lang):
        kiosk = loop.Kiosk(App(clock=lambda: 0.0), CommandQueue(), size=(800, 480))
        try:
            text_sizes.clear()
            kiosk.step()
            assert kiosk.hits and kiosk.hits[0][1] == "back"
            assert not text_sizes.small((800, 480)), text_sizes.small((800, 480))
            [(text, _px, _cut)] = text_sizes.drawn
            return text
        finally:
            kiosk.close()

    with caplog.at_level(logging.ERROR, logger="appliance.kiosk.loop"):
        said = in_every_language(provoke)
    assert_translated_without(said, "KeyError", "rules.limit")
    assert said["en"] == "Something went wrong on this screen. Press Esc or tap to go on."
    assert_logged(caplog, "KeyError: 'rules.limit'")
