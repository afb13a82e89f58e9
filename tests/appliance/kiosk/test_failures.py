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


def assert_said(provoke, caplog, english: str, logged: str, *hidden: str) -> None:
    """``provoke(lang)``, which returns the kiosk's text, run in every language: it says ``english`` in
    English and is translated in the others (not one of the English text's words in it); no language
    quotes ``logged`` (the English detail) or any of ``hidden``, and the journal has ``logged``."""
    with caplog.at_level(logging.INFO):  # the kiosk's journal takes INFO
        said = in_every_language(provoke)
    assert said["en"] == english
    for lang, text in said.items():
        for detail in (logged, *hidden):
            assert detail.lower() not in text.lower(), (lang, detail, text)
        if lang != "en":
            assert text and not words(text) & words(english), (lang, text)
    journal = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert logged in journal, logged


# -- a setup the engine refuses ------------------------------------------------------------------

@pytest.mark.parametrize("seats, rules, english, detail", [
    (["Ann", "Ann", "Bo"], {}, "Cannot start: Ann is seated twice: change one name", "names must be distinct"),
    (["Ann", "Bo"], {"maexle": {"limit": 0}}, "Cannot start: a house rule in the settings is wrong. Call the staff.",
     "rules.limit = 0: must be"),
], ids=["seated-twice", "bad-house-rule"])
def test_a_setup_the_engine_refuses_says_why_in_every_language_and_the_engines_english_goes_to_the_journal(
        seats, rules, english, detail, caplog):
    def provoke(lang):
        app = App(players=list(seats), rules=rules, clock=lambda: 0.0)
        app.setup.game_kind = "maexle"
        assert not app.start_game() and app.session is None and app.screen == "setup"
        return app.message

    assert_said(provoke, caplog, english, detail, "rules.", "players:", "must be")


@pytest.mark.parametrize("lang", ["de", "lv", "ru"])
def test_every_setup_refusal_code_is_worded_for_every_game_in_every_language(lang):
    english = {(game, code): setup_refusal_text(game, {"code": code, "player": "Ann"})
               for game in GAMES for code in SETUP_REFUSALS}
    i18n.set_language(lang)
    for (game, code), text in english.items():
        said = setup_refusal_text(game, {"code": code, "player": "Ann"})
        assert said != text and not words(said) & words(text), (game, code, said)


# -- a saved game that does not replay -----------------------------------------------------------

def saved_game_that_does_not_replay(state) -> None:
    """A store in ``state`` whose unfinished Mäxle game's setup the engine refuses (another
    version's game, a hand edit)."""
    with Store.open(state) as store:
        app = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
        app.setup.game_kind = "maexle"
        assert app.start_game()
        app.choose("announce:54")
        store.db.execute("UPDATE games SET setup = '{\"game\": \"poker\", \"players\": [\"Ann\", \"Bo\"]}'")


def test_a_saved_game_that_cannot_be_continued_says_so_in_every_language_and_the_engines_english_goes_to_the_journal(
        tmp_path, caplog):
    def provoke(lang):
        state = tmp_path / lang
        saved_game_that_does_not_replay(state)
        with Store.open(state) as store:
            again = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
            assert not again.resume() and again.screen == "setup"
            return again.message

    assert_said(provoke, caplog, "The saved game could not be continued: its record is damaged or from another "
                "version. It was put aside; start a new game.",
                "game = 'poker': must be one of maexle, biscuit, yacht", "poker", "game =")


def test_a_saved_game_that_cannot_be_continued_nor_put_aside_does_not_say_it_was_put_aside(tmp_path, caplog):
    """The store refuses to end the game (a disk gone full since): it is met again at the next
    start, so the message must not promise it is gone."""
    def provoke(lang):
        state = tmp_path / lang
        saved_game_that_does_not_replay(state)

        def disk_full(_game_id):
            raise OSError(28, "No space left on device")

        with Store.open(state) as store:
            store.set_aside = disk_full
            again = App(store=store, players=["Ann", "Bo"], clock=lambda: 0.0)
            assert not again.resume() and again.screen == "setup"
            assert store.unfinished() is not None
            return again.message

    assert_said(provoke, caplog, "The saved game could not be continued: its record is damaged or from another "
                "version. Start a new game.", "No space left on device", "poker")


# -- a store that cannot save -------------------------------------------------------------------

def closed(store: Store) -> None:
    """The disk is gone: SQLite refuses every write."""
    store.db.close()


def full(store: Store) -> None:
    """The disk is full: every write raises the OSError the SD card gives."""
    def record(*_args, **_kw):
        raise OSError(28, "No space left on device")
    store.record = record
    store.start_game = record


def maexle_kiosk(state) -> App:
    """A kiosk with its store in ``state``, Mäxle chosen for Ann and Bo."""
    app = App(store=Store.open(state), players=["Ann", "Bo"], clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    return app


# How the store fails, and the English detail it gives.
SPOILED = pytest.mark.parametrize("spoil, detail", [(closed, "Cannot operate on a closed database"),
                                                    (full, "No space left on device")], ids=["gone", "full"])
UNSAVED = "The game could not be saved: the storage is full or broken. Call the staff."


@SPOILED
def test_a_move_the_store_cannot_save_says_so_in_every_language_and_the_disks_english_goes_to_the_journal(
        spoil, detail, tmp_path, caplog):
    def provoke(lang):
        app = maexle_kiosk(tmp_path / lang)
        assert app.start_game()
        spoil(app.store)
        app.choose("announce:54")
        assert app.session.game.actions == []  # taken back: nothing announced that is not saved
        return app.message

    assert_said(provoke, caplog, UNSAVED, detail, "Error", "Errno")


@SPOILED
def test_a_new_game_the_store_cannot_save_does_not_start_and_says_so_in_every_language(
        spoil, detail, tmp_path, caplog):
    """Once "Something went wrong: ProgrammingError: Cannot operate on a closed database"."""
    def provoke(lang):
        app = maexle_kiosk(tmp_path / lang)
        spoil(app.store)
        assert not app.start_game() and app.session is None and app.screen == "setup"
        return app.message

    assert_said(provoke, caplog, UNSAVED, detail, "Error", "Errno")


def test_a_settled_throw_the_store_cannot_keep_logs_its_traceback_once_until_one_is_kept(tmp_path, caplog):
    """Outside a game (the setup screen) each settled throw is kept for a restart: on a full card a
    throw every few seconds once put a whole traceback in the journal each time."""
    import logging

    from vision.reading import DiceReading, Die

    app = maexle_kiosk(tmp_path)
    throw = DiceReading(status="ok", dice=(Die(3, (10.0, 10.0), (5, 5, 10, 10)), Die(5, (40.0, 10.0), (35, 5, 10, 10))))
    save = app.store.save_settings

    def full_card(_settings):
        raise OSError(28, "No space left on device")
    app.store.save_settings = full_card
    with caplog.at_level(logging.ERROR, logger="appliance.kiosk.app"):
        for _ in range(3):
            app.on_reading(throw)
        app.store.save_settings = save
        app.on_reading(throw)
        app.store.save_settings = full_card
        app.on_reading(throw)
    assert [bool(r.exc_info) for r in caplog.records] == [True, False, False, True]


# -- a store that cannot be read ----------------------------------------------------------------

def not_sqlite(path) -> None:
    path.write_bytes(b"this is not an SQLite file" * 40)


def damaged_pages(path) -> None:
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's schema: SQLite cannot read the tables
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("spoil, detail", [(not_sqlite, "file is not a database"), (damaged_pages, "malformed")],
                         ids=["not-sqlite", "damaged-pages"])
def test_a_damaged_store_is_announced_in_every_language_and_sqlites_english_goes_to_the_journal(
        spoil, detail, tmp_path, caplog):
    def provoke(lang):
        state = tmp_path / lang
        with Store.open(state) as store:
            store.record(store.start_game({"game": "maexle", "players": ["Ann", "Bo"]}), {"announce": 54}, [])
        spoil(state / FILENAME)
        with Store.open(state) as store:
            app = App(store=store, clock=lambda: 0.0)
            assert not app.resume() and store.moved_to is not None
            return app.message

    assert_said(provoke, caplog, "The saved games could not be read (the file is damaged). They were put aside for "
                "the staff; play starts fresh.", detail, "database", "sqlite", "broken-")


def test_a_damaged_store_whose_game_still_reads_resumes_it_and_says_so_in_every_language(tmp_path, caplog,
                                                                                         write_past_checks):
    """Once the whole file was put aside and play started fresh: a game lost for one damaged row."""
    def provoke(lang):
        state = tmp_path / lang
        with Store.open(state) as store:
            game = store.start_game({"game": "maexle", "players": ["Ann", "Bo"]})
            store.record(game, {"announce": 54}, [])
            store.record(game, {"reveal": True}, [])
        write_past_checks(state / FILENAME, "UPDATE actions SET action = '{\"believe\":' WHERE seq = 2")
        with Store.open(state) as store:
            app = App(store=store, clock=lambda: 0.0)
            assert app.resume() and [a for a, _e in app.session.history] == [{"announce": 54}]  # up to the damage
            return app.message

    assert_said(provoke, caplog, "The file of saved games was damaged. What could still be read was kept; the "
                "file was put aside for the staff.", "game logs cut short", "broken-")


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

    assert_said(provoke, caplog, "Something went wrong. Try again; if it happens again, call the staff.",
                "KeyError: 'rules.limit'", "KeyError", "rules.limit")


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

    assert_said(provoke, caplog, "Something went wrong on this screen. Press Esc or tap to go on.",
                "KeyError: 'rules.limit'", "KeyError", "rules.limit")
