"""The shipped models load in OpenCV's dnn module and give their documented answers on tiny
committed fixtures (``tests/vision/fixtures``: clear die crops and bare tray from every photo source
and from rendered scenes, and two small whole frames; ``build.py`` there rebuilds them with the
models). A retrained model, or an OpenCV on the Pi that computes otherwise, shows up here first."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import cv2
import pytest

from vision.faces import CROP, CROP_SCALE
from vision.finder import Candidate
from vision.reader import MODELS, Models, read_dice

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROWS = list(csv.DictReader(open(FIXTURES / "answers.csv", encoding="utf-8")))
FACES = [r for r in ROWS if r["file"].startswith("faces/")]
FRAMES = [r for r in ROWS if r["file"].startswith("frames/")]


@pytest.fixture(scope="module")
def models():
    return Models.load(MODELS)


def test_the_models_are_small_and_load_quickly():
    assert all((MODELS / f).stat().st_size < 2_000_000 for f in ("finder.onnx", "face.onnx"))
    t0 = time.perf_counter()
    Models.load(MODELS)
    assert time.perf_counter() - t0 < 5.0  # generous: the budget of 0.5 s is checked by benchmarks/reader_speed.py


def test_the_fixtures_cover_every_value_and_a_bare_tray():
    assert {int(r["label"]) for r in FACES} >= {0} and len(FACES) >= 10 and len(FRAMES) >= 2


@pytest.mark.parametrize("row", FACES, ids=[r["file"] for r in FACES])
def test_the_face_reader_gives_its_documented_answer_on_a_fixture_crop(models, row):
    patch = cv2.imread(str(FIXTURES / row["file"]), cv2.IMREAD_COLOR)
    assert patch.shape == (CROP, CROP, 3)
    probs = models.faces.probabilities(patch, [Candidate((CROP / 2, CROP / 2), CROP / CROP_SCALE, 1.0)])[0]
    label = int(row["label"])
    assert int(probs.argmax()) == label
    assert probs[label] == pytest.approx(float(row["probability"]), abs=0.02)


@pytest.mark.parametrize("row", FRAMES, ids=[r["file"] for r in FRAMES])
def test_the_reader_reads_a_small_fixture_frame_right(row):
    frame = cv2.imread(str(FIXTURES / row["file"]), cv2.IMREAD_COLOR)
    values = tuple(int(v) for v in row["label"].split())
    reading = read_dice(frame, expected=len(values))
    assert reading.ok, reading.reason
    assert reading.values == values
