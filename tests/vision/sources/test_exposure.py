"""Locking a webcam's exposure and white balance (the guided setup's second step) as far as its V4L2
driver lets OpenCV; a driver that refuses says so."""

from __future__ import annotations

import pytest

from vision.sources import ExposureUnsupported, OpenCVDevice


class FakeCapture:
    """cv2.VideoCapture as a V4L2 webcam driver answers it: ``takes`` the properties it lets be set."""

    def __init__(self, takes):
        import cv2

        self.takes = set(takes)
        self.values = {cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_WB_TEMPERATURE: 4600.0}
        self.sets = []

    def isOpened(self):
        return True

    def get(self, prop):
        return self.values.get(prop, 0.0)

    def set(self, prop, value):
        self.sets.append((prop, value))
        if prop in self.takes:
            self.values[prop] = value
            return True
        return False

    def release(self):
        pass


def webcam(monkeypatch, takes) -> tuple[OpenCVDevice, FakeCapture]:
    import cv2

    cap = FakeCapture(takes)
    monkeypatch.setattr(cv2, "VideoCapture", lambda index: cap)
    return OpenCVDevice(0), cap


def test_a_webcam_locks_what_its_driver_lets_opencv_set(monkeypatch):
    import cv2

    dev, cap = webcam(monkeypatch, {cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE})  # no white balance
    dev.auto_exposure()
    assert dev.lock_exposure() == {"exposure": 156.0}
    assert (cv2.CAP_PROP_AUTO_EXPOSURE, 1) in cap.sets and cap.values[cv2.CAP_PROP_EXPOSURE] == 156.0


def test_a_webcam_whose_driver_refuses_both_says_it_cannot(monkeypatch):
    dev, _cap = webcam(monkeypatch, set())
    with pytest.raises(ExposureUnsupported, match="driver"):
        dev.auto_exposure()
    with pytest.raises(ExposureUnsupported, match="driver"):
        dev.lock_exposure()
