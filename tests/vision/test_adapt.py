"""The table's own dice: the per-table heads learn what the shipped face reader gets wrong on this
table, are used only when they read the held-aside throws better and no worse, and change nothing else."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

from vision.adapt import Adaptation, AdaptedFaces, Examples, choose_die_at, fit, fit_heads, folds
from vision.faces import CLASSES, CROP, softmax
from vision.gate import Gate

E = 96


class FakeFaces:
    """A face reader whose crops say what they are: pixel (0, 0, 0) is the true label. Its logits
    read every value right except a 5, which it takes for a 6; its embedding separates the labels."""

    def __init__(self, seed: int = 0):
        self.centres = np.random.default_rng(seed).normal(0, 1, (7, E))
        self.rng = np.random.default_rng(seed + 1)

    def outputs(self, crops: np.ndarray):
        labels = crops[:, 0, 0, 0].astype(int)
        shipped = np.where(labels == 5, 6, labels)
        logits = np.full((len(crops), CLASSES), -2.0, np.float32)
        logits[np.arange(len(crops)), shipped] = 3.0
        logits[np.arange(len(crops)), labels] += 2.0 * (labels == 5)  # the 5 a close second
        emb = self.centres[labels] + self.rng.normal(0, 0.3, (len(crops), E))
        return logits, emb.astype(np.float32)


def taught(n_throws: int, dice: int = 5, seed: int = 0, not_dice: int = 1) -> Examples:
    """Crops of ``n_throws`` throws, labels drawn at random, each throw with ``not_dice`` crops of tray."""
    rng = np.random.default_rng(seed)
    labels = np.concatenate([np.r_[rng.integers(1, 7, dice), np.zeros(not_dice, int)] for _ in range(n_throws)])
    crops = np.zeros((len(labels), CROP, CROP, 3), np.uint8)
    crops[:, 0, 0, 0] = labels
    return Examples(crops, labels.astype(np.int64), np.repeat(np.arange(n_throws), dice + not_dice))


def test_the_adaptation_learns_the_tables_dice_and_says_so():
    faces = FakeFaces()
    result = fit(faces, taught(20))
    assert result.adaptation is not None and "adapted to 20 taught throws" in result.reason
    fives = taught(10, seed=5)
    logits, emb = faces.outputs(fives.crops)
    values = np.argmax(result.adaptation.adapt(logits, emb)[:, 1:7], axis=1) + 1
    dice = fives.labels > 0
    assert (values[dice] == fives.labels[dice]).all()  # the 5s the shipped reader takes for 6s too
    assert result.adapted[0] > result.shipped[0]


class NoisyFaces(FakeFaces):
    """A face reader that reads every value right, if barely, and whose embedding says nothing: a
    head fitted on it learns only noise."""

    def outputs(self, crops: np.ndarray):
        labels = crops[:, 0, 0, 0].astype(int)
        logits = np.zeros((len(crops), CLASSES), np.float32)
        logits[np.arange(len(crops)), labels] = 0.05
        return logits, self.rng.normal(0, 1, (len(crops), E)).astype(np.float32)


def test_an_adaptation_that_reads_the_held_aside_throws_worse_is_never_used():
    result = fit(NoisyFaces(), taught(12, not_dice=0))
    assert result.adaptation is None
    assert "heads read worse" in result.reason and "shipped model reads" in result.reason
    assert any(a < b for a, b in zip(result.adapted, result.shipped))


class SureFaces(NoisyFaces):
    """A face reader that already reads every value surely right: nothing left to learn."""

    def outputs(self, crops: np.ndarray):
        logits, emb = super().outputs(crops)
        return logits * 200.0, emb


def test_an_adaptation_that_reads_the_held_aside_throws_no_better_is_never_used():
    result = fit(SureFaces(), taught(12, not_dice=0))
    assert result.adaptation is None and "heads read no better" in result.reason
    assert result.adapted == result.shipped


def test_taught_values_that_contradict_many_sure_readings_are_taken_for_wrong_labels():
    # Every die taught one value off (a wrong manifest, a value corrected wrongly again and again):
    # the held-aside check scores against the same wrong labels, so this rule must refuse it.
    examples = taught(12, not_dice=0)
    wrong = Examples(examples.crops, (examples.labels % 6) + 1, examples.throws)
    result = fit(SureFaces(), wrong)
    assert result.adaptation is None
    assert "contradict 60 of the 60 taught dice" in result.reason and "check the values" in result.reason
    assert result.contradicted == (60, 60)  # for the kiosk to say so


def test_one_face_taught_as_another_among_its_right_ones_is_taken_for_wrong_labels():
    # 5s taught as 6s on most throws, under a quarter of all the dice: heads learned from them read
    # the 5s taught right as sure 6s, held aside, overruling what the model and the table agree on.
    examples = taught(24, not_dice=0)
    labels = examples.labels.copy()
    fives = np.flatnonzero(labels == 5)
    labels[fives[: 2 * len(fives) // 3]] = 6
    wrong = len(fives) * 2 // 3
    assert 3 <= wrong <= 0.25 * len(labels)
    result = fit(SureFaces(), Examples(examples.crops, labels, examples.throws))
    assert result.adaptation is None and result.contradicted == (wrong, len(labels))
    assert "otherwise or unsurely that the shipped model reads surely as taught" in result.reason


def test_a_few_taught_values_against_sure_readings_go_to_the_held_aside_check():
    # One throw corrected (5 of 60 dice): under the quarter rule, so the held-aside check decides. This
    # reader reads every die right, so the corrections are wrong: heads learned from them put the
    # dice it and the table agree on in doubt, and are refused (a reader they mend:
    # test_the_adaptation_learns_the_tables_dice_and_says_so).
    examples = taught(12, not_dice=0)
    labels = examples.labels.copy()
    labels[:5] = labels[:5] % 6 + 1
    result = fit(SureFaces(), Examples(examples.crops, labels, examples.throws))
    assert result.adaptation is None and result.contradicted == (5, 60)
    assert "heads learned from them read" in result.reason and "held-aside" in result.reason


def test_a_face_taught_only_as_another_is_taken_for_wrong_labels_though_the_held_aside_check_agrees():
    # Two throws of 5s corrected to 6s on a table whose other taught throws hold no 5: each poisoned
    # throw, held aside, is read as taught by heads learned from the other, so the check alone would
    # take heads that read every 5 of the table as a sure 6.
    examples = taught(12, not_dice=0)
    labels = np.where(examples.labels == 5, 4, examples.labels)
    crops = examples.crops.copy()
    crops[:, 0, 0, 0] = labels
    poisoned = np.zeros((4, CROP, CROP, 3), np.uint8)
    poisoned[:, 0, 0, 0] = 5
    result = fit(SureFaces(), Examples(np.concatenate([crops, poisoned]), np.r_[labels, [6, 6, 6, 6]],
                                       np.r_[examples.throws, [12, 12, 13, 13]]))
    assert result.adaptation is None and result.contradicted == (4, 64)
    assert "contradict all 4 taught dice that the shipped model reads surely as 5 (taught as 6)" in result.reason
    assert "check the values" in result.reason


def test_one_die_taught_against_a_sure_reading_goes_to_the_held_aside_check_though_its_face_is_not_confirmed():
    examples = taught(12, not_dice=0)
    labels = np.where(examples.labels == 5, 4, examples.labels)
    crops = examples.crops.copy()
    crops[:, 0, 0, 0] = labels
    crops[0, 0, 0, 0] = 5  # a 5, taught as the 4 the rest of the throws hold
    result = fit(SureFaces(), Examples(crops, labels, examples.throws))
    assert "confirm none" not in result.reason and "held aside once" in result.reason


def test_every_taught_throw_is_held_aside_once_and_a_throw_never_straddles_folds():
    examples = taught(10)
    fold = folds(examples.throws, seed=3)
    assert all(len(set(fold[examples.throws == t])) == 1 for t in range(10))
    assert sorted(np.bincount(fold[::6])) == [2, 2, 3, 3]


def test_too_few_throws_keep_the_shipped_model_and_say_why():
    result = fit(FakeFaces(), taught(3))
    assert result.adaptation is None and "too few taught throws (3" in result.reason


def test_a_head_that_learned_nothing_reads_as_the_shipped_model():
    logits, emb = FakeFaces().outputs(taught(4).crops)
    zero = Adaptation(np.zeros(E), np.ones(E), np.zeros((E, 6)), np.zeros(6), np.zeros(E), 0.0)
    assert np.allclose(zero.adapt(logits, emb), softmax(logits))


def test_the_adaptation_round_trips_through_its_json_and_refuses_other_text():
    examples = taught(8)
    logits, emb = FakeFaces().outputs(examples.crops)
    a = fit_heads(logits, emb, examples.labels, face_model="abc")
    b = Adaptation.from_json(a.to_json())
    assert b.face_model == "abc" and np.allclose(a.adapt(logits, emb), b.adapt(logits, emb))
    with pytest.raises(ValueError, match="not an adaptation"):
        Adaptation.from_json('{"mean": [1]}')
    own = replace(Adaptation.identity(E), die_at=0.5, doubt_at=0.4)
    assert (Adaptation.from_json(own.to_json()).die_at, Adaptation.from_json(own.to_json()).doubt_at) == (0.5, 0.4)
    with pytest.raises(ValueError, match="threshold outside"):
        Adaptation.from_json(own.to_json().replace('"die_at": 0.5', '"die_at": 5'))


def test_fitting_fifty_taught_throws_takes_well_under_five_seconds_of_one_core():
    faces = FakeFaces()
    start = time.process_time()
    fit(faces, taught(50))
    assert time.process_time() - start < 5.0


def test_a_fit_runs_numpys_blas_on_one_thread_and_gives_it_back_after(monkeypatch):
    from threadpoolctl import threadpool_info

    import vision.adapt as adapt

    def blas_threads() -> set[int]:
        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    seen, logistic = [], adapt._logistic
    monkeypatch.setattr(adapt, "_logistic", lambda *a, **k: seen.append(blas_threads()) or logistic(*a, **k))
    before = blas_threads()
    fit(FakeFaces(), taught(20))
    assert seen and all(threads == {1} for threads in seen)
    assert blas_threads() == before


def test_the_adapted_reader_wraps_the_probabilities_of_the_crops_it_is_given():
    class Cand:
        center, size = (16.0, 16.0), 25.6

    frame = np.zeros((32, 32, 3), np.uint8)
    frame[:, :, 0] = 5
    faces = FakeFaces()
    a = fit(faces, taught(20)).adaptation
    pr = AdaptedFaces(faces, a).probabilities(frame, [Cand()])
    assert pr.shape == (1, CLASSES) and np.argmax(pr[0]) == 5
    assert AdaptedFaces(faces, a).probabilities(frame, []).shape == (0, CLASSES)


def test_the_face_head_moves_what_the_shipped_gate_doubts_and_leaves_what_it_counts_as_a_die():
    # A head that finds every crop less of a face: the tray's doubts drop, a die the gate counts
    # surely keeps its share (fitted on few crops, such a head lowered real dice of other photos).
    faces = FakeFaces()
    cut = np.full((2, CROP, CROP, 3), 3, np.uint8)
    a = replace(Adaptation.identity(E), face_b=-8.0)
    gate = Gate(die_at=0.8, doubt_at=0.5)
    shipped = softmax(faces.outputs(cut)[0])
    pr = AdaptedFaces(faces, a, gate).crop_probabilities(cut, [0.99, 0.01])
    assert gate.die(0.99, 1 - shipped[0, 0]) >= 0.8 > gate.die(0.01, 1 - shipped[1, 0])
    assert pr[0, 0] == pytest.approx(shipped[0, 0])  # counted: as shipped
    assert pr[1, 0] > shipped[1, 0] + 0.5  # doubted: the head moves it
    assert AdaptedFaces(faces, a).crop_probabilities(cut)[0, 0] > shipped[0, 0] + 0.5  # no gate: all moved


# A gate that trusts the finder more than the face reader, as the shipped one does; a die from 0.7, a
# doubt from 0.4.
GATE = Gate(score_weight=1.0, face_weight=0.1, die_at=0.7, doubt_at=0.4, sure_at=0.9)


def throws_of(dice: list[list[float]], others: list[list[float]]):
    """(die, labels, throws) of throws whose dice and other candidates have these P(die)."""
    die, labels, throws = [], [], []
    for t, (d, o) in enumerate(zip(dice, others)):
        die += d + o
        labels += [3] * len(d) + [0] * len(o)
        throws += [t] * (len(d) + len(o))
    return np.array(die, float), np.array(labels), np.array(throws)


def test_a_table_whose_dice_the_gate_weighs_low_counts_them_from_the_middle_of_the_safe_range():
    # Its dice at 0.62-0.9, the rest at most 0.1: every threshold from 0.45 (doubt 0.15) to 0.6
    # counts all four throws right, the shipped 0.7 two of them; the middle of that range is the
    # table's, and each throw held aside is counted right by the threshold the other three choose.
    die, labels, throws = throws_of([[0.9, 0.62], [0.95, 0.66], [0.99], [0.85, 0.9]], [[0.1], [0.1], [], [0.05]])
    assert choose_die_at(die, labels, throws, GATE) == (0.5, (4, 2, 4))


def test_a_table_never_counts_as_a_die_what_its_reader_takes_for_none():
    # Its dice at 0.35, below the gate's doubt: no threshold a table may choose counts them.
    die, labels, throws = throws_of([[0.35, 0.9], [0.35], [0.9], [0.35]], [[0.01], [], [0.01], []])
    assert choose_die_at(die, labels, throws, GATE) == (0.7, (4, 1, 1))


def test_a_lower_threshold_that_one_taught_throw_alone_asks_for_is_not_taken():
    # Only the first throw needs a lower threshold: held aside, the others do not choose one, so it
    # is not counted right, and the held-aside count is the shipped one's.
    die, labels, throws = throws_of([[0.6, 0.9], [0.9], [0.95], [0.9]], [[0.1], [], [0.1], []])
    assert choose_die_at(die, labels, throws, GATE) == (0.7, (4, 3, 3))


def test_a_table_the_shipped_threshold_counts_right_keeps_it():
    die, labels, throws = throws_of([[0.9, 0.95], [0.99]], [[0.1], []])
    assert choose_die_at(die, labels, throws, GATE) == (0.7, (2, 2, 2))


def test_throws_taught_without_their_finder_scores_choose_no_threshold():
    die, labels, throws = throws_of([[0.6, 0.62], [0.6]], [[0.1], []])
    die[:] = np.nan
    assert choose_die_at(die, labels, throws, GATE) == (0.7, (0, 0, 0))


def test_a_threshold_that_would_count_a_taught_non_die_as_a_doubt_is_not_chosen():
    # The other candidate at 0.5 is not a die: any threshold low enough for the 0.6 die makes it a
    # doubt, so that throw counts wrong everywhere; the shipped threshold stays.
    die, labels, throws = throws_of([[0.9, 0.6], [0.95]], [[0.5], []])
    assert choose_die_at(die, labels, throws, GATE) == (0.7, (2, 1, 1))


def test_the_table_reads_with_its_own_die_threshold_when_its_taught_dice_are_weighed_low():
    examples = taught(12, not_dice=1)
    # The finder's peaks on this table's dice are weak (0.3: about 0.5 a die), on what is no die weaker still.
    scores = np.where(examples.labels > 0, 0.3, 0.01)
    result = fit(SureFaces(), Examples(examples.crops, examples.labels, examples.throws, scores), gate=GATE)
    a = result.adaptation
    assert a is not None and GATE.doubt_at <= a.die_at < GATE.die_at
    assert a.doubt_at == pytest.approx(a.die_at - (GATE.die_at - GATE.doubt_at))
    assert "own die threshold" in result.reason and "heads read no better" in result.reason
    assert result.counted == (12, 0, 12)
    logits, emb = SureFaces().outputs(examples.crops)
    assert np.allclose(a.adapt(logits, emb), softmax(logits))  # the heads change nothing
    assert a.gate(GATE).die_at == a.die_at and a.gate(GATE).score_weight == GATE.score_weight


def test_throws_taught_before_the_scores_were_kept_are_said_to_be_left_out_of_the_threshold():
    examples = taught(12, not_dice=1)
    scores = np.where(examples.labels > 0, 0.95, 0.01)
    scores[examples.throws < 5] = np.nan
    result = fit(SureFaces(), Examples(examples.crops, examples.labels, examples.throws, scores), gate=GATE)
    assert result.counted == (7, 7, 7) and "5 taught before finder scores were kept" in result.reason


def test_a_table_whose_dice_the_gate_already_counts_keeps_the_shipped_threshold():
    examples = taught(12, not_dice=1)
    scores = np.where(examples.labels > 0, 0.95, 0.01)
    result = fit(SureFaces(), Examples(examples.crops, examples.labels, examples.throws, scores), gate=GATE)
    assert result.adaptation is None and result.counted == (12, 12, 12)
