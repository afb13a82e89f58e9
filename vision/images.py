"""Image files in: decoded in one place, quietly, or refused with the reason in a user's words.

OpenCV's decoders say what they dislike on standard error ("[ WARN:0@0.9] global grfmt_tiff.cpp ...
can not handle images with 32-bit samples"); libjpeg says "Premature end of JPEG file" for a photo
cut short and then decodes it anyway, grey below the cut. ``load_image`` keeps OpenCV's logging
silent while it decodes, refuses a JPEG that lacks its end before libjpeg sees it, and raises
``ImageError`` with the reason instead (the caller names the file as it needs to):

>>> import tempfile, pathlib
>>> empty = pathlib.Path(tempfile.mkdtemp()) / "empty.jpg"
>>> _ = empty.write_bytes(b"")
>>> try:
...     load_image(empty)
... except ImageError as exc:
...     print(exc.reason)
the file is empty
"""

from __future__ import annotations

import stat
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from vision.frames import FrameError, to_bgr

_JPEG_START, _JPEG_SCAN, _JPEG_END = b"\xff\xd8", b"\xff\xda", b"\xff\xd9"
_PNG_START = b"\x89PNG\r\n\x1a\n"
# The most pixels a file may claim before it is decoded: a 200-megapixel phone photo, more than
# any camera here gives. OpenCV's own limit (2^30) let a 1 MB PNG of 30000x30000 grey take 5 GB as
# BGR (a Pi 4 has 2-8); this one keeps a decode under about 600 MB.
MAX_PIXELS = 200_000_000
MAX_FILE_BYTES = 512 * 2**20  # a file larger than any photo of that size (a stray video, a disk image)
# JPEG's start-of-frame markers (baseline, progressive, lossless, arithmetic), which give its size.
_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class ImageError(FrameError):
    """An image file that cannot be read: ``path`` and ``reason`` (a user's words, lower case, e.g.
    "no such file", "the file is cut short (a JPEG without its end)"); the message is both."""

    def __init__(self, path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = Path(path)
        self.reason = reason


def load_image(path, flags: int | None = None) -> np.ndarray:
    """The image in the file at ``path`` as ``(H, W, 3) uint8 BGR`` (grey, 16-bit and 4-channel
    files converted as ``vision.frames.to_bgr`` does). ``flags``: OpenCV's imread flags (default
    ``IMREAD_COLOR``; ``IMREAD_UNCHANGED`` keeps 16 bits until ``to_bgr`` scales them).

    Raises ImageError naming the file and why: not there, a directory, a pipe or device, not
    readable by this user, empty, a JPEG cut short, not an image OpenCV decodes, too large a file
    (``MAX_FILE_BYTES``) or a picture too large to decode (``MAX_PIXELS``, told from the header
    before decoding where ``claimed_size`` can), or too small to be a picture. Nothing is printed
    on standard error by OpenCV (libpng's and libjpeg's own warnings on a damaged file still may be)."""
    import cv2

    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ImageError(path, "no such file") from None
    except OSError as exc:  # a folder on the way this user may not search, a name too long
        raise ImageError(path, f"cannot be opened: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ImageError(path, "is a directory, not an image")
    if not stat.S_ISREG(st.st_mode):  # a pipe or a device: reading it could wait for ever
        raise ImageError(path, "is not a regular file (a pipe or a device), not an image")
    if st.st_size > MAX_FILE_BYTES:  # read whole, it would take the Pi's memory first
        raise ImageError(path, f"too large a file to be a photo ({st.st_size // 2**20:,} MB; at most "
                               f"{MAX_FILE_BYTES // 2**20} MB)")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(path, "no such file") from None
    except OSError as exc:
        raise ImageError(path, f"cannot be opened: {exc.strerror or exc}") from None
    if not data:
        raise ImageError(path, "the file is empty")
    if cut_short(data):
        raise ImageError(path, "the file is cut short (a JPEG without its end)")
    size = claimed_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(path, f"too large to decode ({size[0]}x{size[1]} px; at most {MAX_PIXELS // 1_000_000} "
                               "million pixels)")
    try:
        with quiet_opencv():
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR if flags is None else flags)
    except cv2.error:  # OpenCV refuses to decode a header claiming more than 2^30 pixels, by raising
        raise ImageError(path, "too large to decode (its header claims over a billion pixels)") from None
    if image is None:
        raise ImageError(path, "not an image OpenCV can decode")
    try:
        return to_bgr(image)
    except FrameError as exc:
        raise ImageError(path, f"an image the reader cannot take: {exc}") from None


def save_image(path, image: np.ndarray) -> None:
    """Writes ``image`` (``(H, W, 3) uint8 BGR``, or ``(H, W)`` grey) to ``path`` in the format its
    suffix names (.png, .jpg, ...). Encoded in memory and written by Python, because OpenCV's
    ``imwrite`` and ``imread`` crash the process on a name that is not UTF-8.

    Raises ImageError naming the file: a suffix OpenCV cannot encode, or the write refused (no such
    folder, no permission, a full disk)."""
    import cv2

    path = Path(path)
    try:
        ok, data = cv2.imencode(path.suffix or ".png", image)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(path, f"OpenCV cannot write a {path.suffix or 'suffixless'} image")
    try:
        path.write_bytes(data.tobytes())
    except OSError as exc:
        raise ImageError(path, f"cannot be written: {exc.strerror or exc}") from None


def cut_short(data: bytes) -> bool:
    """Whether ``data`` is a JPEG that stops before its end: no end marker after its last scan (a
    copy or download cut off). Other formats: False."""
    if not data.startswith(_JPEG_START):
        return False
    scan = data.rfind(_JPEG_SCAN)
    return scan < 0 or data.rfind(_JPEG_END) < scan


def claimed_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) px as the header of a PNG, JPEG, BMP, TIFF, WebP, GIF or PNM file gives them,
    read before any decoding; None for other formats or a header that does not say (OpenCV's own
    limit of 2^30 pixels then holds)."""
    for size_of in (_png_size, _jpeg_size, _bmp_size, _tiff_size, _webp_size, _gif_size, _pnm_size):
        size = size_of(data)
        if size is not None:
            return size
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(_PNG_START) and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    if not data.startswith(_JPEG_START):
        return None
    i = 2
    while i + 4 <= len(data):  # marker segments up to the first frame header (or the scan)
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # a fill byte before the marker
            i += 1
            continue
        if marker in _JPEG_FRAMES:
            if i + 9 > len(data):
                return None
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        if marker == 0xDA:
            return None
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    if not data.startswith(b"BM") or len(data) < 26:
        return None
    if int.from_bytes(data[14:18], "little") == 12:  # the old OS/2 header: 16-bit sides
        return int.from_bytes(data[18:20], "little"), int.from_bytes(data[20:22], "little")
    # Signed: a negative height is a picture stored top row first.
    return abs(int.from_bytes(data[18:22], "little", signed=True)), abs(int.from_bytes(data[22:26], "little", signed=True))


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = {b"II*\0": "little", b"MM\0*": "big"}.get(data[:4])
    if order is None:
        return None
    num = lambda at, n: int.from_bytes(data[at:at + n], order)  # noqa: E731
    ifd = num(4, 4)
    if ifd + 2 > len(data):
        return None
    sides = {}
    for e in range(ifd + 2, min(ifd + 2 + 12 * num(ifd, 2), len(data) - 11), 12):  # the first picture's tags
        tag, kind = num(e, 2), num(e + 2, 2)
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT (3) or LONG (4)
            sides[tag] = num(e + 8, 2) if kind == 3 else num(e + 8, 4)
    return (sides[256], sides[257]) if len(sides) == 2 else None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    if not (data.startswith(b"RIFF") and data[8:12] == b"WEBP") or len(data) < 30:
        return None
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: 14-bit sides after the frame tag and start code
        return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    if chunk == b"VP8L":  # lossless: 14-bit sides less one, packed after the signature byte
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: the canvas's 24-bit sides less one
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _gif_size(data: bytes) -> tuple[int, int] | None:
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    return None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 3 or data[:1] != b"P" or data[1:2] not in b"123456" or not data[2:3].isspace():
        return None
    words = []
    for line in data[2:200].split(b"\n"):
        words += line.split(b"#")[0].split()
        if len(words) >= 2:
            break
    return (int(words[0]), int(words[1])) if len(words) >= 2 and words[0].isdigit() and words[1].isdigit() else None


@contextmanager
def quiet_opencv():
    """OpenCV's own logging silent inside (its decoders' warnings), as it was after."""
    import cv2

    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(level)
