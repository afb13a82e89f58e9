"""A store the kiosk cannot write (a saved-games file of another owner or made immutable, a state
directory on a read-only or full SD card): refused at open with the place named and nothing changed; and
opened read-only for what it keeps (the taught dice, the summary, a replay), also on a read-only
mount, without creating, moving or upgrading anything."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from appliance.store import FILENAME, Store, StoreError, read_evening, read_log
from appliance.store_file import SCHEMA_VERSION

SETUP = {"game": "maexle", "players": ["Ann", "Bo"], "rules": {}}


def _kept(state: Path) -> Path:
    """A store with an ended game, a setting and an unfinished game, closed (no -wal, no -shm)."""
    with Store.open(state) as s:
        game = s.start_game(SETUP)
        s.record(game, {"announce": 54}, [])
        s.end_game(game, {"Ann": {"drinks": 1, "penalties": 0}})
        s.save_settings({"language": "lv"})
        s.start_game(SETUP)
    return state


def _files(state: Path) -> dict[str, str]:
    return {p.name: hashlib.sha1(p.read_bytes()).hexdigest() for p in sorted(state.iterdir())}


def test_a_saved_games_file_that_cannot_be_written_is_refused_at_open_and_left_as_it_is(tmp_path, read_only):
    state = _kept(tmp_path / "state")
    before = _files(state)
    read_only(state / FILENAME)
    with pytest.raises(StoreError) as exc:
        Store.open(state)
    assert f"the saved games {state / FILENAME} cannot be written by this user" == exc.value.strerror
    assert _files(state) == before  # not moved aside, no -wal or -shm beside it


def test_a_read_only_state_directory_is_refused_at_open_in_words_without_an_errno(tmp_path, read_only):
    state = _kept(tmp_path / "state")
    read_only(state / FILENAME, state)
    with pytest.raises(StoreError) as exc:
        Store.open(state)
    assert "[Errno" not in exc.value.strerror and str(state) in exc.value.strerror


def test_a_full_disk_is_said_as_full_at_open_and_the_sound_file_is_not_set_aside(tmp_path, monkeypatch):
    # SQLite without room for its -shm said "disk I/O error", and the file was taken for a damaged one.
    import shutil
    from types import SimpleNamespace

    state = _kept(tmp_path / "state")
    before = _files(state)
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: SimpleNamespace(total=4096000, used=4014080, free=81920))
    with pytest.raises(StoreError) as exc:
        Store.open(state)
    assert exc.value.strerror.startswith(f"the disk holding {state} is full (under 1024 KB free)")
    assert _files(state) == before
    with Store.open_read_only(state) as s:  # what the kiosk then plays on, unsaved
        assert s.setting("language") == "lv" and s.unfinished() is not None
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: SimpleNamespace(total=4096000, used=2867200, free=1228800))
    Store.open(state).close()  # room made: saved again


def test_a_store_on_a_read_only_mount_opens_read_only_and_nothing_is_created(tmp_path, read_only):
    state = _kept(tmp_path / "state")
    before = _files(state)
    read_only(state / FILENAME, state)
    with Store.open_read_only(state) as s:
        assert s.read_only and s.setting("language") == "lv" and s.count_examples() == (0, 0, 0)
        with pytest.raises(sqlite3.Error):
            s.save_settings({"language": "de"})
    assert read_evening(state)[0][3] == {"Ann": {"drinks": 1, "penalties": 0}}
    assert read_log(state, 1)[1][1:] == ['{"announce":54}']
    assert _files(state) == before


def test_summary_and_replay_read_the_saved_games_on_a_read_only_mount(tmp_path, read_only, capsys):
    from appliance.cli import main

    state = _kept(tmp_path / "state")
    read_only(state / FILENAME, state)
    assert main(["summary", "--state", str(state)]) == 0
    assert "Ann: 1 drink" in capsys.readouterr().out
    assert main(["replay", str(state), "--game", "1"]) == 0
    assert "Ann announces 54" in capsys.readouterr().out


def test_a_store_being_written_is_read_with_its_latest_actions(tmp_path):
    """Read-only is not "as the file lies": an action in the -wal of a kiosk that runs is seen."""
    with Store.open(tmp_path) as s:
        game = s.start_game(SETUP)
        s.record(game, {"announce": 54}, [])
        assert (tmp_path / (FILENAME + "-wal")).stat().st_size > 0
        assert read_log(tmp_path)[1][1:] == ['{"announce":54}']
        with Store.open_read_only(tmp_path) as other:
            assert other.unfinished().actions == [{"announce": 54}]


@pytest.mark.parametrize("spoil, said", [
    (lambda db: db.execute("PRAGMA user_version = 99"), "saved by a newer version (schema 99"),
    (lambda db: db.execute("PRAGMA user_version = 3"), "saved by an older version (schema 3"),
    (lambda db: db.execute("PRAGMA application_id = 7"), "not a Dice Table store"),
])
def test_opening_read_only_refuses_another_schema_or_a_foreign_file_and_changes_nothing(tmp_path, spoil, said):
    state = _kept(tmp_path / "state")
    db = sqlite3.connect(state / FILENAME)
    spoil(db)
    db.commit()
    db.close()
    before = _files(state)
    with pytest.raises(StoreError) as exc:
        Store.open_read_only(state)
    assert said in exc.value.strerror
    assert _files(state) == before


def test_opening_read_only_refuses_a_damaged_or_missing_file_and_creates_nothing(tmp_path):
    with pytest.raises(StoreError, match="nowhere does not exist"):
        Store.open_read_only(tmp_path / "nowhere")
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(StoreError, match="no saved games there"):  # a directory without the store
        Store.open_read_only(tmp_path)
    (tmp_path / FILENAME).write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="no database at all"):
        Store.open_read_only(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILENAME]


def test_the_schema_version_read_only_is_this_one(tmp_path):
    with Store.open_read_only(_kept(tmp_path)) as s:
        assert s.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


@pytest.mark.parametrize("read", [read_log, read_evening], ids=["replay", "summary"])
def test_replay_and_summary_say_a_newer_versions_store_is_one_not_that_it_holds_no_games(tmp_path, read):
    state = _kept(tmp_path / "state")
    db = sqlite3.connect(state / FILENAME)
    db.execute("PRAGMA user_version = 999")
    db.commit()
    db.close()
    before = _files(state)
    with pytest.raises(StoreError) as exc:
        read(state)
    assert "saved by a newer version (schema 999, this one reads" in exc.value.strerror
    assert _files(state) == before
