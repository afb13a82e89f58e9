"""dicetable watch: one line per settled throw from any source, --json as DESIGN.md, --show frames,
clear messages and exit statuses for bad sources and a camera that never comes."""

import json

import cv2
import numpy as np
import pytest

from appliance.cli import main
from vision.images import load_image
from vision.synth import TableLook, render_still


def test_watch_synthetic_prints_one_json_line_per_throw(capsys):
    assert main(["watch", "synthetic", "--dice", "2", "--throws", "3", "--json", "--seed", "4"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    for obj in lines:
        assert set(obj) >= {"file", "values", "status", "dice", "ms", "frame"}
        assert obj["file"] == "synthetic" and obj["status"] == "ok" and len(obj["values"]) == 2
        assert obj["values"] == sorted(obj["values"]) and isinstance(obj["frame"], int)
        assert {"value", "center", "box", "confidence"} <= set(obj["dice"][0])
    assert lines[0]["frame"] < lines[1]["frame"] < lines[2]["frame"]


def test_watch_an_image_folder_held_per_image_reads_each_photo_once(tmp_path, capsys):
    truth = []
    # Three stills the reader reads (how often it reads such stills: tests/vision/test_reader.py).
    for i, values in enumerate([(2, 6), (1, 1), (3, 5)]):
        img, _ = render_still(values, seed=40 + i, look=TableLook())
        cv2.imwrite(str(tmp_path / f"throw_{i}.png"), img)
        truth.append(" ".join(map(str, sorted(values))))
    assert main(["watch", str(tmp_path), "--dice", "2", "--hold", "0.7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[1] for line in out] == truth


def test_watch_show_writes_annotated_frames_with_the_state(tmp_path, capsys):
    show = tmp_path / b"s\xe9ance".decode("utf-8", "surrogateescape")  # a Latin-1 folder name: OpenCV's imwrite crashed
    assert main(["watch", "synthetic", "--dice", "5", "--throws", "1", "--show", str(show), "--tray", "20,20,600,440"]) == 0
    names = sorted(p.name for p in show.iterdir())
    assert any(n.endswith("_settled.jpg") for n in names)
    assert any(n.endswith("_moving.jpg") for n in names) or any(n.endswith("_still.jpg") for n in names)
    settled = load_image(show / next(n for n in names if n.endswith("_settled.jpg")))
    assert settled.shape == (480, 640, 3) and settled.std() > 10
    # The boxes of the read dice are drawn on it: green for a roll, red for an unreadable reading.
    green = (settled[:, :, 1] > 200) & (settled[:, :, 0] < 40) & (settled[:, :, 2] < 40)
    red = (settled[:, :, 2] > 200) & (settled[:, :, 0] < 40) & (settled[:, :, 1] < 40)
    assert np.count_nonzero(green | red) > 100


def test_watch_a_missing_source_says_so_and_exits_2(tmp_path, capsys):
    assert main(["watch", str(tmp_path / "nothing-here")]) == 2
    assert "nothing-here" in capsys.readouterr().err


def test_watch_gives_up_on_a_camera_that_never_comes(capsys):
    assert main(["watch", "63", "--timeout", "0.1", "--give-up", "0.4"]) == 1
    err = capsys.readouterr().err
    assert "camera 63" in err and "giving up" in err


def test_watch_refuses_a_bad_tray_area_and_an_unreadable_reference(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["watch", "synthetic", "--tray", "1,2,3"])
    assert exc.value.code == 2
    assert "X,Y,W,H" in capsys.readouterr().err
    bad = tmp_path / "ref.png"
    bad.write_bytes(b"not a png")
    assert main(["watch", "synthetic", "--reference", str(bad)]) == 2
    assert "reference" in capsys.readouterr().err


def test_watch_says_so_when_the_tray_area_lies_outside_the_frame(capsys):
    assert main(["watch", "synthetic", "--tray", "700,500,100,100"]) == 2
    assert "outside" in capsys.readouterr().err


def test_watch_a_folder_of_non_images_names_each_file_once_and_exits_1(tmp_path, capsys, caplog):
    (tmp_path / "notes.jpg").write_text("not a photo")
    (tmp_path / "half.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["watch", str(tmp_path), "--dice", "2"]) == 1
    err = capsys.readouterr().err
    assert f"skipped {tmp_path / 'notes.jpg'}" in err and f"skipped {tmp_path / 'half.png'}" in err
    assert not caplog.records  # not also the image folder's warning (a second line on the terminal)
    assert "not one frame could be read" in err and "Traceback" not in err


def test_watch_show_into_a_file_is_refused_and_the_file_kept(tmp_path, capsys):
    a_file = tmp_path / "frames"
    a_file.write_text("keep me")
    assert main(["watch", "synthetic", "--throws", "1", "--show", str(a_file)]) == 2
    assert f"cannot write annotated frames to {a_file}: it is a file, not a folder" in capsys.readouterr().err
    assert a_file.read_text() == "keep me"


@pytest.mark.parametrize("option, value", [("--fps", "inf"), ("--fps", "nan"), ("--still", "nan"),
                                           ("--hold", "inf"), ("--hold", "-1"), ("--timeout", "0")])
def test_watch_refuses_a_rate_or_time_that_is_negative_or_not_finite_in_one_line(option, value, capsys):
    """--fps inf froze the synthetic table's virtual time (a 100% CPU loop); --hold inf raised."""
    with pytest.raises(SystemExit) as exc:
        main(["watch", "synthetic", "--throws", "1", option, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: must be" in err and "finite" in err and "Traceback" not in err


def test_watch_a_folder_of_photos_without_hold_says_how_to_hold_them(tmp_path, capsys):
    for i, values in enumerate([(2, 6), (1, 1)]):
        img, _ = render_still(values, seed=40 + i, look=TableLook())
        cv2.imwrite(str(tmp_path / f"throw_{i}.png"), img)
    assert main(["watch", str(tmp_path), "--dice", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no throw settled in 2 frames" in captured.err and "--hold 1" in captured.err


def test_watch_a_folder_held_shorter_than_the_settle_time_says_how_to_hold_them(tmp_path, capsys):
    for i, values in enumerate([(2, 6), (1, 1)]):
        img, _ = render_still(values, seed=40 + i, look=TableLook())
        cv2.imwrite(str(tmp_path / f"throw_{i}.png"), img)
    assert main(["watch", str(tmp_path), "--dice", "2", "--hold", "0.4"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "held 0.4 s, shorter than the settle time" in captured.err and "--hold 1" in captured.err


def test_watch_an_empty_source_is_refused_instead_of_reading_the_current_folder(capsys):
    assert main(["watch", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "SOURCE is empty" in captured.err


def test_watch_a_single_photo_says_to_read_it_with_read_and_exits_2(tmp_path, capsys):
    """One photo has nothing that moves or settles: OpenCV would open it as a video of one frame, and
    watch printed nothing and exited 0."""
    photo = tmp_path / "throw.jpg"
    img, _ = render_still((2, 6), seed=40, look=TableLook())
    cv2.imwrite(str(photo), img)
    fake = tmp_path / "roll.JPG"
    fake.write_text("hello")
    empty = tmp_path / "none.png"
    empty.write_bytes(b"")
    for source in (photo, fake, empty):
        assert main(["watch", str(source), "--dice", "2"]) == 2
        assert main(["watch", str(source), "--json"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and "Traceback" not in captured.err
        if source is photo:
            assert f"{source} is a single photo" in captured.err and f"dicetable read {source}" in captured.err
        else:  # named as a photo, but not one: said as read says it
            assert f"cannot read {source}" in captured.err and "single photo" not in captured.err


def test_watch_says_what_it_saw_of_an_unreadable_throw_in_the_words_of_read(capsys):
    from types import SimpleNamespace

    from appliance.commands.watch import _print_settled
    from vision.reading import Die, unreadable

    dice = (Die(5, (10.0, 10.0), (0, 0, 20, 20), 0.6), Die(6, (40.0, 10.0), (30, 0, 20, 20), 0.5))
    settled = SimpleNamespace(reading=unreadable("a die is unclear", dice, kind="unsure"), index=7, t=0.5)
    _print_settled(settled, "synthetic", 1.0, as_json=False)
    assert capsys.readouterr().out == "frame 7 (0.50 s): unreadable: a die is unclear (saw 5 6)\n"


def test_watch_a_folder_without_images_is_refused_with_status_2_as_its_help_says(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no photos here")
    assert main(["watch", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"no images (.jpg" in captured.err and str(tmp_path) in captured.err
