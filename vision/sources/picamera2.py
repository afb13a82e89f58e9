"""The Raspberry Pi camera through picamera2, as ``LiveCamera`` drives it.

The only module that imports picamera2, and only when a camera is opened: tests and PCs never do."""

from __future__ import annotations

import time

import numpy as np

from vision.frames import CameraMissing, ExposureUnsupported

# The controls a locked exposure is kept as (the metadata's names, as picamera2 takes them back).
LOCKED = ("ExposureTime", "AnalogueGain", "ColourGains")


class PiCamera2Device:
    """The Raspberry Pi camera through picamera2 (imported here, only on the Pi).

    Configures a video stream of ``size`` (W, H) px in "RGB888" (B, G, R in memory, as OpenCV
    wants), lets auto exposure and white balance settle for ``warmup_s`` s, then fixes them at the
    values the last warm-up frame reports (``ExposureTime``, ``AnalogueGain``, ``ColourGains``), so
    the pips do not flicker as dice come and go. ``exposure_us`` / ``gain`` fix them at given values
    instead. Each read waits at most ``timeout`` s (``capture_request(wait=timeout)``).
    Raises CameraMissing when picamera2 or the camera is not there.

    The guided setup locks them again once the tray is empty under the bar's light:
    ``auto_exposure`` lets them settle, ``lock_exposure`` fixes them at the latest frame's
    metadata and returns the values, which ``use_exposure`` applies again at the next start.
    """

    order = "bgr"

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 30.0, *, timeout: float = 1.0,
                 warmup_s: float = 1.0, exposure_us: int | None = None, gain: float | None = None):
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraMissing(f"picamera2 is not installed (apt install python3-picamera2): {exc}") from exc
        self.timeout = timeout
        self._metadata: dict = {}  # the latest frame's (ExposureTime, AnalogueGain, ColourGains...)
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
        self._cam.set_controls(_locked({**meta, "ExposureTime": exposure_us or meta.get("ExposureTime"),
                                        "AnalogueGain": gain or meta.get("AnalogueGain")}))

    def auto_exposure(self) -> None:
        """Let auto exposure and white balance work again (they settle within a second or two)."""
        controls = {"AeEnable": True, "AwbEnable": True}
        # libcamera 0.5 and later: the modes, not AeEnable, switch exposure and gain back to auto.
        known = getattr(self._cam, "camera_controls", {}) or {}
        controls.update({mode: 0 for mode in ("ExposureTimeMode", "AnalogueGainMode") if mode in known})
        self._cam.set_controls(controls)

    def lock_exposure(self) -> dict:
        """Fix exposure and white balance at the latest frame's metadata; returns them as
        ``{"ExposureTime": µs, "AnalogueGain": x, "ColourGains": [red, blue]}``. Raises
        ExposureUnsupported when the camera reports none of them."""
        values = {k: self._metadata[k] for k in LOCKED if self._metadata.get(k)}
        if "ExposureTime" not in values:
            raise ExposureUnsupported("the Pi camera reports no exposure time in its frames' metadata")
        controls = _locked(values)
        self._cam.set_controls(controls)
        return {k: list(v) if k == "ColourGains" else v for k, v in controls.items() if k in LOCKED}

    def use_exposure(self, values: dict) -> None:
        """Fix exposure and white balance at ``values`` (as ``lock_exposure`` returned them)."""
        self._cam.set_controls(_locked(values))

    def read(self) -> tuple[np.ndarray, float | None]:
        """The next frame and when it was exposed on the ``time.monotonic`` clock, s (the request's
        ``SensorTimestamp`` in ns: the clock picamera2's own ``flush`` compares with
        ``time.monotonic_ns()``). Raises TimeoutError after ``timeout`` s without a frame."""
        request = self._cam.capture_request(wait=self.timeout)
        try:
            img = request.make_array("main")
            self._metadata = request.get_metadata() or {}
            stamp = self._metadata.get("SensorTimestamp")
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


def _locked(meta: dict) -> dict:
    """The controls that fix exposure and white balance at ``meta``'s values (those it has)."""
    controls: dict = {"AeEnable": False, "AwbEnable": False}
    if meta.get("ExposureTime"):
        controls["ExposureTime"] = int(meta["ExposureTime"])
    if meta.get("AnalogueGain"):
        controls["AnalogueGain"] = float(meta["AnalogueGain"])
    if meta.get("ColourGains"):
        controls["ColourGains"] = tuple(float(g) for g in meta["ColourGains"])
    return controls
