"""dicetable kiosk as the service runs it: config in, a window, the saved games, a clean stop on
SIGTERM; a bad config file is one clear message and the status the unit does not restart on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from appliance.cli import main
from appliance.store import Store


def test_a_bad_config_is_one_message_and_exit_78(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[camera]\nfps = 1000\n")
    assert main(["kiosk", "--config", str(bad)]) == 78
    err = capsys.readouterr().err
    assert "camera.fps" in err and "Traceback" not in err


def _kiosk_until(tmp_path, camera: str, ready, settle_s: float = 2.0, stop=signal.SIGTERM,
                 env_extra: dict | None = None, ignored=()) -> tuple[int, str]:
    """Run ``dicetable kiosk`` as the service does (own process, dummy SDL, mock GPIO, ``env_extra``)
    with its state in ``tmp_path/state`` and the camera ``camera``; once ``ready()`` and the loop has
    run a moment, send it each of ``ignored`` (it must still run a second later), then ``stop``.
    Returns its exit status and output."""
    state = tmp_path / "state"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'state_dir = "{state}"\n[camera]\nsource = "{camera}"\nfps = 10\n'
                   '[display]\nsize = [800, 480]\nfullscreen = false\ndriver = "dummy"\n[sound]\nvoice = false\n')
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock",
               **(env_extra or {}))
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "kiosk", "--config", str(cfg)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(settle_s)  # the loop is running, or (settle_s 0) still starting up
        assert proc.poll() is None, proc.stdout.read()
        for signum in ignored:
            proc.send_signal(signum)
            time.sleep(1.0)
            assert proc.poll() is None, proc.stdout.read()
        proc.send_signal(stop)
        out, _err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out


def test_the_kiosk_starts_saves_and_stops_cleanly_on_sigterm(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    import cv2
    import numpy as np

    cv2.imwrite(str(folder / "empty.png"), np.full((240, 320, 3), 60, np.uint8))
    state = tmp_path / "state"
    status, out = _kiosk_until(tmp_path, str(folder), lambda: (state / "dicetable.sqlite3").exists())
    assert status == 0 and "Traceback" not in out, out
    with Store.open(state) as store:
        assert store.notice is None


def test_a_damaged_saved_games_file_is_moved_aside_and_the_journal_says_where(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "dicetable.sqlite3").write_bytes(b"this is not an SQLite file" * 40)
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: bool(list(state.glob("dicetable.sqlite3.broken-*"))))
    [moved] = state.glob("dicetable.sqlite3.broken-*")
    assert status == 0 and "Traceback" not in out, out
    assert f"the saved games could not be read: moved to {moved}" in out
    assert moved.read_bytes().startswith(b"this is not an SQLite file")


def test_a_state_dir_whose_folder_does_not_exist_is_a_config_error_and_nothing_is_made(tmp_path, capsys):
    # Once made with all its folders: a typo looked like every game and taught die lost.
    cfg = tmp_path / "config.toml"
    state = tmp_path / "nonexist" / "deeper"
    cfg.write_text(f'state_dir = "{state}"\n[camera]\nsource = "synthetic"\n[display]\ndriver = "dummy"\n')
    assert main(["kiosk", "--config", str(cfg)]) == 78
    err = capsys.readouterr().err
    assert f"its folder {state.parent} does not exist (a mistyped path?" in err and "Traceback" not in err
    assert not (tmp_path / "nonexist").exists()


def test_a_state_dir_under_a_file_naming_a_file_or_linked_to_nothing_is_a_config_error_said_as_it_is(tmp_path, capsys):
    # Naming a file (the config file itself, say), the kiosk played without saving all evening.
    (tmp_path / "afile").write_text("")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    for state, said in ((tmp_path / "afile" / "x", f"{tmp_path / 'afile'} is a file, not a folder"),
                        (tmp_path / "afile", f"state_dir {tmp_path / 'afile'} is a file, not a folder (the folder"),
                        (tmp_path / "dangling", f"is a link to {tmp_path / 'gone'}, which does not exist")):
        cfg = tmp_path / "config.toml"
        cfg.write_text(f'state_dir = "{state}"\n[camera]\nsource = "synthetic"\n[display]\ndriver = "dummy"\n')
        assert main(["kiosk", "--config", str(cfg)]) == 78
        assert said in capsys.readouterr().err
    assert not (tmp_path / "gone").exists()


def test_a_missing_state_dir_in_an_existing_folder_is_made_and_the_journal_says_so(tmp_path):
    state = tmp_path / "state"
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: (state / "dicetable.sqlite3").exists(), settle_s=0.5)
    assert status == 0 and f"state_dir {state} does not exist: the kiosk makes it" in out, out


def test_a_windowed_kiosk_lets_sdl_choose_the_desks_driver_instead_of_the_consoles_kmsdrm():
    from appliance.commands.kiosk import video_driver

    assert video_driver("kmsdrm", windowed=True) is None  # the default config on a desk
    assert video_driver("kmsdrm", windowed=False) == "kmsdrm"  # the boot service
    assert video_driver("x11", windowed=True) == "x11" and video_driver("dummy", windowed=True) == "dummy"
    assert video_driver("auto", windowed=False) is None


def test_ctrl_c_stops_a_kiosk_started_by_hand_as_sigterm_does(tmp_path):
    # A KeyboardInterrupt left the camera thread in native code: the process aborted (status 134).
    state = tmp_path / "state"
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: (state / "dicetable.sqlite3").exists(),
                               stop=signal.SIGINT)
    assert status == 0 and "Traceback" not in out and "terminate called" not in out, out


def test_ctrl_c_on_the_boot_services_terminal_does_not_stop_the_table(tmp_path):
    # The service runs on tty1: a Ctrl+C typed there (before SDL mutes the console) was a clean stop,
    # exit 0, which Restart=on-failure does not restart.
    import socket

    state = tmp_path / "state"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # systemd's end of sd_notify
    notify.bind(str(tmp_path / "notify"))
    try:
        status, out = _kiosk_until(tmp_path, "synthetic", lambda: (state / "dicetable.sqlite3").exists(),
                                   env_extra={"NOTIFY_SOCKET": str(tmp_path / "notify")}, ignored=[signal.SIGINT])
    finally:
        notify.close()
    assert status == 0 and "Ctrl+C ignored: the boot service is stopped with systemctl stop dicetable" in out, out


def test_a_sigterm_while_the_kiosk_starts_up_stops_it_cleanly(tmp_path):
    """systemctl stop on a slow start: the signal is handled from the moment the store is open."""
    state = tmp_path / "state"
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: (state / "dicetable.sqlite3").exists(), settle_s=0.0)
    assert status == 0 and "Traceback" not in out, out


def _appliance(tmp_path, tray: str = '"full"', extra: str = "", camera: str = "synthetic"):
    """The boot service's parts on the trial table (no window): the store, the app, the camera, the
    resumed state (``extra``: more config lines at the top). Returns (appliance, app, pipeline,
    worker); stop the worker."""
    from appliance import config
    from appliance.commands.kiosk import Appliance
    from appliance.inputs import CommandQueue
    from appliance.service import Service

    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(f'{extra}\nstate_dir = "{tmp_path / "state"}"\n[camera]\nsource = "{camera}"\nfps = 10\n'
                        f'[tray]\narea = {tray}\n[sound]\nvoice = false\n')
    appliance = Appliance(config.load(cfg_path), Service(env={}))
    store = appliance._store()
    app = appliance._app(store, None, None)
    pipeline, worker = appliance._camera(CommandQueue(), app)
    appliance._resume(app, pipeline)
    return appliance, app, pipeline, worker


def test_the_first_start_opens_the_guided_setup_and_the_next_start_reads_with_what_it_kept(tmp_path):
    appliance, app, pipeline, worker = _appliance(tmp_path)
    try:
        assert app.screen == "guided" and app.camera is pipeline
        assert pipeline.detector.tray == pipeline.source.tray_area  # the trial table's own, before the setup
        from vision.tray import Found

        app.guided.found = Found((90, 50, 460, 380))  # as the players confirm it
        app.choose("confirm")
        app.choose("later")
    finally:
        worker.stop()
        app.store.close()
    appliance, app, pipeline, worker = _appliance(tmp_path)
    try:
        assert app.screen == "setup"  # done: not again at every start
        assert pipeline.detector.tray == (90, 50, 460, 380) and app.guided.tray_area == (90, 50, 460, 380)
    finally:
        worker.stop()
        app.store.close()
    appliance, app, pipeline, worker = _appliance(tmp_path, tray="[20, 20, 600, 440]")  # the config edited since
    try:
        assert pipeline.detector.tray == (20, 20, 600, 440)
    finally:
        worker.stop()
        app.store.close()


def _interrupted_maexle(state) -> None:
    """A Mäxle game whose last two announcements the power cut off, and the table's choices kept: the
    language chosen on the kiosk (Latvian; the config says German) and the tray the guided setup found."""
    from appliance import guided
    from appliance.kiosk.app import LANGUAGE_CONFIG_KEY, LANGUAGE_KEY
    from appliance.session import Session

    with Store.open(state) as store:
        session = Session.start({"game": "maexle", "players": ["Ann", "Bo"], "rules": {}}, store=store)
        session.act({"announce": 54})
        session.announced(1)
        session.act({"reveal": True})
        session.act({"roll": [6, 3]})  # recorded, its announcements never shown
        store.save_settings({LANGUAGE_KEY: "lv", LANGUAGE_CONFIG_KEY: "de",
                             guided.TRAY: guided.tray_text(TRAY, guided.tray_stamp(None, (1280, 720), "synthetic"))})


TRAY = (90, 50, 460, 380)


def _stopped(worker, appliance) -> None:
    worker.stop()
    if appliance.kept is not None:
        appliance.kept.close()


def test_a_saved_games_file_the_kiosk_cannot_write_lets_the_table_play_on_unsaved_in_its_language(
        tmp_path, read_only, caplog):
    from appliance import i18n
    from appliance.kiosk.words import games_not_saved

    state = tmp_path / "state"
    _interrupted_maexle(state)
    before = (state / "dicetable.sqlite3").read_bytes()
    read_only(state / "dicetable.sqlite3")
    try:
        appliance, app, pipeline, worker = _appliance(tmp_path, extra='language = "de"')
        try:
            assert app.store is None and app.cannot_save and i18n.language() == "lv"  # the kept choice
            # The interrupted game goes on, its cut-off announcements shown, unsaved.
            assert app.session.kind == "maexle" and app.screen == "play" and app.session.store is None
            assert app.banner is not None and len(app.session.history) == 3
            assert app.act({"announce": 31}) and len(app.session.history) == 4
            said = app.message
            i18n.set_language("en")
            assert said != games_not_saved() and i18n.translations("lv").gettext(games_not_saved()) == said
            i18n.set_language("lv")
            app.tick()
            app.setup.game_kind = "yacht"  # the resumed game's two seats
            assert app.start_game() and app.screen == "play" and app.message == games_not_saved()
        finally:
            _stopped(worker, appliance)
    finally:
        i18n.set_language("en")
    assert (state / "dicetable.sqlite3").read_bytes() == before
    journal = " ".join(r.getMessage() for r in caplog.records)
    assert "cannot be written by this user" in journal and "[Errno" not in journal


def test_a_read_only_state_directory_keeps_the_kiosk_running_unsaved_with_what_it_kept(tmp_path, read_only, caplog):
    from appliance import i18n

    state = tmp_path / "state"
    _interrupted_maexle(state)
    read_only(state / "dicetable.sqlite3", state)
    try:
        appliance, app, pipeline, worker = _appliance(tmp_path, extra='language = "de"')
        try:
            assert app.store is None and app.cannot_save and appliance.kept is not None
            assert i18n.language() == "lv" and pipeline.detector.tray == TRAY  # as the table kept them
        finally:
            _stopped(worker, appliance)
    finally:
        i18n.set_language("en")
    assert sorted(p.name for p in state.iterdir()) == ["dicetable.sqlite3"]
    journal = " ".join(r.getMessage() for r in caplog.records)
    assert f"state directory {state} is not writable" in journal and "[Errno" not in journal


def test_a_saved_games_file_that_cannot_be_opened_keeps_the_kiosk_running_unsaved(tmp_path, caplog):
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "usb").mkdir()  # a drive's mount point, the drive not mounted: SQLite would save there
    (state / "dicetable.sqlite3").symlink_to(tmp_path / "usb" / "x.sqlite3")  # a dangling link
    appliance, app, pipeline, worker = _appliance(tmp_path)
    try:
        assert app.store is None and app.cannot_save
    finally:
        _stopped(worker, appliance)
    journal = " ".join(r.getMessage() for r in caplog.records)
    assert "cannot be opened" in journal and "the table plays without saving" in journal
    assert not list((tmp_path / "usb").iterdir())


def test_the_boot_service_on_a_saved_games_file_it_cannot_write_runs_instead_of_a_restart_loop(tmp_path, read_only):
    """The report's case: announcements pending and the file made immutable; it exited 1 with
    "attempt to write a readonly database", and systemd restarted it until its start limit."""
    state = tmp_path / "state"
    _interrupted_maexle(state)
    read_only(state / "dicetable.sqlite3")
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: True, settle_s=4.0)
    assert status == 0 and "Traceback" not in out and "readonly database" not in out, out
    assert "the table plays without saving" in out


def test_a_state_directory_whose_lock_cannot_be_opened_is_played_on_unsaved_not_written_unguarded(tmp_path):
    state = tmp_path / "state"
    (state / "kiosk.lock").mkdir(parents=True)  # nothing could keep a second kiosk out
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: True, settle_s=3.0)
    assert status == 0 and "Traceback" not in out, out
    assert "kiosk.lock cannot be opened" in out and "the table plays without saving" in out
    assert not (state / "dicetable.sqlite3").exists()


def test_a_folder_of_photos_as_the_camera_shows_them_as_the_game_waits_for_throws(tmp_path):
    """Each image was one frame, played from the start: no throw ever settled (appliance.folder_table)."""
    import cv2
    import numpy as np

    from appliance.folder_table import FolderTable

    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.full((240, 320, 3), 60, np.uint8))
    appliance, app, pipeline, worker = _appliance(tmp_path, camera=str(folder))
    try:
        assert pipeline.source.wait and pipeline.source.loop
        assert isinstance(appliance._trial(app, pipeline), FolderTable)
    finally:
        worker.stop()
        app.store.close()


def test_a_second_kiosk_on_the_same_state_directory_is_one_message_and_exit_75_changing_nothing(tmp_path, capsys):
    from appliance.store import claim

    state = tmp_path / "state"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'state_dir = "{state}"\n[camera]\nsource = "synthetic"\n[display]\ndriver = "dummy"\n')
    held = claim(state)  # the kiosk the service runs
    try:
        assert main(["kiosk", "--config", str(cfg)]) == 75
    finally:
        held.close()
    err = capsys.readouterr().err
    assert f"another kiosk or a dicetable teach (pid {os.getpid()}) holds {state}: stop it first" in err and "Traceback" not in err
    assert not (state / "dicetable.sqlite3").exists()



def test_a_machine_without_gpio_says_so_in_one_journal_line_without_gpiozeros_fallback_warnings(
        tmp_path, monkeypatch, recwarn, caplog):
    import warnings

    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)  # gpiozero looks for a pin library afresh
    appliance, _app, _pipeline, worker = _appliance(tmp_path)
    try:
        warnings.simplefilter("always", PinFactoryFallback)
        buttons = appliance._buttons(None)
    finally:
        _stopped(worker, appliance)
    if buttons is not None:  # a machine with GPIO after all
        pytest.skip("this machine has GPIO")
    assert not [w for w in recwarn if issubclass(w.category, PinFactoryFallback)]
    assert sum("no GPIO buttons" in r.getMessage() for r in caplog.records) == 1


def test_a_photo_folder_mounted_after_the_start_is_a_camera_plugged_in_late(tmp_path, caplog):
    import logging

    import cv2
    import numpy as np

    stick = tmp_path / "media" / "THROWS"
    with caplog.at_level(logging.WARNING):
        appliance, app, pipeline, worker = _appliance(tmp_path, camera=str(stick))
    try:
        assert pipeline is not None and f"the image folder {stick} is not there yet" in caplog.text
        pipeline.step()
        assert pipeline.fault == "camera missing" and pipeline.feed()[0] is None
        stick.mkdir(parents=True)
        cv2.imwrite(str(stick / "throw1.png"), np.full((48, 64, 3), 90, np.uint8))
        pipeline.step()
        assert pipeline.fault == "" and pipeline.feed()[0] is not None
    finally:
        worker.stop()
        app.store.close()
