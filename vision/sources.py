"""Frame sources: one small interface over every camera and stand-in.

A source has ``read() -> Frame`` and ``close()``. ``Frame.image`` is always ``(H, W, 3) uint8 BGR``
(normalised at this boundary by ``vision.frames.to_bgr``), ``Frame.t`` its timestamp in seconds
(monotonic for live cameras, virtual time at the source's rate for files, folders and the synthetic
table), ``Frame.index`` its number from 0.

Faults are exceptions, all subclasses of ``CameraError`` except the normal end of a file or folder
(``EndOfFrames``) and use after ``close()`` (``SourceClosed``).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np


class Frame(NamedTuple):
    """One frame: image (H, W, 3) uint8 BGR, t in s, index from 0."""

    image: np.ndarray
    t: float
    index: int


class CameraError(RuntimeError):
    """The camera cannot give a frame now (its message says why, for the kiosk's status line)."""


class CameraMissing(CameraError):
    """No camera could be opened (not connected, wrong device, busy, no picamera2)."""


class CameraTimeout(CameraError):
    """The camera gave no new frame within the timeout."""


class CameraFrozen(CameraError):
    """The camera repeats a bit-identical frame: a USB camera unplugged under OpenCV does this."""


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
