"""The photo evaluation's bookkeeping: how dice are matched to labels, how readings are scored, the
printed table and its refusals (on a small made-up photo set)."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from vision import evaluate
from vision.evaluate import Summary, match, score
from vision.photos import Photo, load_manifest
from vision.reading import DiceReading, Die


def photo(boxes, values, source="nell-byler", table_like=True) -> Photo:
    return Photo("x.jpg", source, tuple(sorted(values)), tuple(boxes), tuple(values), table_like, False)


def reading(*dice, status="ok") -> DiceReading:
    return DiceReading(status, tuple(Die(v, c, b) for v, c, b in dice))


def test_a_die_matches_a_label_by_its_centre_in_the_label_box_or_the_label_centre_in_its_box():
    p = photo([(100, 100, 40, 40), (300, 100, 10, 10)], [4, 1])
    r = reading((4, (115.0, 118.0), (100, 100, 40, 40)),  # centre inside the label box
                (1, (320.0, 130.0), (290, 90, 40, 50)))  # a pip-pattern label: its centre inside the die's box
    assert sorted(match(p, r)) == [(0, 0), (1, 1)]
    assert score(p, r).dice_right == 2


def test_matching_is_one_to_one_nearest_first_and_ignores_dice_elsewhere():
    p = photo([(100, 100, 40, 40)], [6])
    r = reading((2, (130.0, 130.0), (100, 100, 40, 40)), (6, (121.0, 119.0), (100, 100, 40, 40)),
                (5, (400.0, 400.0), (390, 390, 20, 20)))
    assert match(p, r) == [(0, 1)]
    assert score(p, r).dice_right == 1


def test_an_image_is_exact_only_when_ok_with_the_labelled_values_and_ok_wrong_when_ok_otherwise():
    p = photo([(0, 0, 10, 10), (50, 0, 10, 10)], [2, 5])
    right = reading((5, (55.0, 5.0), (50, 0, 10, 10)), (2, (5.0, 5.0), (0, 0, 10, 10)))
    assert score(p, right).exact and not score(p, right).ok_wrong
    wrong = reading((5, (55.0, 5.0), (50, 0, 10, 10)), (3, (5.0, 5.0), (0, 0, 10, 10)))
    assert score(p, wrong).ok_wrong and not score(p, wrong).exact
    unsure = DiceReading("unreadable", right.dice, "expected 3 dice, found 2")
    result = score(p, unsure)
    assert not result.exact and not result.ok_wrong and result.dice_right == 2  # its dice still count per die


def test_summaries_give_per_die_exact_unreadable_and_the_share_of_ok_readings_that_were_wrong():
    p = photo([(0, 0, 10, 10)], [3])
    results = [score(p, reading((3, (5.0, 5.0), (0, 0, 10, 10)))),
               score(p, reading((4, (5.0, 5.0), (0, 0, 10, 10)))),
               score(p, DiceReading("unreadable", (), "no dice"))]
    s = Summary.of(results)
    assert (s.images, s.dice) == (3, 3)
    assert s.per_die == pytest.approx(1 / 3) and s.exact == pytest.approx(1 / 3)
    assert s.unreadable == pytest.approx(1 / 3) and s.ok_wrong == pytest.approx(1 / 2)
    assert Summary.of([]).per_die == 0.0


def _manifest(tmp_path, rows):
    head = "file,source,n_dice,values,boxes,values_in_box_order,notes,table_like,excluded,width,height\n"
    path = tmp_path / "manifest.csv"
    path.write_text(head + "".join(rows))
    return path


def test_a_manifest_without_a_column_or_without_photos_to_score_is_refused_saying_so(tmp_path, capsys):
    short = tmp_path / "short.csv"
    short.write_text("file,source\na.png,x\n")
    assert evaluate.evaluate_manifests([short], out=io.StringIO()) == 2
    assert "missing columns boxes" in capsys.readouterr().err
    empty = _manifest(tmp_path, ['c.png,matteop65,1,6,"5,5,20,20",6,EXCLUDED: not scored,1,1,320,240\n'])
    assert evaluate.evaluate_manifests([empty], split="all", out=io.StringIO()) == 2
    assert "no photos to score" in capsys.readouterr().err
    doubtful = _manifest(tmp_path, ['c.png,rune55-purpletray,1,6,"5,5,20,20",6,UNCERTAIN,0,0,320,240\n'])
    assert evaluate.evaluate_manifests([doubtful], split="all", out=io.StringIO()) == 2  # train only, never scored


def _draw(path, values):
    """A felt tray with top-down dice drawn at known places (white, black pips), saved as PNG."""
    img = np.full((240, 320, 3), (40, 110, 50), np.uint8)
    for k, v in enumerate(values):
        cx, cy = 70 + 120 * k, 120
        cv2.rectangle(img, (cx - 25, cy - 25), (cx + 25, cy + 25), (235, 235, 232), -1)
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                 4: [(-1, -1), (-1, 1), (1, -1), (1, 1)]}[v]
        for u, w in spots:
            cv2.circle(img, (cx + 13 * u, cy + 13 * w), 5, (25, 25, 25), -1, cv2.LINE_AA)
    cv2.imwrite(str(path), cv2.GaussianBlur(img, (0, 0), 0.7))


def test_a_small_photo_set_is_read_scored_and_printed_per_source(tmp_path):
    _draw(tmp_path / "a.png", [2, 4])
    _draw(tmp_path / "b.png", [1, 3])
    path = _manifest(tmp_path, [
        'a.png,nell-byler,2,2 4,"45,95,50,50;165,95,50,50",2 4,,1,0,320,240\n',
        'b.png,matteop65,2,1 3,"45,95,50,50;165,95,50,50",1 3,,1,0,320,240\n',
        'c.png,matteop65,1,6,"5,5,20,20",6,EXCLUDED: not scored,1,1,320,240\n',
    ])
    out = io.StringIO()
    assert evaluate.evaluate_manifests([path], split="all", out=out) == 0
    text = out.getvalue()
    assert "2 photos scored" in text
    rows = {line.split()[0] + " " + line.split()[1]: line for line in text.splitlines() if line.startswith(("nell", "matt"))}
    for key in ("nell-byler all", "matteop65 table_like"):
        assert "100.0%" in rows[key]  # per die and exact
    assert evaluate.evaluate_manifests([tmp_path / "missing.csv"], out=out) == 2
    (tmp_path / "a.png").unlink()
    assert evaluate.evaluate_manifests([path], split="all", out=out) == 2  # a photo that cannot be loaded is not a reading


def test_boxes_that_lie_on_none_of_the_dice_read_are_pointed_out_beside_the_table(tmp_path):
    # Boxes of a photo twice the size: exact 100% beside per die 0%, which the table left unexplained.
    _draw(tmp_path / "a.png", [2, 4])
    path = _manifest(tmp_path, ['a.png,nell-byler,2,2 4,"90,190,100,100;330,190,100,100",2 4,,1,0,640,480\n'])
    out = io.StringIO()
    assert evaluate.evaluate_manifests([path], split="all", out=out) == 0
    assert "note: 1 photo(s) read ok where their label boxes lie on none of the dice read" in out.getvalue()
    assert evaluate.boxes_astray([score(photo([(45, 95, 50, 50)], [2]), reading((2, (70, 120), (45, 95, 50, 50))))]) == 0


def test_several_manifests_are_scored_in_one_table(tmp_path):
    for name, values in (("one", [2, 4]), ("two", [1, 3])):
        (tmp_path / name).mkdir()
        _draw(tmp_path / name / "a.png", values)
    a = _manifest(tmp_path / "one", ['a.png,nell-byler,2,2 4,"45,95,50,50;165,95,50,50",2 4,,1,0,320,240\n'])
    b = _manifest(tmp_path / "two", ['a.png,aws-reinvent2019,2,1 3,"45,95,50,50;165,95,50,50",1 3,,1,0,320,240\n'])
    out = io.StringIO()
    assert evaluate.evaluate_manifests([a, b], split="all", out=out) == 0
    text = out.getvalue()
    assert "2 photos scored" in text and "nell-byler" in text and "aws-reinvent2019" in text


def test_other_models_and_another_gates_thresholds_are_read_and_bad_ones_refused(tmp_path, capsys):
    import json

    from vision.gate import GATE
    from vision.reader import MODELS

    _draw(tmp_path / "a.png", [2, 4])
    path = _manifest(tmp_path, ['a.png,nell-byler,2,2 4,"45,95,50,50;165,95,50,50",2 4,,1,0,320,240\n'])
    args = ["--manifest", str(path), "--split", "all", "--models", str(MODELS)]
    assert evaluate.main(args) == 0
    assert "100.0%" in capsys.readouterr().out
    never = tmp_path / "gate.json"
    never.write_text(json.dumps(json.loads(GATE.read_text()) | {"cocked_at": 0.0}))  # every die "cocked"
    assert evaluate.main(args + ["--thresholds", str(never)]) == 0
    nell = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("nell-byler") and " all " in line)
    assert nell.split()[5] == "0.0%"  # exact
    assert evaluate.main(args + ["--thresholds", str(path)]) == 2
    assert "cannot load the models" in capsys.readouterr().err
    never.write_text(json.dumps(json.loads(GATE.read_text()) | {"die_at": 5, "doubt_at": -1}))
    assert evaluate.main(args + ["--thresholds", str(never)]) == 2
    assert "die_at = 5.0, doubt_at = -1.0" in capsys.readouterr().err
    assert evaluate.main(["--manifest", str(path), "--models", str(tmp_path)]) == 2
    assert "no such network file" in capsys.readouterr().err
