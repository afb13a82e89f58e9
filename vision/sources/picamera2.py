"""The Raspberry Pi camera through picamera2, as ``LiveCamera`` drives it.

The only module that imports picamera2, and only when a camera is opened: tests and PCs never do."""

from __future__ import annotations

import time

import numpy as np

from vision.frames import CameraMissing


class PiCamera2Device:
    """The Raspberry Pi camera through picamera2 (imported here, only on the Pi).

    Configures a video stream of ``size`` (W, H) px in "RGB888" (B, G, R in memory, as OpenCV
    wants), lets auto exposure and white balance settle for ``warmup_s`` s, then fixes them at the
    values the last warm-up frame reports (``ExposureTime``, ``AnalogueGain``, ``ColourGains``), so
    the pips do not flicker as dice come and go. ``exposure_us`` / ``gain`` fix them at given values
    instead. Each read waits at most ``timeout`` s (``capture_request(wait=timeout)``).
    Raises CameraMissing when picamera2 or the camera is not there.
    """

    order = "bgr"

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 30.0, *, timeout: float = 1.0,
                 warmup_s: float = 1.0, exposure_us: int | None = None, gain: float | None = None):
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraMissing(f"picamera2 is not installed (apt install python3-picamera2): {exc}") from exc
        self.timeout = timeout
        try:
            self._cam = Picamera2()
        except Exception as exc:  # libcamera raises IndexError / RuntimeError when no camera is found
            raise CameraMissing(f"no Raspberry Pi camera found: {exc}") from exc
        try:
            config = self._cam.create_video_configuration(
                main={"format": "RGB888", "size": tuple(size)},
                controls={"FrameDurationLimits": (int(1e6 / fps), int(1e6 / fps))},
            )
            self._cam.configure(config)
            self._cam.start()
            self._fix_exposure(warmup_s, exposure_us, gain)
        except Exception:
            self.close()
            raise

    def _fix_exposure(self, warmup_s: float, exposure_us: int | None, gain: float | None) -> None:
        end = time.monotonic() + warmup_s
        meta: dict = {}
        while time.monotonic() < end:
            meta = self._cam.capture_metadata(wait=self.timeout)
        controls = {"AeEnable": False, "AwbEnable": False}
        exposure = exposure_us or meta.get("ExposureTime")
        analogue = gain or meta.get("AnalogueGain")
        if exposure:
            controls["ExposureTime"] = int(exposure)
        if analogue:
            controls["AnalogueGain"] = float(analogue)
        if meta.get("ColourGains"):
            controls["ColourGains"] = tuple(meta["ColourGains"])
        self._cam.set_controls(controls)

    def read(self) -> tuple[np.ndarray, float | None]:
        """The next frame and when it was exposed on the ``time.monotonic`` clock, s (the request's
        ``SensorTimestamp`` in ns: the clock picamera2's own ``flush`` compares with
        ``time.monotonic_ns()``). Raises TimeoutError after ``timeout`` s without a frame."""
        request = self._cam.capture_request(wait=self.timeout)
        try:
            img = request.make_array("main")
            stamp = request.get_metadata().get("SensorTimestamp")
        finally:
            request.release()
        return img, (stamp / 1e9 if stamp else None)

    def close(self) -> None:
        """Stops and releases the camera."""
        cam, self._cam = getattr(self, "_cam", None), None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()
