"""A live camera behind its reader thread: every camera fault reported by the source (never passed on
as a frame), reconnecting with backoff, never blocking past the timeout."""

import threading
import time

import numpy as np
import pytest

from vision.settle import SettleDetector
from vision.sources import (FAULT_KINDS, CameraError, CameraFrozen, CameraMissing, CameraTimeout, ExposureUnsupported,
                            LiveCamera, SourceClosed)
from vision.synth import SyntheticTable


class FakeDevice:
    """A camera that gives noisy frames every ``interval`` s; ``plan`` scripts its faults by frame
    number: "freeze" (repeats the last frame forever, as OpenCV does for an unplugged USB camera),
    "hang" (blocks until released), "timeout" (raises TimeoutError like picamera2), "burst" (stalls
    ``stall`` s, then hands out 4 frames buffered before the stall at once), "unplug" (the driver
    raises OSError), "garbage" (gives frames that are not images from then on)."""

    def __init__(self, interval=0.01, plan=None, stall=0.4, stamps=False, value=100):
        self.interval, self.plan, self.stall, self.stamps = interval, dict(plan or {}), stall, stamps
        self.n = 0
        self.value = value
        self.rng = np.random.default_rng(value)
        self.last = None
        self.frozen = False
        self.buffered = []
        self.release = threading.Event()
        self.closed = False

    def _frame(self, marker):
        img = np.full((48, 64, 3), self.value, np.uint8)
        img += self.rng.integers(0, 3, img.shape, dtype=np.uint8)  # sensor noise
        img[0, 0] = marker  # which frame this is: 1 fresh, 2 buffered
        return img

    def read(self):
        step = self.plan.get(self.n)
        self.n += 1
        if self.frozen is True or step == "freeze":
            self.frozen = True
            time.sleep(self.interval)
            return self.last, None
        if step == "hang":
            self.release.wait()
            raise CameraError("released")
        if step == "timeout":
            time.sleep(self.interval * 3)
            raise TimeoutError("frame timed out")
        if step == "unplug":
            raise OSError(19, "No such device")
        if self.frozen == "garbage" or step == "garbage":
            self.frozen = "garbage"
            time.sleep(self.interval)
            return np.zeros((4, 4, 3), np.uint8), None
        if step == "burst":
            self.buffered = [self._frame(2) for _ in range(4)]
            time.sleep(self.stall)
        if self.buffered:
            self.last = self.buffered.pop(0)
            return self.last, None
        time.sleep(self.interval)
        self.last = self._frame(1)
        return self.last, (time.monotonic() - 5.0 if self.stamps else None)

    def close(self):
        self.closed = True


class Opener:
    """Opens the scripted devices in turn: a FakeDevice, or an exception to raise."""

    def __init__(self, *devices):
        self.devices = list(devices)
        self.calls = []

    def __call__(self):
        self.calls.append(time.monotonic())
        dev = self.devices.pop(0) if len(self.devices) > 1 else self.devices[0]
        if isinstance(dev, Exception):
            raise dev
        return dev


def _read_until(cam, predicate, within=3.0):
    """Reads (swallowing camera errors) until ``predicate(frame)`` or ``within`` s; returns the
    frames read and the errors seen."""
    frames, errors = [], []
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            f = cam.read()
        except CameraError as exc:
            errors.append(exc)
            continue
        frames.append(f)
        if predicate(f):
            break
    return frames, errors


def test_a_live_camera_gives_each_fresh_frame_once_with_monotonic_times():
    with LiveCamera(Opener(FakeDevice()), timeout=0.5) as cam:
        frames = [cam.read() for _ in range(5)]
        assert cam.status == "ok"
    idx = [f.index for f in frames]
    assert idx == sorted(set(idx))
    assert all(b.t > a.t for a, b in zip(frames, frames[1:]))
    assert all(abs(time.monotonic() - f.t) < 2 for f in frames)
    assert frames[0].image.shape == (48, 64, 3)


def test_a_camera_missing_at_start_is_reported_and_retried_with_backoff_until_it_comes():
    opener = Opener(CameraMissing("no camera at device 0"), OSError("busy"), CameraMissing("still none"), FakeDevice())
    cam = LiveCamera(opener, timeout=0.2, backoff=(0.1, 0.8))
    start = time.monotonic()
    with pytest.raises(CameraMissing, match="retrying in"):
        cam.read()
    assert time.monotonic() - start < 0.35  # never blocks past the timeout
    assert "no camera" in cam.status or "busy" in cam.status or "still none" in cam.status
    frames, errors = _read_until(cam, lambda f: True)
    cam.close()
    assert frames, f"no frame after the camera came: {errors}"
    gaps = np.diff(opener.calls[:4])
    assert gaps[2] > gaps[0] * 2  # the waits between attempts grow: 0.1, 0.2, 0.4 s


def test_a_camera_that_hangs_mid_game_gives_timeouts_not_a_blocked_caller():
    dev = FakeDevice(plan={5: "hang"})
    cam = LiveCamera(Opener(dev), timeout=0.15)
    for _ in range(3):
        cam.read()
    _read_until(cam, lambda f: False, within=0.3)
    start = time.monotonic()
    with pytest.raises(CameraTimeout):
        cam.read()
    assert time.monotonic() - start < 0.3
    assert "no frame for" in cam.status
    start = time.monotonic()
    cam.close()
    assert time.monotonic() - start < 0.3
    dev.release.set()


def test_a_read_timeout_mid_game_reconnects_and_frames_resume():
    first, second = FakeDevice(plan={4: "timeout"}, value=100), FakeDevice(value=200)
    opener = Opener(first, second)
    with LiveCamera(opener, timeout=0.2, backoff=(0.05, 0.2)) as cam:
        frames, errors = _read_until(cam, lambda f: f.image[5, 5, 0] >= 200)
    assert first.closed and len(opener.calls) == 2
    assert frames[-1].image[5, 5, 0] >= 200
    assert all(isinstance(e, CameraTimeout) for e in errors)


def test_an_unplugged_usb_camera_repeating_its_last_frame_is_frozen_not_frames():
    dev = FakeDevice(plan={6: "freeze"})
    opener = Opener(dev, CameraMissing("no camera at device 0"))
    cam = LiveCamera(opener, timeout=0.2, frozen_after=3, backoff=(0.05, 0.1))
    frames, errors = _read_until(cam, lambda f: False, within=0.6)
    status = cam.status
    cam.close()
    # Every frame handed out is a distinct picture: the repeats never come out.
    assert len({f.image.tobytes() for f in frames}) == len(frames) <= 6
    assert cam.dropped["frozen"] >= 2
    assert isinstance(cam.faults[0], CameraFrozen) and "frozen" in str(cam.faults[0])
    assert any(isinstance(e, CameraMissing) for e in errors)  # it tried to reopen it, and it is gone
    assert dev.closed and "retrying" in status


def test_each_camera_fault_has_its_kind_for_a_status_line_in_another_language():
    assert [CameraMissing("x").kind, CameraTimeout("x").kind, CameraFrozen("x").kind, CameraError("x").kind] == \
        ["missing", "timeout", "frozen", "lost"]
    assert set(FAULT_KINDS) == {"missing", "timeout", "frozen", "lost", "bad_frames"}
    assert CameraError("x", kind="bad_frames").again("y").kind == "bad_frames"
    with pytest.raises(ValueError, match="kind"):
        CameraError("x", kind="on fire")


@pytest.mark.parametrize("step, kind, words", [("unplug", "lost", "No such device"),
                                                ("garbage", "bad_frames", "not images"),
                                                ("timeout", "timeout", "timed out"),
                                                ("freeze", "frozen", "frozen")])
def test_a_live_camera_fault_keeps_its_kind_through_the_reconnect_and_the_read(step, kind, words):
    """The English message (device, retry) is for the journal; the kind survives the reader thread's
    "reconnecting in" rewording and ``read()``'s re-raise, so the kiosk can word it itself."""
    opener = Opener(FakeDevice(plan={3: step}), CameraMissing("no camera at device 0"))
    cam = LiveCamera(opener, timeout=0.1, frozen_after=3, backoff=(0.5, 1.0))
    frames, errors = _read_until(cam, lambda f: False, within=0.4)
    cam.close()
    assert cam.faults[0].kind == kind and words in str(cam.faults[0])
    assert any(e.kind == kind and "reconnecting in" in str(e) for e in errors), errors
    assert all(e.kind in (kind, "timeout") for e in errors)  # never "missing": reopening waits 0.5 s


def test_frames_buffered_during_a_stall_are_dropped_as_stale():
    dev = FakeDevice(interval=0.02, plan={10: "burst"}, stall=0.5)
    with LiveCamera(Opener(dev), timeout=1.0) as cam:
        frames, _ = _read_until(cam, lambda f: f.index > 15, within=3.0)
        assert cam.dropped["stale"] >= 4
    assert frames and all(f.image[0, 0, 0] == 1 for f in frames)


def test_after_the_caller_pauses_the_next_frame_is_a_fresh_one_not_a_buffered_one():
    with LiveCamera(Opener(FakeDevice(interval=0.02)), timeout=0.5) as cam:
        before = cam.read()
        time.sleep(0.6)  # the kiosk was busy; a driver's buffer would now hold old frames
        after = cam.read()
        assert time.monotonic() - after.t < 0.1
        assert after.index > before.index + 5  # the frames in between were read and let go


def test_frames_stamped_long_ago_by_the_device_are_never_returned():
    with LiveCamera(Opener(FakeDevice(stamps=True)), timeout=0.2) as cam:
        with pytest.raises(CameraTimeout):
            cam.read()
        assert cam.dropped["stale"] > 0


def test_a_closed_live_camera_refuses_to_read():
    cam = LiveCamera(Opener(FakeDevice()), timeout=0.2)
    cam.close()
    with pytest.raises(SourceClosed):
        cam.read()


def test_a_camera_freezing_mid_throw_never_becomes_a_roll():
    """The table freezes on a frame of tumbling dice: the detector behind the source must not settle it."""
    table = SyntheticTable(2, seed=11)
    table.throw([3, 5])

    class Replay(FakeDevice):
        def read(self):
            if self.n == 8:
                self.frozen = True
            if self.frozen:
                time.sleep(0.005)
                return self.last, None
            self.n += 1
            time.sleep(0.005)
            self.last = table.read().image
            return self.last, None

    reads = []

    def reader(image, expected=None, reference=None):
        reads.append(image)
        from vision.reading import DiceReading, Die
        return DiceReading("ok", (Die(3, (10, 10), (0, 0, 20, 20)), Die(5, (50, 10), (40, 0, 20, 20))))

    det = SettleDetector(reader, expected=2)
    with LiveCamera(Opener(Replay(), CameraMissing("gone")), timeout=0.05, frozen_after=3, backoff=(0.05, 0.1)) as cam:
        end = time.monotonic() + 0.6
        while time.monotonic() < end:
            try:
                f = cam.read()
            except CameraError:
                det.interrupt()
                continue
            assert det.update(f.image, f.t, f.index).settled is None
    assert table.truth.moving


def test_a_missing_usb_camera_leaves_no_opencv_warn_lines_on_stderr(capfd):
    """Each retry of a missing /dev/videoN printed OpenCV's own [ WARN ] cap_v4l lines to the journal."""
    from vision.sources import OpenCVDevice

    for _ in range(2):  # a retry too
        with pytest.raises(CameraMissing):
            OpenCVDevice(97)
    err = capfd.readouterr().err
    assert "[ WARN" not in err and "cap_v4l" not in err


# --- exposure and white balance, locked through the reader thread --------------------------------

class LockingDevice(FakeDevice):
    """A live camera that locks: it records which thread asked, and what it was fixed at."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.calls = []

    def auto_exposure(self):
        self.calls.append(("auto", threading.current_thread().name))

    def lock_exposure(self):
        self.calls.append(("lock", threading.current_thread().name))
        return {"exposure": 99.0}

    def use_exposure(self, values):
        self.calls.append(("use", dict(values)))


def test_the_live_camera_locks_in_its_reader_thread_and_locks_again_after_a_reconnection():
    first, second = LockingDevice(plan={30: "unplug"}), LockingDevice()
    with LiveCamera(Opener(first, second), name="cam", timeout=0.5, backoff=(0.05, 0.1)) as cam:
        cam.auto_exposure()
        assert cam.lock_exposure() == {"exposure": 99.0} and cam.exposure == {"exposure": 99.0}
        assert first.calls == [("auto", "cam-reader"), ("lock", "cam-reader")]
        end = time.monotonic() + 3
        while not second.calls and time.monotonic() < end:
            time.sleep(0.02)
    assert second.calls[0] == ("use", {"exposure": 99.0})


def test_a_saved_lock_is_applied_when_the_camera_opens():
    dev = LockingDevice()
    with LiveCamera(Opener(dev), timeout=0.5, exposure={"exposure": 42.0}) as cam:
        cam.read()
    assert dev.calls[0] == ("use", {"exposure": 42.0})


def test_a_live_camera_whose_device_cannot_lock_says_so():
    with LiveCamera(Opener(FakeDevice()), name="cam", timeout=0.5) as cam:
        with pytest.raises(ExposureUnsupported, match="cam cannot fix"):
            cam.lock_exposure()
        assert cam.exposure is None


def test_locking_a_camera_that_is_not_there_gives_up_after_the_timeout():
    with LiveCamera(Opener(OSError("no camera")), timeout=0.2, backoff=(1.0, 1.0)) as cam:
        start = time.monotonic()
        with pytest.raises(CameraTimeout):
            cam.lock_exposure()
        assert time.monotonic() - start < 2.0


def test_an_exception_a_driver_was_not_meant_to_raise_is_logged_with_its_traceback_once(caplog):
    """A USB camera pulled out mid-read: its driver raises OSError EIO at every reconnection (each
    a fault "lost" or "missing" for the reader); the log has its traceback once, not at every retry."""
    import errno
    import logging

    class Broken(FakeDevice):
        def read(self):
            raise OSError(errno.EIO, "Input/output error")

    opener = Opener(FakeDevice(plan={2: "unplug"}), Broken(), RuntimeError("driver exploded"), Broken())
    with caplog.at_level(logging.ERROR, logger="vision.sources.live"):
        cam = LiveCamera(opener, timeout=0.1, backoff=(0.01, 0.02))
        _frames, errors = _read_until(cam, lambda f: False, within=0.8)
        cam.close()
    assert len(opener.calls) >= 5 and {e.kind for e in errors} <= {"lost", "missing"}
    traced = [r for r in caplog.records if r.exc_info]
    assert sorted(r.exc_info[0].__name__ for r in traced) == ["OSError", "RuntimeError"]  # once each
    assert any("OSError: [Errno 5] Input/output error" in str(e) for e in errors)
