"""The gate: how sure the reader is that a candidate is a die, from what the finder and the face
reader each say of it.

A logistic regression over two evidences, the logit of the finder's centre peak and the logit of
the face reader's probability of a readable top face: a weak peak the face reader is certain of is
a die, and so is a strong peak on a face it finds plain enough. Its three numbers are fitted when
the models are trained, on the finder's finds in photos neither model trained on (the calibration
part, ``vision.train``), and shipped beside the models as ``vision/models/gate.json``.

The same file holds the four thresholds the reader decides with, chosen for these models on the
same calibration photos (``vision.train.thresholds``): a die, a doubt, a sure value, a cocked die.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

GATE = Path(__file__).resolve().parent / "models" / "gate.json"


def logit(p: float, eps: float = 1e-4) -> float:
    """log(p / (1 - p)), p clipped to [eps, 1 - eps]."""
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class Gate:
    """P(die) = sigmoid(score_weight * logit(score) + face_weight * logit(face) + bias), and the
    thresholds on it (probabilities 0-1)."""

    score_weight: float = 1.0
    face_weight: float = 1.0
    bias: float = 0.0
    die_at: float = 0.5  # a die: P(die) at least this
    doubt_at: float = 0.3  # a doubt: at least this, not a die (the reading is then unreadable)
    sure_at: float = 0.9  # a sure value: its probability, given a readable face, at least this
    cocked_at: float = 0.5  # a cocked die: its probability of leaning, given a die, at least this
    # The weakest candidate that may complete a throw's expected count (``vision.reader.completes``).
    # Not chosen on the calibration photos (their sources' dice are hardly ever weak): measured on
    # sources the models never saw. Low on purpose: the count is completed only when nothing else
    # in view is even this likely a die.
    fill_at: float = 0.1

    def die(self, score: float, face: float) -> float:
        """0-1: the probability that a candidate with this finder ``score`` and face reader
        ``face`` probability is a die."""
        z = self.score_weight * logit(score) + self.face_weight * logit(face) + self.bias
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def load(cls, path: Path = GATE) -> Gate:
        """The gate from its JSON file ({"score_weight", "face_weight", "bias"}, and optionally
        "die_at", "doubt_at", "sure_at", "cocked_at"). Raises OSError when it cannot be read and
        ValueError when it is not such an object, a weight is not finite or a threshold not 0-1."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            given = {name: float(data[name]) for name in ("score_weight", "face_weight", "bias")}
            given |= {f.name: float(data[f.name]) for f in fields(cls) if f.name in data}
            gate = cls(**given)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path}: not a gate ({exc})") from None
        bad = [f"{name} = {value}" for name, value in asdict(gate).items()
               if not math.isfinite(value) or (name.endswith("_at") and not 0.0 <= value <= 1.0)]
        if bad:
            raise ValueError(f"{path}: not a gate ({', '.join(bad)}: thresholds are probabilities 0-1, weights finite)")
        return gate

    def with_thresholds(self, die_at: float, doubt_at: float, sure_at: float, cocked_at: float) -> Gate:
        """This gate deciding with other thresholds."""
        return replace(self, die_at=die_at, doubt_at=doubt_at, sure_at=sure_at, cocked_at=cocked_at)

    def save(self, path: Path) -> None:
        """Writes the gate as JSON."""
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
