"""A folder of images as frames, in name order at a given rate (virtual time)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.frames import CameraMissing, EndOfFrames, Frame, FrameError, SourceClosed, normalise


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
