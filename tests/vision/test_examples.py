"""Taught throws become labelled crops as the reader cuts them: the values go to the dice the
reader finds (any order given), a wrong count or a value outside 1-6 teaches nothing; the reader
reads with a table's adaptation only when given one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.adapt import Adaptation
from vision.examples import LabelError, assign, check_values, from_values
from vision.faces import CLASSES, CROP
from vision.reader import _models, read_dice
from vision.synth import render_still



def test_the_values_of_a_throw_go_to_its_dice_whatever_order_they_are_given_in():
    frame, truth = render_still((2, 5, 6), seed=4)
    crops, labels, scores = from_values(frame, (6, 2, 5), _models())
    assert crops.shape[1:] == (CROP, CROP, 3) and crops.dtype == np.uint8
    assert scores.shape == labels.shape and ((scores > 0) & (scores <= 1)).all()
    assert sorted(labels[labels > 0]) == [2, 5, 6]
    dice = labels > 0
    shipped = np.argmax(_models().faces.logits(crops[dice])[:, 1:7], axis=1) + 1
    assert read_dice(frame, expected=3).values == (2, 5, 6)
    assert list(shipped) == list(labels[dice])  # each die its own value, as the reader reads them

def test_a_misread_die_gets_the_value_left_over():
    pr = np.full((3, CLASSES), 0.01)
    pr[0, 2], pr[1, 4], pr[2, 4] = 0.9, 0.9, 0.6  # the reader saw 2, 4, 4; the throw was 2, 4, 1
    assert assign(pr, (1, 2, 4)) == [2, 4, 1]


@pytest.mark.parametrize("values, message", [((1, 2), "finds 3 dice there, but 2 values were given"),
                                             ((1,), "finds 3 dice there, but 1 value was given"),
                                             ((1, 2, 3, 4), "finds 3 dice there, but 4 values were given"),
                                             ((1, 2, 7), "1-6, not 7"), (("x", 2, 3), "1-6, not 'x'")])
def test_labels_that_do_not_fit_the_throw_are_refused(values, message):
    frame, _ = render_still((2, 5, 6), seed=4)
    with pytest.raises(LabelError, match=message):
        from_values(frame, values, _models())


def test_a_throw_the_reader_counts_short_is_taught_with_the_candidates_likeliest_to_be_dice():
    # The reader doubts every die here (its die threshold raised out of reach, and no value sure
    # enough for the expected count to complete the throw): told that three dice lie there, the
    # table takes its three likeliest candidates as the dice, so that it can learn to count them.
    frame, _ = render_still((2, 5, 6), seed=4)
    models = _models()
    unsure = replace(models, gate=replace(models.gate, die_at=0.9999, doubt_at=0.3, sure_at=1.01))
    assert not read_dice(frame, expected=3, models=unsure).ok
    crops, labels, scores = from_values(frame, (6, 2, 5), unsure)
    taught, _, _ = from_values(frame, (6, 2, 5), models)
    assert sorted(labels[labels > 0]) == [2, 5, 6] and np.array_equal(crops[:3], taught[:3])


def test_no_values_are_refused():
    with pytest.raises(LabelError, match="no values"):
        check_values([])


def test_the_reader_reads_with_a_tables_adaptation_only_when_given_one():
    frame, truth = render_still((1, 4), seed=7)
    plain = read_dice(frame, expected=2)
    assert plain.ok and plain.values == (1, 4)
    e = _models().faces.embedding_size
    threes = Adaptation(np.zeros(e), np.ones(e), np.zeros((e, 6)), np.array([0, 0, 40.0, 0, 0, 0]), np.zeros(e), 0.0)
    assert read_dice(frame, expected=2, adaptation=threes).values == (3, 3)
    assert read_dice(frame, expected=2) == plain
    # A table's own die threshold out of reach: every die is then a doubt.
    doubtful = replace(Adaptation.identity(e), die_at=0.9999, doubt_at=0.001)
    assert read_dice(frame, expected=2, adaptation=doubtful).reason.startswith("expected 2 dice, found 0")
