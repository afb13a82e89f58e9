"""The language chosen on the kiosk (setup screen or menu) survives a restart and a pulled plug: it is
kept in the store and wins over the config's ``language`` at start, unless that key was changed since."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from appliance import i18n
from appliance.kiosk.app import App, start_language
from appliance.store import Store

ROOT = Path(__file__).resolve().parents[3]


def press_language(app: App) -> None:
    """The language button on the screen that is up (it is there on setup and in the menu)."""
    (lang,) = [c for c in app.view().choices if c.id == "lang"]
    app.choose(lang.id)


def test_the_language_chosen_on_setup_and_in_the_menu_comes_back_after_a_restart(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(store=store, players=["Ann", "Bo", "Cy"], config_language="en")
        press_language(app)                      # setup screen: Deutsch
        app.setup.game_kind = "biscuit"
        assert app.start_game()
        app.choose("menu")
        press_language(app)                      # menu: Latviešu
        assert i18n.language() == "lv"
    i18n.set_language("en")                      # a new process starts with the config's language
    with Store.open(tmp_path) as store:
        assert start_language(store, "en") == "lv" and i18n.language() == "lv"
        app = App(store=store, config_language="en")
        assert app.resume() and app.session.kind == "biscuit"
        assert app.view().title == "Biskvīts"


def test_without_a_choice_on_the_kiosk_the_config_language_counts(tmp_path):
    with Store.open(tmp_path) as store:
        assert start_language(store, "ru") == "ru" and i18n.language() == "ru"
    assert start_language(None, "de") == "de"  # no store at all


def test_a_config_language_changed_after_the_choice_wins_and_the_choice_is_forgotten(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(store=store, config_language="en")
        press_language(app)
        press_language(app)
        assert i18n.language() == "lv"
    with Store.open(tmp_path) as store:
        assert start_language(store, "ru") == "ru"  # the owner edited the config after the table chose lv
    with Store.open(tmp_path) as store:
        assert start_language(store, "en") == "en"  # and back: the old choice does not return


def test_a_saved_language_that_cannot_be_used_is_logged_and_the_config_language_used(tmp_path, caplog):
    with Store.open(tmp_path) as store:
        store.save_settings({"language": "xx", "language_config": "de"})
        with caplog.at_level(logging.WARNING, logger="appliance.kiosk.app"):
            assert start_language(store, "de") == "de" and i18n.language() == "de"
    assert "xx" in caplog.text


def test_a_language_that_cannot_be_saved_still_switches_and_says_so(tmp_path):
    store = Store.open(tmp_path)
    app = App(store=store, config_language="en")
    store.db.close()  # the disk is gone
    press_language(app)
    assert i18n.language() == "de"
    assert app.message == "Die Sprache konnte nicht gespeichert werden: sie gilt bis zum nächsten Start"


def test_a_kiosk_restarted_after_a_pulled_plug_starts_in_the_language_chosen_just_before(tmp_path):
    """The language button pressed, the power cut at once (SIGKILL); then ``dicetable kiosk`` as the
    service starts it, the config still saying English: the kiosk is Latvian (its journal says so),
    and tells systemd it is ready (a status in Latvian once kept READY=1 from it)."""
    state = tmp_path / "state"
    press = ("import os, sys; from appliance.kiosk.app import App; from appliance.store import Store; "
             "app = App(store=Store.open(sys.argv[1])); app.choose('lang'); app.choose('lang'); "
             "os.kill(os.getpid(), 9)")
    subprocess.run([sys.executable, "-c", press, str(state)], cwd=ROOT)
    folder = tmp_path / "frames"
    folder.mkdir()
    import cv2
    import numpy as np

    cv2.imwrite(str(folder / "empty.png"), np.full((240, 320, 3), 60, np.uint8))
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'language = "en"\nstate_dir = "{state}"\n[camera]\nsource = "{folder}"\nfps = 10\n'
                   '[display]\nsize = [800, 480]\nfullscreen = false\ndriver = "dummy"\n[sound]\nvoice = false\n')
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # systemd's end of sd_notify
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(30)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock",
               NOTIFY_SOCKET=str(tmp_path / "notify"))
    proc = subprocess.Popen([sys.executable, "-m", "appliance", "kiosk", "--config", str(cfg)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        ready = notify.recv(4096).decode()  # the first frame is on screen
        proc.send_signal(signal.SIGTERM)
        out, _err = proc.communicate(timeout=20)
    finally:
        notify.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert ready == "READY=1\nSTATUS=setup, 3 players"  # systemd hears it is up (English: the operator's line)
    assert "language: lv, chosen on the kiosk (the config says en)" in out
