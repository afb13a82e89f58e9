"""dicetable read: what it says for a path that gives no image (the reader itself: tests/vision)."""

from __future__ import annotations

from appliance.cli import main


def test_read_of_a_directory_says_it_is_a_directory(tmp_path, capsys):
    assert main(["read", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path} is a directory" in err and "cannot read the image" not in err and "Traceback" not in err


def test_read_of_a_missing_file_says_there_is_no_such_file(tmp_path, capsys):
    assert main(["read", str(tmp_path / "gone.jpg")]) == 1
    assert "gone.jpg: no such file" in capsys.readouterr().err
