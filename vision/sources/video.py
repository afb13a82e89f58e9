"""A video file as frames, through OpenCV, at the file's frame rate (virtual time)."""

from __future__ import annotations

import os
from pathlib import Path

from vision.frames import CameraMissing, EndOfFrames, Frame, SourceClosed, normalise

# FFmpeg's own complaints about a damaged file ("moov atom not found") would reach the terminal
# before the one clear CameraMissing; OpenCV reads this once, when it first uses FFmpeg (-8: quiet).
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")


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
        if not _utf8(str(self.path)):  # OpenCV's VideoCapture crashes the process on such a name
            raise CameraMissing(f"OpenCV cannot open a video whose file name is not UTF-8: rename {self.path}")
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


def _utf8(name: str) -> bool:
    """Whether a file name came from the disk as UTF-8 (else it holds lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
