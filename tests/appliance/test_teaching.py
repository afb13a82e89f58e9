"""A throw corrected by hand on the kiosk is kept as the table's taught dice, but only when the
camera's last frame is that throw; the saved adaptation is used only while it is current."""

from __future__ import annotations

import json

import pytest

from appliance import teaching
from appliance.store import Store
from vision.reading import DiceReading
from vision.reader import read_dice
from vision.synth import TableLook, render_still


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path) as s:
        yield s


def frame(values=(2, 5), seed=11):
    image, _ = render_still(values, seed=seed, look=TableLook())
    return image, read_dice(image, expected=len(values))


def fit_and_save(store) -> None:
    """What the guided setup does once the players have taught their throws."""
    what = teaching.kept(store)
    teaching.save_fit(store, teaching.fit_kept(what), what)


def test_a_misread_roll_corrected_by_hand_is_kept_with_the_values_entered(store):
    image, reading = frame()
    assert reading.ok
    assert teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    _crops, labels, _throws, _scores = store.examples()
    assert sorted(labels[labels > 0]) == [2, 5]


def test_a_hand_entry_whose_throw_the_camera_did_not_settle_on_is_not_kept(store):
    image, reading = frame()
    assert not teaching.keep_correction(store, image, reading, [2, 5], misread=(3, 3))  # another throw
    assert not teaching.keep_correction(store, image, reading, [2, 5], misread=None)  # it read that one fine
    assert not teaching.keep_correction(store, None, None, [2, 5], misread=(2, 5))  # no camera
    unreadable = DiceReading("unreadable", reading.dice, reason="unsure", kind="unsure")
    assert not teaching.keep_correction(store, image, unreadable, [2, 5, 6], misread=None)  # 2 dice, 3 values
    assert store.count_examples() == (0, 0, 0)
    assert teaching.keep_correction(store, image, unreadable, [5, 2], misread=None)


@pytest.mark.parametrize("kind", ["cocked", "off_tray"])
def test_a_throw_with_a_die_cocked_or_off_the_tray_entered_by_hand_is_not_taught(store, kind):
    # A Mäxle die cocked under the cup is entered by hand for the game; its crop is no top face.
    image, reading = frame()
    cocked = DiceReading("unreadable", reading.dice, reason=kind, kind=kind)
    assert not teaching.keep_correction(store, image, cocked, [2, 5], misread=None)
    assert store.count_examples() == (0, 0, 0)


def test_the_saved_adaptation_is_used_only_while_it_matches_the_kept_dice(store):
    image, reading = frame()
    for _ in range(2):
        teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    fit_and_save(store)
    saved = json.loads(store.setting("adaptation"))
    assert saved["crops"] == store.count_examples()[1] and "too few taught throws" in saved["reason"]
    store.save_settings({"adaptation": json.dumps({**saved, "reason": "stale", "last_throw": 99})})
    assert teaching.adaptation(store)[1] != "stale"  # fitted afresh: the saved one is of other dice


def test_a_fit_afresh_at_the_start_leaves_its_reason_to_the_caller_to_journal(store, caplog):
    # The kiosk journals "the table's dice: ..." at its start; a fit afresh said it a second time.
    image, reading = frame()
    teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    caplog.set_level("INFO")
    _found, reason = teaching.adaptation(store)
    assert "too few taught throws" in reason and "the table's dice" not in caplog.text
    fit_and_save(store)
    assert caplog.text.count("the table's dice: ") == 1


def test_a_fit_afresh_is_saved_so_that_the_next_reader_finds_it_current(store, tmp_path):
    # A pulled plug between keeping a throw and saving its fit: the next writable opening (the
    # kiosk's start, a teach) fits and saves, so reads do not fit again and again.
    image, reading = frame()
    teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    assert store.setting("adaptation") is None
    _found, reason = teaching.adaptation(store)
    saved = json.loads(store.setting("adaptation"))
    assert saved["crops"] == store.count_examples()[1] and saved["reason"] == reason
    with Store.open_read_only(tmp_path) as read_only:  # now current: used as saved
        assert teaching.adaptation(read_only)[1] == reason


def test_a_read_only_store_with_a_stale_fit_fits_in_memory_and_writes_nothing(store, tmp_path):
    image, reading = frame()
    teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    with Store.open_read_only(tmp_path) as read_only:
        assert "too few taught throws" in teaching.adaptation(read_only)[1]
    assert store.setting("adaptation") is None


def test_a_throw_taught_again_with_other_values_makes_the_saved_fit_stale(store):
    # Its new values replace the newest throw's, crop for crop: a pulled plug before the new fit is
    # saved must not leave the fit of the wrong values looking current.
    image, reading = frame()
    teaching.keep_correction(store, image, reading, [2, 5], misread=tuple(reading.values))
    fit_and_save(store)
    saved = json.loads(store.setting("adaptation"))
    store.save_settings({"adaptation": json.dumps({**saved, "reason": "fitted on the wrong values"})})
    crops, labels, throws, scores = store.examples()
    store.add_throws([(crops, labels[::-1], scores)], "teach", replacing=[int(throws[0])])
    assert teaching.adaptation(store)[1] != "fitted on the wrong values"
