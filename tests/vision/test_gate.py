"""The gate: one probability that a candidate is a die from the finder's peak and the face reader's
belief, and the thresholds the reader decides with, kept in one JSON file beside the models."""

from __future__ import annotations

import json

import pytest

from vision.gate import Gate


def test_more_evidence_from_either_model_means_more_likely_a_die():
    g = Gate(score_weight=1.0, face_weight=0.7, bias=-0.2)
    assert g.die(0.3, 0.5) < g.die(0.6, 0.5) < g.die(0.6, 0.9)
    assert 0.0 < g.die(0.0, 0.0) < g.die(1.0, 1.0) < 1.0  # clipped, never exactly 0 or 1


def test_the_gate_and_its_thresholds_survive_a_save_and_load(tmp_path):
    g = Gate(1.2, 0.8, -0.1).with_thresholds(die_at=0.6, doubt_at=0.4, sure_at=0.8, cocked_at=0.2)
    g.save(tmp_path / "gate.json")
    assert Gate.load(tmp_path / "gate.json") == g


def test_a_gate_file_without_thresholds_takes_the_default_ones(tmp_path):
    (tmp_path / "gate.json").write_text(json.dumps({"score_weight": 1, "face_weight": 1, "bias": 0}))
    assert Gate.load(tmp_path / "gate.json") == Gate(1.0, 1.0, 0.0)


@pytest.mark.parametrize("text", ["", "[]", '{"score_weight": 1}', '{"score_weight": "x", "face_weight": 1, "bias": 0}',
                                  '{"score_weight": 1, "face_weight": 1, "bias": NaN}',
                                  '{"score_weight": 1, "face_weight": 1, "bias": 0, "die_at": 5}',
                                  '{"score_weight": 1, "face_weight": 1, "bias": 0, "cocked_at": -0.1}'])
def test_a_broken_gate_file_is_a_value_error_naming_it(tmp_path, text):
    (tmp_path / "gate.json").write_text(text)
    with pytest.raises(ValueError, match="gate.json: not a gate"):
        Gate.load(tmp_path / "gate.json")
