"""dicetable read: what it says for a path that gives no image (the reader itself: tests/vision)."""

from __future__ import annotations

from appliance.cli import main


def test_read_of_a_directory_says_it_is_a_directory(tmp_path, capsys):
    assert main(["read", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path} is a directory" in err and "not an image" not in err and "Traceback" not in err


def test_read_of_a_missing_file_says_there_is_no_such_file(tmp_path, capsys):
    assert main(["read", str(tmp_path / "gone.jpg")]) == 1
    assert "gone.jpg: no such file" in capsys.readouterr().err


def _drawn(path, values):
    """A rendered photo of ``values`` that the reader reads right (tests/vision/test_reader.py)."""
    import cv2

    from vision.synth import TableLook, render_still

    image, _truth = render_still(values, seed=40, look=TableLook())
    cv2.imwrite(str(path), image)
    return path


def _broken(folder) -> dict:
    """Files that give no image, each with the reason read gives: {path: reason}."""
    import cv2
    import numpy as np

    good = _drawn(folder / "good.jpg", [2, 5])
    cut = folder / "cut.jpg"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 3])
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "text.jpg").write_text("hello")
    (folder / "fake.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 12)
    cv2.imwrite(str(folder / "float.tiff"), np.random.default_rng(0).random((20, 20, 3), np.float32))
    cv2.imwrite(str(folder / "tiny.png"), np.zeros((1, 1, 3), np.uint8))
    (folder / "dir").mkdir()
    undecodable = "not an image OpenCV can decode"
    return {cut: "the file is cut short (a JPEG without its end)", folder / "empty.jpg": "the file is empty",
            folder / "text.jpg": undecodable, folder / "fake.png": undecodable, folder / "float.tiff": undecodable,
            folder / "tiny.png": "an image the reader cannot take", folder / "gone.jpg": "no such file",
            folder / "dir": "is a directory"}


def test_read_json_gives_a_line_for_every_input_also_the_ones_that_cannot_be_read(tmp_path, capsys):
    import json

    broken = _broken(tmp_path)
    good = tmp_path / "good.jpg"
    assert main(["read", str(good), *map(str, broken), "--dice", "2", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(good), *map(str, broken)]
    assert lines[0]["status"] == "ok" and lines[0]["values"] == [2, 5]
    for line, reason in zip(lines[1:], broken.values()):
        assert set(line) == {"file", "status", "reason"} and line["status"] == "error"
        assert line["reason"].startswith(reason), line


def test_the_image_decoders_say_nothing_of_their_own_on_stderr(tmp_path, capfd):
    """OpenCV's "[ WARN:0@0.9] global grfmt_tiff.cpp ..." and libjpeg's "Premature end of JPEG file"
    are written to the process's stderr, under Python: capfd sees them, capsys would not."""
    broken = _broken(tmp_path)
    assert main(["read", *map(str, broken)]) == 1
    err = capfd.readouterr().err.splitlines()
    assert len(err) == len(broken) and all(line.startswith("dicetable read: ") for line in err), err


def test_one_die_is_said_in_the_singular(tmp_path, capsys):
    assert main(["read", str(_drawn(tmp_path / "one.png", [4])), "--dice", "1"]) == 0
    assert "(1 die, " in capsys.readouterr().out


def test_read_manifest_that_is_a_folder_is_said_as_the_command_says_its_other_errors(tmp_path, capsys):
    assert main(["read", "--manifest", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"dicetable read: cannot read the manifest {tmp_path}: Is a directory\n"


def test_read_manifest_names_a_photo_that_is_not_beside_it(tmp_path, capsys):
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("file,source,n_dice,values,boxes,values_in_box_order,notes,table_like,excluded,width,height\n"
                        "photos/a.jpg,mine,1,3,\"1,1,10,10\",3,,1,0,64,64\n")
    assert main(["read", "--manifest", str(manifest), "--split", "all"]) == 2
    err = capsys.readouterr().err
    assert f"cannot read the photo {tmp_path / 'photos' / 'a.jpg'} of {manifest}: No such file" in err
    assert "[Errno" not in err
