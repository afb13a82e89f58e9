"""Frame sources: one small interface over every camera and stand-in.

A source has ``read() -> Frame`` and ``close()``. ``Frame.image`` is always ``(H, W, 3) uint8 BGR``,
normalised at this boundary (``normalise``: grey, 4-channel and RGB-ordered input all become the
same BGR frame), ``Frame.t`` its timestamp in seconds (monotonic for live cameras, virtual time at
the source's rate for video files, image folders and the synthetic table), ``Frame.index`` its
number from 0.

The sources:

- ``LiveCamera(open_device)``: a live camera behind a reader thread. It owns every camera fault so
  that the settle detector never sees one: a camera missing at start, a read that times out, a USB
  camera unplugged (OpenCV then repeats its last frame bit for bit: real sensors always have noise,
  so bit-identical frames mean a frozen camera), stale buffered frames after a pause; it reconnects
  with backoff, and ``read()`` never blocks longer than its timeout. The devices it drives:
  ``PiCamera2Device`` (picamera2, imported only when opened) and ``OpenCVDevice`` (a device number).
- ``VideoFileSource``: a video file through OpenCV, at the file's frame rate.
- ``ImageFolderSource``: the images of a folder in name order at a given rate.
- ``vision.synth.SyntheticTable``: the scripted synthetic dice table.

``open_source(spec)`` makes one from the command line's SOURCE (``picamera``, a device number, a
video file, an image folder or ``synthetic``).

Faults are exceptions: ``CameraError`` and its subclasses (each with a ``kind`` of FAULT_KINDS, for
a status line in the reader's own language), ``EndOfFrames`` at the normal end of a file or folder,
``SourceClosed`` after ``close()``.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from pathlib import Path
from typing import Callable, NamedTuple, Protocol

import numpy as np

from vision.frames import FrameError, to_bgr


class Frame(NamedTuple):
    """One frame: image (H, W, 3) uint8 BGR, t in s, index from 0."""

    image: np.ndarray
    t: float
    index: int


# What went wrong, for a caller that words it itself (the kiosk, in its language): CameraError.kind.
FAULT_KINDS = ("missing", "timeout", "frozen", "lost", "bad_frames")


class CameraError(RuntimeError):
    """The camera cannot give a frame now.

    The message says why in English, with the device and the retry (for logs and ``dicetable
    watch``); ``kind`` says what went wrong as one of FAULT_KINDS, for a caller that words it itself:

    - "missing": no camera could be opened (``CameraMissing``)
    - "timeout": no new frame within the timeout (``CameraTimeout``)
    - "frozen": the picture repeats bit for bit, a USB camera unplugged (``CameraFrozen``)
    - "lost": the camera failed while giving frames (the driver raised; unplugged mid-read)
    - "bad_frames": the camera gives frames that are not images

    kind: one of FAULT_KINDS, default the class's own ("lost" for CameraError itself).
    Raises ValueError for another kind.
    """

    kind = "lost"

    def __init__(self, message: str = "", kind: str | None = None):
        super().__init__(message)
        if kind is not None:
            if kind not in FAULT_KINDS:
                raise ValueError(f"camera fault kind must be one of {', '.join(FAULT_KINDS)}, got {kind!r}")
            self.kind = kind

    def again(self, message: str) -> "CameraError":
        """The same fault (class and kind) with another message."""
        return type(self)(message, kind=self.kind)


class CameraMissing(CameraError):
    """No camera could be opened (not connected, wrong device, busy, no picamera2)."""

    kind = "missing"


class CameraTimeout(CameraError):
    """The camera gave no new frame within the timeout."""

    kind = "timeout"


class CameraFrozen(CameraError):
    """The camera repeats a bit-identical frame: what a USB camera unplugged under OpenCV does."""

    kind = "frozen"


class EndOfFrames(EOFError):
    """A video file or image folder has no more frames (not a fault)."""


class SourceClosed(RuntimeError):
    """``read()`` after ``close()``."""


class FrameSource(Protocol):
    """What the watch loop, the demo and the kiosk read frames from."""

    def read(self) -> Frame:
        """The next frame. Raises CameraError, EndOfFrames or SourceClosed."""
        ...

    def close(self) -> None:
        """Releases the camera or file; safe to call twice."""
        ...


def normalise(image, order: str = "bgr") -> np.ndarray:
    """A camera's frame as ``(H, W, 3) uint8 BGR``.

    order: the channel order the device delivers, "bgr" (OpenCV; picamera2's "RGB888" and
    "XRGB8888", which are B, G, R in memory) or "rgb" (picamera2's "BGR888" and "XBGR8888").
    Grey and 4-channel frames are accepted as ``vision.frames.to_bgr`` accepts them.
    Raises FrameError for anything that is not an image; ValueError for an unknown order.
    """
    if order not in ("bgr", "rgb"):
        raise ValueError(f"channel order must be 'bgr' or 'rgb', got {order!r}")
    bgr = to_bgr(image)
    if order == "rgb" and not (np.ndim(image) == 2 or (np.ndim(image) == 3 and np.shape(image)[2] == 1)):
        bgr = np.ascontiguousarray(bgr[:, :, ::-1])
    return bgr


# --------------------------------------------------------------------------------------------------
# Files and folders: virtual time


IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class ImageFolderSource:
    """The images of a folder in name order, as frames at ``fps`` (virtual time ``index / fps`` s).

    hold_s: how long each image stays in view (it repeats for ``max(1, round(hold_s * fps))``
    frames), so that a folder of photos plays as a table where each photo is one throw. Files that
    cannot be read as images are skipped and listed in ``skipped`` (path, reason).
    Raises CameraMissing when the folder does not exist or holds no images, EndOfFrames after the
    last image (or never with ``loop``), SourceClosed after ``close()``.
    """

    def __init__(self, folder, fps: float = 30.0, hold_s: float = 0.0, loop: bool = False):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraMissing(f"no image folder at {self.folder}")
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraMissing(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {self.folder}")
        self.fps = float(fps)
        self.repeat = max(1, round(hold_s * fps))
        self.loop = loop
        self.skipped: list[tuple[Path, str]] = []
        self.index = 0
        self._pos = 0  # frames into the folder
        self._cached: tuple[int, np.ndarray] | None = None
        self._closed = False

    def _image(self, i: int) -> np.ndarray | None:
        if self._cached and self._cached[0] == i:
            return self._cached[1]
        import cv2

        path = self.files[i]
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is None:  # not an image, or a truncated or damaged one: imread says no more
            self.skipped.append((path, "OpenCV cannot decode it as an image"))
            return None
        try:
            bgr = normalise(img)  # imread gives B, G, R (+A) or grey
        except FrameError as exc:
            self.skipped.append((path, f"not an image: {exc}"))
            return None
        self._cached = (i, bgr)
        return bgr

    def read(self) -> Frame:
        """The next frame. Raises EndOfFrames, SourceClosed."""
        if self._closed:
            raise SourceClosed(f"the image folder {self.folder} is closed")
        while True:
            i = self._pos // self.repeat
            if i >= len(self.files):
                if not self.loop or len(self.skipped) >= len(self.files):
                    raise EndOfFrames(f"end of the images in {self.folder}")
                self._pos, i = 0, 0
            img = self._image(i)
            if img is None:
                self._pos = (i + 1) * self.repeat  # skip the whole hold of an unreadable file
                continue
            self._pos += 1
            frame = Frame(img, self.index / self.fps, self.index)
            self.index += 1
            return frame

    @property
    def current_file(self) -> Path | None:
        """The file the last frame came from."""
        i = (self._pos - 1) // self.repeat
        return self.files[i] if 0 <= i < len(self.files) else None

    def close(self) -> None:
        """Stops the source; later reads raise SourceClosed."""
        self._closed = True
        self._cached = None


class VideoFileSource:
    """A video file read with OpenCV; virtual time at the file's frame rate (30 fps if unknown).

    Raises CameraMissing when the file cannot be opened, EndOfFrames at its end, SourceClosed after
    ``close()``.
    """

    def __init__(self, path, fps: float | None = None):
        import cv2

        self.path = Path(path)
        if not self.path.is_file():
            raise CameraMissing(f"no video file at {self.path}")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise CameraMissing(f"OpenCV cannot open {self.path} as a video")
        file_fps = self._cap.get(cv2.CAP_PROP_FPS) or 0.0
        self.fps = float(fps or (file_fps if 1.0 <= file_fps <= 1000.0 else 30.0))
        self.index = 0

    def read(self) -> Frame:
        """The next frame. Raises EndOfFrames, SourceClosed."""
        if self._cap is None:
            raise SourceClosed(f"the video {self.path} is closed")
        ok, img = self._cap.read()
        if not ok or img is None:
            raise EndOfFrames(f"end of the video {self.path}")
        frame = Frame(normalise(img), self.index / self.fps, self.index)
        self.index += 1
        return frame

    def close(self) -> None:
        """Releases the file."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


# --------------------------------------------------------------------------------------------------
# Live cameras: devices and the guard that owns their faults


class Device(Protocol):
    """A live camera as ``LiveCamera`` drives it (from its reader thread only)."""

    def read(self) -> tuple[np.ndarray, float | None]:
        """Blocks for the next frame: (image as the device gives it, capture time on the
        ``time.monotonic`` clock in s or None). Raises on any fault."""
        ...

    def close(self) -> None:
        """Releases the camera."""
        ...


class OpenCVDevice:
    """A camera by device number through OpenCV (a USB webcam: /dev/video<N>).

    Asks for ``size`` (W, H) px and ``fps``, and a one-frame driver buffer so that frames are fresh.
    Raises CameraMissing when the device does not open or gives no first frame.
    """

    order = "bgr"

    def __init__(self, index: int, size: tuple[int, int] = (640, 480), fps: float = 30.0):
        import cv2

        self.index = index
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraMissing(f"no camera at device {index} (/dev/video{index})")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def read(self) -> tuple[np.ndarray, float | None]:
        """The next frame as OpenCV gives it (B, G, R); no capture time. Raises CameraError."""
        ok, img = self._cap.read()
        if not ok or img is None:
            raise CameraError(f"camera {self.index} gave no frame (unplugged?)")
        return img, None

    def close(self) -> None:
        """Releases the device."""
        self._cap.release()


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


class LiveCamera:
    """A live camera read by a background thread; every camera fault stays in here.

    open_device: makes and opens the device (``OpenCVDevice``, ``PiCamera2Device``, or a fake in
        tests); it raises when the camera is not there. order: the device's channel order.
    timeout: the longest ``read()`` waits, s. Frames older than ``max_age`` s are never returned.
    frozen_after: this many bit-identical frames in a row (the first and its repeats) mean the
        camera froze (real sensors always have noise): the repeats are dropped, the camera reopened.
    stale_after: after this long without a frame, frames that arrive back to back (under 0.4 of the
        usual frame interval apart) were buffered during the pause: up to ``max_drain`` are dropped.
    backoff: (first, longest) wait in s between reopening attempts, doubling after each failure.

    ``read()`` returns each frame at most once, the newest, with its capture time (the device's
    timestamp when it has one, else the arrival time) on the ``time.monotonic`` clock. It raises
    CameraMissing while the camera cannot be opened, CameraFrozen while it repeats one frame, a
    CameraError of kind "lost" or "bad_frames" while the device fails or gives garbage, and
    CameraTimeout when no fresh frame comes within the timeout; ``status`` says the same in English.
    Nothing here blocks the caller longer than ``timeout``.
    """

    def __init__(self, open_device: Callable[[], Device], *, name: str = "camera", order: str = "bgr",
                 timeout: float = 1.0, max_age: float = 0.5, frozen_after: int = 5, stale_after: float = 0.3,
                 max_drain: int = 8, backoff: tuple[float, float] = (0.5, 8.0),
                 clock: Callable[[], float] = time.monotonic):
        self.name = name
        self.order = order
        self.timeout = timeout
        self.max_age = max_age
        self.frozen_after = frozen_after
        self.stale_after = stale_after
        self.max_drain = max_drain
        self.backoff = backoff
        self._open = open_device
        self._clock = clock
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._returned = -1
        self._index = 0
        self._fault: CameraError | None = None
        self._published_since_open = False
        self._stop = threading.Event()
        self.dropped = {"frozen": 0, "stale": 0, "bad": 0}  # frames kept from the caller, by reason
        self.faults: deque[CameraError] = deque(maxlen=20)  # the latest faults, oldest first
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name=f"{name}-reader", daemon=True)
        self._thread.start()

    # -- the reader thread ---------------------------------------------------------------------

    def _set_fault(self, fault: CameraError | None) -> None:
        with self._cond:
            self._fault = fault
            if fault is not None:
                self.faults.append(fault)
            self._cond.notify_all()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                device = self._open()
            except Exception as exc:  # whatever the driver raises: the camera is not there
                failures += 1
                wait = min(self.backoff[1], self.backoff[0] * 2 ** (failures - 1))
                msg = exc if isinstance(exc, CameraMissing) else f"{type(exc).__name__}: {exc}"
                self._set_fault(CameraMissing(f"{self.name}: {msg}; retrying in {wait:.1f} s"))
                self._stop.wait(wait)
                continue
            try:
                fault = self._pump(device)
            finally:
                try:
                    device.close()
                except Exception:
                    pass
            if self._published_since_open:
                failures = 0  # it worked for a while: start the backoff afresh
            if fault is not None and not self._stop.is_set():
                failures += 1
                self.reconnects += 1
                wait = min(self.backoff[1], self.backoff[0] * 2 ** (failures - 1))
                self._set_fault(fault.again(f"{fault}; reconnecting in {wait:.1f} s"))
                self._stop.wait(wait)

    def _pump(self, device: Device) -> CameraError | None:
        """Reads frames until a fault (returned) or ``close()``."""
        self._published_since_open = False
        previous: np.ndarray | None = None
        same = 0
        bad = 0
        last_arrival = self._clock()
        intervals: deque[float] = deque(maxlen=15)
        draining = 0
        while not self._stop.is_set():
            try:
                raw, stamp = device.read()
            except TimeoutError as exc:
                return CameraTimeout(f"{self.name}: no frame within the timeout ({exc or 'timed out'})")
            except CameraError as exc:  # a device that knows what went wrong keeps its kind
                return exc.again(f"{self.name}: {exc}")
            except Exception as exc:
                return CameraError(f"{self.name}: {exc}")
            now = self._clock()
            gap = now - last_arrival
            last_arrival = now
            try:
                image = normalise(raw, self.order)
            except FrameError as exc:
                self.dropped["bad"] += 1
                bad += 1
                if bad >= self.frozen_after:
                    return CameraError(f"{self.name}: gives frames that are not images ({exc})", kind="bad_frames")
                continue
            bad = 0
            if previous is not None and image.shape == previous.shape and np.array_equal(image, previous):
                same += 1
                self.dropped["frozen"] += 1
                if same + 1 >= self.frozen_after:
                    return CameraFrozen(f"{self.name}: the picture is frozen (unplugged?)")
                continue
            same = 0
            previous = image
            usual = statistics.median(intervals) if intervals else None
            if gap > self.stale_after and usual is not None:
                draining = self.max_drain
            elif draining and usual is not None and gap >= 0.4 * usual:
                draining = 0  # this one was waited for: live again
            if draining:
                draining -= 1
                self.dropped["stale"] += 1
                continue
            if gap <= self.stale_after:
                intervals.append(gap)
            t = stamp if stamp is not None and abs(now - stamp) < 60 else now
            if now - t > self.max_age:
                self.dropped["stale"] += 1
                continue
            with self._cond:
                self._latest = Frame(image, t, self._index)
                self._index += 1
                self._fault = None
                self._published_since_open = True
                self._cond.notify_all()
        return None

    # -- the caller's side ---------------------------------------------------------------------

    @property
    def status(self) -> str:
        """"ok" or what is wrong with the camera, e.g. "camera: no camera at device 0; retrying in 2.0 s"."""
        with self._cond:
            if self._fault is not None:
                return str(self._fault)
            if self._latest is None:
                return f"{self.name}: starting"
            age = self._clock() - self._latest.t
            return "ok" if age <= self.timeout else f"{self.name}: no frame for {age:.1f} s"

    def read(self, timeout: float | None = None) -> Frame:
        """The newest frame not returned before, waiting at most ``timeout`` s (default: the
        source's). Raises CameraMissing, CameraFrozen, CameraError or CameraTimeout, SourceClosed."""
        if self._stop.is_set():
            raise SourceClosed(f"{self.name} is closed")
        wait = self.timeout if timeout is None else timeout
        deadline = self._clock() + wait

        def fresh() -> bool:
            f = self._latest
            return f is not None and f.index > self._returned and self._clock() - f.t <= self.max_age

        with self._cond:
            while not fresh():
                left = deadline - self._clock()
                if left <= 0 or self._stop.is_set():
                    break
                self._cond.wait(min(left, 0.05))
            if fresh():
                self._returned = self._latest.index
                return self._latest
            fault = self._fault
        if self._stop.is_set():
            raise SourceClosed(f"{self.name} is closed")
        if fault is not None:
            raise fault.again(str(fault))
        raise CameraTimeout(f"{self.name}: no new frame within {wait:.2f} s")

    def close(self) -> None:
        """Stops the reader thread (waiting at most the timeout) and releases the camera."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(self.timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------------------------------
# From the command line's SOURCE


def open_source(spec: str | int | Path, *, size: tuple[int, int] = (640, 480), fps: float = 30.0,
                dice: int = 2, seed: int = 0, timeout: float = 1.0, hold_s: float = 0.0, throws: int = 10,
                exposure_us: int | None = None) -> FrameSource:
    """The source a SOURCE (the command line's, or ``appliance.config``'s ``camera.source``) names.

    "picamera": the Pi camera (``exposure_us`` fixes its exposure, else it is fixed after a warm-up);
    a device number (int or digits): that OpenCV device; "synthetic": a synthetic table of ``size``
    that throws ``dice`` dice ``throws`` times by itself (seeded), with a nudge and a hand now and
    then; a folder: its images at ``fps``, each held ``hold_s`` s; a file: a video.
    Raises CameraMissing when the file or folder does not exist; live cameras report faults on read.
    """
    if isinstance(spec, int) and not isinstance(spec, bool):
        spec = str(spec)
    spec = str(spec)
    if spec == "picamera":
        return LiveCamera(lambda: PiCamera2Device(size, fps, timeout=timeout, exposure_us=exposure_us),
                          name="picamera", order=PiCamera2Device.order, timeout=timeout)
    if spec.isdigit():
        index = int(spec)
        return LiveCamera(lambda: OpenCVDevice(index, size, fps), name=f"camera {index}", timeout=timeout)
    if spec == "synthetic":
        from vision.synth import SyntheticTable, TableLook

        table = SyntheticTable(dice, seed=seed, fps=fps, look=TableLook(size=size))
        return table.autoplay(throws)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps=fps, hold_s=hold_s)
    if path.is_file():
        return VideoFileSource(path)
    raise CameraMissing(f"SOURCE {spec!r} is not picamera, a device number, synthetic, a folder or a video file")


__all__ = [
    "CameraError", "CameraFrozen", "CameraMissing", "CameraTimeout", "Device", "EndOfFrames", "FAULT_KINDS", "Frame",
    "FrameSource", "ImageFolderSource", "LiveCamera", "OpenCVDevice", "PiCamera2Device", "SourceClosed",
    "VideoFileSource", "normalise", "open_source",
]

