"""The settle detector's rules, with a reader that knows the synthetic table's truth (fast, exact):
one report per throw, none while moving, nudges, hands, counts, gaps, the tray area, the reference.
The same throws through the real reader are in test_settle_real.py."""

import numpy as np
import pytest

from vision.reading import DiceReading, Die, no_dice, unreadable, wrong_count
from vision.settle import SettleDetector, SettleParams, same_dice
from vision.synth import SyntheticTable, TableLook


class Oracle:
    """Reads the truth of the frame the table just rendered; while anything moves it reads nonsense
    (random dice), as a reader may on blurred tumbling dice. Counts its calls. ``offset``: the
    (x, y) px of the frame's crop it is handed (none: the detector reads whole frames). A die
    lying cocked makes the reading "cocked", as the reader's face model does."""

    def __init__(self, table, seed=0, offset=(0, 0)):
        self.table = table
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.offset = offset

    def __call__(self, image, expected=None, reference=None):
        self.calls += 1
        truth = self.table.truth
        if truth.moving or truth.hand:
            n = int(self.rng.integers(1, 6))
            return DiceReading("ok", tuple(Die(int(v), (float(10 * i), 10.0), (10 * i, 0, 40, 40))
                                           for i, v in enumerate(self.rng.integers(1, 7, n))))
        if not truth.dice:
            return no_dice()
        dx, dy = self.offset
        dice = tuple(Die(d.value, (d.center[0] - dx, d.center[1] - dy), (d.box[0] - dx, d.box[1] - dy) + d.box[2:])
                     for d in truth.dice)
        if truth.cocked:
            c = truth.cocked[0].center
            return unreadable(f"the die at ({c[0]:.0f}, {c[1]:.0f}) is cocked", dice + truth.cocked, "cocked")
        if expected is not None and len(dice) != expected:
            return wrong_count(expected, dice)
        return DiceReading("ok", dice)


def play(table, detector, seconds):
    """Feeds ``seconds`` of frames; returns [(frame index, Settled, truth at that frame)] and the states."""
    reports, states = [], []
    for frame in table.frames(seconds):
        update = detector.update(frame.image, frame.t, frame.index)
        states.append((update.state, table.truth))
        if update.settled is not None:
            reports.append((frame.index, update.settled, table.truth))
    return reports, states


def settle_time(table):
    return table.still_at - table.t + 1.0


@pytest.mark.parametrize("n", [2, 5])
def test_each_throw_is_reported_once_with_its_values_and_never_while_moving(n):
    table = SyntheticTable(n, seed=n)
    detector = SettleDetector(Oracle(table), expected=n)
    for k in range(4):
        values = tuple(int(v) for v in np.random.default_rng([n, k]).integers(1, 7, n))
        table.throw(values)
        reports, states = play(table, detector, settle_time(table))
        assert len(reports) == 1, reports
        index, settled, truth = reports[0]
        assert settled.ok and settled.reading.values == tuple(sorted(values))
        assert not truth.moving
        # It waited for the stillness, but not much longer than still_s and the agreeing readings.
        assert settled.t - table.still_at <= 0.4 + 0.2
        assert detector.state == "still"


def test_frames_of_tumbling_dice_are_moving():
    table = SyntheticTable(2, seed=3)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([2, 2])
    _, states = play(table, detector, 0.6)
    assert [s for s, _ in states[1:]] == ["moving"] * (len(states) - 1)


def test_a_small_nudge_is_not_a_throw_but_moving_a_die_half_a_die_or_more_is():
    table = SyntheticTable(2, seed=4)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([3, 6])
    assert len(play(table, detector, settle_time(table))[0]) == 1
    table.nudge(0, distance=0.25 * table.look.edge)
    reports, states = play(table, detector, settle_time(table))
    assert reports == [] and "moving" in [s for s, _ in states]
    table.nudge(1, distance=0.8 * table.look.edge)
    reports, _ = play(table, detector, settle_time(table))
    assert len(reports) == 1 and reports[0][1].reading.values == (3, 6)


def test_a_hand_passing_over_still_dice_is_not_a_throw():
    table = SyntheticTable(5, seed=5)
    detector = SettleDetector(Oracle(table), expected=5)
    table.throw()
    play(table, detector, settle_time(table))
    table.pass_hand(0.8)
    reports, states = play(table, detector, settle_time(table))
    assert reports == []
    assert "moving" in [s for s, _ in states] and states[-1][0] == "still"


def test_a_hand_resting_over_the_tray_is_reported_unreadable_and_the_roll_is_not_repeated_after():
    table = SyntheticTable(2, seed=6)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([4, 1])
    first, _ = play(table, detector, settle_time(table))
    table.pass_hand(0.8, rest_s=1.5)
    reports, _ = play(table, detector, settle_time(table))
    # The oracle reads the resting hand as random dice: whatever it is, it is no new roll of 1 4.
    assert all(not (s.ok and s.reading.values == (1, 4)) for _, s, _ in reports)
    assert len(first) == 1 and len(reports) <= 1


def test_a_reading_with_another_count_than_expected_is_reported_as_such_not_as_a_roll():
    table = SyntheticTable(5, seed=7)
    detector = SettleDetector(Oracle(table), expected=5)
    table.throw([1, 2, 3, 4])
    reports, _ = play(table, detector, settle_time(table))
    assert len(reports) == 1
    reading = reports[0][1].reading
    assert not reading.ok and reading.reason == "expected 5 dice, found 4" and reading.values == (1, 2, 3, 4)


def test_a_new_expected_count_reads_the_still_dice_again_under_it():
    table = SyntheticTable(5, seed=19)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([1, 2, 3, 4, 5])
    reports, _ = play(table, detector, settle_time(table))
    assert [r[1].reading.reason for r in reports] == ["expected 2 dice, found 5"]
    detector.expected = 5
    reports, _ = play(table, detector, 0.5)
    assert [(r[1].ok, r[1].reading.values) for r in reports] == [(True, (1, 2, 3, 4, 5))]
    detector.expected = 5  # the same count again changes nothing
    assert play(table, detector, 0.5)[0] == []


def test_a_reader_that_does_not_check_the_count_is_checked_by_the_detector():
    table = SyntheticTable(3, seed=8)
    blind = Oracle(table)
    detector = SettleDetector(lambda img, expected=None, reference=None: blind(img), expected=2)
    table.throw([5, 5, 6])
    reports, _ = play(table, detector, settle_time(table))
    assert [r[1].reading.reason for r in reports] == ["expected 2 dice, found 3"]


def test_readings_that_never_agree_give_one_unreadable_report():
    table = SyntheticTable(2, seed=9)
    rng = np.random.default_rng(0)

    def flicker(image, expected=None, reference=None):
        return DiceReading("ok", (Die(int(rng.integers(1, 7)), (100.0, 100.0), (80, 80, 40, 40)),
                                  Die(int(rng.integers(1, 7)), (300.0, 100.0), (280, 80, 40, 40))))

    params = SettleParams(give_up_s=1.0)
    detector = SettleDetector(flicker, expected=2, params=params)
    table.throw()
    reports, _ = play(table, detector, settle_time(table) + 1.5)
    assert len(reports) == 1
    settled = reports[0][1]
    assert not settled.ok and "disagree" in settled.reading.reason and settled.reading.kind == "disagree"
    assert settled.t >= table.still_at + params.still_s + params.give_up_s - 0.1


def test_an_agreed_roll_wins_over_unsure_readings_of_the_same_still_scene():
    """Sensor noise makes a reader miss a die now and then: the scene did not move, so three
    agreeing readings of all dice are the answer, whenever in the still spell they came."""
    table = SyntheticTable(2, seed=20)
    truth_reader = Oracle(table)
    n = [0]

    def noisy(image, expected=None, reference=None):
        reading = truth_reader(image, expected=expected)
        n[0] += 1
        if reading.ok and n[0] % 6 >= 3:  # three right, three missing a die, and so on
            return unreadable(f"expected {expected} dice, found 1", reading.dice[:1])
        return reading

    detector = SettleDetector(noisy, expected=2)
    table.throw([3, 4])
    reports, _ = play(table, detector, settle_time(table))
    assert [(r[1].ok, r[1].reading.values) for r in reports] == [(True, (3, 4))]


def test_two_different_agreed_rolls_of_one_still_scene_are_reported_unreadable():
    table = SyntheticTable(2, seed=21)
    truth_reader = Oracle(table)

    def torn(image, expected=None, reference=None):
        reading = truth_reader(image, expected=expected)
        if reading.ok and table.truth.index // 2 % 2:  # a die read as a 6 in every other pair of frames
            return DiceReading("ok", (reading.dice[0], Die(6, reading.dice[1].center, reading.dice[1].box)))
        return reading

    detector = SettleDetector(torn, expected=2, params=SettleParams(agree=2))
    table.throw([1, 2])
    reports, _ = play(table, detector, settle_time(table))
    assert len(reports) == 1 and not reports[0][1].ok and "disagree" in reports[0][1].reading.reason


def test_unsure_readings_settle_a_little_later_than_a_roll():
    table = SyntheticTable(3, seed=22)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([1, 2, 3])
    reports, _ = play(table, detector, settle_time(table))
    p = detector.params
    assert len(reports) == 1 and not reports[0][1].ok
    assert reports[0][1].t >= table.still_at + p.still_s + p.unsure_s - 0.1


def test_a_cleared_tray_is_empty_and_reported_nothing():
    table = SyntheticTable(2, seed=10)
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2)
    reports, states = play(table, detector, 1.0)
    assert reports == [] and states[-1][0] == "empty"
    table.throw([6, 6])
    assert len(play(table, detector, settle_time(table))[0]) == 1
    table.clear()
    reports, states = play(table, detector, 1.0)
    assert reports == [] and states[-1][0] == "empty"
    calls = oracle.calls
    play(table, detector, 1.0)
    assert oracle.calls == calls  # locked: a still, settled scene is not read again


def test_with_an_empty_tray_reference_an_empty_tray_is_known_without_reading_it():
    look = TableLook()
    table = SyntheticTable(2, seed=12, look=look)
    table.read()
    reference = table.read().image
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2, reference=reference)
    reports, states = play(table, detector, 1.0)
    assert reports == [] and states[-1][0] == "empty" and oracle.calls == 0
    table.throw([2, 3])
    reports, _ = play(table, detector, settle_time(table))
    assert len(reports) == 1 and oracle.calls > 0


def test_the_cup_lifted_reveals_one_roll():
    table = SyntheticTable(2, seed=13)
    detector = SettleDetector(Oracle(table), expected=2)
    table.cover([2, 1])
    reports, states = play(table, detector, settle_time(table))
    assert reports == [] and states[-1][0] == "empty"  # the cup hides the dice: nothing to read
    table.lift()
    reports, _ = play(table, detector, settle_time(table))
    assert [r[1].reading.values for r in reports] == [(1, 2)]


def test_frames_whose_time_does_not_advance_change_nothing():
    table = SyntheticTable(2, seed=14)
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2)
    table.throw([1, 3])
    frames = list(table.frames(table.still_at + 0.25))
    for f in frames:
        detector.update(f.image, f.t, f.index)
    calls, state = oracle.calls, detector.state
    for f in frames[-5:]:
        update = detector.update(f.image, f.t, f.index)  # stale repeats of older frames
        assert update.settled is None and update.reading is None
    assert oracle.calls == calls and detector.state == state


def test_after_a_gap_the_same_dice_are_not_reported_again_but_changed_dice_are():
    table = SyntheticTable(2, seed=15)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([5, 2])
    assert len(play(table, detector, settle_time(table))[0]) == 1
    for _ in table.frames(2.0):  # the camera was away for 2 s; nothing changed
        pass
    assert play(table, detector, 1.0)[0] == []
    table.throw([6, 4])
    for _ in table.frames(settle_time(table)):  # away again, and the dice were thrown meanwhile
        pass
    reports, _ = play(table, detector, 1.0)
    assert [r[1].reading.values for r in reports] == [(4, 6)]


def test_interrupt_forgets_the_still_scene_but_not_the_last_roll():
    table = SyntheticTable(2, seed=16)
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2)
    table.throw([3, 3])
    play(table, detector, settle_time(table))
    calls = oracle.calls
    detector.interrupt()
    reports, _ = play(table, detector, 1.0)
    assert reports == [] and oracle.calls > calls  # read again, found the same roll


def test_forget_reports_the_dice_lying_now_once_more():
    table = SyntheticTable(2, seed=18)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([4, 4])
    play(table, detector, settle_time(table))
    detector.forget()
    reports, _ = play(table, detector, 1.0)
    assert [r[1].reading.values for r in reports] == [(4, 4)]


def test_motion_outside_the_tray_area_is_ignored_and_dice_are_reported_in_frame_coordinates():
    table = SyntheticTable(2, seed=17)
    tray = (40, 30, 560, 420)
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2, tray=tray)
    table.throw([1, 6])
    reports, _ = play(table, detector, settle_time(table))
    for die, true in zip(sorted(reports[0][1].reading.dice, key=lambda d: d.value),
                         sorted(table.truth.dice, key=lambda d: d.value)):
        assert die.center == pytest.approx(true.center)
    rng = np.random.default_rng(1)
    for frame in table.frames(1.0):
        img = frame.image.copy()
        x = int(rng.integers(0, 600))
        img[0:25, x:x + 40] = 255  # someone's sleeve at the top edge, outside the tray
        update = detector.update(img, frame.t, frame.index)
        assert update.state == "still" and update.settled is None


ROOMY = TableLook(tray_frac=(0.7, 0.78))  # a tray with table beside it in view


def test_a_die_thrown_off_the_tray_area_makes_the_throw_off_tray_naming_where_it_lies_then_a_throw_again_counts():
    table = SyntheticTable(2, seed=4, look=ROOMY)
    detector = SettleDetector(Oracle(table), expected=2, tray=table.tray_area)
    table.throw([3, 5], off_tray=1)
    reports, _ = play(table, detector, settle_time(table))
    off = [d for d in table.truth.dice if d.value == 5][0]
    assert [r[1].reading.kind for r in reports] == ["off_tray"]
    assert f"the die at ({off.center[0]:.0f}, {off.center[1]:.0f}) is off the tray" in reports[0][1].reading.reason
    table.throw([3, 5])
    reports, _ = play(table, detector, settle_time(table))
    assert [(r[1].reading.status, r[1].reading.values) for r in reports] == [("ok", (3, 5))]


def test_without_a_tray_area_a_die_beside_the_tray_is_read_as_any_other():
    table = SyntheticTable(2, seed=4, look=ROOMY)
    detector = SettleDetector(Oracle(table), expected=2)
    table.throw([3, 5], off_tray=1)
    reports, _ = play(table, detector, settle_time(table))
    assert [(r[1].reading.status, r[1].reading.values) for r in reports] == [("ok", (3, 5))]


def test_a_cocked_die_is_reported_once_as_cocked_never_as_a_roll():
    table = SyntheticTable(2, seed=6, look=ROOMY)
    detector = SettleDetector(Oracle(table), expected=2, tray=table.tray_area)
    table.throw([2, 6], cocked=0)
    reports, _ = play(table, detector, settle_time(table) + 2.0)
    assert [r[1].reading.kind for r in reports] == ["cocked"]


def test_same_dice_allows_a_small_shift_but_not_a_big_one_or_another_value():
    a = DiceReading("ok", (Die(2, (100.0, 100.0), (80, 80, 40, 40)), Die(5, (300.0, 100.0), (280, 80, 40, 40))))
    near = DiceReading("ok", (Die(5, (310.0, 95.0), (290, 75, 40, 40)), Die(2, (100.0, 100.0), (80, 80, 40, 40))))
    far = DiceReading("ok", (Die(2, (100.0, 100.0), (80, 80, 40, 40)), Die(5, (325.0, 100.0), (305, 80, 40, 40))))
    other = DiceReading("ok", (Die(2, (100.0, 100.0), (80, 80, 40, 40)), Die(6, (300.0, 100.0), (280, 80, 40, 40))))
    assert same_dice(a, near) and not same_dice(a, far) and not same_dice(a, other) and not same_dice(a, None)


def test_a_throw_whose_dice_cannot_be_found_is_reported_unreadable_never_as_silence():
    table = SyntheticTable(2, seed=12)
    table.throw([3, 4])

    def blind(image, expected=None, reference=None):
        # Something lies there (the reader doubts), but no die was found: 0 of the 2 dice.
        return wrong_count(expected, ())

    detector = SettleDetector(blind, expected=2)
    reports, states = play(table, detector, 2.0)
    assert len(reports) == 1 and states[-1][0] == "still"
    settled = reports[0][1]
    assert not settled.ok and settled.reading.kind == "count" and settled.reading.dice == ()


def test_a_tray_area_and_reference_given_while_running_take_effect_without_reporting_the_dice_again():
    table = SyntheticTable(2, seed=4, look=ROOMY)
    oracle = Oracle(table)
    detector = SettleDetector(oracle, expected=2)
    table.throw([3, 5])
    reports, _ = play(table, detector, settle_time(table))
    assert len(reports) == 1
    detector.calibrate(table.tray_area, None)  # the guided setup found the tray
    reports, _ = play(table, detector, 1.0)
    assert reports == []  # the same dice, judged afresh: not a new throw
    table.clear()
    reference = next(table.frames(0.2)).image
    detector.calibrate(table.tray_area, reference)  # and took the empty tray
    calls = oracle.calls
    reports, states = play(table, detector, 1.0)
    assert reports == [] and states[-1][0] == "empty" and oracle.calls == calls  # known empty without reading
    table.throw([3, 5], off_tray=1)
    reports, _ = play(table, detector, settle_time(table))
    assert [r[1].reading.kind for r in reports] == ["off_tray"]


def test_a_new_expected_count_over_a_long_still_empty_tray_reports_nothing():
    # The guided setup's teach step asks for 5 dice after the tray lay empty and still for seconds:
    # the first reading under the new count gave up at once as "readings disagree (no dice)".
    table = SyntheticTable(2, seed=10)
    detector = SettleDetector(Oracle(table), expected=2)
    assert play(table, detector, 5.0)[0] == []
    detector.expected = 5
    reports, states = play(table, detector, 3.0)
    assert reports == [] and states[-1][0] == "empty"


def _restarted(values, seed):
    """A table where ``values`` were thrown and reported, and the detector a restarted kiosk makes:
    fresh, given the last roll the detector before it reported (the kiosk keeps it in its store)."""
    table = SyntheticTable(len(values), seed=seed)
    before = SettleDetector(Oracle(table, seed=seed), expected=len(values))
    table.throw(values)
    (_, last, _), = play(table, before, settle_time(table))[0]
    detector = SettleDetector(Oracle(table, seed=seed), expected=len(values))
    detector.resumed(last.reading)
    return table, detector


def test_after_a_restart_the_last_roll_still_lying_there_is_not_a_new_throw():
    table, detector = _restarted([1, 1], seed=40)
    assert play(table, detector, 2.0)[0] == []
    table.pass_hand(0.8)  # a hand over the same dice changes nothing either
    assert play(table, detector, settle_time(table))[0] == []
    table.throw([1, 1])  # the next player throws the same values: a throw
    assert [r[1].reading.values for r in play(table, detector, settle_time(table))[0]] == [(1, 1)]


def test_after_a_restart_dice_thrown_meanwhile_are_a_throw_even_with_the_same_values():
    table, detector = _restarted([6, 4], seed=41)
    table.throw([4, 6])  # thrown while the kiosk was down, or before its camera saw anything still
    assert [r[1].reading.values for r in play(table, detector, settle_time(table))[0]] == [(4, 6)]


def test_after_a_restart_a_hand_resting_first_does_not_make_the_last_roll_a_new_throw():
    table, detector = _restarted([3, 5], seed=42)
    table.pass_hand(0.8, rest_s=1.5)
    reports, _ = play(table, detector, settle_time(table) + 1.0)
    assert all(not s.ok for _, s, _ in reports)  # the hand may be unreadable; the dice under it are no throw


def test_forget_after_a_restart_reports_the_last_roll_lying_there():
    table, detector = _restarted([2, 2], seed=43)
    detector.forget()  # the table took the roll back: read the dice lying now
    assert [r[1].reading.values for r in play(table, detector, 2.0)[0]] == [(2, 2)]


def test_only_a_roll_can_be_given_back_after_a_restart():
    with pytest.raises(ValueError, match="not a roll"):
        SettleDetector(lambda *a, **k: no_dice()).resumed(wrong_count(2, ()))
