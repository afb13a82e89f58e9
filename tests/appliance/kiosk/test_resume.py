"""After a pulled plug the kiosk comes back on the game screen, whatever sub-screen was open (the
correction screen, the hand entry, the menu, the score sheet: they are not saved), with the
announcement the power cut off shown again, and no half-typed hand entry or picker left over."""

from __future__ import annotations

import pytest

from appliance.inputs import Command
from appliance.kiosk.app import App
from appliance.store import Store
from vision.reading import DiceReading, Die


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


def kiosk(state_dir) -> App:
    """The kiosk as the boot service makes it: a store in the state directory, then resume."""
    return App(store=Store.open(state_dir), players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)


def seen(app: App) -> None:
    """The table has read every announcement (each one is marked shown as it comes up)."""
    while app.banner is not None or app.banners:
        app.dismiss_banner()


def open_sub_screen(app: App, sub: str) -> None:
    if sub == "correct":
        app.handle(Command("correct", source="button"))  # REVEAL held
    elif sub == "hand":
        app.choose("fix")
        app.choose("hand")
        app.select(1)  # a die typed, not confirmed
    elif sub == "menu":
        app.choose("menu")
    elif sub == "sheet":
        app.choose("sheet")
    assert app.screen == sub


def revealed_63_for_54(app: App, announcement_seen: bool = False) -> None:
    """A Mäxle game where Ann announced 54 and Bo revealed 63 (it holds: Cy's penalty); the
    announcement ``announcement_seen`` or still showing."""
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    if announcement_seen:
        seen(app)
    app.choose("reveal")
    app.on_reading(reading(6, 3))


def two_announcements_queued(app: App) -> None:
    """A Mäxle reveal whose two announcements are queued, the second not yet shown: 63 holds."""
    revealed_63_for_54(app, announcement_seen=True)


@pytest.mark.parametrize("sub", ["correct", "hand", "menu"])
def test_a_maexle_game_resumes_on_the_game_screen_with_the_announcement_cut_off(tmp_path, sub):
    app = kiosk(tmp_path)
    two_announcements_queued(app)
    assert app.banner.announcement.text == "63: Ann's 54 holds" and len(app.banners) == 1
    open_sub_screen(app, sub)
    # The plug is pulled: nothing is closed or flushed; a new process opens the same state directory.
    again = kiosk(tmp_path)
    assert again.resume()
    assert again.screen == "play" and again.play.sub == "" and again.hand.dice == [] and again.play.picked == []
    shown = [again.banner.announcement.text] + [b.announcement.text for b in again.banners]
    assert shown == ["63: Ann's 54 holds", "Cy takes 1 penalty point"]  # the outcome was not marked shown
    view = again.view()
    assert view.screen == "play" and view.banner.text == "63: Ann's 54 holds"
    assert view.player == "Cy" and view.prompt == "Shake the cup, peek, announce"
    assert again.session.tally()["Cy"] == {"drinks": 0, "penalties": 1}


def test_a_yacht_game_resumes_from_the_score_sheet_on_the_game_screen(tmp_path):
    app = kiosk(tmp_path)
    app.setup.seats = ["Ann", "Bo"]
    app.setup.game_kind = "yacht"
    assert app.start_game()
    app.on_reading(reading(6, 6, 6, 6, 5))
    app.on_reading(reading(1, 1, 1, 2, 2))  # the order: Ann starts
    open_sub_screen(app, "sheet")
    again = kiosk(tmp_path)
    assert again.resume() and again.screen == "play"
    shown = [again.banner.announcement.text] + [b.announcement.text for b in again.banners]
    assert shown == ["Bo rolls 7", "Ann starts"]
    assert again.view().prompt == "Roll all five dice" and again.session.need.player == "Ann"


def test_a_saved_game_that_cannot_be_continued_is_said_once_and_set_aside_with_its_log_kept(tmp_path):
    app = kiosk(tmp_path)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    app.store.db.execute("UPDATE games SET setup = '{\"game\": \"poker\", \"players\": [\"Ann\", \"Bo\"]}'")
    again = kiosk(tmp_path)
    assert not again.resume() and "could not be continued" in again.message and again.screen == "setup"
    # The table plays on; at the next start the broken game is not brought up again ...
    again.setup.seats = ["Ann"]
    again.setup.game_kind = "yacht"
    assert again.start_game()
    again.choose("menu")
    again.choose("end"); again.choose("yes")
    third = kiosk(tmp_path)  # back on the ended Yacht game's closing screen, not the broken game
    assert third.resume() and third.message == "" and third.screen == "over" and third.session.kind == "yacht"
    # ... and its log is still in the file, for a look by hand.
    assert third.store.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = 1").fetchone() == (1,)


def _maexle_to_the_winner_screen(app: App) -> None:
    app.setup.game_kind, app.setup.seats = "maexle", ["Ann", "Bo"]
    app.rules = {"maexle": {"limit": 1}}
    assert app.start_game()
    app.choose("announce:54")
    app.choose("reveal")
    app.on_reading(reading(6, 3))  # 63 holds 54: Bo takes the point, out at 1: Ann wins
    seen(app)
    assert app.screen == "over" and app.session.over


def test_a_restart_on_the_winner_screen_comes_back_to_the_winner_screen(tmp_path):
    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    again = kiosk(tmp_path)
    assert again.resume()
    assert again.screen == "over" and again.session.over and again.session.ended
    assert again.session.game.expects.get("winner") == ["Ann"]
    assert again.evening() == app.evening()  # the totals are the ones the winner screen showed


def test_the_deciding_roll_taken_back_forgets_the_winner_screen_for_a_restart(tmp_path):
    from appliance.kiosk.app import OVER_KEY

    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    assert app.store.setting(OVER_KEY)
    app.undo()  # the 63 was misread: playing again
    assert app.screen == "play" and not app.session.over and not app.store.setting(OVER_KEY)
    again = kiosk(tmp_path)
    assert again.resume() and again.screen == "play" and not again.session.over


def test_a_game_played_again_under_the_last_ones_announcements_marks_them_in_that_game(tmp_path):
    """"Play again" pressed while the won game's result is still being announced: those
    announcements are marked shown in the won game, so a restart comes back to the newer game's
    winner screen, not to the older one's result said again."""
    app = kiosk(tmp_path)
    app.setup.game_kind, app.setup.seats = "maexle", ["Ann", "Bo"]
    app.rules = {"maexle": {"limit": 1}}
    assert app.start_game()
    app.choose("announce:54")
    app.choose("reveal")
    app.on_reading(reading(6, 3))  # game 1 won; its result still queued
    assert app.screen == "over" and app.banners
    app.choose("again")
    app.choose("announce:54")
    app.choose("reveal")
    app.on_reading(reading(6, 3))  # game 2 won too
    seen(app)
    again = kiosk(tmp_path)
    assert again.resume()
    assert again.session.game_id == 2 and again.screen == "over" and not again.banners


def test_a_restart_on_the_evenings_chart_comes_back_to_the_chart_until_the_table_leaves_it(tmp_path):
    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    app.end_evening()
    assert app.screen == "summary"
    again = kiosk(tmp_path)
    again.resume()
    assert again.screen == "summary" and again.view().title == app.view().title
    again.back()  # to the winner screen: a restart now comes back there
    assert again.screen == "over"
    third = kiosk(tmp_path)
    assert third.resume() and third.screen == "over"
    third.end_evening()
    third.new_evening()
    fourth = kiosk(tmp_path)
    assert not fourth.resume() and fourth.screen == "setup"


def test_a_restart_on_the_chart_of_an_evening_ended_from_the_setup_screen_comes_back_to_it(tmp_path):
    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    app.new_game()
    app.end_evening()
    again = kiosk(tmp_path)
    assert not again.resume() and again.screen == "summary"
    again.back()
    assert again.screen == "setup"


def test_a_restart_after_leaving_the_winner_screen_comes_back_on_the_setup_screen(tmp_path):
    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    app.new_game()
    again = kiosk(tmp_path)
    assert not again.resume() and again.screen == "setup"


def test_a_resume_whose_announced_marks_cannot_be_written_shows_them_and_raises_nothing(tmp_path, read_only, caplog):
    """A saved-games file that became read-only (root's copy of a backup, chattr +i) after a power cut
    with announcements pending: the kiosk shows them; the marks it cannot write are logged once."""
    app = kiosk(tmp_path)
    two_announcements_queued(app)
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(store=Store.open_read_only(tmp_path), players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    assert again.resume()
    seen(again)
    again.tick()
    assert again.banner is None and again.screen == "play"
    assert len([r for r in caplog.records if "could not mark" in r.getMessage()]) == 1


def test_on_a_store_become_read_only_the_evening_goes_on_with_its_games_and_drink_cap(tmp_path, read_only):
    """The saved games became read-only (an SD card after a power cut): the interrupted Biscuit goes
    on unsaved, and the evening's earlier game, its drinks (towards the cap) and the cap still count."""
    app = kiosk(tmp_path)
    app.drink_cap = 2
    app.store.save_settings({"drink_cap": "2"})
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    for roll in ((3, 4), (1, 1), (1, 1)):  # the Biscuit is chosen, then two 1-1: everyone drinks twice
        app.on_reading(reading(*roll))
        seen(app)
    app.choose("menu"); app.choose("end"); app.choose("yes")
    before = app.evening()
    assert all(c["drinks"] == 2 for c in before.values())
    assert app.start_game()
    app.on_reading(reading(3, 4))
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(store=None, cannot_save=True, read_only=Store.open_read_only(tmp_path), players=["Ann", "Bo", "Cy"],
                clock=lambda: 0.0)
    assert again.resume() and again.session.kind == "biscuit" and again.drink_cap == 2
    assert again.evening() == before and again.evening_played()
    again.on_reading(reading(1, 1))  # everyone's third drink: past the cap, water
    assert all(c.get("water", 0) == 1 for c in again.session.tally().values())
    again.choose("menu"); again.choose("evening"); again.choose("yes")
    assert again.evening_summary.games == ("biscuit", "biscuit")
    again.choose("new_evening"); again.choose("yes")
    assert again.evening() == {} and not again.evening_played()


def resumed_with_hooks(state_dir):
    """A restarted kiosk whose camera hooks are recorded."""
    again = kiosk(state_dir)
    told = []
    again.hooks.resumed = told.append
    again.hooks.reread = lambda: told.append("reread")
    assert again.resume()
    return told


def test_a_game_resumed_gives_the_camera_its_last_settled_roll_which_may_still_lie_on_the_tray(tmp_path):
    app = kiosk(tmp_path)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(1, 1))
    assert resumed_with_hooks(tmp_path) == [reading(1, 1)]  # with its dice where they lay


def test_a_plug_pulled_while_a_roll_is_saved_neither_loses_it_nor_takes_its_dice_for_seen(tmp_path, monkeypatch):
    class PowerCut(BaseException):
        pass

    app = kiosk(tmp_path)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(1, 1))

    def cut(*args, **kwargs):
        raise PowerCut

    monkeypatch.setattr(app.store, "record", cut)  # the power goes while the next roll is being saved
    with pytest.raises(PowerCut):
        app.on_reading(reading(3, 4))
    # After the restart the 3 4 still lying there is no throw seen: it is read and taken then.
    assert resumed_with_hooks(tmp_path) == [reading(1, 1)]
    again = kiosk(tmp_path)
    assert again.resume() and again.session.game.actions == [{"roll": [1, 1]}]
    again.on_reading(reading(3, 4))
    assert again.session.game.actions == [{"roll": [1, 1]}, {"roll": [3, 4]}]


def test_a_roll_corrected_by_hand_leaves_the_camera_its_own_reading_of_the_dice_lying_there(tmp_path):
    app = kiosk(tmp_path)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(3, 5))  # the camera misread a 3 6
    app.handle(Command("correct", source="button"))
    app.act({"undo": True})
    app.act({"roll": [3, 6]})
    assert app.session.last_roll == [3, 6]
    assert resumed_with_hooks(tmp_path) == [reading(3, 5)]  # what the camera will read there again


def test_a_maexle_game_waiting_for_the_cup_to_be_lifted_reads_afresh_after_a_restart(tmp_path):
    app = kiosk(tmp_path)
    revealed_63_for_54(app)
    app.choose("announce:31")
    app.choose("reveal")  # the cup is to be lifted: the dice under it were never read
    assert resumed_with_hooks(tmp_path) == ["reread"]


def test_without_a_settled_roll_kept_the_camera_is_told_nothing_after_a_restart(tmp_path, caplog):
    app = kiosk(tmp_path)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    assert resumed_with_hooks(tmp_path) == []
    for damaged in ('{"status": "ok", "dice": [{"value": 9}]}', '{"status": "unreadable", "dice": []}'):
        app.store.save_settings({"camera_last_roll": damaged})
        caplog.clear()
        assert resumed_with_hooks(tmp_path) == [] and "cannot be used" in caplog.text


def test_a_game_won_just_before_the_power_went_counts_on_a_store_become_read_only(tmp_path, read_only, monkeypatch):
    # Its deciding roll saved, its ending not, and the store read-only after the restart: the game
    # cannot be ended there, so it stays the evening's unfinished game, its counts still counted.
    app = App(store=Store.open(tmp_path), players=["Ann", "Bo"], clock=lambda: 0.0)
    app.rules = {"maexle": {"limit": 1}}
    app.setup.game_kind = "maexle"
    assert app.start_game()
    with monkeypatch.context() as cut:
        cut.setattr(Store, "end_game", lambda *_a, **_k: None)
        app.choose("announce:54"); app.choose("reveal"); app.on_reading(reading(6, 3))  # Bo is out
    seen(app)
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(store=None, cannot_save=True, read_only=Store.open_read_only(tmp_path), players=["Ann", "Bo"],
                clock=lambda: 0.0)
    assert again.resume() and again.screen == "over"
    assert again.evening()["Bo"]["penalties"] == 1 and again.view().standings
    again.choose("evening")
    assert again.evening_summary.games == ("maexle",)


def test_an_undo_whose_words_the_power_cut_off_shows_no_lone_taken_back_after_a_restart(tmp_path):
    # An announcement showing, a reveal queued behind it, Undo, then the plug: after the restart the
    # reveal is not in effect, and a "Taken back" alone would not say of what.
    app = kiosk(tmp_path)
    revealed_63_for_54(app)
    app.undo()
    assert app.banner.announcement.text == "Ann announces 54" and len(app.banners) == 1  # "Taken back"
    again = kiosk(tmp_path)
    assert again.resume()
    assert again.banner is None and not again.banners
    assert again.session.tally()["Cy"] == {"drinks": 0, "penalties": 0}
    again.undo()  # an undo pressed now says so, though what it takes back was before the restart
    assert again.banner.announcement.text == "Taken back"
    third = kiosk(tmp_path)  # and nothing is left to show after another restart
    assert third.resume() and third.banner is None and not third.banners


def test_a_saved_game_whose_last_moves_its_engine_refuses_goes_on_from_before_them_with_its_log_kept(tmp_path):
    """A hand-edited record, or one another version saved: the beginning the engine takes is
    played on as a new game; the whole old log stays in the file for a look by hand."""
    app = kiosk(tmp_path)
    app.setup.game_kind, app.setup.seats = "biscuit", ["Ann", "Bo", "Cy"]
    assert app.start_game()
    for dice in ((3, 4), (2, 6), (4, 5), (5, 6)):  # no Biscuit yet: four rolls, nothing asked between
        app.on_reading(reading(*dice))
    seen(app)
    assert len(app.session.game.actions) == 4
    app.store.db.execute("""UPDATE actions SET action = '{"roll": [1, 9]}' WHERE seq = 3""")
    again = kiosk(tmp_path)
    assert again.resume() and again.screen == "play"
    assert "last 2 moves could not be replayed" in again.message
    assert again.session.game.actions == [{"roll": [3, 4]}, {"roll": [2, 6]}] and again.session.game_id == 2
    assert not again.banners and again.banner is None  # what the table saw is not said again
    old = again.store.game(1)
    assert old.ended and len(old.actions) == 4  # kept whole, never resumed again
    again.on_reading(reading(4, 5))
    third = kiosk(tmp_path)
    assert third.resume() and third.session.game.actions[-1] == {"roll": [4, 5]} and third.message == ""


def test_on_a_read_only_store_a_game_whose_last_moves_do_not_replay_goes_on_unsaved_from_before_them(
        tmp_path, read_only):
    app = kiosk(tmp_path)
    app.setup.game_kind, app.setup.seats = "biscuit", ["Ann", "Bo", "Cy"]
    assert app.start_game()
    for dice in ((3, 4), (2, 6), (4, 5)):
        app.on_reading(reading(*dice))
    seen(app)
    app.store.db.execute("""UPDATE actions SET action = '{"roll": [1, 9]}' WHERE seq = 3""")
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(read_only=Store.open_read_only(tmp_path), cannot_save=True, players=["Ann", "Bo", "Cy"],
                clock=lambda: 0.0)
    assert again.resume() and again.screen == "play" and again.session.store is None
    assert again.session.game.actions == [{"roll": [3, 4]}, {"roll": [2, 6]}]
    assert "last move could not be replayed" in again.message and "cannot be saved" in again.message


def test_on_a_read_only_store_a_game_whose_setup_does_not_replay_is_not_said_to_be_put_aside(tmp_path, read_only):
    app = kiosk(tmp_path)
    app.setup.game_kind, app.setup.seats = "biscuit", ["Ann", "Bo", "Cy"]
    assert app.start_game()
    app.store.db.execute("""UPDATE games SET setup = '{"game": "poker", "players": ["Ann", "Bo"]}'""")
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(read_only=Store.open_read_only(tmp_path), cannot_save=True, players=["Ann", "Bo", "Cy"],
                clock=lambda: 0.0)
    assert not again.resume() and again.screen == "setup"
    assert "could not be continued" in again.message and "put aside" not in again.message
    assert "cannot be saved" in again.message


def test_on_a_read_only_store_a_restart_on_the_evenings_chart_comes_back_to_it(tmp_path, read_only):
    app = kiosk(tmp_path)
    _maexle_to_the_winner_screen(app)
    app.end_evening()
    app.store.close()
    read_only(tmp_path / "dicetable.sqlite3")
    again = App(read_only=Store.open_read_only(tmp_path), cannot_save=True, players=["Ann", "Bo"], clock=lambda: 0.0)
    again.resume()
    assert again.screen == "summary" and again.summary().games == ("maexle",)  # the evening read as it was
    again.back()
    assert again.screen == "setup"
