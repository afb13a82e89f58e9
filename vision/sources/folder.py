"""A folder of images as frames, in name order at a given rate (virtual time): each held a while, or
each until the next is asked for (a table that waits for its game)."""

from __future__ import annotations

import bisect
import logging
import stat
from pathlib import Path

import numpy as np

from vision.frames import CameraMissing, EndOfFrames, Frame, SourceClosed
from vision.images import ImageError, load_image


log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
_ENDED = -1  # wait mode's ``_shown`` once no image is left to show


class ImageFolderSource:
    """The images of a folder in name order, as frames at ``fps`` (virtual time ``index / fps`` s).

    hold_s: how long each image stays in view (it repeats for ``max(1, round(hold_s * fps))``
    frames), so that a folder of photos plays as a table where each photo is one throw. Files that
    cannot be read as images are skipped and listed in ``skipped`` (path, reason), until they
    change (a photo caught half-copied is read again once it is whole).
    wait: instead, an empty scene (a dark frame of the first image's size) until ``advance()``, and
    then each image until the next ``advance()``: the kiosk shows the next photo when its game waits
    for a throw (``appliance.folder_table``), however long the reader takes to settle the last one.
    The folder is watched as it plays: images added, removed or replaced are taken as they are
    now (listed again when the folder changes, a file read again when it does). Raises
    CameraMissing when the folder does not exist, cannot be read or holds no images (at once without
    ``wait``; with it, at each read until images are there), and later as an unplugged camera until
    it is back; EndOfFrames after the last image (or never with
    ``loop``, unless no image can be read), SourceClosed after ``close()``.
    """

    def __init__(self, folder, fps: float = 30.0, hold_s: float = 0.0, loop: bool = False, wait: bool = False):
        self.folder = Path(folder)
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        try:
            self._stamp = self._folder_stamp()  # the folder as listed: a change lists it again
            self.files = self._listed()
        except CameraMissing:
            if not wait:
                raise
            # The kiosk's table: photos copied in after the start (a USB stick mounted late) are a
            # camera plugged in late; each read lists the folder again until they are there.
            self._stamp, self.files = None, []
        self.fps = float(fps)
        self.repeat = max(1, round(hold_s * fps))
        self.loop = loop
        self.wait = wait
        self._shown: int | None = None  # wait: the image in view (None: the empty scene before the first)
        self._blank: np.ndarray | None = None
        # Each skipped file: its (mtime ns, size) when it was read, and why it was skipped.
        self._skipped: dict[Path, tuple[tuple | None, str]] = {}
        self.index = 0
        self._pos = 0  # frames into the folder
        self._cached: tuple[Path, tuple | None, np.ndarray] | None = None  # a file, its (mtime ns, size), its image
        self._closed = False

    def _folder_stamp(self) -> tuple[int, int]:
        """The folder's (inode, mtime ns): they change when files are added, removed or renamed.
        Raises CameraMissing when it is not there or cannot be read."""
        try:
            st = self.folder.stat()
        except OSError as exc:  # gone (renamed, unmounted), or not this user's to read
            raise CameraMissing(f"no image folder at {self.folder} ({exc.strerror or exc})") from None
        if not stat.S_ISDIR(st.st_mode):
            raise CameraMissing(f"no image folder at {self.folder} (not a folder)")
        return st.st_ino, st.st_mtime_ns

    def _listed(self) -> list[Path]:
        """The folder's image files in name order. Raises CameraMissing when the folder cannot be
        read or holds no image."""
        try:
            files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        except OSError as exc:  # as a camera that is not plugged in
            raise CameraMissing(f"no image folder at {self.folder} ({exc.strerror or exc})") from None
        if not files:
            raise CameraMissing(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {self.folder}")
        return files

    def _check(self) -> None:
        """Lists the folder again when it changed (or came back); raises CameraMissing while it is
        gone, unreadable or empty. The image in view keeps its place by name; the files skipped
        before are tried again."""
        try:
            stamp = self._folder_stamp()
            if stamp == self._stamp:
                return
            self._stamp = None  # should the listing fail, the next read lists it again
            files = self._listed()
        except CameraMissing:
            self._cached = None
            raise
        self._stamp = stamp
        at = lambda i: _place(files, self.files[i]) if 0 <= i < len(self.files) else i  # noqa: E731
        if self._shown == _ENDED and self.loop:
            self._shown = None
        elif self._shown not in (None, _ENDED):
            self._shown = at(self._shown)
        self._pos = at(self._pos // self.repeat) * self.repeat + self._pos % self.repeat
        self.files, self._skipped = files, {}
        log.info("the image folder %s: %d images", self.folder, len(files))

    @property
    def skipped(self) -> list[tuple[Path, str]]:
        """(path, reason) of each file skipped as unreadable, in the order they were met."""
        return [(path, why) for path, (_stamp, why) in self._skipped.items()]

    def _image(self, i: int) -> np.ndarray | None:
        """The i-th file's image, or None (it is in ``skipped``, once)."""
        import cv2

        path = self.files[i]
        try:
            st = path.stat()
            # With its size: a FAT stick keeps a file's time to 2 s, and a photo copied in place
            # within them would look unchanged.
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None  # load_image says why
        if self._cached and self._cached[:2] == (path, stamp):
            return self._cached[2]
        if path in self._skipped:
            if self._skipped[path][0] == stamp:
                return None
            # Written again in place (cp over a half-copied photo leaves the folder's listing as
            # it was): read it again.
            del self._skipped[path]
        try:  # B, G, R (+A) or grey, 8 or 16 bits, as BGR
            bgr = load_image(path, cv2.IMREAD_UNCHANGED)
        except ImageError as exc:  # not an image, a truncated or damaged one, gone since
            self._skipped[path] = (stamp, exc.reason)
            log.warning("%s skipped: %s", path, exc.reason)
            return None
        self._cached = (path, stamp, bgr)
        return bgr

    def read(self) -> Frame:
        """The next frame. Raises CameraMissing (the folder gone, unreadable or empty), EndOfFrames,
        SourceClosed."""
        if self._closed:
            raise SourceClosed(f"the image folder {self.folder} is closed")
        self._check()
        if self.wait:
            return self._frame(self._waiting())
        while True:
            i = self._pos // self.repeat
            if i >= len(self.files):
                if len(self._skipped) >= len(self.files):
                    raise EndOfFrames(f"no image in {self.folder} can be read")
                if not self.loop:
                    raise EndOfFrames(f"end of the images in {self.folder}")
                self._pos, i = 0, 0
            img = self._image(i)
            if img is None:
                self._pos = (i + 1) * self.repeat  # skip the whole hold of an unreadable file
                continue
            self._pos += 1
            return self._frame(img)

    def _frame(self, image: np.ndarray) -> Frame:
        frame = Frame(image, self.index / self.fps, self.index)
        self.index += 1
        return frame

    def _waiting(self) -> np.ndarray:
        """Wait mode: the image in view, or the empty scene before the first ``advance``."""
        if self._shown == _ENDED:
            raise EndOfFrames(f"end of the images in {self.folder}")
        if self._shown is not None:
            image = self._image(self._shown)
            if image is not None:
                return image
            self.advance()  # gone or damaged since: the next one
            return self._waiting()
        if self._blank is None:
            first = next((img for i in range(len(self.files)) if (img := self._image(i)) is not None), None)
            if first is None:
                raise EndOfFrames(f"no image in {self.folder} can be read")
            self._blank = np.full_like(first, 40)
        return self._blank

    def advance(self) -> None:
        """Wait mode: show the next image that can be read (after the last, the first again with
        ``loop``), until the next ``advance``; when there is none, ``read`` raises EndOfFrames.
        Nothing while the folder is gone (``read`` says so): its images are not used up."""
        if self._shown == _ENDED:
            return
        try:
            self._check()
        except CameraMissing:
            return
        start = -1 if self._shown is None else self._shown
        for step in range(1, len(self.files) + 1):
            i = start + step
            if i >= len(self.files):
                if not self.loop:
                    break
                i %= len(self.files)
            if self._image(i) is not None:
                self._shown = i
                return
        self._shown = _ENDED

    @property
    def current_file(self) -> Path | None:
        """The file the last frame came from (None: the empty scene before the first)."""
        if self.wait:
            return None if self._shown in (None, _ENDED) else self.files[self._shown]
        i = (self._pos - 1) // self.repeat
        return self.files[i] if 0 <= i < len(self.files) else None

    def close(self) -> None:
        """Stops the source; later reads raise SourceClosed."""
        self._closed = True
        self._cached = None


def _place(files: list[Path], name: Path) -> int:
    """The index of ``name`` in the sorted ``files``, or of the file after it in name order (the
    last when none is)."""
    return min(bisect.bisect_left(files, name), len(files) - 1)
