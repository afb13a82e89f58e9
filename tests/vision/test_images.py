"""Image files in (``vision.images.load_image``): one reason in a user's words for every file that
gives no picture, a JPEG cut short refused before libjpeg grey-fills it, and nothing of the decoders'
own on standard error."""

from __future__ import annotations

import os

import cv2
import numpy as np
import pytest

from vision.images import ImageError, claimed_size, cut_short, load_image, save_image


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), np.random.default_rng(1).integers(0, 255, (120, 160, 3), np.uint8))
    return path


def test_a_photo_loads_as_bgr_and_grey_and_16_bit_files_become_8_bit_bgr(tmp_path, photo):
    assert load_image(photo).shape == (120, 160, 3)
    cv2.imwrite(str(tmp_path / "grey16.png"), np.full((20, 30), 40000, np.uint16))
    for flags in (None, cv2.IMREAD_UNCHANGED):
        image = load_image(tmp_path / "grey16.png", flags)
        assert image.shape == (20, 30, 3) and image.dtype == np.uint8 and 150 <= image[0, 0, 0] <= 156


def test_an_image_saved_under_any_name_loads_again_and_a_refused_write_says_why(tmp_path, photo):
    image = load_image(photo)
    odd = tmp_path / b"d\xe9.png".decode("utf-8", "surrogateescape")  # cv2.imwrite would crash on it
    save_image(odd, image)
    assert np.array_equal(load_image(odd), image)
    with pytest.raises(ImageError, match="cannot write a .txt image"):
        save_image(tmp_path / "notes.txt", image)
    with pytest.raises(ImageError, match="cannot be written: No such file or directory"):
        save_image(tmp_path / "gone" / "a.png", image)


@pytest.mark.parametrize("fraction", [0.3, 0.6, 0.95])
def test_a_jpeg_cut_short_is_refused_and_libjpeg_says_nothing(tmp_path, photo, capfd, fraction):
    data = photo.read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: int(len(data) * fraction)])
    with pytest.raises(ImageError) as exc:
        load_image(cut)
    assert exc.value.reason == "the file is cut short (a JPEG without its end)" and str(exc.value).startswith(str(cut))
    assert capfd.readouterr().err == ""
    assert not cut_short(data) and not cut_short(data + b"trailing bytes a camera left")


def test_files_that_are_no_picture_get_their_reason_and_opencv_says_nothing(tmp_path, capfd):
    cv2.imwrite(str(tmp_path / "float.tiff"), np.random.default_rng(0).random((20, 20, 3), np.float32))
    (tmp_path / "fake.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 12)
    (tmp_path / "empty.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    os.mkfifo(tmp_path / "pipe.jpg")  # reading a pipe nobody writes to would wait for ever
    expected = {"pipe.jpg": "is not a regular file (a pipe or a device)",
                "float.tiff": "not an image OpenCV can decode", "fake.png": "not an image OpenCV can decode",
                "empty.png": "the file is empty", "dot.png": "an image the reader cannot take: a frame must be at least 8x8 px",
                "gone.png": "no such file", ".": "is a directory, not an image"}
    for name, reason in expected.items():
        with pytest.raises(ImageError) as exc:
            load_image(tmp_path / name)
        assert exc.value.reason.startswith(reason)
    assert capfd.readouterr().err == ""


def _png_header_only(width: int, height: int) -> bytes:
    """A grey PNG that claims ``width`` x ``height`` pixels but holds one row of data."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * (width + 1)))
            + chunk(b"IEND", b""))


def test_an_image_claiming_over_a_billion_pixels_is_refused_with_a_reason(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_header_only(40_000, 40_000))
    with pytest.raises(ImageError) as exc:
        load_image(bomb)
    assert exc.value.reason.startswith("too large to decode")


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_an_image_claiming_more_pixels_than_any_camera_gives_is_refused_before_it_is_decoded(tmp_path, suffix):
    """A 1 MB PNG of 30000x30000 grey pixels took 5 GB to decode as BGR under OpenCV's own limit."""
    import struct

    if suffix == ".png":
        data = _png_header_only(30_000, 30_000)
    else:  # a small JPEG whose frame header is made to claim 30000x30000
        ok, buf = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))
        data = bytearray(buf.tobytes())
        sof = data.index(b"\xff\xc0")
        data[sof + 5:sof + 9] = struct.pack(">HH", 30_000, 30_000)
    bomb = tmp_path / f"bomb{suffix}"
    bomb.write_bytes(bytes(data))
    with pytest.raises(ImageError) as exc:
        load_image(bomb)
    assert exc.value.reason == "too large to decode (30000x30000 px; at most 200 million pixels)"


@pytest.mark.parametrize("encoding, params", [(".png", []), (".jpg", []), (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
                                              (".bmp", []), (".tiff", []), (".webp", []),
                                              (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]), (".ppm", [])])
def test_the_size_a_header_claims_is_the_size_decoded(encoding, params):
    ok, buf = cv2.imencode(encoding, np.zeros((37, 53, 3), np.uint8), params)
    assert claimed_size(buf.tobytes()) == (53, 37)


def test_a_bmp_claiming_more_pixels_than_any_camera_gives_is_refused_before_it_is_decoded(tmp_path):
    """A 1 KB run-length BMP of 20000x20000 took 2.4 GB and 8 s to decode."""
    import struct

    ok, buf = cv2.imencode(".bmp", np.zeros((8, 8, 3), np.uint8))
    data = bytearray(buf.tobytes())
    data[18:26] = struct.pack("<ii", 20_000, -20_000)  # top row first: a negative height
    bomb = tmp_path / "bomb.bmp"
    bomb.write_bytes(bytes(data))
    with pytest.raises(ImageError) as exc:
        load_image(bomb)
    assert exc.value.reason == "too large to decode (20000x20000 px; at most 200 million pixels)"
    assert claimed_size(b"GIF89a" + struct.pack("<HH", 640, 480)) == (640, 480)
    assert claimed_size(b"BM" + bytes(40)) == (0, 0) and claimed_size(b"\x00" * 64) is None


def test_a_file_too_large_to_be_a_photo_is_refused_before_it_is_read(tmp_path):
    """A stray 3 GB file in the photo folder: read whole, it ended in MemoryError."""
    big = tmp_path / "sparse.jpg"
    with open(big, "wb") as f:
        f.truncate(3 * 2**30)  # sparse: no disk used
    with pytest.raises(ImageError) as exc:
        load_image(big)
    assert exc.value.reason == "too large a file to be a photo (3,072 MB; at most 512 MB)"
