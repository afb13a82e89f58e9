"""The settle detector with the real dice reader: synthetic throws are read right, once each, never
while moving; and the real photos, played as a table with motion between them, give one report each."""

import csv
from collections import defaultdict

import cv2
import numpy as np
import pytest

from vision.reader import read_dice
from vision.settle import SettleDetector
from vision.synth import SyntheticTable


def _throws(table, detector, seconds):
    reports = []
    for frame in table.frames(seconds):
        update = detector.update(frame.image, frame.t, frame.index)
        if update.settled is not None:
            reports.append((update.settled, table.truth))
    return reports


@pytest.mark.parametrize("n, seed", [(2, 21), (5, 22)])
def test_synthetic_throws_are_read_right_once_each_and_never_while_moving(n, seed):
    table = SyntheticTable(n, seed=seed)
    detector = SettleDetector(read_dice, expected=n)
    rng = np.random.default_rng(seed)
    for k in range(4):
        values = tuple(int(v) for v in rng.integers(1, 7, n))
        table.throw(values)
        reports = _throws(table, detector, table.still_at - table.t + 0.8)
        assert len(reports) == 1, f"throw {k} of {values}: {[r.reading for r, _ in reports]}"
        settled, truth = reports[0]
        assert not truth.moving
        assert settled.ok, settled.reading.reason
        assert settled.reading.values == tuple(sorted(values)) == truth.values


def test_nudges_and_a_hand_passing_are_no_throws_for_the_real_reader_either():
    table = SyntheticTable(5, seed=23)
    detector = SettleDetector(read_dice, expected=5)
    table.throw([6, 5, 3, 3, 1])
    assert [r.reading.values for r, _ in _throws(table, detector, table.still_at - table.t + 0.8)] == [(1, 3, 3, 5, 6)]
    table.nudge(2, distance=0.2 * table.look.edge)
    assert _throws(table, detector, table.still_at - table.t + 0.8) == []
    table.pass_hand(0.7)
    assert _throws(table, detector, table.still_at - table.t + 0.8) == []


def test_lifting_the_maexle_cup_reveals_the_dice_under_it_once():
    table = SyntheticTable(2, seed=24)
    detector = SettleDetector(read_dice, expected=2)
    table.cover([1, 2])
    covered = _throws(table, detector, table.still_at - table.t + 0.8)
    assert not any(r.ok for r, _ in covered)  # whatever the reader makes of the cup, it is no roll
    table.lift()
    reports = _throws(table, detector, table.still_at - table.t + 0.8)
    assert [(r.ok, r.reading.values) for r, _ in reports] == [(True, (1, 2))]


# ------------------------------------------------------------------------------------------------
# The real photos as a table: each photo one throw, with motion frames between them


FPS = 30.0
PER_SOURCE = 4


def _photo_sets(photos_dir):
    """Per source with one image size, a few table-like photos of 2 or 5 dice, every k-th by name."""
    rows = list(csv.DictReader(open(photos_dir / "manifest.csv", newline="")))
    by_source = defaultdict(list)
    for r in rows:
        if r["table_like"] == "1" and r["excluded"] == "0" and r["n_dice"] in ("2", "5"):
            by_source[r["source"]].append(r)
    sets = {}
    for source in ("matteop65", "nell-byler", "epanemu-dice3"):
        found = sorted(by_source.get(source, []), key=lambda r: r["file"])
        step = max(1, len(found) // PER_SOURCE)
        sets[source] = found[::step][:PER_SOURCE]
    return sets


def _motion(a, b, k, n, rng):
    """Frame k of n between photo a and photo b: a cross-fade with a dark hand-sized blob sweeping over."""
    alpha = (k + 1) / (n + 1)
    img = cv2.addWeighted(a, 1 - alpha, b, alpha, 0)
    h, w = img.shape[:2]
    cx = int(w * (k + 0.5) / n)
    cv2.ellipse(img, (cx, int(h * rng.uniform(0.3, 0.7))), (w // 6, h // 4), 20, 0, 360, (60, 80, 120), -1)
    return img


@pytest.mark.parametrize("source", ["matteop65", "nell-byler", "epanemu-dice3"])
def test_real_photos_played_with_motion_between_give_one_report_each_during_its_stillness(photos_dir, source):
    rows = _photo_sets(photos_dir)[source]
    assert rows, f"no table-like photos of 2 or 5 dice from {source}"
    rng = np.random.default_rng(0)
    hold = int(0.9 * FPS)
    index = 0
    previous = None
    right = 0
    for row in rows:
        photo = cv2.imread(str(photos_dir / row["file"]), cv2.IMREAD_COLOR)
        expected = int(row["n_dice"])  # the game knows how many dice it expects
        if previous is None:
            previous = np.full_like(photo, int(photo.mean()))
            detector = SettleDetector(read_dice, expected=expected)
        detector.expected = expected
        for k in range(8):
            update = detector.update(_motion(previous, photo, k, 8, rng), index / FPS, index)
            index += 1
            assert update.settled is None, f"a report during the motion before {row['file']}"
        assert update.state == "moving"
        reports = []
        for k in range(hold):
            update = detector.update(photo, index / FPS, index)
            index += 1
            if update.settled is not None:
                reports.append((k, update.settled))
        direct = read_dice(photo, expected=expected)
        previous = photo
        if not direct.dice:
            # The reader sees no dice at all: to the detector that is an empty tray, never a report.
            assert reports == [] and update.state == "empty", row["file"]
            continue
        assert len(reports) == 1, f"{row['file']}: {len(reports)} reports"
        k, settled = reports[0]
        assert k / FPS >= detector.params.still_s - 1 / FPS  # after the stillness, not before
        # What was reported is what the reader makes of the photo itself: the detector adds nothing.
        assert (settled.reading.status, settled.reading.values) == (direct.status, direct.values), row["file"]
        right += settled.ok and " ".join(map(str, settled.reading.values)) == row["values"]
    print(f"{source}: {right} of {len(rows)} photos read right")
