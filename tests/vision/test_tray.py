"""The tray area: a die whose centre lies outside it makes the reading off_tray; and finding it in
a frame of the empty table (the guided setup's first step)."""

import cv2
import numpy as np
import pytest

from vision.reading import DiceReading, Die, unreadable, wrong_count
from vision.reader import read_dice
from vision.synth import SyntheticTable, TableLook, render_empty, render_still
from vision.tray import find_tray, inside, off_tray

AREA = (40, 30, 560, 420)
IN = Die(3, (300.0, 200.0), (280, 180, 40, 40))
OUT = Die(5, (612.0, 40.0), (592, 20, 40, 40))


def test_a_reading_with_every_die_inside_the_tray_area_or_without_an_area_is_kept_as_it_is():
    ok = DiceReading("ok", (IN,))
    assert off_tray(ok, AREA) is ok
    both = DiceReading("ok", (IN, OUT))
    assert off_tray(both, None) is both


def test_a_die_outside_the_tray_area_makes_it_off_tray_naming_that_die_and_keeping_the_dice():
    out = off_tray(DiceReading("ok", (IN, OUT)), AREA)
    assert (out.status, out.kind) == ("unreadable", "off_tray")
    assert out.reason == "the die at (612, 40) is off the tray (40, 30, 560, 420)"
    assert out.dice == (IN, OUT)


def test_a_wrong_count_or_cocked_reading_with_a_die_off_the_tray_is_off_tray_too():
    assert off_tray(wrong_count(2, (IN, OUT, IN)), AREA).kind == "off_tray"
    assert off_tray(unreadable("cocked", (OUT,), "cocked"), AREA).kind == "off_tray"


def test_noise_and_reader_failures_are_kept_as_they_are():
    failed = unreadable("reader failure", (OUT,), "failure")
    assert off_tray(failed, AREA) is failed


def test_the_tray_area_includes_its_edges():
    assert inside((40, 30), AREA) and inside((600, 450), AREA) and not inside((600.5, 450), AREA)
    assert inside((-5, -5), None)


# --- finding the tray in a frame of the empty table -----------------------------------------------


def overlap(a, b) -> float:
    """Intersection over union of two (x, y, w, h) boxes."""
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return ix * iy / (a[2] * a[3] + b[2] * b[3] - ix * iy)


def _thrown(seed: int, **mishap):
    """The shipped reader's reading, as the table takes it, of a still 2-dice throw with ``mishap``
    on a synthetic table of a random look with room beside its tray (benchmarks/mishaps.py counts more)."""
    table = SyntheticTable(2, seed=seed, look=TableLook.random(seed, tray_frac=(0.7, 0.78)))
    table.throw(n=2, **mishap)
    frame = list(table.frames(table.still_at - table.t + 0.2))[-1].image
    return off_tray(read_dice(frame, expected=2), table.tray_area)


def test_the_reader_tells_a_die_thrown_off_the_tray_and_asks_for_a_rethrow():
    readings = [_thrown(seed, off_tray=seed % 2) for seed in range(0, 8, 2)]
    assert [r.kind for r in readings] == ["off_tray"] * 4


def test_the_reader_takes_a_cocked_die_for_a_roll_at_most_once_in_eight_throws():
    # Measured with the shipped models (benchmarks/mishaps.py, 80 throws of 2 or 5 dice): told
    # "cocked" in 75, another re-throw in 3, read as a roll in 2; here told in all eight.
    readings = [_thrown(seed, cocked=seed % 2) for seed in range(0, 16, 2)]
    assert sum(r.ok for r in readings) <= 1
    assert sum(r.kind == "cocked" for r in readings) >= 6


def test_the_tray_of_an_empty_synthetic_table_is_found_whatever_its_look():
    # Felt of every colour on every table, tilted and turned cameras, glare, noise: brown felt on
    # dark wood is found by its rim.
    found = {}
    for seed in range(40):
        look = TableLook.random(seed)
        f = find_tray(render_empty(seed=seed, look=look))
        found[seed] = overlap(f.area, SyntheticTable(2, seed=seed, look=look).tray_area) if f.area else 0.0
    assert min(found.values()) >= 0.9, sorted(found.items(), key=lambda kv: kv[1])[:5]


@pytest.mark.parametrize("size", [(320, 240), (640, 480), (1280, 720)])
def test_the_tray_is_found_at_any_frame_size_in_frame_px(size):
    table = SyntheticTable(2, seed=3, look=TableLook(size=size))
    f = find_tray(table.read().image)
    assert f.kind == "" and overlap(f.area, table.tray_area) >= 0.95


def test_a_small_tray_with_the_table_around_it_is_found():
    table = SyntheticTable(5, seed=0, look=TableLook(tray_frac=(0.7, 0.78)))  # the trial table's
    assert overlap(find_tray(table.read().image).area, table.tray_area) >= 0.95


def test_dice_left_on_the_tray_never_widen_the_box_beyond_the_tray():
    for seed in range(5):
        look = TableLook.random(seed)
        image, _truth = render_still((1, 2, 3, 4, 5), seed=seed, look=look)
        f = find_tray(image)
        x, y, w, h = SyntheticTable(2, seed=seed, look=look).tray_area
        if f.area is not None:
            fx, fy, fw, fh = f.area
            margin = 0.05 * w
            assert fx >= x - margin and fy >= y - margin and fx + fw <= x + w + margin and fy + fh <= y + h + margin


def checker(h: int = 480, w: int = 640, square: int = 12) -> np.ndarray:
    """A busy table: a checkerboard, nothing plain anywhere."""
    yy, xx = np.mgrid[0:h, 0:w]
    c = ((yy // square + xx // square) % 2).astype(np.uint8)
    return np.dstack([c * 90 + 60, c * 70 + 50, c * 40 + 80]).astype(np.uint8)


def with_plain(points) -> np.ndarray:
    image = checker()
    cv2.fillPoly(image, [np.array(points)], (60, 110, 40))
    return image


NO_TRAY = {
    "dark": np.full((480, 640, 3), 8, np.uint8),                                          # a covered lens
    "busy": np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8),  # noise
    "whole": np.full((480, 640, 3), 128, np.uint8),                                      # a plain wall
    "small": with_plain([[208, 156], [432, 156], [432, 324], [208, 324]]),              # a beer mat
    "edge": with_plain([[0, 100], [640, 100], [640, 380], [0, 380]]),                   # a runner across
    "shape": with_plain([[40, 40], [300, 40], [600, 440], [340, 440]]),                 # a slanted strip
}


@pytest.mark.parametrize("kind", NO_TRAY)
def test_a_frame_without_a_tray_gives_no_area_and_says_why(kind):
    f = find_tray(NO_TRAY[kind])
    assert f.area is None and f.kind == kind and f.reason


def test_a_round_tray_is_found_by_the_box_around_it():
    image = checker()
    cv2.circle(image, (320, 240), 200, (60, 110, 40), -1)
    x, y, w, h = find_tray(image).area
    assert abs(x - 120) <= 4 and abs(y - 40) <= 4 and abs(w - 400) <= 8 and abs(h - 400) <= 8


@pytest.mark.parametrize("bad", [np.zeros((480, 640), np.uint8), np.zeros((480, 640, 3), np.float32),
                                 np.zeros((8, 8, 3), np.uint8)])
def test_what_is_not_a_frame_is_refused(bad):
    with pytest.raises(ValueError, match="find_tray"):
        find_tray(bad)
