"""The table's taught dice in the store: kept by throw, bounded (oldest throws out), forgotten on
request, added to a store of the previous version in place, and never half-written."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import appliance.store as store_module
from appliance.store import Store


def throw(n: int, value: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8), [value] * n


def test_taught_throws_come_back_exactly_after_reopening(tmp_path):
    a, b = throw(5, 4, seed=1), throw(2, 0, seed=2)
    with Store.open(tmp_path) as s:
        assert s.add_throws([a, b], "teach") == [1, 2]
    with Store.open(tmp_path) as s:
        crops, values, throws, scores = s.examples()
        assert s.count_examples() == (2, 7, 2)
    assert np.array_equal(crops, np.concatenate([a[0], b[0]])) and crops.dtype == np.uint8
    assert list(values) == [4] * 5 + [0] * 2 and list(throws) == [1] * 5 + [2] * 2
    assert np.isnan(scores).all()  # taught without the finder's scores: unknown


def test_the_finder_scores_of_a_taught_throw_come_back_with_its_crops(tmp_path):
    crops, values = throw(3, 2)
    with Store.open(tmp_path) as s:
        s.add_throws([(crops, values, [0.9, 0.45, 0.05])], "teach")
    with Store.open(tmp_path) as s:
        assert list(s.examples()[3]) == [0.9, 0.45, 0.05]


def test_the_store_keeps_at_most_its_bound_and_drops_the_oldest_throws_first(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "MAX_EXAMPLES", 12)
    with Store.open(tmp_path) as s:
        for k in range(6):
            s.add_throws([throw(5, k + 1, seed=k)], "teach")
        crops, values, throws, _scores = s.examples()
    # 30 crops taught, 12 kept at most: whole throws go, the oldest first, so the newest two stay
    assert list(values) == [5] * 5 + [6] * 5 and list(np.unique(throws)) == [5, 6]


def test_forgetting_these_dice_removes_every_crop_and_the_adaptation(tmp_path):
    with Store.open(tmp_path) as s:
        s.add_throws([throw(5), throw(3)], "teach")
        s.save_settings({"adaptation": "{}", "language": "lv"})
        assert s.forget_examples() == 8
    with Store.open(tmp_path) as s:
        assert s.count_examples() == (0, 0, 0) and s.setting("adaptation") is None
        assert s.setting("language") == "lv"  # the rest of the settings stay


@pytest.mark.parametrize("bad", [(np.zeros((2, 32, 32), np.uint8), [1, 2]), (np.zeros((2, 32, 32, 3)), [1, 2]),
                                 (np.zeros((2, 32, 32, 3), np.uint8), [1, 7]), (np.zeros((2, 32, 32, 3), np.uint8), [1]),
                                 (np.zeros((2, 32, 32, 3), np.uint8), [1, 2], [0.5]),
                                 (np.zeros((2, 32, 32, 3), np.uint8), [1, 2], [0.5, 1.5])])
def test_a_bad_throw_is_refused_and_nothing_of_the_batch_is_kept(tmp_path, bad):
    with Store.open(tmp_path) as s:
        with pytest.raises(ValueError):
            s.add_throws([throw(5), bad], "teach")
        assert s.count_examples() == (0, 0, 0)


def test_a_store_of_the_previous_version_gets_the_taught_dice_in_place(tmp_path, upgraded):
    with Store.open(tmp_path) as s:
        game = s.start_game({"game": "maexle", "players": ["Ann", "Bo"]})
        s.record(game, {"announce": 31}, [])
        s.save_settings({"language": "de"})
    with upgraded(tmp_path, 2, ("examples", "images")) as s:
        assert s.setting("language") == "de" and len(s.unfinished().actions) == 1
        s.add_throws([throw(2)], "teach")
    with Store.open(tmp_path) as s:
        assert s.count_examples() == (1, 2, 1)


def test_crops_taught_before_the_finder_scores_were_kept_stay_and_have_none(tmp_path, upgraded):
    with Store.open(tmp_path) as s:
        s.db.execute("ALTER TABLE examples DROP COLUMN score")  # as version 4 made it
        s.db.executemany("INSERT INTO examples (throw, value, crop, source, added) VALUES (1, 4, ?, 'teach', 0)",
                         [(c.tobytes(),) for c in throw(2)[0]])
    with upgraded(tmp_path, 4, ()) as s:
        s.add_throws([(*throw(1, 5), [0.8])], "teach")
        _crops, values, throws, scores = s.examples()
    assert list(values) == [4, 4, 5] and list(throws) == [1, 1, 2]
    assert np.isnan(scores[:2]).all() and scores[2] == 0.8


TEACHER = textwrap.dedent("""
    import sys
    import numpy as np
    from appliance.store import Store
    store = Store.open(sys.argv[1])
    rng = np.random.default_rng(0)
    for n in range(10_000):
        crops = rng.integers(0, 256, (5, 32, 32, 3), dtype=np.uint8)
        store.add_throws([(crops, [n % 6 + 1] * 5)], "teach")
        print(n, flush=True)
""")


def test_a_pulled_plug_mid_teach_loses_no_throw_that_was_kept(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", TEACHER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    said = [proc.stdout.readline() for _ in range(40)]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    committed = len([line for line in said if line.strip()])
    with Store.open(tmp_path) as s:
        assert s.notice is None
        crops, values, throws, _scores = s.examples()
    n = len(np.unique(throws))
    assert n >= committed and len(values) == 5 * n  # every throw said kept is there, none in part
    assert all(len(set(values[throws == t])) == 1 for t in np.unique(throws))


@pytest.mark.parametrize("column, value", [("score", "'abc'"), ("throw", "'x'")])
def test_a_crop_with_a_damaged_score_or_throw_is_left_out_too(tmp_path, caplog, column, value):
    # A score of 'abc' raised ValueError from examples(): dicetable teach ended in a traceback.
    with Store.open(tmp_path) as s:
        s.add_throws([throw(3, 2, seed=1), throw(2, 5, seed=2)], "teach")
        s.db.execute(f"UPDATE examples SET {column} = {value} WHERE id = 1")
        crops, values, throws, scores = s.examples()
        assert crops.shape == (4, 32, 32, 3) and list(values) == [2, 2, 5, 5] and scores.dtype == np.float64
        assert s.count_examples()[1] == 4
    assert "taught die crops damaged and left out: 1" in caplog.text


def test_a_damaged_crop_is_left_out_and_the_rest_still_come_back(tmp_path, caplog):
    # One crop's bytes scribbled over (a bad sector, a hand edit): the other taught dice stay usable.
    with Store.open(tmp_path) as s:
        s.add_throws([throw(3, 2, seed=1), throw(2, 5, seed=2)], "teach")
        s.db.execute("UPDATE examples SET crop = x'0102' WHERE id = 1")
        s.db.execute("UPDATE examples SET crop = 'text' WHERE id = 4")
        crops, values, throws, _scores = s.examples()
        assert crops.shape == (3, 32, 32, 3) and list(values) == [2, 2, 5] and list(throws) == [1, 1, 2]
        assert s.count_examples() == (2, 3, 2)  # counted as examples() gives them: a fit's stamp matches
    assert "taught die crops damaged and left out: 2" in caplog.text
