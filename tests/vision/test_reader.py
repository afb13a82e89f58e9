"""The dice reader: every face reads right at any rotation and size, touching dice are split or called
unreadable, and nothing that is not a clear roll ever reads as one (never a value from nothing, never
an exception on a frame the normaliser accepts)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.finder import Candidate
from vision.frames import FrameError
from vision.gate import Gate
from vision.reader import ReaderParams, Weighed, decide, read_dice
from vision.synth import TableLook, render_empty, render_still

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}
WHITE, BLACK, RED, FELT = (235, 235, 232), (25, 25, 25), (40, 40, 190), (40, 110, 50)


def table(seed: int = 0, size=(640, 480), colour=FELT) -> np.ndarray:
    """A plain felt tray with a little sensor noise, (H, W, 3) uint8 BGR."""
    rng = np.random.default_rng(seed)
    img = np.empty((size[1], size[0], 3), np.float64)
    img[:] = colour
    return np.clip(img + rng.normal(0, 3, (size[1], size[0], 1)), 0, 255).astype(np.uint8)


def draw_die(img, center, side, angle, value, body=WHITE, pip=BLACK, glare_in=None):
    """A die seen from straight above: a rounded square ``side`` px turned by ``angle`` degrees,
    pips a fifth of the face across at 0.27 of the side from its middle (drawn at 1/8 px)."""
    s8 = 8
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def pt(u, v):
        x, y = rot @ np.array([u, v]) * side + np.array(center, float)
        return (int(round(x * s8)), int(round(y * s8)))

    outline = []
    for qx, qy, a0 in ((0.5, 0.5, 0), (-0.5, 0.5, 90), (-0.5, -0.5, 180), (0.5, -0.5, 270)):
        cx, cy = qx - math.copysign(0.12, qx), qy - math.copysign(0.12, qy)
        outline += [pt(cx + 0.12 * math.cos(math.radians(a0 + t)), cy + 0.12 * math.sin(math.radians(a0 + t)))
                    for t in range(0, 91, 15)]
    cv2.fillPoly(img, [np.array(outline, np.int32)], body, lineType=cv2.LINE_AA, shift=3)
    r = int(round(0.09 * side * s8))
    for k, (u, v) in enumerate(PIPS[value]):
        cv2.circle(img, pt(0.27 * u, 0.27 * v), r, pip, -1, lineType=cv2.LINE_AA, shift=3)
        if glare_in == k:  # a white speck of lamp glare inside this pip
            cv2.circle(img, pt(0.27 * u + 0.03, 0.27 * v - 0.03), max(s8, r // 3), (255, 255, 255), -1,
                       lineType=cv2.LINE_AA, shift=3)
    return img


def soften(img: np.ndarray) -> np.ndarray:
    """A camera's slight blur."""
    return cv2.GaussianBlur(img, (0, 0), 0.7)


def no_failure(reading) -> None:
    """The reader's safety net must never be what answered."""
    assert not reading.reason.startswith("reader failure"), reading.reason


@pytest.mark.parametrize("value", range(1, 7))
def test_every_face_reads_right_at_any_rotation_from_20_to_130_px(value):
    # 130 px is 27% of the frame's short side. At 160 px (a third) 4 of the 30 faces are not found
    # yet: large dice are the finder's weak spot (vision/models/README.md).
    for side in (20, 30, 48, 80, 130):
        for angle in (0, 17, 33, 45, 71):
            img = soften(draw_die(table(seed=value * 100 + angle), (320, 240), side, angle, value))
            reading = read_dice(img, expected=1)
            assert reading.ok and reading.values == (value,), (side, angle, reading.reason)


def test_dice_of_15_px_are_read_right_or_called_unreadable_never_wrong():
    right = 0
    for value in range(1, 7):
        for angle in (0, 17, 33, 45, 71):
            reading = read_dice(soften(draw_die(table(seed=value + angle), (320, 240), 15, angle, value)), expected=1)
            no_failure(reading)
            assert not reading.ok or reading.values == (value,)
            right += reading.ok
    assert right >= 24  # of 30: the 5s and 6s of a 15 px die are at the edge of what pixels hold


@pytest.mark.parametrize("side", [15, 1013], ids=["15 px", "a third of the short side"])
def test_a_pi_hq_camera_frame_reads_dice_from_15_px_to_a_third_of_its_short_side(side):
    # 4056x3040: the small dice are found at the finer levels the reader reads while dice are missing.
    img = table(seed=1, size=(4056, 3040))
    draw_die(img, (1300, 1100), side, 20, 2)
    draw_die(img, (2800, 1950), side, 50, 5)
    reading = read_dice(soften(img), expected=2)
    assert reading.ok and reading.values == (2, 5), reading.reason


def test_light_pips_on_dark_dice_and_coloured_pips_read_alike():
    img = table(seed=7)
    for (value, centre, body, pip) in ((3, (160, 160), BLACK, WHITE), (5, (360, 180), RED, WHITE),
                                       (6, (250, 330), WHITE, RED), (4, (480, 330), (40, 200, 235), BLACK)):
        draw_die(img, centre, 56, 20, value, body, pip)
    reading = read_dice(soften(img), expected=4)
    assert reading.ok and reading.values == (3, 4, 5, 6), reading.reason


def test_a_glare_dot_inside_a_pip_of_a_six_still_reads_six():
    for k in range(12):
        img = soften(draw_die(table(seed=k), (300, 250), 50, k * 7, 6, glare_in=k % 6))
        reading = read_dice(img, expected=1)
        assert reading.ok and reading.values == (6,), (k, reading.reason)


def test_swapped_channels_grey_four_channel_16_bit_and_float_frames_read_the_same():
    img = table(seed=3)
    for k, (value, centre) in enumerate(((2, (200, 200)), (5, (400, 260)), (6, (300, 360)))):
        draw_die(img, centre, 50, 20 * k, value)
    img = soften(img)
    variants = {
        "bgr": img, "rgb": np.ascontiguousarray(img[:, :, ::-1]), "grey": cv2.cvtColor(img, cv2.COLOR_BGR2GRAY),
        "grey 1-channel": cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[:, :, None],
        "bgra": cv2.cvtColor(img, cv2.COLOR_BGR2BGRA), "16 bit": img.astype(np.uint16) * 257,
        "float": img.astype(np.float32) / 255.0,
    }
    for name, frame in variants.items():
        reading = read_dice(frame, expected=3)
        assert reading.ok and reading.values == (2, 5, 6), (name, reading.reason)


def test_a_reading_lists_each_die_with_its_centre_box_and_confidence():
    img = table(seed=5)
    draw_die(img, (180, 300), 60, 10, 4)
    draw_die(img, (450, 150), 60, 40, 1)
    reading = read_dice(soften(img), expected=2)
    assert reading.ok and reading.values == (1, 4)
    assert [d.value for d in reading.dice] == [1, 4]  # reading order: top to bottom
    for die, (cx, cy) in zip(reading.dice, ((450, 150), (180, 300))):
        assert math.hypot(die.center[0] - cx, die.center[1] - cy) < 6
        x, y, w, h = die.box
        # The box is the finder's estimate of the whole die: about 1.5 times a 60 px face, up to
        # twice it for a lone 1 pip turned by 40 degrees.
        assert x <= die.center[0] <= x + w and y <= die.center[1] <= y + h and 40 <= w <= 125
        assert 0.0 <= die.confidence <= 1.0
    assert reading.to_json()["values"] == [1, 4]


def test_a_count_other_than_the_expected_one_is_unreadable_with_the_dice_it_saw():
    img = table(seed=6)
    for k, value in enumerate((2, 3, 5)):
        draw_die(img, (150 + 160 * k, 240), 50, 15 * k, value)
    reading = read_dice(soften(img), expected=2)
    assert not reading.ok and reading.reason == "expected 2 dice, found 3" and reading.kind == "count"
    assert reading.values == (2, 3, 5)
    assert read_dice(soften(img)).values == (2, 3, 5)  # no count given: whatever is on the tray


def _touching(seed: int):
    """Three drawn dice in an L, sharing edges (no gap, no shading between them), and their values."""
    rng = np.random.default_rng(seed)
    side, angle = int(rng.integers(30, 70)), float(rng.uniform(0, 90))
    values = [int(v) for v in rng.integers(1, 7, 3)]
    a = math.radians(angle)
    across, down = np.array([math.cos(a), math.sin(a)]) * side, np.array([-math.sin(a), math.cos(a)]) * side
    img = table(seed=seed)
    for value, offset in zip(values, (np.zeros(2), across, down)):
        draw_die(img, tuple(np.array([320.0, 240.0]) + offset), side, angle, value)
    return soften(img), tuple(sorted(values))


def test_touching_dice_of_one_set_are_never_read_wrong():
    for seed in range(30):
        img, values = _touching(seed)
        reading = read_dice(img, expected=3)
        no_failure(reading)
        assert not reading.ok or reading.values == values, (seed, values, reading.values)


@pytest.mark.xfail(strict=True, reason="measured: 0 of 30 read; the finder takes dice drawn "
                   "touching without any edge between them for fewer dice")
def test_touching_dice_of_one_set_are_mostly_split():
    right = sum(read_dice(img, expected=3).values == values for img, values in map(_touching, range(30)))
    assert right >= 10


@pytest.mark.parametrize("reference", [True, False], ids=["with reference", "without reference"])
def test_synthetic_tables_read_right_or_unreadable_never_wrong(reference):
    right = 0
    for seed in range(30):
        rng = np.random.default_rng(seed + 1000)
        n = int(rng.choice([2, 5]))
        values = [int(v) for v in rng.integers(1, 7, n)]
        img, truth = render_still(values, seed=seed)
        reading = read_dice(img, expected=n, reference=render_empty(seed=seed) if reference else None)
        no_failure(reading)
        assert not reading.ok or reading.values == tuple(sorted(values)), (seed, values, reading.values)
        right += reading.ok
    assert right >= 24  # of 30


def test_synthetic_touching_dice_and_a_hand_over_the_tray_never_read_wrong():
    for seed in range(12):
        values = [1 + (seed + k) % 6 for k in range(5)]
        for kwargs in ({"touching": True}, {"hand": True}):
            img, _ = render_still(values, seed=seed, **kwargs)
            reading = read_dice(img, expected=5, reference=render_empty(seed=seed))
            no_failure(reading)
            assert not reading.ok or reading.values == tuple(sorted(values)), (seed, kwargs, reading.values)


def test_side_faces_of_a_tilted_view_do_not_count():
    look = TableLook(tilt_deg=30.0, distance=600.0, die_px=60.0, styles=("white",))
    right = 0
    for seed in range(10):
        values = [1 + seed % 6, 1 + (seed + 3) % 6]
        img, _ = render_still(values, seed=seed, look=look)
        reading = read_dice(img, expected=2)
        no_failure(reading)
        assert not reading.ok or reading.values == tuple(sorted(values)), (seed, values, reading.values)
        right += reading.ok
    assert right >= 7


def test_an_empty_tray_read_against_its_reference_holds_no_dice():
    for seed in range(20):
        tray = render_empty(seed=seed)
        for expected in (None, 2, 5):
            reading = read_dice(tray, expected=expected, reference=tray)
            no_failure(reading)
            assert not reading.ok and reading.values == (), (seed, reading)


def test_plain_and_noise_frames_hold_no_dice():
    frames = {
        "black": np.zeros((480, 640, 3), np.uint8),
        "white": np.full((480, 640, 3), 255, np.uint8), "felt": table(seed=2),
        "noise": np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8),
        "grey noise": np.random.default_rng(1).integers(0, 256, (480, 640), dtype=np.uint8),
    }
    for name, frame in frames.items():
        for expected in (None, 2, 5):
            reading = read_dice(frame, expected=expected)
            no_failure(reading)
            assert not reading.ok and reading.values == (), (name, reading)
            assert reading.kind == ("noise" if "noise" in name else "no_dice"), (name, reading)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hnp.arrays(st.sampled_from([np.uint8, np.uint16, np.float32]),
                  st.tuples(st.integers(8, 96), st.integers(8, 96), st.sampled_from([1, 3, 4])),
                  elements={"allow_nan": False, "allow_infinity": False, "min_value": 0, "max_value": 1}),
       st.sampled_from([None, 1, 2, 5]))
def test_any_frame_the_normaliser_accepts_never_raises(frame, expected):
    if frame.dtype != np.float32:
        frame = (frame * np.iinfo(frame.dtype).max).astype(frame.dtype)
    reading = read_dice(frame, expected=expected)
    no_failure(reading)
    assert reading.status in ("ok", "unreadable")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(64, 48), (160, 120), (640, 480)]))
def test_random_noise_and_blocks_are_never_a_roll(seed, size):
    rng = np.random.default_rng(seed)
    w, h = size
    blocks = rng.integers(0, 256, (max(2, h // 16), max(2, w // 16), 3), dtype=np.uint8)
    for frame in (rng.integers(0, 256, (h, w, 3), dtype=np.uint8),
                  cv2.resize(blocks, (w, h), interpolation=cv2.INTER_NEAREST)):
        reading = read_dice(frame, expected=2)
        no_failure(reading)
        assert not reading.ok


@pytest.mark.parametrize("bad", [np.zeros((4, 4, 3), np.uint8), np.zeros((10, 10, 5), np.uint8),
                                 np.zeros((10, 10), np.int64), np.full((10, 10), np.nan, np.float32), "frame"])
def test_a_frame_the_normaliser_rejects_raises_its_frame_error(bad):
    with pytest.raises(FrameError):
        read_dice(bad)


def test_a_reference_of_another_size_or_kind_is_ignored():
    img = soften(draw_die(table(seed=9), (320, 240), 60, 25, 5))
    plain = read_dice(img, expected=1)
    assert plain.ok and plain.values == (5,)
    for ref in (np.zeros((100, 100, 3), np.uint8), np.zeros(3), "reference"):
        assert read_dice(img, expected=1, reference=ref).values == (5,)


def test_the_empty_tray_reference_reads_the_same_table():
    img, truth = render_still([6, 3], seed=11)
    reading = read_dice(img, expected=2, reference=render_empty(seed=11))
    assert reading.ok and reading.values == (3, 6)


def test_reader_params_are_one_frozen_set_of_defaults():
    p = ReaderParams()
    with pytest.raises(AttributeError):
        p.min_die = 3  # type: ignore[misc]
    img = soften(draw_die(table(seed=4), (320, 240), 40, 10, 2))
    assert read_dice(img, expected=1, params=ReaderParams(min_die=100)).values == ()  # too small now


# The decision on weighed candidates (``vision.reader.decide``), with a gate of round thresholds.
GATE = Gate(die_at=0.8, doubt_at=0.7, sure_at=0.8, cocked_at=0.1, fill_at=0.1)


def weighed(x: float, die: float, value: int = 3, confidence: float = 0.99, cocked: float = 0.0) -> Weighed:
    """A candidate 40 px wide at (x, 100) the gate weighs ``die`` likely a die."""
    return Weighed(Candidate((x, 100.0), 40.0, 0.5), die, value, confidence, cocked)


def test_a_weak_candidate_that_completes_the_expected_count_is_the_missing_die():
    reading = decide([weighed(100, 0.99, 5), weighed(200, 0.4, 2)], 2, GATE)
    assert reading.ok and reading.values == (2, 5)


@pytest.mark.parametrize("reads, why", [
    ([weighed(100, 0.99, 5), weighed(200, 0.4, 2), weighed(300, 0.15)], "a second weak candidate: which one is the die?"),
    ([weighed(100, 0.99, 5), weighed(200, 0.4, 2, confidence=0.6)], "its value not sure"),
    ([weighed(100, 0.99, 5), weighed(200, 0.4, 2, cocked=0.5)], "leaning"),
    ([weighed(100, 0.99, 5), weighed(200, 0.05, 2)], "below the weakest that may complete a count"),
])
def test_a_count_short_stays_unreadable_unless_exactly_the_missing_dice_are_there_and_read_surely(reads, why):
    assert not decide(reads, 2, GATE).ok, why


def test_without_an_expected_count_a_weak_candidate_is_a_doubt_or_nothing():
    assert decide([weighed(100, 0.99, 5), weighed(200, 0.75)], None, GATE).kind == "unsure"
    assert decide([weighed(100, 0.99, 5), weighed(200, 0.4)], None, GATE).values == (5,)
