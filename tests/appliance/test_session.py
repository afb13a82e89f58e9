"""The game session: readings become rolls only when the engine expects them, the log is durable
before an announcement, and a saved game resumes with what was not yet announced."""

from __future__ import annotations

import pytest

from appliance.games import SetupError, new_game
from appliance.kiosk.words import announcements, problem_text
from appliance.session import Session, counts_total
from appliance.store import Store
from vision.reading import DiceReading, Die, unreadable, wrong_count


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (10.0 + 30 * i, 20.0), (0 + 30 * i, 5, 20, 20)) for i, v in enumerate(values)))


def said(session: Session, outcome, drink_word: str = "sip") -> list[str]:
    """The kiosk's announcements of an outcome's events (the session itself gives only events)."""
    return [a.text for a in announcements(session, outcome.events, drink_word)]


def maexle(**rules) -> Session:
    return Session.start({"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": rules})


def test_maexle_reveal_waits_for_the_lifted_cup_and_the_reading_resolves_it():
    s = maexle()
    assert s.need.kind == "announce" and s.need.player == "Ann" and s.need.dice is None
    assert s.act({"announce": 54}).accepted
    assert s.need.kind == "decide" and "reveal" in s.need.actions
    assert s.act({"reveal": True}).accepted
    assert s.need.kind == "lift" and s.need.dice == 2
    out = s.dice(reading(6, 3))
    assert out.accepted and out.action == {"roll": [3, 6]}
    assert said(s, out) == ["63: Ann's 54 holds", "Cy takes 1 penalty point"]
    assert s.tally()["Cy"] == {"drinks": 0, "penalties": 1}


def test_dice_while_the_cup_is_down_change_nothing():
    s = maexle()
    out = s.dice(reading(6, 3))
    assert not out.accepted and "Ann announces first" in problem_text(out.problem)
    assert s.game.actions == []


def test_an_unreadable_scene_while_no_roll_is_due_is_not_even_a_message():
    out = maexle().dice(unreadable("no dice"))
    assert not out.accepted and problem_text(out.problem) == ""


@pytest.mark.parametrize("lang, off, cocked", [
    ("en", "A die is off the tray: throw again", "A die is cocked: throw again"),
    ("de", "Ein Würfel liegt neben der Schale: noch einmal werfen", "Ein Würfel liegt schief: noch einmal werfen"),
    ("lv", "Kauliņš ir ārpus paplātes: met vēlreiz", "Kauliņš stāv šķībi: met vēlreiz"),
    ("ru", "Кость вылетела из лотка: бросайте ещё раз", "Кость легла на ребро: бросайте ещё раз"),
])
def test_a_die_off_the_tray_or_cocked_is_a_throw_again_in_every_language_never_a_roll(lang, off, cocked):
    from appliance import i18n

    s = Session.start({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]})
    i18n.set_language(lang)
    try:
        out = s.dice(unreadable("the die at (612, 40) is off the tray (40, 30, 560, 420)", reading(3, 5).dice, "off_tray"))
        assert not out.accepted and problem_text(out.problem) == off
        out = s.dice(unreadable("the die at (10, 20) is cocked", reading(3, 5).dice, "cocked"))
        assert not out.accepted and problem_text(out.problem) == cocked
    finally:
        i18n.set_language("en")
    assert s.game.actions == []


def test_every_kind_of_reading_that_is_no_throw_has_its_throw_again_words():
    # The reader's set (teaching and the setup's teach step skip them) and the kiosk's words are one list.
    from appliance.kiosk.words import RETHROW
    from vision.reading import RETHROW_KINDS

    assert set(RETHROW) == RETHROW_KINDS


def test_an_unreadable_or_miscounted_reading_is_a_problem_not_a_roll():
    s = Session.start({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]})
    out = s.dice(unreadable("the die at (10, 20) is unclear (a 3 at 70%)", kind="unsure"))
    assert not out.accepted and "(a die is unclear)" in problem_text(out.problem)
    out = s.dice(reading(6, 3, 2))
    assert not out.accepted and "3 dice seen, 2 needed" in problem_text(out.problem)
    out = s.dice(wrong_count(2, reading(6, 3, 2).dice))
    assert not out.accepted and "3 dice seen, 2 needed" in problem_text(out.problem)
    assert s.game.actions == [] and s.need.kind == "roll"


def test_a_refused_choice_returns_the_engines_reason_and_changes_nothing():
    s = maexle()
    s.act({"announce": 54})
    out = s.act({"announce": 41})
    assert not out.accepted and "41" in problem_text(out.problem)
    assert s.game.actions == [{"announce": 54}]


def test_undo_takes_back_the_last_roll_and_its_penalty():
    s = maexle()
    s.act({"announce": 54})
    s.act({"reveal": True})
    s.dice(reading(6, 3))
    assert s.last_roll == [3, 6]
    out = s.undo()
    assert out.accepted and s.need.kind == "lift" and s.tally()["Cy"]["penalties"] == 0
    assert s.by_hand([3, 1]).accepted  # the dice really showed 31: Ann lied
    assert s.tally() == {"Ann": {"drinks": 0, "penalties": 1}, "Bo": {"drinks": 0, "penalties": 0},
                         "Cy": {"drinks": 0, "penalties": 0}}


def test_a_bad_setup_raises_the_engines_setup_error():
    with pytest.raises(SetupError):
        Session.start({"game": "biscuit", "players": ["Ann", "Bo"]})


def test_everyone_drinks_is_one_announcement():
    s = Session.start({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]})
    s.dice(reading(1, 6))  # Ann rolls 7: the Biscuit
    out = s.dice(reading(1, 1))
    assert said(s, out, drink_word="drink") == ["Everyone drinks 1"]


def test_every_action_is_in_the_store_before_the_session_returns(tmp_path):
    store = Store.open(tmp_path)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"]}, store=store)
    out = s.act({"announce": 31})
    saved = Store.open(tmp_path).unfinished()  # a second connection sees it on disk
    assert saved.actions == [{"announce": 31}] and out.seq == 1
    assert saved.pending and saved.pending[0][1] == {"announce": 31}
    s.announced(out.seq)
    assert not Store.open(tmp_path).unfinished().pending


def test_resume_rebuilds_the_game_and_returns_what_was_not_announced(tmp_path):
    store = Store.open(tmp_path)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": 2}}, store=store)
    first = s.act({"announce": 54})
    s.announced(first.seq)
    s.act({"reveal": True})
    s.dice(reading(5, 4))  # the power goes before this one is shown
    store.close()
    again, pending = Session.resume(Store.open(tmp_path))
    assert again.game.state_json() == s.game.state_json()
    assert [o.action for o in pending] == [{"reveal": True}, {"roll": [4, 5]}]
    assert "54: Ann's 54 holds" in [text for o in pending for text in said(again, o)]
    assert again.tally() == s.tally()


def test_a_finished_game_is_ended_in_the_store_with_its_tally(tmp_path):
    store = Store.open(tmp_path)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": 1}}, store=store)
    s.act({"announce": 54})
    s.act({"reveal": True})
    out = s.dice(reading(3, 1))
    assert s.over and s.ended and any("winner" in e for e in out.events)
    assert store.evening()["Ann"]["penalties"] == 1
    assert store.unfinished().ended  # only until its last announcements have shown
    s.announced(out.seq)
    assert store.unfinished() is None


def test_a_game_that_ended_before_its_announcements_showed_resumes_only_to_show_them(tmp_path):
    store = Store.open(tmp_path)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": 1}}, store=store)
    for action in ({"announce": 54}, {"reveal": True}):
        s.announced(s.act(action).seq)
    s.dice(reading(3, 1))
    again, pending = Session.resume(Store.open(tmp_path))
    assert again.ended and again.over
    assert "Bo wins!" in [text for o in pending for text in said(again, o)]


def test_a_game_won_just_before_the_power_went_is_ended_when_it_resumes(tmp_path, monkeypatch):
    # The deciding roll is saved, the plug pulled before the game's end is: its counts still count.
    store = Store.open(tmp_path)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": 1}}, store=store)
    for action in ({"announce": 54}, {"reveal": True}):
        s.announced(s.act(action).seq)
    with monkeypatch.context() as cut:
        cut.setattr(Store, "end_game", lambda *_a, **_k: None)
        s.dice(reading(3, 1))
    store.close()
    store = Store.open(tmp_path)
    again, pending = Session.resume(store)
    assert again.ended and "Bo wins!" in [text for o in pending for text in said(again, o)]
    assert store.evening()["Ann"]["penalties"] == 1 and store.ended_games()[0].winner == ["Bo"]


def test_a_saved_log_with_an_action_this_engine_refuses_does_not_resume_as_if_it_were_played(tmp_path):
    """A hand-edited file, or a log an older engine took: replaying it would skip the refused action
    and resume another game than the one saved. It is refused whole instead."""
    from appliance.games import RestoreError

    store = Store.open(tmp_path)
    game_id = store.start_game({"game": "maexle", "players": ["Ann", "Bo"], "rules": {}})
    store.record(game_id, {"announce": 54}, [])
    store.record(game_id, {"announce": 31}, [])  # does not beat 54: no engine took this
    with pytest.raises(RestoreError, match="action 2"):
        Session.resume(store)


def test_a_saved_log_with_a_refused_action_goes_on_from_before_it_as_a_new_game_with_the_old_log_kept(tmp_path):
    store = Store.open(tmp_path)
    game_id = store.start_game({"game": "maexle", "players": ["Ann", "Bo"], "rules": {}})
    store.record(game_id, {"announce": 54}, [])
    store.record(game_id, {"announce": 31}, [])  # does not beat 54: no engine took this
    store.record(game_id, {"believe": True}, [])
    (session, pending), dropped = Session.resume_accepted(store)
    assert dropped == 2 and session.game.actions == [{"announce": 54}]
    assert [o.action for o in pending] == [{"announce": 54}]  # never marked shown: it is shown now
    assert session.game_id != game_id and store.unfinished().id == session.game_id
    assert store.game(game_id).ended and len(store.game(game_id).actions) == 3
    (again, _pending), dropped = Session.resume_accepted(store)  # nothing refused now
    assert dropped == 0 and again.game_id == session.game_id
    assert store.ended_games() == [] and not store.evening_played()  # the one set aside was not played


def test_a_game_gone_on_from_before_its_refused_moves_still_announces_what_the_power_cut_off(tmp_path):
    store = Store.open(tmp_path)
    game = new_game({"game": "maexle", "players": ["Ann", "Bo"]})
    game_id = store.start_game(game.setup)
    for action in ({"announce": 54}, {"announce": 61}):  # Bo believes and announces higher
        store.record(game_id, action, game.apply(action))
    store.mark_announced(game_id, 1)  # the power went before Bo's 61 showed
    store.record(game_id, {"announce": 99}, [])  # no engine took this
    (session, pending), dropped = Session.resume_accepted(store)
    assert dropped == 1 and [o.action for o in pending] == [{"announce": 61}]


def test_a_store_that_fails_takes_the_action_back():
    class Broken:
        def start_game(self, setup):
            return 1

        def record(self, *a, **kw):
            raise OSError("disk full")

    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"]}, store=Broken())
    out = s.act({"announce": 54})
    assert not out.accepted and out.problem.code == "unsaved" and out.problem.reason == "disk full"  # for the journal
    assert s.need.kind == "announce" and s.game.in_effect == []


class FillsUp:
    """A store whose card is full while ``full``: every record raises the OSError an SD card gives."""

    def __init__(self, full: bool = False) -> None:
        self.full = full

    def start_game(self, setup):
        return 1

    def record(self, *a, **kw):
        if self.full:
            raise OSError(28, "No space left on device")
        return 1


def test_a_store_that_keeps_failing_logs_its_traceback_once_then_a_line_per_action_until_one_saves(caplog):
    """A full card under a table that re-throws: the journal once filled with two tracebacks a throw."""
    import logging

    store = FillsUp(full=True)
    s = Session.start({"game": "maexle", "players": ["Ann", "Bo"]}, store=store)
    with caplog.at_level(logging.ERROR, logger="appliance.session"):
        for _ in range(3):
            assert not s.act({"announce": 54}).accepted
        store.full = False
        assert s.act({"announce": 54}).accepted
        store.full = True
        assert not s.undo().accepted
    assert [bool(r.exc_info) for r in caplog.records] == [True, False, False, True]
    assert caplog.records[1].getMessage() == "could not save {'announce': 54} either: [Errno 28] No space left on device"


def test_an_undo_the_store_cannot_save_takes_back_nothing_else():
    """Taking back a failed save of an ``undo`` must not undo once more (a second action lost on
    screen while the log still has it)."""
    store = FillsUp()
    s = Session.start({"game": "biscuit", "players": ["Ann", "Bo", "Cy"]}, store=store)
    for dice in ((3, 4), (1, 1), (6, 4)):
        assert s.dice(reading(*dice)).accepted
    before = s.game.state_json()
    store.full = True
    out = s.undo()
    assert not out.accepted and out.problem.code == "unsaved" and "No space left" in out.problem.reason
    assert s.game.state_json() == before and s.game.drinks == {"Ann": 2, "Bo": 1, "Cy": 1}
    assert s.last_action == {"roll": [4, 6]}


def test_counts_add_up_over_games():
    a = {"Ann": {"drinks": 2, "penalties": 0}}
    b = {"Ann": {"drinks": 1, "penalties": 3}, "Bo": {"drinks": 1, "penalties": 0}}
    assert counts_total(a, b) == {"Ann": {"drinks": 3, "penalties": 3}, "Bo": {"drinks": 1, "penalties": 0}}


def test_an_announced_mark_the_store_cannot_write_is_logged_once_and_not_raised(tmp_path, caplog):
    """The kiosk marks what it has shown as the announcements go by, every frame: a store that became
    read-only must not stop it (at worst an announcement is shown again after a restart)."""
    import logging
    import sqlite3

    class ReadOnly(Store):
        def mark_announced(self, game_id, seq):
            raise sqlite3.OperationalError("attempt to write a readonly database")

    real = Store.open(tmp_path)
    store = ReadOnly(path=real.path, db=real.db)
    session = Session.start({"game": "maexle", "players": ["Ann", "Bo"]}, store=store)
    with caplog.at_level(logging.ERROR, logger="appliance.session"):
        for seq in (1, 2, 3):
            session.announced(seq)
    assert [r.getMessage() for r in caplog.records] == [
        "could not mark action 1 of game 1 announced: attempt to write a readonly database"]
    real.close()
