"""Image folders and video files play in virtual time; ``open_source`` names every kind of source."""

import os

import cv2
import numpy as np
import pytest

from vision.sources import CameraMissing, EndOfFrames, ImageFolderSource, SourceClosed, VideoFileSource, open_source
from vision.synth import SyntheticTable, TableLook, render_still


def _write_images(folder, count, size=(64, 48)):
    paths = []
    for i in range(count):
        img = np.full((size[1], size[0], 3), 20 * i + 10, np.uint8)
        path = folder / f"img_{i:02d}.png"
        cv2.imwrite(str(path), img)
        paths.append(path)
    return paths


def test_an_image_folder_plays_in_name_order_at_its_rate_each_image_held(tmp_path):
    _write_images(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not an image")
    src = ImageFolderSource(tmp_path, fps=10, hold_s=0.2)
    frames = [src.read() for _ in range(6)]
    assert [f.index for f in frames] == list(range(6))
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 10, 30, 30, 50, 50]
    assert src.current_file.name == "img_02.png"
    with pytest.raises(EndOfFrames):
        src.read()
    src.close()
    with pytest.raises(SourceClosed):
        src.read()


def test_an_unreadable_image_in_a_folder_is_skipped_and_named_with_why(tmp_path, caplog):
    _write_images(tmp_path, 2)
    (tmp_path / "img_00b.jpg").write_bytes(b"\xff\xd8 this is no jpeg")
    src = ImageFolderSource(tmp_path)
    values = [int(src.read().image[0, 0, 0]) for _ in range(2)]
    assert values == [10, 30]
    assert [(p.name, why) for p, why in src.skipped] == [("img_00b.jpg", "the file is cut short (a JPEG without its end)")]
    assert "img_00b.jpg skipped: the file is cut short" in caplog.text  # the kiosk's journal says it


def test_a_looping_folder_of_which_no_image_can_be_read_ends_saying_so(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"\xff\xd8 no jpeg")
    (tmp_path / "b.png").write_bytes(b"no png")
    src = ImageFolderSource(tmp_path, loop=True)
    with pytest.raises(EndOfFrames, match="no image in .* can be read"):
        src.read()


def test_grey_and_four_channel_files_become_bgr_frames(tmp_path):
    bgr, _ = render_still([5], seed=2, size=(160, 120))
    cv2.imwrite(str(tmp_path / "a.png"), np.dstack([bgr, np.full(bgr.shape[:2], 255, np.uint8)]))
    cv2.imwrite(str(tmp_path / "b.png"), cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    src = ImageFolderSource(tmp_path)
    a, b = src.read().image, src.read().image
    assert a.shape == b.shape == (120, 160, 3)
    assert np.array_equal(a, bgr)
    assert np.array_equal(b[:, :, 0], b[:, :, 2])


def test_a_missing_or_empty_folder_is_a_missing_camera(tmp_path):
    with pytest.raises(CameraMissing, match="no image folder"):
        ImageFolderSource(tmp_path / "nowhere")
    with pytest.raises(CameraMissing, match="no images"):
        ImageFolderSource(tmp_path)


def test_a_waiting_folder_empty_at_start_is_a_missing_camera_until_images_are_put_in(tmp_path):
    """The kiosk's folder table (``wait``): a folder its photos are copied into after the start (a
    USB stick mounted late) is a camera not yet plugged in, not one gone for good."""
    src = ImageFolderSource(tmp_path, loop=True, wait=True)
    for _ in range(2):
        with pytest.raises(CameraMissing, match="no images"):
            src.read()
    src.advance()  # the game asks for the next throw meanwhile: nothing to show yet
    _write_images(tmp_path, 2)
    assert int(src.read().image[0, 0, 0]) == 40  # the empty scene, then the photos in turn
    src.advance()
    assert int(src.read().image[0, 0, 0]) == 10


def test_a_video_file_plays_at_its_frame_rate_then_ends(tmp_path):
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (160, 120))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    table = SyntheticTable(2, seed=3, look=TableLook(size=(160, 120)))
    for f in table.frames(0.4):
        writer.write(f.image)
    writer.release()
    src = VideoFileSource(path)
    frames = []
    with pytest.raises(EndOfFrames):
        while True:
            frames.append(src.read())
    assert len(frames) == 12
    assert frames[5].t == pytest.approx(5 / 25)
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8
    src.close()
    with pytest.raises(CameraMissing):
        VideoFileSource(tmp_path / "none.avi")


def test_open_source_names_every_kind_of_source(tmp_path):
    _write_images(tmp_path, 1)
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    assert isinstance(open_source(tmp_path), ImageFolderSource)
    assert isinstance(open_source("synthetic", dice=5), SyntheticTable)
    with pytest.raises(CameraMissing, match="SOURCE"):
        open_source(str(tmp_path / "no-such-thing"))


def test_a_source_named_as_a_file_that_is_not_there_is_said_to_be_missing(tmp_path):
    for name in ("throw.mp4", str(tmp_path / "frames")):
        with pytest.raises(CameraMissing, match="no such file or folder"):
            open_source(name)
    with pytest.raises(CameraMissing, match="is not picamera, a device number, synthetic"):
        open_source("picamra")


def test_a_damaged_video_file_is_one_clear_error_without_ffmpegs_own_complaints(tmp_path, capfd):
    path = tmp_path / "throw.mp4"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(CameraMissing, match="cannot open .* as a video"):
        VideoFileSource(path)
    assert "moov" not in capfd.readouterr().err


def test_the_synthetic_source_from_the_command_line_plays_its_throws_then_ends():
    src = open_source("synthetic", dice=2, throws=2, fps=30)
    n = 0
    with pytest.raises(EndOfFrames):
        while True:
            src.read()
            n += 1
    assert 100 < n < 400


def test_a_waiting_folder_shows_an_empty_scene_then_each_image_until_the_next_is_asked_for(tmp_path):
    _write_images(tmp_path, 3)  # 10, 30, 50
    (tmp_path / "img_01b.png").write_text("not an image")
    src = ImageFolderSource(tmp_path, fps=10, loop=True, wait=True)
    frames = [src.read() for _ in range(3)]
    assert [int(f.image[0, 0, 0]) for f in frames] == [40, 40, 40] and frames[0].image.shape == (48, 64, 3)
    assert src.current_file is None and [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    seen = []
    for _ in range(4):
        src.advance()
        seen.append([int(src.read().image[0, 0, 0]) for _ in range(3)])
    assert seen == [[10] * 3, [30] * 3, [50] * 3, [10] * 3]  # each held, the broken one skipped, round again
    assert [p.name for p, _why in src.skipped] == ["img_01b.png"]  # named once, not at every round


def test_a_waiting_folder_without_loop_or_readable_images_ends(tmp_path):
    _write_images(tmp_path, 1)
    src = ImageFolderSource(tmp_path, wait=True)
    src.advance()
    src.read()
    src.advance()
    with pytest.raises(EndOfFrames):
        src.read()
    for path in tmp_path.iterdir():
        path.write_text("no longer an image")
    with pytest.raises(EndOfFrames):
        ImageFolderSource(tmp_path, wait=True, loop=True).read()


def test_a_video_whose_name_is_not_utf8_is_refused_not_crashed_on(tmp_path):
    path = tmp_path / b"w\xfcrfel.mp4".decode("utf-8", "surrogateescape")  # OpenCV would crash on it
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(CameraMissing, match="file name is not UTF-8: rename"):
        VideoFileSource(path)


@pytest.mark.parametrize("wait", [False, True])
def test_a_folder_that_goes_away_is_a_missing_camera_until_it_is_back_with_every_image(tmp_path, wait):
    folder = tmp_path / "photos"
    folder.mkdir()
    _write_images(folder, 3)
    src = ImageFolderSource(folder, loop=True, wait=wait)
    if wait:
        src.advance()
    assert int(src.read().image[0, 0, 0]) == 10
    folder.rename(tmp_path / "photos.gone")
    for _ in range(2):  # not the last image again, as if nothing happened: a fault, every time
        with pytest.raises(CameraMissing, match="no image folder"):
            src.read()
        if wait:
            src.advance()
    (tmp_path / "photos.gone").rename(folder)
    seen = set()
    for _ in range(4):
        seen.add(int(src.read().image[0, 0, 0]))
        if wait:
            src.advance()
    assert seen == {10, 30, 50} and src.skipped == []


def test_a_folder_emptied_is_a_missing_camera_and_images_put_in_later_are_used(tmp_path):
    paths = _write_images(tmp_path, 2)
    src = ImageFolderSource(tmp_path, loop=True)
    assert int(src.read().image[0, 0, 0]) == 10
    for p in paths:
        p.unlink()
    with pytest.raises(CameraMissing, match="no images"):  # not the last image counted again
        src.read()
    img = np.full((48, 64, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "new.png"), img)
    assert int(src.read().image[0, 0, 0]) == 200 and src.skipped == []


def test_images_added_to_a_playing_folder_are_played_and_one_replaced_in_view_shows_anew(tmp_path):
    _write_images(tmp_path, 2)
    src = ImageFolderSource(tmp_path, loop=True, wait=True)
    src.advance()
    assert int(src.read().image[0, 0, 0]) == 10
    cv2.imwrite(str(tmp_path / "img_00.png"), np.full((48, 64, 3), 99, np.uint8))  # overwritten in place
    os.utime(tmp_path / "img_00.png", ns=(1, 10**18))  # a clock that moved on, however coarse the file system's
    assert int(src.read().image[0, 0, 0]) == 99
    cv2.imwrite(str(tmp_path / "img_05.png"), np.full((48, 64, 3), 77, np.uint8))
    src.advance()
    src.advance()
    assert int(src.read().image[0, 0, 0]) == 77  # after img_01, the image added


def test_a_photo_caught_half_copied_is_read_again_once_it_is_whole(tmp_path):
    """cp over a photo writes it in place: the folder's listing does not change, the file's does."""
    _write_images(tmp_path, 2)
    whole = (tmp_path / "img_00.png").read_bytes()
    (tmp_path / "img_00.png").write_bytes(whole[: len(whole) // 3])
    src = ImageFolderSource(tmp_path, loop=True, wait=True)
    src.advance()
    assert int(src.read().image[0, 0, 0]) == 30  # the broken one skipped
    assert [p.name for p, _why in src.skipped] == ["img_00.png"]
    stamp = (tmp_path / "img_00.png").stat().st_mtime_ns
    (tmp_path / "img_00.png").write_bytes(whole)
    os.utime(tmp_path / "img_00.png", ns=(stamp, stamp))  # within one tick of a FAT stick's 2 s clock
    src.advance()
    assert int(src.read().image[0, 0, 0]) == 10 and src.skipped == []


def test_a_folder_that_cannot_be_read_is_a_missing_camera_not_a_crash(tmp_path, monkeypatch):
    from pathlib import Path

    _write_images(tmp_path, 2)
    src = ImageFolderSource(tmp_path, loop=True)
    src.read()
    real_stat = Path.stat

    def denied(self, *a, **k):
        if self == tmp_path:
            raise PermissionError(13, "Permission denied")
        return real_stat(self, *a, **k)

    monkeypatch.setattr(Path, "stat", denied)  # chmod 000 (root reads through it, so it is simulated)
    with pytest.raises(CameraMissing, match="Permission denied"):
        src.read()
    src.advance()  # nothing used up, nothing raised
    monkeypatch.undo()
    assert int(src.read().image[0, 0, 0]) in (10, 30)
