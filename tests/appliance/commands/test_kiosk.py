"""dicetable kiosk as the service runs it: config in, a window, the saved games, a clean stop on
SIGTERM; a bad config file is one clear message and the status the unit does not restart on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from appliance.cli import main
from appliance.store import Store


def test_a_bad_config_is_one_message_and_exit_78(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[camera]\nfps = 1000\n")
    assert main(["kiosk", "--config", str(bad)]) == 78
    err = capsys.readouterr().err
    assert "camera.fps" in err and "Traceback" not in err


def _kiosk_until(tmp_path, camera: str, ready, settle_s: float = 2.0) -> tuple[int, str]:
    """Run ``dicetable kiosk`` as the service does (own process, dummy SDL, mock GPIO) with its state
    in ``tmp_path/state`` and the camera ``camera``; once ``ready()`` and the loop has run a moment,
    SIGTERM it. Returns its exit status and output."""
    state = tmp_path / "state"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'state_dir = "{state}"\n[camera]\nsource = "{camera}"\nfps = 10\n'
                   '[display]\nsize = [800, 480]\nfullscreen = false\ndriver = "dummy"\n[sound]\nvoice = false\n')
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock")
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "kiosk", "--config", str(cfg)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(settle_s)  # the loop is running, or (settle_s 0) still starting up
        assert proc.poll() is None, proc.stdout.read()
        proc.send_signal(signal.SIGTERM)
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


def test_a_windowed_kiosk_lets_sdl_choose_the_desks_driver_instead_of_the_consoles_kmsdrm():
    from appliance.commands.kiosk import video_driver

    assert video_driver("kmsdrm", windowed=True) is None  # the default config on a desk
    assert video_driver("kmsdrm", windowed=False) == "kmsdrm"  # the boot service
    assert video_driver("x11", windowed=True) == "x11" and video_driver("dummy", windowed=True) == "dummy"
    assert video_driver("auto", windowed=False) is None


def test_a_sigterm_while_the_kiosk_starts_up_stops_it_cleanly(tmp_path):
    """systemctl stop on a slow start: the signal is handled from the moment the store is open."""
    state = tmp_path / "state"
    status, out = _kiosk_until(tmp_path, "synthetic", lambda: (state / "dicetable.sqlite3").exists(), settle_s=0.0)
    assert status == 0 and "Traceback" not in out, out


def _appliance(tmp_path, tray: str = '"full"'):
    """The boot service's parts on the trial table (no window): the store, the app, the camera, the
    resumed state. Returns (appliance, app, pipeline, worker); stop the worker."""
    from appliance import config
    from appliance.commands.kiosk import Appliance
    from appliance.inputs import CommandQueue
    from appliance.service import Service

    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(f'state_dir = "{tmp_path / "state"}"\n[camera]\nsource = "synthetic"\nfps = 10\n'
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
