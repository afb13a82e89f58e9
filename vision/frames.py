"""A camera frame and what reading one can give: the types every frame source and its readers share.

``Frame`` and the faults (``CameraError`` and its kinds, ``EndOfFrames``, ``SourceClosed``) live here,
below both ``vision.sources`` and the synthetic table (``vision.synth``), so that neither imports the
other for them; ``vision.sources`` re-exports them. Frames are normalised at this boundary
(``to_bgr``, ``normalise``), so everything behind it sees one format.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np


class FrameError(ValueError):
    """A frame that cannot be read as an image (wrong shape, dtype, or empty)."""


def to_bgr(frame: np.ndarray) -> np.ndarray:
    """Any camera frame as ``(H, W, 3) uint8 BGR``.

    Accepts ``(H, W)`` grey, ``(H, W, 1)``, ``(H, W, 3)`` and ``(H, W, 4)`` (BGRA/XBGR from
    picamera2's XRGB8888: the 4th channel is dropped) in uint8, or uint16 (scaled down by 256) or
    float in 0-1. Returns the input itself when it already is ``(H, W, 3) uint8`` and contiguous.

    Raises FrameError for anything else (None, empty, 1-D, 5 channels, ...).
    """
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, got {type(frame).__name__}")
    if frame.ndim not in (2, 3) or frame.shape[0] < 8 or frame.shape[1] < 8:
        raise FrameError(f"a frame must be at least 8x8 px with 1, 3 or 4 channels, got shape {frame.shape}")
    if frame.dtype == np.uint16:
        frame = (frame >> 8).astype(np.uint8)
    elif frame.dtype.kind == "f":
        if not np.isfinite(frame).all():
            raise FrameError("a float frame holds NaN or infinity")
        frame = np.clip(frame * 255.0 + 0.5, 0, 255).astype(np.uint8)
    elif frame.dtype != np.uint8:
        raise FrameError(f"a frame must be uint8, uint16 or float, got {frame.dtype}")
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    elif frame.shape[2] == 1:
        frame = np.repeat(frame, 3, axis=2)
    elif frame.shape[2] == 4:
        frame = frame[:, :, :3]
    elif frame.shape[2] != 3:
        raise FrameError(f"a frame must have 1, 3 or 4 channels, got {frame.shape[2]}")
    return np.ascontiguousarray(frame)


def is_noise(bgr: np.ndarray, max_noise: int = 10) -> bool:
    """Whether most pixels of an (H, W, 3) uint8 BGR frame differ from their 3x3 median by more than
    ``max_noise`` grey levels: a frame of noise, not a picture (salt-and-pepper specks alone are not)."""
    import cv2

    h, w = bgr.shape[:2]
    step = max(1, min(h, w) // 240)
    # Every step-th row to grey first, then every step-th column of that: the same pixels as
    # subsampling the colour frame in numpy, at a fifth of the time (numpy copies 3-byte pixels
    # one by one; OpenCV reads strided rows as they are).
    grey = np.ascontiguousarray(cv2.cvtColor(bgr[::step], cv2.COLOR_BGR2GRAY)[:, ::step])
    far = cv2.compare(cv2.absdiff(grey, cv2.medianBlur(grey, 3)), max_noise, cv2.CMP_GT)
    return cv2.countNonZero(far) > grey.size // 2


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


class ExposureUnsupported(RuntimeError):
    """The source cannot fix its exposure and white balance (a file, a folder, the synthetic table,
    a webcam whose driver refuses it); the message says which and why, in English."""


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
