"""dicetable selftest: one line per part, exit 1 when any part fails, never a traceback."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from appliance.cli import main
from appliance.store import FILENAME, Store


@pytest.fixture
def conf(tmp_path):
    """A config for this machine: synthetic camera, dummy screen, a temporary state directory."""
    state = tmp_path / "state"
    state.mkdir()

    def write(extra: str = "", camera: str = '"synthetic"', driver: str = "dummy"):
        path = tmp_path / "config.toml"
        path.write_text(f'state_dir = "{state}"\n{extra}\n[camera]\nsource = {camera}\nsize = [320, 240]\n'
                        f'[display]\ndriver = "{driver}"\n')
        return path

    write.state = state
    return write


def selftest(capsys, *args) -> tuple[int, dict[str, tuple[str, str]]]:
    code = main(["selftest", *args])
    lines = capsys.readouterr().out.splitlines()
    parts = {}
    for line in lines:
        status, name, detail = line.split(None, 2)
        parts[name] = (status, detail)
    assert len(parts) == len(lines)
    return code, parts


def test_every_part_passes_on_a_working_setup(conf, capsys):
    code, parts = selftest(capsys, "--config", str(conf()))
    assert code == 0
    assert list(parts) == ["config", "camera", "display", "gpio", "state", "fonts"]
    assert all(status == "ok" for status, _ in parts.values()), parts
    assert "320x240 frame" in parts["camera"][1]
    assert "dummy" in parts["display"][1]
    assert "REVEAL GPIO 17" in parts["gpio"][1]
    assert "no saved games yet" in parts["state"][1]


def test_a_bad_config_fails_naming_the_key_and_the_rest_still_run(conf, capsys):
    path = conf()
    path.write_text(path.read_text() + "[gpio]\nreveal_pin = 99\n")
    code, parts = selftest(capsys, "--config", str(path), "--only", "config,state,fonts")
    assert code == 1
    assert parts["config"][0] == "FAIL" and "gpio.reveal_pin" in parts["config"][1]
    # The state check still runs, on the default state directory (whatever this machine holds there).
    assert parts["fonts"][0] == "ok" and parts["state"][0] in ("ok", "warn", "FAIL")


def test_a_drink_word_the_screens_font_cannot_draw_is_a_warning_naming_it(conf, capsys):
    # A beer emoji passed every check and showed as a box on every banner.
    code, parts = selftest(capsys, "--config", str(conf('drink_word = "\U0001F37A"')), "--only", "config,fonts")
    assert code == 0 and parts["config"][0] == "ok"
    assert parts["fonts"][0] == "warn" and "no glyph for \U0001F37A in drink_word" in parts["fonts"][1]
    code, parts = selftest(capsys, "--config", str(conf('drink_word = "Schluck"')), "--only", "fonts")
    assert parts["fonts"][0] == "ok"


def test_a_camera_without_frames_fails(conf, capsys, tmp_path):
    empty = tmp_path / "no-frames"
    empty.mkdir()
    code, parts = selftest(capsys, "--config", str(conf(camera=f'"{empty}"')), "--only", "camera")
    assert code == 1 and parts["camera"][0] == "FAIL" and "no images" in parts["camera"][1]


def test_a_display_driver_that_cannot_start_fails(conf, capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after the check sets it
    code, parts = selftest(capsys, "--config", str(conf(driver="x11")), "--only", "display")
    assert code == 1 and parts["display"][0] == "FAIL" and "x11" in parts["display"][1]


def test_a_button_held_down_or_shorted_fails(conf, capsys, mock_pins):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPin

    class ShortedToGround(MockPin):
        def _set_pull(self, value):
            super()._set_pull(value)
            self._change_state(False)  # low whatever the pull-up says

    mock_pins.close()
    Device.pin_factory = MockFactory(pin_class=ShortedToGround)
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "gpio")
    assert code == 1 and "held down now: REVEAL (GPIO 17)" in parts["gpio"][1]


def test_extra_buttons_and_the_led_are_claimed(conf, capsys):
    path = conf('[gpio]\nreveal_led_pin = 18\nbuttons = { undo = 27 }')
    code, parts = selftest(capsys, "--config", str(path), "--only", "gpio")
    assert code == 0 and "undo GPIO 27" in parts["gpio"][1]


def test_no_gpio_at_all_fails_with_a_hint(conf, capsys, monkeypatch):
    from gpiozero import Device

    Device.pin_factory.close()
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "gpio")
    assert code == 1 and parts["gpio"][0] == "FAIL"
    from gpiozero.pins.mock import MockFactory

    Device.pin_factory = MockFactory()  # for the fixture's teardown


def test_a_missing_state_directory_passes_where_the_kiosk_makes_it_and_fails_where_it_would_not(conf, capsys):
    path = conf()
    path.write_text(path.read_text().replace(str(conf.state), str(conf.state / "gone")))
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 0 and "does not exist yet: the kiosk makes it" in parts["state"][1]
    assert not (conf.state / "gone").exists()
    path = conf()  # one level at most, as systemd's StateDirectory=: a typo's path of folders is not made
    path.write_text(path.read_text().replace(str(conf.state), str(conf.state / "gone" / "deeper")))
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 1 and "does not exist" in parts["state"][1]


def test_a_state_directory_that_is_a_file_is_said_to_be_one(conf, capsys):
    path = conf()
    (conf.state / "file").write_text("")
    path.write_text(path.read_text().replace(str(conf.state), str(conf.state / "file")))
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 1 and "is a file, not a folder" in parts["state"][1]


def test_a_lock_the_kiosk_cannot_open_fails_as_a_table_that_plays_unsaved(conf, capsys):
    (conf.state / "kiosk.lock").mkdir()
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 1 and parts["state"][0] == "FAIL" and "kiosk plays without saving" in parts["state"][1]


def test_saved_games_are_counted_and_a_damaged_file_is_reported_not_touched(conf, capsys):
    path = conf()
    with Store.open(conf.state) as store:
        store.start_game({"game": "yacht", "players": ["Ann"], "rules": {}})
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 0 and parts["state"][1].endswith(", 1 saved game")
    (conf.state / FILENAME).write_text("not a database")
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 0 and parts["state"][0] == "warn" and "move it aside" in parts["state"][1]
    assert (conf.state / FILENAME).read_text() == "not a database"
    assert sorted(p.name for p in conf.state.iterdir()) == [FILENAME]  # nothing left behind


def test_saved_games_of_a_kiosk_stopped_uncleanly_are_read_with_their_journal_not_called_foreign(conf, capsys):
    # A power cut: the store's latest commits (here all of it, its tables too) are still in its -wal.
    code = ("import os, sys; from appliance.store import Store; s = Store.open(sys.argv[1]); "
            "s.start_game({'game': 'yacht', 'players': ['Ann'], 'rules': {}}); os._exit(0)")
    subprocess.run([sys.executable, "-c", code, str(conf.state)], check=True, cwd=Path(__file__).resolve().parents[3])
    assert (conf.state / (FILENAME + "-wal")).stat().st_size > 0
    before = sorted(p.name for p in conf.state.iterdir())
    status, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert status == 0 and parts["state"][0] == "ok" and parts["state"][1].endswith(", 1 saved game"), parts
    assert sorted(p.name for p in conf.state.iterdir()) == before


def test_unknown_check_names_are_refused(conf, capsys):
    assert main(["selftest", "--config", str(conf()), "--only", "camera,coffee"]) == 2
    assert "coffee" in capsys.readouterr().err


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "inf"])
def test_a_camera_timeout_that_is_not_positive_is_refused_before_any_check(conf, capsys, timeout):
    with pytest.raises(SystemExit) as exc:
        main(["selftest", "--config", str(conf()), "--only", "camera", "--camera-timeout", timeout])
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert "--camera-timeout: must be positive and finite" in captured.err and captured.out == ""


def test_the_help_names_the_two_commands_to_run_apart(capsys):
    """argparse joins a description's lines: a command block would run into one line of shell."""
    from appliance.cli import main

    with pytest.raises(SystemExit):
        main(["selftest", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "dicetable sudo" not in text and "`sudo systemctl stop dicetable`, then `sudo -u dicetable" in text
    with pytest.raises(SystemExit):
        main(["kiosk", "--help"])
    assert "``" not in capsys.readouterr().out


def test_a_pi_camera_without_picamera2_installed_fails_at_once(conf, capsys, monkeypatch):
    import importlib.util
    import time

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "picamera2" else real(name, *a))
    started = time.monotonic()
    code, parts = selftest(capsys, "--config", str(conf(camera='"picamera"')), "--only", "camera")
    assert time.monotonic() - started < 2.0  # not the full --camera-timeout of 8 s
    assert code == 1 and parts["camera"][0] == "FAIL" and "picamera2 is not installed" in parts["camera"][1]


def test_an_unreadable_saved_games_file_is_a_warning_not_ok(conf, capsys):
    (conf.state / FILENAME).write_text("not a database")
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 0 and parts["state"][0] == "warn" and "move it aside and start fresh" in parts["state"][1]


def test_a_folder_by_the_stores_name_is_said_as_a_folder_as_the_other_commands_say_it(conf, capsys):
    (conf.state / FILENAME).mkdir()
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 0 and parts["state"][0] == "warn"
    assert f"{FILENAME} is a folder, not the store's file: the kiosk will move it aside" in parts["state"][1]


def test_a_store_that_is_a_link_to_nothing_fails_as_the_kiosk_would_play_unsaved(conf, capsys):
    (conf.state / FILENAME).symlink_to(conf.state / "gone" / "games.db")
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 1 and parts["state"][0] == "FAIL" and "a link to" in parts["state"][1]
    assert "which does not exist: the kiosk plays without saving" in parts["state"][1]


def test_an_empty_store_file_is_said_as_empty_as_the_kiosk_says_it(conf, capsys):
    (conf.state / FILENAME).write_bytes(b"")
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 0 and parts["state"][0] == "warn" and f"{FILENAME} is empty" in parts["state"][1]


def test_a_damaged_store_of_ours_is_said_to_keep_what_still_reads(conf, capsys):
    with Store.open(conf.state) as store:
        game = store.start_game({"game": "yacht", "players": ["Ann"], "rules": {}})
        for n in range(200):
            store.record(game, {"pad": "x" * 200, "n": n}, [])
    path = conf.state / FILENAME
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    code, parts = selftest(capsys, "--config", str(conf()), "--only", "state")
    assert code == 0 and parts["state"][0] == "warn" and "keep whatever of it still reads" in parts["state"][1]


def test_a_saved_games_file_this_user_cannot_write_fails_naming_the_file(conf, capsys, read_only):
    """The directory is writable, the file is not (root's copy of a backup, chattr +i): the kiosk would
    play without saving, so the check fails on the file, not only on the directory."""
    path = conf()
    Store.open(conf.state).close()
    read_only(conf.state / FILENAME)
    code, parts = selftest(capsys, "--config", str(path), "--only", "state")
    assert code == 1 and parts["state"][0] == "FAIL"
    assert f"{FILENAME} cannot be written by this user" in parts["state"][1]
    assert "plays without saving" in parts["state"][1]
    assert sorted(p.name for p in conf.state.iterdir()) == [FILENAME]
