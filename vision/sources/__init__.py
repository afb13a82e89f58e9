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
- ``PhotoSource``: labelled still photos, one per throw (the demo's ``--source DIR``), with
  ``photo_pools`` to group a folder's photos by their number of dice.

One module per kind, as gpiozero keeps its pin factories in ``gpiozero.pins``: ``folder``,
``video``, ``live`` (the reader thread and the ``Device`` interface), ``opencv`` and ``picamera2``
(the devices; only the latter imports picamera2, and only when a camera is opened), ``stills``.
``Frame`` and the faults live in ``vision.frames`` (the synthetic table needs them too) and are
re-exported here.

``open_source(spec)`` makes one from the command line's SOURCE (``picamera``, a device number, a
video file, an image folder or ``synthetic``).

Faults are exceptions: ``CameraError`` and its subclasses (each with a ``kind`` of FAULT_KINDS, for
a status line in the reader's own language), ``EndOfFrames`` at the normal end of a file or folder,
``SourceClosed`` after ``close()``.
"""

from __future__ import annotations

from pathlib import Path

from vision.frames import (FAULT_KINDS, CameraError, CameraFrozen, CameraMissing, CameraTimeout, EndOfFrames,
                           ExposureUnsupported, Frame, FrameSource, SourceClosed, normalise)
from vision.sources.folder import IMAGE_SUFFIXES, ImageFolderSource
from vision.sources.live import Device, LiveCamera
from vision.sources.opencv import OpenCVDevice
from vision.sources.picamera2 import PiCamera2Device
from vision.sources.stills import Photo, PhotoSource, photo_pools
from vision.sources.video import VideoFileSource


def open_source(spec: str | int | Path, *, size: tuple[int, int] = (640, 480), fps: float = 30.0,
                dice: int = 2, seed: int = 0, timeout: float = 1.0, hold_s: float = 0.0, throws: int = 10,
                exposure_us: int | None = None, exposure: dict | None = None) -> FrameSource:
    """The source a SOURCE (the command line's, or ``appliance.config``'s ``camera.source``) names.

    "picamera": the Pi camera (``exposure_us`` fixes its exposure, else it is fixed after a warm-up);
    a device number (int or digits): that OpenCV device; ``exposure``: a lock the guided setup saved
    (``LiveCamera.lock_exposure``), applied to either instead; "synthetic": a synthetic table of ``size``
    that throws ``dice`` dice ``throws`` times by itself (seeded), with a nudge and a hand now and
    then; a folder: its images at ``fps``, each held ``hold_s`` s; a file: a video.
    Raises CameraMissing when the file or folder does not exist or SOURCE is empty; live cameras
    report faults on read.
    """
    if isinstance(spec, int) and not isinstance(spec, bool):
        spec = str(spec)
    spec = str(spec)
    if not spec.strip():  # Path("") is the current folder: an empty SOURCE read whatever lay there
        raise CameraMissing("SOURCE is empty: give picamera, a device number, synthetic, a folder or a video file")
    if spec == "picamera":
        # With a saved lock there is nothing to warm up for: it replaces the warm-up's values at once.
        warmup_s = 0.0 if exposure else 1.0
        return LiveCamera(lambda: PiCamera2Device(size, fps, timeout=timeout, exposure_us=exposure_us,
                                                  warmup_s=warmup_s), name="picamera", order=PiCamera2Device.order, timeout=timeout, exposure=exposure)
    if spec.isdigit():
        index = int(spec)
        return LiveCamera(lambda: OpenCVDevice(index, size, fps), name=f"camera {index}", timeout=timeout,
                          exposure=exposure)
    if spec == "synthetic":
        from vision.synth import SyntheticTable, TableLook

        table = SyntheticTable(dice, seed=seed, fps=fps, look=TableLook(size=size))
        return table.autoplay(throws)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps=fps, hold_s=hold_s)
    if path.is_file():
        return VideoFileSource(path)
    if not path.exists() and (path.suffix or "/" in spec):  # a file's name: it is missing, not misnamed
        raise CameraMissing(f"SOURCE {spec!r}: no such file or folder")
    raise CameraMissing(f"SOURCE {spec!r} is not picamera, a device number, synthetic, a folder or a video file")


__all__ = [
    "CameraError", "CameraFrozen", "CameraMissing", "CameraTimeout", "Device", "EndOfFrames", "ExposureUnsupported",
    "FAULT_KINDS", "Frame",
    "FrameSource", "IMAGE_SUFFIXES", "ImageFolderSource", "LiveCamera", "OpenCVDevice", "Photo", "PhotoSource",
    "PiCamera2Device", "SourceClosed", "VideoFileSource", "normalise", "open_source", "photo_pools",
]
