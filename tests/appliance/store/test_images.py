"""Pictures the table keeps (the guided setup's empty-tray reference): kept exactly with their
settings in one commit, removed on request, refused when they are no picture, and added to a store
of the previous version in place."""

from __future__ import annotations


import numpy as np
import pytest

from appliance.store import Store


def frame(seed: int = 0, shape=(48, 64, 3)) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)


def test_a_picture_comes_back_exactly_after_reopening_with_the_settings_saved_with_it(tmp_path):
    with Store.open(tmp_path) as s:
        s.save_image("reference", frame(1), {"guided_setup": '{"step": "teach"}'})
    with Store.open(tmp_path) as s:
        back = s.image("reference")
        assert s.setting("guided_setup") == '{"step": "teach"}'
    assert back.dtype == np.uint8 and np.array_equal(back, frame(1))


def test_a_new_picture_replaces_the_old_and_none_removes_it(tmp_path):
    with Store.open(tmp_path) as s:
        s.save_image("reference", frame(1))
        s.save_image("reference", frame(2, (30, 40, 3)))
        assert np.array_equal(s.image("reference"), frame(2, (30, 40, 3)))
        s.save_image("reference", None, {"tray": ""})
        assert s.image("reference") is None and s.setting("tray") == ""
        assert s.image("never saved") is None


@pytest.mark.parametrize("bad", [np.zeros((48, 64), np.uint8), np.zeros((48, 64, 3), np.float32),
                                 np.zeros((48, 64, 4), np.uint8), np.zeros((0, 64, 3), np.uint8), "a picture"])
def test_what_is_no_picture_is_refused_and_nothing_is_saved(tmp_path, bad):
    with Store.open(tmp_path) as s:
        s.save_image("reference", frame(1))
        with pytest.raises(ValueError):
            s.save_image("reference", bad, {"guided_setup": "changed"})
        assert np.array_equal(s.image("reference"), frame(1)) and s.setting("guided_setup") is None


def test_settings_that_are_not_text_refuse_the_picture_too(tmp_path):
    with Store.open(tmp_path) as s:
        with pytest.raises(TypeError):
            s.save_image("reference", frame(1), {"step": 3})
        assert s.image("reference") is None


def test_a_store_of_the_previous_version_gets_the_pictures_in_place(tmp_path, upgraded):
    with Store.open(tmp_path) as s:
        game = s.start_game({"game": "maexle", "players": ["Ann", "Bo"]})
        s.record(game, {"announce": 31}, [])
        s.add_throws([(frame(3, (2, 32, 32, 3)), [4, 5])], "teach")
    with upgraded(tmp_path, 3, ("images", "examples.score")) as s:
        assert len(s.unfinished().actions) == 1 and s.count_examples() == (1, 2, 1)
        s.save_image("reference", frame(4))
    with Store.open(tmp_path) as s:
        assert np.array_equal(s.image("reference"), frame(4))
