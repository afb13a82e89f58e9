"""The live arrangement: the camera pipeline in its worker thread (synthetic table, real settle
detector and dice reader) feeding the UI loop, which never waits for it; and the demo's window."""

from __future__ import annotations

import time

from appliance.demo import play_window
from appliance.inputs import Command, CommandQueue
from appliance.kiosk.app import App, Hooks
from appliance.kiosk.camera import CameraPipeline, CameraWorker
from appliance.kiosk.loop import Kiosk
from vision.reader import read_dice
from vision.settle import SettleDetector
from vision.sources import CameraTimeout
from vision.synth import SyntheticTable


def test_the_camera_worker_feeds_a_settled_throw_to_the_ui_loop(mock_pins):
    commands = CommandQueue()
    table = SyntheticTable(2, seed=5, fps=30.0, throw_s=0.5)
    pipeline = CameraPipeline(table, SettleDetector(read_dice), lambda r: commands.put(Command("settled", r, "camera")))
    app = App(players=["Ann", "Bo", "Cy"], hooks=Hooks(expect=pipeline.expect))
    kiosk = Kiosk(app, commands, pipeline=pipeline)
    app.setup.game_kind = "biscuit"
    app.start_game()
    worker = CameraWorker(pipeline, pace_fps=200).start()  # virtual time: faster than a real camera
    try:
        pipeline.call(lambda src: src.throw([2, 3]))
        deadline = time.monotonic() + 30
        slowest = 0.0
        while not app.session.game.actions and time.monotonic() < deadline:
            started = time.monotonic()
            kiosk.step()
            slowest = max(slowest, time.monotonic() - started)
            time.sleep(0.005)
    finally:
        worker.stop()
        kiosk.close()
    assert app.session.game.actions == [{"roll": [2, 3]}]
    frame, dice, ok, status = pipeline.feed()
    assert frame is not None and frame.shape == (480, 640, 3)
    assert slowest < 1.0  # the UI frame never waited for the camera or the reader


def test_a_camera_fault_is_a_status_line_not_an_exception():
    class Lost:
        def read(self):
            raise CameraTimeout("camera 0: no new frame within 1.00 s")

        def close(self):
            pass

    pipeline = CameraPipeline(Lost(), SettleDetector(read_dice), lambda r: None)
    assert pipeline.step() is None
    frame, dice, ok, status = pipeline.feed()
    assert not ok and status == "Camera stopped sending pictures, waiting…"


def test_the_demo_window_opens_runs_and_closes(mock_pins):
    assert play_window((800, 480), seed=1, max_frames=5) == 0


def test_read_again_asks_the_settle_detector_to_forget_in_the_stepping_thread():
    """The kiosk's "read again" goes through the detector's public ``forget()``, run before the next
    frame by whichever thread steps the pipeline (the detector is only ever touched there)."""
    class Detector:
        forgotten = 0

        def forget(self):
            self.forgotten += 1

        def update(self, image, t, index):
            from vision.settle import Update

            return Update("still")

    table = SyntheticTable(2, seed=3)
    detector = Detector()
    pipeline = CameraPipeline(table, detector, lambda r: None)
    pipeline.reread()
    assert detector.forgotten == 0  # not from the UI thread
    pipeline.step()
    assert detector.forgotten == 1
    pipeline.step()
    assert detector.forgotten == 1


def test_a_scene_without_dice_is_said_plainly_not_as_a_reading_fault():
    """The Mäxle cup down, an empty tray: the live view's caption says no dice are in view, in the
    colour of a good reading, not "Cannot read" in red."""
    from vision.reading import no_dice

    table = SyntheticTable(2, seed=4)  # nothing thrown yet: an empty tray
    pipeline = CameraPipeline(table, SettleDetector(lambda image, **kw: no_dice(), 2), lambda r: None)
    shown = []
    for _ in range(40):
        pipeline.step()
        frame, dice, ok, status = pipeline.feed()
        shown.append((status, ok, dice))
    assert ("No dice in view", True, ()) in shown  # while the still scene is being read
    assert all(ok and "Cannot read" not in status for status, ok, _dice in shown)


def test_the_live_view_shows_what_the_still_dice_were_settled_as_not_a_noisy_last_frame():
    """Three readings agreed on 3 2; the frame that settled them read one die only (noise). The
    caption and the boxes show the settled 3 2, not "Cannot read"."""
    from vision.reading import DiceReading, Die, unreadable
    from vision.settle import Update

    two = DiceReading("ok", (Die(3, (10.0, 10.0), (5, 5, 10, 10)), Die(2, (30.0, 10.0), (25, 5, 10, 10))))
    one = unreadable("expected 2 dice, found 1", two.dice[:1])

    class Detector:
        locked = None

        def update(self, image, t, index):
            self.locked = two
            return Update("still", one)

    pipeline = CameraPipeline(SyntheticTable(2, seed=6), Detector(), lambda r: None)
    pipeline.step()
    frame, dice, ok, status = pipeline.feed()
    assert (status, ok, dice) == ("3 2", True, two.dice)


def test_a_frame_the_reader_cannot_take_is_a_status_line_not_an_exception():
    """Garbage from the camera (a frame too small for the tray, no image at all) makes the settle
    detector raise: the pipeline says so on the status line, and the next good frame goes on."""
    import numpy as np

    from vision.sources import Frame

    frames = [np.zeros((2, 2, 3), np.uint8), np.zeros((0, 0, 3), np.uint8), None,
              np.full((480, 640, 3), 40, np.uint8)]

    class Garbage:
        def __init__(self):
            self.i = 0

        def read(self):
            image = frames[min(self.i, len(frames) - 1)]
            self.i += 1
            return Frame(image, self.i / 30, self.i)

        def close(self):
            pass

    pipeline = CameraPipeline(Garbage(), SettleDetector(read_dice), lambda r: None)
    for _ in range(3):
        assert pipeline.step() is None
        frame, dice, ok, status = pipeline.feed()
        assert not ok and status == "Cannot read: reader failure" and frame is None
    pipeline.step()
    frame, dice, ok, status = pipeline.feed()
    assert ok and frame is not None and frame.shape == (480, 640, 3)


def test_a_camera_that_comes_back_clears_its_fault_from_the_status_line():
    import numpy as np

    from vision.sources import CameraMissing, Frame

    class Flaky:
        def __init__(self):
            self.i = 0

        def read(self):
            self.i += 1
            if 3 <= self.i < 6:
                raise CameraMissing("camera 0: no camera at device 0; retrying in 0.5 s")
            return Frame(np.full((480, 640, 3), 40, np.uint8), self.i / 30, self.i)

        def close(self):
            pass

    pipeline = CameraPipeline(Flaky(), SettleDetector(read_dice), lambda r: None)
    for _ in range(4):
        pipeline.step()
    frame, dice, ok, status = pipeline.feed()
    assert not ok and status == "Camera not found — check its cable" and frame is None
    for _ in range(3):
        pipeline.step()
    frame, dice, ok, status = pipeline.feed()
    assert ok and "Camera" not in status and frame is not None
