"""The synthetic table draws seeded, realistic frames and plays scripted throws on virtual time."""

import numpy as np
import pytest

from vision.sources import SourceClosed
from vision.synth import STYLES, SyntheticTable, TableLook, render_empty, render_still


def test_a_still_frame_is_bgr_uint8_and_its_truth_lists_every_die_inside_the_image():
    img, dice = render_still([1, 2, 3, 4, 5, 6], seed=3)
    assert img.shape == (480, 640, 3) and img.dtype == np.uint8
    assert [d.value for d in dice] == [1, 2, 3, 4, 5, 6]
    for d in dice:
        x, y, w, h = d.box
        assert 0 <= x and 0 <= y and x + w <= 640 and y + h <= 480
        assert x <= d.center[0] <= x + w and y <= d.center[1] <= y + h


def test_the_same_seed_draws_the_same_frame_and_another_seed_another():
    a, _ = render_still([3, 5], seed=7)
    b, _ = render_still([3, 5], seed=7)
    c, _ = render_still([3, 5], seed=8)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_dice_are_not_touching_unless_asked():
    for seed in range(10):
        _, dice = render_still([6] * 5, seed=seed)
        for i, a in enumerate(dice):
            for b in dice[i + 1:]:
                gap = np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
                assert gap > 1.2 * max(a.box[2], b.box[2]) * 0.9


def test_touching_dice_lie_edge_to_edge_without_overlapping():
    from vision.synth import _footprint, _overlap

    img, dice = render_still([1, 2, 3, 4, 5], seed=5, touching=True, look=TableLook())
    centres = np.array([d.center for d in dice])
    gaps = [min(np.hypot(*(c - o)) for j, o in enumerate(centres) if j != i) for i, c in enumerate(centres)]
    edge = TableLook().edge
    assert sum(g < 1.2 * edge for g in gaps) >= 2  # some dice touch
    square = _footprint(0, 0, 0.3, 10)
    assert _overlap(square, _footprint(5, 0, 0, 10)) and not _overlap(square, _footprint(20, 0, 0, 10))


def test_a_hand_over_the_tray_hides_part_of_it():
    plain, _ = render_still([3, 3], seed=6)
    handed, _ = render_still([3, 3], seed=6, hand=True)
    changed = np.abs(plain.astype(int) - handed.astype(int)).max(axis=2) > 40
    assert 0.02 < changed.mean() < 0.6


def test_a_die_has_its_colours_and_the_empty_tray_has_none():
    look = TableLook(styles=("red",), noise=0, blur=0)
    img, (die,) = render_still([5], seed=1, look=look)
    x, y = map(int, die.center)
    # The centre pip of a red five is white; next to it, between the pips, the body is red.
    assert img[y, x].min() > 180
    off = int(die.box[2] * 0.25)
    body = img[y, x + off]
    assert body[2] > 120 and body[0] < 90
    empty = render_empty(seed=1, look=look)
    assert np.abs(empty.astype(int) - img.astype(int)).max(axis=2)[y, x] > 100


def test_bad_values_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="1-6"):
        render_still([0, 7], seed=0)
    with pytest.raises(ValueError, match="1-6"):
        SyntheticTable(2).throw([2, 9])


def test_random_looks_vary_but_stay_in_range():
    looks = [TableLook.random(s) for s in range(20)]
    assert len({lk.tray for lk in looks}) > 2
    names = {s.name for s in STYLES}
    for lk in looks:
        assert set(lk.styles) <= names
        assert 0.05 * 640 <= lk.edge <= 0.1 * 640


def test_consecutive_frames_of_a_still_scene_differ_by_sensor_noise_only():
    table = SyntheticTable(2, seed=1)
    table.throw([2, 3])
    frames = [f.image for f in table.frames(table.still_at + 0.5)][-5:]
    for a, b in zip(frames, frames[1:]):
        diff = np.abs(a.astype(int) - b.astype(int))
        assert diff.max() > 0  # a real sensor never repeats a frame bit for bit
        assert diff.mean() < 5


def test_a_throw_tumbles_then_lies_still_with_the_thrown_values():
    table = SyntheticTable(5, seed=2)
    end = table.throw([6, 1, 4, 4, 2])
    assert 0.5 < end <= 1.0
    seen = []
    for frame in table.frames(end + 0.3):
        assert frame.t == pytest.approx(frame.index / 30)
        seen.append((table.truth.moving, table.truth.values))
    assert all(moving and values == () for moving, values in seen[:10])
    assert seen[-1] == (False, (1, 2, 4, 4, 6))
    assert table.frames_until_still() == 0


def test_dice_tumbling_show_changing_faces_and_move_across_the_tray():
    table = SyntheticTable(2, seed=4)
    table.throw([1, 1])
    images = [f.image for f in table.frames(1.2)]
    # The share of pixels that changed by more than sensor noise can explain, frame to frame.
    changed = [(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 40).mean() for a, b in zip(images, images[1:])]
    assert min(changed[:20]) > 0.002
    assert changed[-1] == 0


def test_the_cup_hides_the_dice_until_lifted():
    table = SyntheticTable(2, seed=5)
    table.cover([2, 1])
    for _ in table.frames(table.still_at + 0.2):
        pass
    assert table.truth.covered and table.truth.dice == ()
    end = table.lift()
    for _ in table.frames(end - table.t + 0.1):
        pass
    assert not table.truth.covered and table.truth.values == (1, 2)


def test_a_hand_passing_over_is_motion_and_leaves_the_dice_as_they_were():
    table = SyntheticTable(2, seed=6)
    table.throw([5, 3])
    list(table.frames(table.still_at + 0.1))
    before = table.truth.dice
    end = table.pass_hand(0.6)
    hand_frames = [table.truth.hand for _ in table.frames(end - table.t)]
    assert any(hand_frames)
    list(table.frames(0.1))
    assert table.truth.dice == before and not table.truth.moving


def test_a_nudge_moves_one_die_and_keeps_its_value():
    table = SyntheticTable(2, seed=7)
    table.throw([4, 6])
    list(table.frames(table.still_at + 0.1))
    before = {d.value: d.center for d in table.truth.dice}
    table.nudge(0, distance=20)
    list(table.frames(table.still_at - table.t + 0.1))
    after = {d.value: d.center for d in table.truth.dice}
    assert set(after) == {4, 6}
    moved = np.hypot(*np.subtract(after[4], before[4]))
    assert 15 < moved < 25
    with pytest.raises(IndexError):
        table.nudge(5)


def test_a_closed_table_refuses_to_read():
    table = SyntheticTable(2)
    table.close()
    with pytest.raises(SourceClosed):
        table.read()


ROOMY = TableLook(tray_frac=(0.7, 0.78))


def test_a_die_thrown_off_the_tray_lies_flat_on_the_table_beside_the_tray_area_the_others_inside():
    table = SyntheticTable(5, seed=2, look=ROOMY)
    table.throw([1, 2, 3, 4, 5], off_tray=2)
    list(table.frames(table.still_at - table.t + 0.2))
    x, y, w, h = table.tray_area
    outside = [d for d in table.truth.dice if not (x <= d.center[0] <= x + w and y <= d.center[1] <= y + h)]
    assert [d.value for d in outside] == [3] and table.truth.values == (1, 2, 3, 4, 5)
    assert outside[0].box[0] + outside[0].box[2] <= 640  # in view


def test_a_cocked_die_leans_on_the_tray_wall_and_is_told_apart_from_the_flat_dice():
    table = SyntheticTable(2, seed=2, look=ROOMY)
    table.throw([4, 6], cocked=0)
    list(table.frames(table.still_at - table.t + 0.2))
    assert table.truth.values == (6,) and [d.value for d in table.truth.cocked] == [4]
    assert table.truth.cocked[0].center[0] < table.tray_area[0] + 0.1 * 640  # against the left wall


def test_a_mishap_on_a_die_not_thrown_or_off_a_tray_that_fills_the_view_is_refused():
    with pytest.raises(ValueError, match="no die 2 among the 2 thrown"):
        SyntheticTable(2, look=ROOMY).throw([1, 2], cocked=2)
    with pytest.raises(ValueError, match="no room beside its tray"):
        SyntheticTable(2).throw([1, 2], off_tray=0)
