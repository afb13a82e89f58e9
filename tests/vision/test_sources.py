"""Frame sources: one interface, frames normalised at the boundary, every camera fault reported by the
source (never passed on as a frame), reconnecting with backoff, never blocking past the timeout."""

import sys
import threading
import time
import types

import cv2
import numpy as np
import pytest

from vision.frames import FrameError
from vision.settle import SettleDetector
from vision.sources import (FAULT_KINDS, CameraError, CameraFrozen, CameraMissing, CameraTimeout, EndOfFrames,
                            ImageFolderSource, LiveCamera, PiCamera2Device, SourceClosed, VideoFileSource, normalise,
                            open_source)
from vision.synth import SyntheticTable, TableLook, render_still

# ------------------------------------------------------------------------------------------------
# Normalising


def test_grey_four_channel_and_rgb_ordered_frames_normalise_to_the_same_bgr_frame():
    bgr, _ = render_still([3, 4], seed=1)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(normalise(bgr[:, :, ::-1], "rgb"), bgr)
    assert np.array_equal(normalise(np.dstack([bgr, np.full(grey.shape, 255, np.uint8)])), bgr)
    assert np.array_equal(normalise(np.dstack([bgr[:, :, ::-1], grey]), "rgb"), bgr)  # XBGR8888
    assert np.array_equal(normalise(grey), np.dstack([grey] * 3))
    assert np.array_equal(normalise(grey, "rgb"), np.dstack([grey] * 3))


def test_grey_four_channel_and_swapped_colour_input_give_the_same_reading():
    from vision.reader import read_dice

    bgr, _ = render_still([2, 5, 6], seed=3, look=TableLook())
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    inputs = [(bgr, "bgr"), (grey, "bgr"), (np.dstack([bgr, grey]), "bgr"), (np.ascontiguousarray(bgr[:, :, ::-1]), "rgb")]
    readings = [read_dice(normalise(img, order), expected=3) for img, order in inputs]
    assert {(r.status, r.values) for r in readings} == {("ok", (2, 5, 6))}


def test_normalising_refuses_what_is_not_an_image_or_an_unknown_order():
    with pytest.raises(FrameError):
        normalise(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="order"):
        normalise(np.zeros((20, 20, 3), np.uint8), "yuv")


# ------------------------------------------------------------------------------------------------
# Image folders and video files: virtual time


def _write_images(folder, count, size=(64, 48)):
    paths = []
    for i in range(count):
        img = np.full((size[1], size[0], 3), 20 * i + 10, np.uint8)
        path = folder / f"img_{i:02d}.png"
        cv2.imwrite(str(path), img)
        paths.append(path)
    return paths


def test_an_image_folder_plays_in_name_order_at_its_rate_each_image_held(tmp_path):
    _write_images(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not an image")
    src = ImageFolderSource(tmp_path, fps=10, hold_s=0.2)
    frames = [src.read() for _ in range(6)]
    assert [f.index for f in frames] == list(range(6))
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 10, 30, 30, 50, 50]
    assert src.current_file.name == "img_02.png"
    with pytest.raises(EndOfFrames):
        src.read()
    src.close()
    with pytest.raises(SourceClosed):
        src.read()


def test_an_unreadable_image_in_a_folder_is_skipped_and_named_with_why(tmp_path):
    _write_images(tmp_path, 2)
    (tmp_path / "img_00b.jpg").write_bytes(b"\xff\xd8 this is no jpeg")
    src = ImageFolderSource(tmp_path)
    values = [int(src.read().image[0, 0, 0]) for _ in range(2)]
    assert values == [10, 30]
    assert [(p.name, why) for p, why in src.skipped] == [("img_00b.jpg", "OpenCV cannot decode it as an image")]


def test_grey_and_four_channel_files_become_bgr_frames(tmp_path):
    bgr, _ = render_still([5], seed=2, size=(160, 120))
    cv2.imwrite(str(tmp_path / "a.png"), np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)]))
    cv2.imwrite(str(tmp_path / "b.png"), cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    src = ImageFolderSource(tmp_path)
    a, b = src.read().image, src.read().image
    assert a.shape == b.shape == (120, 160, 3)
    assert np.array_equal(a, bgr)
    assert np.array_equal(b[:, :, 0], b[:, :, 2])


def test_a_missing_or_empty_folder_is_a_missing_camera(tmp_path):
    with pytest.raises(CameraMissing, match="no image folder"):
        ImageFolderSource(tmp_path / "nowhere")
    with pytest.raises(CameraMissing, match="no images"):
        ImageFolderSource(tmp_path)


def test_a_video_file_plays_at_its_frame_rate_then_ends(tmp_path):
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (160, 120))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    table = SyntheticTable(2, seed=3, look=TableLook(size=(160, 120)))
    for f in table.frames(0.4):
        writer.write(f.image)
    writer.release()
    src = VideoFileSource(path)
    frames = []
    with pytest.raises(EndOfFrames):
        while True:
            frames.append(src.read())
    assert len(frames) == 12
    assert frames[5].t == pytest.approx(5 / 25)
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8
    src.close()
    with pytest.raises(CameraMissing):
        VideoFileSource(tmp_path / "none.avi")


def test_open_source_names_every_kind_of_source(tmp_path):
    _write_images(tmp_path, 1)
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    assert isinstance(open_source(tmp_path), ImageFolderSource)
    assert isinstance(open_source("synthetic", dice=5), SyntheticTable)
    with pytest.raises(CameraMissing, match="SOURCE"):
        open_source(str(tmp_path / "no-such-thing"))


def test_the_synthetic_source_from_the_command_line_plays_its_throws_then_ends():
    src = open_source("synthetic", dice=2, throws=2, fps=30)
    n = 0
    with pytest.raises(EndOfFrames):
        while True:
            src.read()
            n += 1
    assert 100 < n < 400


# ------------------------------------------------------------------------------------------------
# Live cameras through fake devices


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


# ------------------------------------------------------------------------------------------------
# picamera2, through a stand-in module (the real one is never imported in tests)


class FakeRequest:
    def __init__(self, cam):
        self.cam = cam
        self.released = False

    def make_array(self, name):
        assert name == "main"
        return self.cam.frame

    def get_metadata(self):
        return {"SensorTimestamp": int(time.monotonic() * 1e9)}

    def release(self):
        self.released = True


class FakePicamera2:
    instances = []

    def __init__(self):
        self.calls = []
        self.requests = []
        self.frame = np.zeros((480, 640, 3), np.uint8)
        self.frame[..., 0] = 200  # picamera2 "RGB888" is B, G, R in memory: blue
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, controls=None, **kw):
        self.calls.append(("config", dict(main)))
        return {"main": main}

    def configure(self, config):
        self.calls.append("configure")

    def start(self):
        self.calls.append("start")

    def capture_metadata(self, wait=None):
        time.sleep(0.01)
        return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}

    def set_controls(self, controls):
        self.calls.append(("controls", dict(controls)))

    def capture_request(self, wait=None):
        self.calls.append(("capture", wait))
        self.requests.append(FakeRequest(self))
        return self.requests[-1]

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


def test_the_pi_camera_asks_for_bgr_fixes_exposure_after_warm_up_and_reads_with_a_timeout(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    dev = PiCamera2Device((640, 480), 30, timeout=0.7, warmup_s=0.05)
    cam = FakePicamera2.instances[-1]
    assert cam.calls[0] == ("config", {"format": "RGB888", "size": (640, 480)})
    controls = next(c[1] for c in cam.calls if isinstance(c, tuple) and c[0] == "controls")
    assert controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.0,
                        "ColourGains": (1.8, 1.5)}
    img, stamp = dev.read()
    assert cam.calls[-1] == ("capture", 0.7) and cam.requests[-1].released
    assert abs(stamp - time.monotonic()) < 1
    with LiveCamera(lambda: dev, timeout=0.5) as live:
        frame = live.read()
    assert tuple(frame.image[0, 0]) == (200, 0, 0)  # blue stays blue in BGR
    assert "close" in cam.calls


def test_no_picamera2_is_a_missing_camera(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as it does off the Pi
    with pytest.raises(CameraMissing, match="picamera2"):
        PiCamera2Device()
