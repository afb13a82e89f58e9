"""Normalising camera frames at the boundary, so everything behind it sees one format."""

from __future__ import annotations

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
