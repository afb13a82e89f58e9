"""The Pi camera through a stand-in picamera2 module (the real one is never imported in tests)."""

import sys
import time
import types

import numpy as np
import pytest

from vision.sources import CameraMissing, ExposureUnsupported, LiveCamera, PiCamera2Device


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


# --- the guided setup locks exposure and white balance again ---------------------------------------

METADATA = {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": (2.1, 1.6), "SensorTimestamp": 1}


class MeteredPicamera2(FakePicamera2):
    """The stand-in picamera2 whose frames carry exposure metadata and that lists its controls as
    libcamera 0.5 does (the exposure modes)."""

    camera_controls = {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0), "AeEnable": (False, True, True)}

    def capture_request(self, wait=None):
        request = super().capture_request(wait)
        request.get_metadata = lambda: dict(METADATA, SensorTimestamp=int(time.monotonic() * 1e9))
        return request


@pytest.fixture
def pi_camera(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=MeteredPicamera2))
    dev = PiCamera2Device((640, 480), 30, timeout=0.5, warmup_s=0.0)
    yield dev, MeteredPicamera2.instances[-1]
    dev.close()


def controls(cam) -> list[dict]:
    return [c[1] for c in cam.calls if isinstance(c, tuple) and c[0] == "controls"]


def test_the_pi_camera_goes_back_to_auto_then_locks_at_the_latest_frames_metadata(pi_camera):
    dev, cam = pi_camera
    dev.auto_exposure()
    assert controls(cam)[-1] == {"AeEnable": True, "AwbEnable": True, "ExposureTimeMode": 0, "AnalogueGainMode": 0}
    dev.read()
    locked = dev.lock_exposure()
    assert locked == {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": [2.1, 1.6]}
    assert controls(cam)[-1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 1.5,
                                 "ColourGains": (2.1, 1.6)}
    dev.use_exposure(locked)  # at the next start: the same controls again
    assert controls(cam)[-1] == controls(cam)[-2]


def test_a_pi_camera_without_exposure_metadata_cannot_lock(pi_camera):
    dev, _cam = pi_camera
    with pytest.raises(ExposureUnsupported, match="no exposure time"):
        dev.lock_exposure()  # no frame read yet: nothing to lock at
