"""systemd readiness and the watchdog fed from the UI loop."""

from __future__ import annotations

import os
import socket

import pytest

from appliance.service import Service


class Recorder:
    def __init__(self):
        self.sent: list[str] = []

    def notify(self, state: str) -> None:
        self.sent.append(state)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_ready_status_and_stopping_are_sent():
    rec = Recorder()
    svc = Service(rec, env={})
    svc.ready("Mäxle,\n 3 players")
    svc.status("camera lost")
    svc.stopping()
    assert rec.sent == ["READY=1\nSTATUS=Mäxle, 3 players", "STATUS=camera lost", "STOPPING=1"]


def test_a_status_line_given_every_frame_is_sent_only_when_it_changes():
    rec = Recorder()
    svc = Service(rec, env={})
    svc.status("setup, 2 players")  # the first frame, drawn before READY=1: kept for ready()
    svc.ready("maexle, 2 players")
    for line in ("maexle, 2 players", "maexle, 2 players; camera missing", "maexle, 2 players; camera missing",
                 "maexle, 2 players"):
        svc.status(line)
    assert rec.sent == ["READY=1\nSTATUS=maexle, 2 players", "STATUS=maexle, 2 players; camera missing",
                        "STATUS=maexle, 2 players"]


def test_the_kiosks_status_line_says_the_game_and_a_camera_fault_in_english():
    from appliance import i18n
    from appliance.commands.kiosk import status_line
    from appliance.kiosk.app import App
    from appliance.kiosk.camera import CameraPipeline
    from vision.settle import SettleDetector
    from vision.sources import CameraMissing

    class Unplugged:
        def read(self):
            raise CameraMissing("camera 0: /dev/video0 does not exist")

    i18n.set_language("lv")
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    pipeline = CameraPipeline(Unplugged(), SettleDetector(lambda image: None), lambda reading: None)
    assert status_line(app, pipeline) == "setup, 3 players"
    app.setup.game_kind = "maexle"
    assert app.start_game()
    pipeline.step()
    assert status_line(app, pipeline) == "maexle, 3 players; camera missing"
    assert status_line(app, None) == "maexle, 3 players"


def test_the_watchdog_is_fed_three_times_per_timeout_however_fast_the_frames():
    rec, clock = Recorder(), Clock()
    svc = Service(rec, env={"WATCHDOG_USEC": "15000000", "WATCHDOG_PID": str(os.getpid())}, clock=clock)
    assert svc.watchdog_s == 15.0
    svc.ready()
    pings = 0
    for _frame in range(30 * 60):  # one minute at 30 frames/s
        clock.now += 1 / 30
        pings += svc.tick()
    assert 11 <= pings <= 12  # every 5 s
    assert rec.sent.count("WATCHDOG=1") == pings


@pytest.mark.parametrize("env", [{}, {"WATCHDOG_USEC": "0"}, {"WATCHDOG_USEC": "junk"},
                                 {"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"}])
def test_no_watchdog_means_tick_does_nothing(env):
    rec = Recorder()
    svc = Service(rec, env=env)
    assert svc.watchdog_s is None
    assert not any(svc.tick() for _ in range(100)) and rec.sent == []


def test_outside_systemd_every_call_is_silent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    svc = Service()
    assert not svc.enabled
    svc.ready("x"), svc.status("y"), svc.tick(), svc.stopping()


def test_fail_prints_the_message_and_returns_the_status(capsys):
    rec = Recorder()
    assert Service(rec, env={}).fail("config /etc/dicetable/config.toml: camera.fps: must be 1-120", 78) == 78
    assert "camera.fps" in capsys.readouterr().err
    assert rec.sent == ["STATUS=config /etc/dicetable/config.toml: camera.fps: must be 1-120"]


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    """systemd's end of $NOTIFY_SOCKET: a datagram socket the test reads (path, socket)."""
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    yield path, server
    server.close()


def test_the_real_notify_socket_receives_ready_and_watchdog(notify_socket):
    path, server = notify_socket
    clock = Clock()
    svc = Service(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "3000000"}, clock=clock)
    svc.ready("playing")
    clock.now += 1.5
    svc.tick()
    assert server.recv(4096) == b"READY=1\nSTATUS=playing"
    assert server.recv(4096) == b"WATCHDOG=1"


def test_a_status_line_in_latvian_or_russian_reaches_systemd_as_utf8_with_its_ready(notify_socket):
    path, server = notify_socket
    svc = Service(env={"NOTIFY_SOCKET": path})
    svc.ready("Mäxle, 3 spēlētāji, игроков")
    assert server.recv(4096) == "READY=1\nSTATUS=Mäxle, 3 spēlētāji, игроков".encode("utf-8")
