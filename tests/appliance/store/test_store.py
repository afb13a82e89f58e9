"""The saved games: durable log, announced marks, evening counts, and bad files moved aside."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from appliance.store import FILENAME, StateBusy, Store, StoreError, claim

SETUP = {"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"limit": 6}}


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path) as s:
        yield s


def test_a_fresh_directory_gives_an_empty_store_without_a_notice(tmp_path):
    with Store.open(tmp_path / "new" / "state") as s:
        assert s.notice is None and s.moved_to is None
        assert s.unfinished() is None and s.evening() == {}
        assert s.path == tmp_path / "new" / "state" / FILENAME


def test_the_file_is_wal_with_full_synchronous_writes(store):
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_recorded_actions_come_back_in_order_after_reopening(tmp_path):
    with Store.open(tmp_path) as s:
        game = s.start_game(SETUP)
        assert s.record(game, {"announce": 54}, [{"turn": {"player": "Cy", "expects": "decide"}}]) == 1
        assert s.record(game, {"reveal": True}, []) == 2
        assert s.record(game, {"roll": [3, 1]}, [{"penalty": {"player": "Cy", "points": 1, "why": "x"}}]) == 3
        s.mark_announced(game, 2)
    with Store.open(tmp_path) as s:
        saved = s.unfinished()
        assert saved.id == game and saved.setup == SETUP
        assert saved.actions == [{"announce": 54}, {"reveal": True}, {"roll": [3, 1]}]
        assert saved.events[2] == [{"penalty": {"player": "Cy", "points": 1, "why": "x"}}]
        assert saved.announced == 2
        assert saved.pending == [(3, {"roll": [3, 1]}, saved.events[2])]


def test_a_recorded_action_is_committed_when_record_returns(tmp_path):
    with Store.open(tmp_path) as s:
        game = s.start_game(SETUP)
        s.record(game, {"announce": 31}, [])
        # another connection (as after a crash) sees it at once: nothing waits in a transaction
        other = sqlite3.connect(tmp_path / FILENAME)
        assert other.execute("SELECT action FROM actions").fetchall() == [('{"announce":31}',)]
        other.close()
        assert not s.db.in_transaction


def test_a_full_disk_is_told_as_full_and_the_store_keeps_what_it_had(tmp_path):
    # SQLite rolls a write back itself when the disk is full; the error told is that one, not the
    # "no transaction is active" of a second ROLLBACK. max_page_count makes the file full here.
    with Store.open(tmp_path) as s:
        game = s.start_game(SETUP)
        s.record(game, {"announce": 31}, [])
        (pages,) = s.db.execute("PRAGMA page_count").fetchone()
        s.db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(sqlite3.OperationalError, match="full"):
            for _ in range(100):
                s.record(game, {"announce": 32, "note": "x" * 3000}, [])
        assert not s.db.in_transaction
    with Store.open(tmp_path) as s:
        assert s.unfinished().actions[0] == {"announce": 31}


def test_announced_marks_never_go_backwards(store):
    game = store.start_game(SETUP)
    for n in range(3):
        store.record(game, {"announce": 31 + n}, [])
    store.mark_announced(game, 3)
    store.mark_announced(game, 1)
    assert store.unfinished().announced == 3 and store.unfinished().pending == []


def test_text_is_kept_exactly_including_non_ascii_names(store):
    setup = {"game": "biscuit", "players": ["Jānis", "Ēriks", "Ольга"], "rules": {}}
    game = store.start_game(setup)
    store.record(game, {"thumbs_last": "Ольга"}, [{"biscuit": "Ольга"}])
    assert store.unfinished().setup == setup
    assert store.unfinished().actions == [{"thumbs_last": "Ольга"}]


def test_an_action_that_is_not_json_is_refused_and_changes_nothing(store):
    game = store.start_game(SETUP)
    with pytest.raises((TypeError, ValueError)):
        store.record(game, {"roll": {1, 2}}, [])
    with pytest.raises(ValueError):
        store.record(game, {"announce": float("nan")}, [])
    assert store.unfinished().actions == []


def test_recording_into_an_ended_or_unknown_game_is_refused(store):
    game = store.start_game(SETUP)
    store.end_game(game, {"Ann": {"drinks": 0, "penalties": 6}}, ["Bo"])
    with pytest.raises(KeyError):
        store.record(game, {"announce": 31}, [])
    with pytest.raises(KeyError):
        store.record(999, {"announce": 31}, [])
    with pytest.raises(KeyError):
        store.end_game(999, {}, None)
    store.end_game(game, {"Ann": {"drinks": 9, "penalties": 9}}, None)  # ending twice changes nothing
    assert store.ended_games()[0].winner == ["Bo"] and store.evening()["Ann"]["penalties"] == 6


def test_taking_back_the_winning_action_reopens_the_game_in_the_same_commit(store):
    """A misread last roll decided the game: its undo makes the game unfinished again and takes its
    counts out of the evening, in one durable write."""
    game = store.start_game(SETUP)
    store.record(game, {"announce": 54}, [])
    store.end_game(game, {"Ann": {"drinks": 0, "penalties": 1}}, ["Bo"])
    assert store.record(game, {"undo": True}, [], reopen=True) == 2
    assert store.evening() == {} and store.ended_games() == []
    assert store.unfinished().id == game and not store.unfinished().ended


def test_a_game_that_ended_before_its_last_announcement_is_resumed_for_it(store):
    game = store.start_game(SETUP)
    store.record(game, {"announce": 31}, [])
    store.record(game, {"reveal": True}, [{"winner": ["Bo"]}])
    store.mark_announced(game, 1)
    store.end_game(game, {}, ["Bo"])  # the power goes here, before the winner is shown
    saved = store.unfinished()
    assert saved.id == game and saved.ended and saved.pending == [(2, {"reveal": True}, [{"winner": ["Bo"]}])]
    store.mark_announced(game, 2)
    assert store.unfinished() is None


def test_the_newest_unfinished_game_is_resumed(store):
    first = store.start_game(SETUP)
    store.end_game(first, {}, ["Ann"])
    second = store.start_game({**SETUP, "game": "yacht"})
    assert store.unfinished().id == second


def test_the_evening_sums_the_ended_games_and_a_new_evening_starts_at_zero(store):
    a = store.start_game(SETUP)
    store.end_game(a, {"Ann": {"drinks": 0, "penalties": 6}, "Bo": {"drinks": 0, "penalties": 2}}, ["Bo"])
    b = store.start_game({"game": "biscuit", "players": ["Ann", "Bo", "Di"], "rules": {}})
    store.end_game(b, {"Ann": {"drinks": 3, "penalties": 0}, "Di": {"drinks": 5, "penalties": 0}})
    assert store.evening() == {"Ann": {"drinks": 3, "penalties": 6}, "Bo": {"drinks": 0, "penalties": 2},
                               "Di": {"drinks": 5, "penalties": 0}}
    assert [g.winner for g in store.ended_games()] == [["Bo"], None]
    store.new_evening()
    assert store.evening() == {} and store.ended_games() == []



def test_the_evening_is_played_once_one_of_its_games_ended_and_not_after_a_new_evening(store):
    assert not store.evening_played()
    a = store.start_game(SETUP)
    assert not store.evening_played()
    store.end_game(a, {"Ann": {"drinks": 0, "penalties": 6}, "Bo": {"drinks": 0, "penalties": 2}}, ["Bo"])
    assert store.evening_played() and store.ended_games()
    store.new_evening()
    assert not store.evening_played()

# --- the kiosk's settings ---------------------------------------------------------------------------

def test_settings_are_kept_across_a_restart_and_a_new_value_replaces_the_old(tmp_path):
    with Store.open(tmp_path) as s:
        assert s.setting("language") is None
        s.save_settings({"language": "de", "language_config": "en"})
        s.save_settings({"language": "lv"})
    with Store.open(tmp_path) as s:
        assert s.notice is None
        assert (s.setting("language"), s.setting("language_config")) == ("lv", "en")


def test_a_setting_that_is_not_text_is_refused_and_nothing_is_saved(store):
    with pytest.raises(TypeError, match="text"):
        store.save_settings({"language": "ru", "volume": 3})
    assert store.setting("language") is None


def test_a_store_of_the_first_version_is_upgraded_in_place_with_its_games_kept(tmp_path, upgraded):
    make_good_store(tmp_path)
    with upgraded(tmp_path, 1, ("settings", "examples", "images")) as s:
        assert len(s.unfinished().actions) == 200
        s.save_settings({"language": "ru"})
    with Store.open(tmp_path) as s:
        assert s.notice is None and s.setting("language") == "ru" and len(s.unfinished().actions) == 200
    assert not list(tmp_path.glob(FILENAME + ".broken-*"))


# --- files that are not a usable store are moved aside, never a crash -----------------------------

def make_good_store(directory: Path) -> None:
    with Store.open(directory) as s:
        game = s.start_game(SETUP)
        for n in range(200):  # enough pages that damage in the middle hits table data
            s.record(game, {"announce": 31, "pad": "x" * 200, "n": n}, [])


def damage_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 4096):  # every page but the first: b-tree headers gone
        data[offset:offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def plain_text(path: Path) -> None:
    path.write_text("Shopping: limes, mint, soda\n")


def empty(path: Path) -> None:
    path.write_bytes(b"")


def foreign(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE songs (title TEXT)")
    db.commit()
    db.close()


def empty_sqlite(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 0")
    db.execute("VACUUM")
    db.close()


def newer_schema(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3 + 100])


@pytest.fixture
def bad_json_row(write_past_checks):
    """A function ``(path, seq=1)`` whose action ``seq`` of the store at ``path`` no longer parses."""
    return lambda path, seq=1: write_past_checks(path, "UPDATE actions SET action = '{\"announce\":' WHERE seq = ?",
                                                 (seq,))


def cut_to_its_first_byte(path: Path) -> None:
    """Its first byte only: SQLite takes so short a file for an empty database."""
    path.write_bytes(path.read_bytes()[:1])
    for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        side.unlink(missing_ok=True)


def orphan_wal(path: Path) -> None:
    path.unlink()
    path.with_name(path.name + "-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 60)


@pytest.mark.parametrize("spoil", [damage_pages, plain_text, empty, cut_to_its_first_byte, foreign, newer_schema,
                                   orphan_wal])
def test_an_unusable_file_is_moved_aside_and_play_starts_fresh(tmp_path, spoil):
    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    spoil(path)
    before = path.read_bytes() if path.exists() else None
    with Store.open(tmp_path) as s:
        assert s.notice and "play starts fresh" in s.notice and "sqlite" not in s.notice  # the file's name: journal
        assert s.moved_to.name.startswith(FILENAME + ".broken-")
        assert s.unfinished() is None
        if before is not None:
            assert s.moved_to.read_bytes() == before  # kept as it was, for a look later
        game = s.start_game(SETUP)  # and the fresh store works
        s.record(game, {"announce": 31}, [])
    with Store.open(tmp_path) as s:
        assert s.notice is None and s.unfinished().actions == [{"announce": 31}]


def test_a_damaged_action_cuts_its_games_log_there_and_the_rest_of_the_store_is_kept(tmp_path, bad_json_row):
    make_good_store(tmp_path)
    with Store.open(tmp_path) as s:
        s.save_settings({"language": "lv"})
    bad_json_row(tmp_path / FILENAME, seq=51)
    with Store.open(tmp_path) as s:
        assert s.moved_to.name.startswith(FILENAME + ".broken-")
        assert "What could still be read was kept" in s.notice and "play starts fresh" not in s.notice
        saved = s.unfinished()
        # The log up to the damaged action replays; past a hole it could replay to another game.
        assert saved.setup == SETUP and [a["n"] for a in saved.actions] == list(range(50))
        assert s.setting("language") == "lv"
        s.record(saved.id, {"announce": 32}, [])  # and it goes on
    with Store.open(tmp_path) as s:
        assert s.notice is None and len(s.unfinished().actions) == 51


def test_a_store_cut_to_a_third_keeps_the_game_rows_that_still_read_and_its_log_up_to_the_cut(tmp_path):
    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    truncated(path)
    before = path.read_bytes()
    with Store.open(tmp_path) as s:
        assert s.moved_to.read_bytes() == before  # kept as it was, for a look later
        assert "What could still be read was kept" in s.notice
        saved = s.unfinished()
        assert saved.setup == SETUP and [a["n"] for a in saved.actions] == list(range(len(saved.actions)))
        s.record(saved.id, {"announce": 32}, [])
    assert not list(tmp_path.glob(".salvage-*"))  # its working copy is gone


def test_a_store_cut_short_after_its_game_keeps_the_game_and_its_evening(tmp_path):
    """A file cut off past its game's pages (the tester's truncate): SQLite's check fails, but the
    game's rows still read: it is moved aside all the same, and what reads is kept."""
    import numpy as np

    with Store.open(tmp_path) as s:
        game = s.start_game(SETUP)
        for n in range(3):
            s.record(game, {"announce": 31 + n}, [])
        s.mark_announced(game, 2)
    size = (tmp_path / FILENAME).stat().st_size
    with Store.open(tmp_path) as s:  # a picture after it: pages at the file's end
        s.save_image("reference", np.full((200, 200, 3), 7, np.uint8))
    path = tmp_path / FILENAME
    path.write_bytes(path.read_bytes()[:size + 4096])
    with Store.open(tmp_path) as s:
        assert s.moved_to is not None and "What could still be read was kept" in s.notice
        saved = s.unfinished()
        assert saved.actions == [{"announce": 31}, {"announce": 32}, {"announce": 33}]
        assert saved.announced == 2 and s.image("reference") is None


def games_store(directory: Path, n: int = 60) -> None:
    """``n`` games of two actions each, their setups named G1, G2, ... (to find their pages)."""
    with Store.open(directory) as s:
        for g in range(1, n + 1):
            game = s.start_game({"game": "maexle", "players": [f"G{g}", "Bo"], "pad": "x" * 150})
            s.record(game, {"announce": 31}, [])
            s.record(game, {"announce": 32}, [])


def test_a_damaged_page_among_the_games_loses_only_the_games_on_it(tmp_path):
    # Once the scan stopped at the damaged page: every newer game, tonight's unfinished one too, lost.
    games_store(tmp_path)
    path = tmp_path / FILENAME
    data = bytearray(path.read_bytes())
    page = data.index(b'"G2"') // 4096 * 4096
    data[page:page + 4096] = bytes(4096)
    path.write_bytes(bytes(data))
    with Store.open(tmp_path) as s:
        assert "What could still be read was kept" in s.notice
        names = [json.loads(setup)["players"][0] for (setup,) in s.db.execute("SELECT setup FROM games ORDER BY id")]
        assert "G2" not in names and names[-1] == "G60" and len(names) > 40
        assert s.unfinished().setup["players"][0] == "G60" and len(s.unfinished().actions) == 2


class _DamagedAfter:
    """A damaged file as ``salvage._readable_rows`` sees it: its scan breaks after id 3; MAX(id) reads
    ``top`` (None: damaged too); every id's own look-up reads."""

    def __init__(self, top):
        self.top, self.looked_up = top, []
        self.answers = sqlite3.connect(":memory:")  # real cursors for its answers

    def execute(self, sql, params=()):
        if sql.startswith("SELECT MAX"):
            if self.top is None:
                raise sqlite3.DatabaseError("database disk image is malformed")
            return self.answers.execute("SELECT ?", (self.top,))
        if params:
            self.looked_up.append(params[0])
            return self.answers.execute("SELECT ?", (f"row {params[0]}",))
        return self._scan()

    def _scan(self):
        yield from ((k, f"row {k}") for k in (1, 2, 3))
        raise sqlite3.DatabaseError("database disk image is malformed")


def test_past_a_damaged_page_the_newest_ids_are_looked_up_and_a_damaged_max_costs_a_bounded_search(monkeypatch):
    from appliance import salvage

    monkeypatch.setattr(salvage, "_PROBES", 10)
    old = _DamagedAfter(top=1000)  # the unfinished game and the examples kept are the newest rows
    assert [r[0] for r in salvage._readable_rows(old, "games", "setup", "id")] == \
        ["row 1", "row 2", "row 3"] + [f"row {k}" for k in range(991, 1001)]
    old = _DamagedAfter(top=None)
    assert len(list(salvage._readable_rows(old, "games", "setup", "id"))) == 3 + 10
    assert old.looked_up == list(range(4, 14))


def test_a_file_that_lost_one_of_its_tables_is_salvaged_with_its_games(tmp_path, caplog):
    # A hand edit's DROP TABLE: the kiosk logged a traceback at every read of the taught dice.
    make_good_store(tmp_path)
    with Store.open(tmp_path) as s:
        s.db.execute("DROP TABLE examples")
    with caplog.at_level(logging.INFO):
        with Store.open(tmp_path) as s:
            assert s.moved_to is not None and s.salvaged and s.unfinished() is not None
            assert s.count_examples() == (0, 0, 0)
    assert "lacks its tables examples" in caplog.text


def test_a_header_that_claims_a_huge_file_is_salvaged_without_making_one(tmp_path):
    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    data = bytearray(path.read_bytes()[:len(path.read_bytes()) // 2])
    data[28:32] = (500_000).to_bytes(4, "big")  # 2 GB of pages, the header still vouching for it
    path.write_bytes(bytes(data))
    # Once padded in memory: a MemoryError on a Pi (here under a 1.5 GB limit), 2 GB written to the card.
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000,) * 2); "
            "from appliance.store import Store; s = Store.open(sys.argv[1]); "
            "assert s.moved_to is not None and s.unfinished() is not None, s.notice")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=Path(__file__).resolve().parents[3],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert not list(tmp_path.glob(".salvage-*")) and path.stat().st_size < 10_000_000


def test_a_plug_pulled_during_the_salvage_leaves_the_damaged_file_in_place_and_it_is_salvaged_again(
        tmp_path, bad_json_row):
    import subprocess
    import sys

    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    bad_json_row(path, seq=51)
    damaged = path.read_bytes()
    code = ("import os, sys; from appliance import salvage, store; "
            "salvage._salvage_from = lambda *a: os.kill(os.getpid(), 9); store.Store.open(sys.argv[1])")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=Path(__file__).resolve().parents[3])
    assert path.read_bytes() == damaged  # untouched: the next start tries again
    with Store.open(tmp_path) as s:
        assert "What could still be read was kept" in s.notice and len(s.unfinished().actions) == 50
    assert not list(tmp_path.glob(".salvage-*"))


def test_a_plug_pulled_between_moving_the_damaged_file_aside_and_putting_the_salvage_in_place_loses_nothing(
        tmp_path, bad_json_row):
    from appliance import salvage, store_file

    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    bad_json_row(path, seq=51)
    assert salvage.salvage(path, 0.0)
    store_file.move_file_aside(path, 0.0)  # and the plug is pulled
    with Store.open(tmp_path) as s:
        assert len(s.unfinished().actions) == 50
    assert not list(tmp_path.glob(".salvage-*"))


def test_a_game_row_the_check_refuses_is_left_out_of_the_salvage_not_moved_aside_at_every_start(tmp_path):
    games_store(tmp_path, 3)
    path = tmp_path / FILENAME
    db = sqlite3.connect(path)
    db.execute("""UPDATE games SET setup = '["maexle"]' WHERE id = 2""")
    db.commit()
    db.close()
    with Store.open(tmp_path) as s:
        assert "What could still be read was kept" in s.notice
        assert [g for (g,) in s.db.execute("SELECT id FROM games")] == [1, 3]
    with Store.open(tmp_path) as s:
        assert s.notice is None and s.moved_to is None


def test_a_disk_too_full_for_the_salvage_changes_nothing_and_says_so(tmp_path, bad_json_row, monkeypatch):
    from appliance import salvage

    make_good_store(tmp_path)
    path = tmp_path / FILENAME
    bad_json_row(path, seq=51)
    damaged = path.read_bytes()

    def full(*_args):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(salvage, "_salvage_from", full)
    with pytest.raises(StoreError, match="no room to keep what still reads of them"):
        Store.open(tmp_path)
    assert path.read_bytes() == damaged and not list(tmp_path.glob(FILENAME + ".broken-*"))
    assert not list(tmp_path.glob(".salvage-*"))


def test_a_store_whose_first_creation_was_cut_off_by_a_pulled_plug_is_made_without_a_notice(tmp_path):
    """The first boot dies between opening the new file and writing its tables: no game was ever
    saved, so there is nothing to report; the file (SQLite, no tables, no mark) is simply made."""
    import subprocess
    import sys

    code = ("import os, sys; from pathlib import Path; from appliance import store_file; "
            "store_file.connect(Path(sys.argv[1]) / store_file.FILENAME); os.kill(os.getpid(), 9)")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=Path(__file__).resolve().parents[3])
    assert (tmp_path / FILENAME).stat().st_size > 0
    with Store.open(tmp_path) as s:
        assert s.notice is None and s.moved_to is None
        s.record(s.start_game(SETUP), {"announce": 31}, [])
    assert not list(tmp_path.glob(FILENAME + ".broken-*"))
    empty_sqlite(tmp_path / FILENAME)  # the same, made by hand
    with Store.open(tmp_path) as s:
        assert s.notice is None and s.unfinished() is None


def test_a_folder_by_the_stores_name_is_moved_aside_and_said_as_a_folder(tmp_path):
    (tmp_path / FILENAME).mkdir()
    (tmp_path / FILENAME / "photo.jpg").write_bytes(b"kept")
    with Store.open(tmp_path) as s:
        assert "(it is a folder, not a file)" in s.notice and "play starts fresh" in s.notice
        assert (s.moved_to / "photo.jpg").read_bytes() == b"kept"
        s.record(s.start_game(SETUP), {"announce": 31}, [])


def test_moving_aside_twice_in_one_second_keeps_both_files(tmp_path):
    for _ in range(2):
        plain_text(tmp_path / FILENAME)
        Store.open(tmp_path, clock=lambda: 1_700_000_000.0).close()
    assert len(list(tmp_path.glob(FILENAME + ".broken-*"))) == 2


def test_an_unwritable_state_directory_raises_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot be created"):
        Store.open(blocker / "state")


def test_a_state_directory_that_is_a_file_is_said_so(tmp_path):
    photo = tmp_path / "real.jpg"
    photo.write_bytes(b"\xff\xd8")
    with pytest.raises(StoreError, match=f"state directory {photo} is a file, not a folder"):
        Store.open(photo)
    assert photo.read_bytes() == b"\xff\xd8"


# -- the saved games as a game log, for dicetable replay -------------------------------------------

def _two_games(tmp_path) -> Path:
    with Store.open(tmp_path) as s:
        first = s.start_game(SETUP)
        s.record(first, {"announce": 54}, [])
        s.end_game(first, {})
        second = s.start_game({"game": "maexle", "players": ["Di", "Ed"]})
        s.record(second, {"announce": 31}, [])
        s.record(second, {"announce": 21}, [])
    return tmp_path


def test_a_saved_game_reads_back_as_its_game_log_without_changing_the_file(tmp_path):
    from appliance.store import read_log

    state = _two_games(tmp_path)
    before = (state / FILENAME).read_bytes()
    game_id, lines = read_log(state)  # the latest game, from the state directory
    assert game_id == 2 and [json.loads(x) for x in lines] == [
        {"game": "maexle", "players": ["Di", "Ed"]}, {"announce": 31}, {"announce": 21}]
    assert read_log(state / FILENAME, 1)[1][1:] == ['{"announce":54}']
    assert (state / FILENAME).read_bytes() == before


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "nothing", "nothing does not exist (a mistyped path?"),
    (lambda d: d, "no saved games there"),
    (lambda d: _sqlite(d / "other.db"), "not a Dice Table store"),
    (lambda d: _two_games(d), "no game 7 (games 1-2)"),
])
def test_saved_games_that_cannot_be_read_are_refused_with_the_reason(tmp_path, make, message):
    from appliance.store import read_log

    with pytest.raises(StoreError) as exc:
        read_log(make(tmp_path), 7)
    assert message in exc.value.strerror


def _sqlite(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    return path


def test_replay_takes_the_saved_games_and_a_game_id(tmp_path, capsys):
    from appliance.cli import main

    state = _two_games(tmp_path)
    assert main(["replay", str(state)]) == 0
    out = capsys.readouterr().out
    assert "Di, Ed" in out and "Ed announces Mäxle" in out
    assert main(["replay", str(state / FILENAME), "--game", "1", "--json"]) == 0
    assert '"Ann"' in capsys.readouterr().out
    assert main(["replay", str(state), "--game", "9"]) == 1
    assert "no game 9" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nowhere"), "--game", "1"]) == 2  # a mistyped path, not a log
    assert f"{tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("damage", [b"", bytes(range(256)) * 80])
def test_replay_of_a_damaged_store_file_says_the_store_cannot_be_read_as_for_its_directory(tmp_path, capsys, damage):
    from appliance.cli import main

    (tmp_path / FILENAME).write_bytes(damage)
    for given in (tmp_path, tmp_path / FILENAME):
        assert main(["replay", str(given)]) == 1
        err = capsys.readouterr().err
        assert "setup" not in err and ("not a Dice Table store" in err or "cannot be read" in err), err


def test_the_state_directory_is_free_again_once_its_kiosk_is_gone_even_killed(tmp_path):
    state = tmp_path / "state"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from appliance.store import claim; "
                               f"h = claim({str(state)!r}); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        try:
            claim(state)
            raise AssertionError("claimed twice")
        except StateBusy as exc:
            assert exc.pid == str(holder.pid)
    finally:
        holder.kill()  # a pulled plug: no clean release
        holder.wait()
    claim(state).close()


def test_processes_opening_a_new_store_at_the_same_moment_all_get_it_whole(tmp_path):
    """A teach beside the kiosk's first start (or two teaches): the file one has just made is empty,
    or without its tables, until its first commit; the others wait for it instead of taking it for
    a damaged file or making its tables a second time."""
    import time

    code = ("import sys, time; from appliance.store import Store; start = float(sys.argv[2])\n"
            "while time.time() < start: pass\n"
            "Store.open(sys.argv[1], move_aside=False).close()")
    root = Path(__file__).resolve().parents[3]
    for round_ in range(3):
        state = tmp_path / f"state{round_}"
        start = str(time.time() + 1.0)  # after the interpreters have started and imported
        runs = [subprocess.Popen([sys.executable, "-c", code, str(state), start], cwd=root,
                                 stderr=subprocess.PIPE, text=True) for _ in range(4)]
        errors = [run.communicate()[1] for run in runs]
        assert [run.returncode for run in runs] == [0] * 4, errors
        with Store.open(state) as s:
            assert s.notice is None and s.unfinished() is None
        assert sorted(p.name for p in state.iterdir() if "broken" in p.name) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes files another user must open")
def test_the_lock_root_takes_in_the_services_directory_belongs_to_the_directorys_owner(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    os.chown(state, 4321, 4321)  # the service's user
    held = claim(state)
    held.close()
    assert (state / "kiosk.lock").stat().st_uid == 4321 and (state / "kiosk.lock").stat().st_gid == 4321


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes files another user must open")
def test_the_store_root_makes_in_the_services_directory_belongs_to_the_directorys_owner(tmp_path):
    """``sudo dicetable teach`` before the kiosk's first start: the kiosk, as the service's user,
    must be able to write the store it finds."""
    state = tmp_path / "state"
    state.mkdir()
    os.chown(state, 4321, 4321)  # the service's user
    with Store.open(state):
        made = [p for p in state.iterdir() if p.name.startswith("dicetable.sqlite3")]
        assert made and all((p.stat().st_uid, p.stat().st_gid) == (4321, 4321) for p in made)


def test_a_writable_state_directory_whose_lock_cannot_be_opened_is_not_claimed_as_unwritable(tmp_path):
    state = tmp_path / "state"
    (state / "kiosk.lock").mkdir(parents=True)
    with pytest.raises(StoreError, match="kiosk.lock cannot be opened"):
        claim(state)


def test_a_full_disk_leaves_the_state_directory_held_with_its_holder_unknown(tmp_path, monkeypatch):
    """The pid cannot be written (ENOSPC): the lock still guards the directory, and nothing raises,
    now or when it is let go (a kiosk started on a full SD card plays without saving)."""
    import errno as errno_

    import appliance.store as store

    def full(*_args):
        raise OSError(errno_.ENOSPC, "No space left on device")

    state = tmp_path / "state"
    monkeypatch.setattr(store.os, "pwrite", full)
    held = claim(state)
    try:
        with pytest.raises(StateBusy) as busy:
            claim(state)
        assert busy.value.pid == ""
    finally:
        held.close()
    claim(state).close()
