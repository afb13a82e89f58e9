"""``dicetable read``: one line per photo (or one JSON object), unreadable photos say why, files that
cannot be read are reported without stopping the others, and --manifest prints the evaluation."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from appliance.cli import main
from vision.images import save_image


def _photo(path, values):
    """A photo of drawn dice with ``values`` at ``path`` (any name a Linux disk holds)."""
    img = np.full((240, 320, 3), (40, 110, 50), np.uint8)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)]}
    for k, v in enumerate(values):
        cx, cy = 70 + 120 * k, 120
        cv2.rectangle(img, (cx - 25, cy - 25), (cx + 25, cy + 25), (235, 235, 232), -1)
        for u, w in spots[v]:
            cv2.circle(img, (cx + 13 * u, cy + 13 * w), 5, (25, 25, 25), -1, cv2.LINE_AA)
    save_image(path, cv2.GaussianBlur(img, (0, 0), 0.7))
    return path


def test_read_prints_the_values_of_each_photo_or_why_it_is_unreadable(tmp_path, capsys):
    a = _photo(tmp_path / "a.png", [5, 2])
    b = _photo(tmp_path / "b.png", [3])
    assert main(["read", str(a), str(b), "--dice", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{a}: 2 5 ")
    assert out[1].startswith(f"{b}: unreadable: expected 2 dice, found 1 (saw 3)")


def test_read_json_gives_one_object_per_photo_with_the_design_fields(tmp_path, capsys):
    a = _photo(tmp_path / "a.png", [1, 3])
    assert main(["read", "--json", str(a)]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["file"] == str(a) and obj["values"] == [1, 3] and obj["status"] == "ok"
    assert set(obj["dice"][0]) == {"value", "center", "box", "confidence"} and obj["ms"] > 0


def test_read_json_writes_a_file_name_that_is_not_utf8_as_strict_json(tmp_path, capsys):
    odd = tmp_path / b"d\xe9-throw.png".decode("utf-8", "surrogateescape")  # a Latin-1 name on a Linux disk
    _photo(odd, [2])
    assert main(["read", "--json", str(odd)]) == 0
    line = capsys.readouterr().out
    line.encode("utf-8")  # no lone surrogate: any JSON reader takes it
    assert json.loads(line)["file"] == f"{tmp_path}/d\\xe9-throw.png"


def test_a_file_that_is_no_image_is_reported_and_the_others_still_read(tmp_path, capsys):
    a = _photo(tmp_path / "a.png", [2])
    junk = tmp_path / "junk.png"
    junk.write_text("not an image")
    assert main(["read", str(junk), str(tmp_path / "missing.png"), str(a)]) == 1
    captured = capsys.readouterr()
    assert f"{junk}: not an image OpenCV can decode" in captured.err and "missing.png: no such file" in captured.err
    assert captured.out.startswith(f"{a}: 2 ")


def test_read_with_a_reference_and_bad_arguments(tmp_path, capsys):
    a = _photo(tmp_path / "a.png", [5])
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), cv2.GaussianBlur(np.full((240, 320, 3), (40, 110, 50), np.uint8), (0, 0), 0.7))
    assert main(["read", str(a), "--reference", str(empty), "--dice", "1"]) == 0
    assert capsys.readouterr().out.startswith(f"{a}: 5 ")
    assert main(["read"]) == 2
    assert main(["read", str(a), "--reference", str(tmp_path / "none.png")]) == 2
    assert main(["read", str(a), "--manifest", str(tmp_path / "m.csv")]) == 2
    assert "not both" in capsys.readouterr().err
    # --manifest takes every name after it: a photo given after it is not read as a manifest.
    assert main(["read", "--manifest", str(tmp_path / "m.csv"), str(a)]) == 2
    assert f"not both ({a} is a photo, not a manifest)" in capsys.readouterr().err
    for option in (["--json"], ["--dice", "2"], ["--reference", str(empty)]):  # were ignored in silence
        assert main(["read", *option, "--manifest", str(tmp_path / "m.csv")]) == 2
        assert f"{option[0]} goes with IMAGEs, not with --manifest" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--split", "train"], ["--errors"]])
def test_read_refuses_a_scoring_option_with_images_instead_of_ignoring_it(tmp_path, capsys, option):
    a = _photo(tmp_path / "a.png", [5])
    assert main(["read", str(a), *option]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"{option[0]}" in captured.err and "goes with --manifest" in captured.err


def test_read_manifest_prints_the_per_source_table(tmp_path, capsys):
    _photo(tmp_path / "a.png", [2, 5])
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("file,source,n_dice,values,boxes,values_in_box_order,notes,table_like,excluded,width,height\n"
                        'a.png,matteop65,2,2 5,"45,95,50,50;165,95,50,50",2 5,,1,0,320,240\n')
    assert main(["read", "--manifest", str(manifest), "--split", "all", "--errors"]) == 0
    out = capsys.readouterr().out
    assert "matteop65" in out and "per die" in out and "ok wrong" in out
