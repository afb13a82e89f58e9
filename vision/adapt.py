"""A table's own dice: a small per-table head on the face reader's embedding, fitted in numpy.

The shipped face reader (``vision.faces``) gives, for each crop, eight logits and an embedding
(``FaceReader.embedding_size`` numbers). From one table's labelled crops (``Examples``: values 1-6,
and optionally 0 for "not a die") two small residual heads are fitted on the standardised embedding:

- the value head adds ``x @ W + b`` to the shipped logits of the values 1-6 (which face it shows);
- the face head, only when both dice and "not a die" crops were taught, adds ``x @ w + c`` to the
  logit of "a readable face" (whether it is a die's face at all) of the crops the shipped gate does
  not count as dice (``AdaptedFaces``): it teaches which of the table's doubts are none.

Both are L2-regularised multinomial logistic regressions with the shipped logits as offsets, so a
head that learned nothing reads as the shipped model does; the probability of a cocked die keeps its
shipped share. Fitting is a few hundred accelerated gradient steps, its time in proportion to the
crops: about a second for 50 taught throws, a few seconds for a full store of 3,000 crops (one core
of this machine while a training ran).

Taught values that contradict what the shipped model reads surely, on more than a quarter of the
taught dice (``CONTRADICTED_AT_MOST``), are taken for wrong labels: no adaptation, and the reason
says to check the values. The check: the taught throws are dealt, seeded and by throw (a throw's dice are never on both
sides), into ``FOLDS`` folds; each fold is held aside in turn and read by heads fitted on the
others, so every taught throw is read once by heads that never saw it. The heads (then fitted on
all the throws) are used only when those held-aside readings are at least as good as the shipped
model's on every count and better on one: throws read right, crops read right, and crops read surely wrong (what
would be an "ok" reading with a wrong value, ``_score``); and when they read each die the shipped
model reads surely as taught surely as taught too (``_overruled``): heads learned from some taught
values must not overrule what the model and the table agree on. When they do and some taught values
contradict sure readings, the values disagree with one another (a face taught as another again and
again, among its right ones): taken for wrong labels too. So is a face the shipped model reads surely
that the taught values contradict on two or more dice and confirm on none (``_unconfirmed``): the
held-aside check cannot see it, since the throws it holds aside carry the same wrong values, and
heads learned from two throws of 5s taught as 6s read every 5 of that table as a sure 6. A face the
model misreads is mended by values that confirm the face it reads on the table's other dice (a 5
taught as a 5 among 6s taught as 6s). Otherwise ``fit`` returns no adaptation
and says why, for the journal. The ridge penalty is the better of ``L2_CHOICES`` on the same check.

The table's own die threshold: a camera, tray or set of dice the finder was not trained on gives
its dice a weaker peak, so the gate (``vision.gate``) weighs them below its die threshold and the
reader counts too few. From the taught throws whose crops have their finder score, each throw is
"counted right" at a threshold when every taught die is at least that likely a die and everything
else less likely than its doubt (the shipped gap below it): what the reader would count. The
thresholds of ``DIE_AT_CHOICES`` from the shipped doubt threshold up that count the most throws
right form a range; the middle of the widest such range (the largest margin on both sides) is the
table's. It is checked as the heads are: chosen in each fold from the other folds' throws, it must
count more of the held-aside throws right than the shipped threshold counts (the heads' held-aside
readings are weighed when the heads are used).

>>> import numpy as np
>>> examples = Examples.empty()
>>> fit(None, examples).adaptation is None
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.faces import CLASSES, COCKED, CROP, NOT_A_FACE, crops, softmax
from vision.gate import Gate

MIN_THROWS = 4  # fewer taught throws than this leave too little to fit and to hold aside
FOLDS = 4  # every taught throw is held aside once, in one of this many seeded folds
MIN_NOT_A_DIE = 20  # "not a die" crops (and dice) needed before the face head is fitted
# Taught values that contradict what the shipped model reads surely: a few are the misreads a table
# is taught to mend; more than this share of the taught dice are wrong labels (a die corrected to
# the wrong value again and again), which the held-aside check cannot see, as it scores against
# the same labels.
CONTRADICTED_AT_MOST = 0.25
# A face read surely on this many taught dice, all taught as another value, is taken for wrong labels
# (``_unconfirmed``); one such die goes to the held-aside check, as any single correction does.
MIN_UNCONFIRMED = 2
# The heads' ridge penalties tried (on standardised embeddings): ten taught throws are a few dozen
# crops against embeddings of over a hundred numbers, so the penalty must be strong; the check picks one.
L2_CHOICES = (1.0, 10.0)
STEPS = 300
# The die thresholds a table may choose (probabilities of ``vision.gate.Gate.die``), those at least
# the gate's doubt threshold: a table resolves what its reader doubts, and never counts as a die what
# the reader takes for none (what a wrong count taught would ask for).
DIE_AT_CHOICES = tuple(round(0.3 + 0.05 * k, 2) for k in range(14))


@dataclass(frozen=True)
class Examples:
    """One table's labelled crops.

    crops: (N, CROP, CROP, 3) uint8 BGR, cut as the face reader cuts them (``vision.faces.crop``).
    labels: (N,) int64, 1-6 the value shown, 0 not a die. throws: (N,) int64, the throw each crop
    came from (the check splits by throw). scores: (N,) float64, the die finder's peak at each crop
    (0-1; NaN or None: unknown). Raises ValueError when the shapes or labels disagree.
    """

    crops: np.ndarray
    labels: np.ndarray
    throws: np.ndarray
    scores: np.ndarray | None = None

    def __post_init__(self):
        n = len(self.labels)
        if self.scores is None:
            object.__setattr__(self, "scores", np.full(n, np.nan))
        if np.shape(self.scores) != (n,):
            raise ValueError("scores must be one per crop")
        if self.crops.shape != (n, CROP, CROP, 3) or self.crops.dtype != np.uint8:
            raise ValueError(f"crops must be ({n}, {CROP}, {CROP}, 3) uint8, not {self.crops.shape} {self.crops.dtype}")
        if self.throws.shape != (n,) or self.labels.shape != (n,):
            raise ValueError("labels and throws must be one per crop")
        if n and (self.labels.min() < 0 or self.labels.max() > 6):
            raise ValueError("labels are 1-6 (a value) or 0 (not a die)")

    @classmethod
    def empty(cls) -> Examples:
        """No examples."""
        return cls(np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64),
                   np.zeros(0))

    @property
    def n_throws(self) -> int:
        """How many throws the crops came from."""
        return len(np.unique(self.throws))

    def subset(self, mask: np.ndarray) -> Examples:
        """The examples where the (N,) bool ``mask`` is true."""
        return Examples(self.crops[mask], self.labels[mask], self.throws[mask], self.scores[mask])


def _standardise(emb: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return (emb.astype(np.float64) - mean) / scale


@dataclass(frozen=True)
class Adaptation:
    """The fitted heads (float64): ``mean``, ``scale`` (E,) standardise the embedding; ``value_w``
    (E, 6), ``value_b`` (6,); ``face_w`` (E,), ``face_b`` (a zero head when not fitted).
    ``face_model``: the SHA-1 of the models it was fitted on (others need another fit).
    ``die_at``, ``doubt_at``: the table's own die and doubt thresholds, or None (the gate's)."""

    mean: np.ndarray
    scale: np.ndarray
    value_w: np.ndarray
    value_b: np.ndarray
    face_w: np.ndarray
    face_b: float
    face_model: str = ""
    die_at: float | None = None
    doubt_at: float | None = None

    @classmethod
    def identity(cls, e: int, face_model: str = "") -> Adaptation:
        """Heads that change nothing, for an embedding of ``e`` numbers (a table that adapts its
        die threshold alone)."""
        return cls(np.zeros(e), np.ones(e), np.zeros((e, 6)), np.zeros(6), np.zeros(e), 0.0, face_model)

    def gate(self, shipped: Gate) -> Gate:
        """The gate to read with: ``shipped`` with the table's die and doubt thresholds, if it has them."""
        if self.die_at is None or self.doubt_at is None:
            return shipped
        return replace(shipped, die_at=self.die_at, doubt_at=self.doubt_at)

    def adapt(self, logits: np.ndarray, emb: np.ndarray, counted: np.ndarray | None = None) -> np.ndarray:
        """(N, CLASSES) float64 probabilities from the shipped (N, CLASSES) logits and (N, E)
        embeddings: the values redistributed by the value head, the share of a readable face moved
        by the face head, the cocked share of a readable face kept. ``counted``: (N,) bool, the
        crops the shipped gate counts as dice (``shipped_counts``); the face head leaves their
        readable share as shipped (see ``AdaptedFaces``). None: none is."""
        pr = softmax(logits)
        x = _standardise(emb, self.mean, self.scale)
        readable = np.clip(1.0 - pr[:, NOT_A_FACE], 1e-9, 1 - 1e-9)
        moved = x @ self.face_w + self.face_b
        if counted is not None:
            moved = np.where(counted, 0.0, moved)
        z = np.log(readable) - np.log1p(-readable) + moved
        readable_new = 1.0 / (1.0 + np.exp(-z))
        cocked_share = pr[:, COCKED] / readable
        values = softmax(logits[:, 1:COCKED].astype(np.float64) + x @ self.value_w + self.value_b)
        out = np.empty_like(pr)
        out[:, NOT_A_FACE] = 1.0 - readable_new
        out[:, COCKED] = readable_new * cocked_share
        out[:, 1:COCKED] = (readable_new * (1.0 - cocked_share))[:, None] * values
        return out

    def to_json(self) -> str:
        """The heads as JSON text (a few thousand numbers), for the store."""
        return json.dumps({k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()})

    @classmethod
    def from_json(cls, text: str) -> Adaptation:
        """The heads from ``to_json`` text. Raises ValueError when it is not such text."""
        try:
            data = json.loads(text)
            arrays = {k: np.asarray(data[k], np.float64) for k in ("mean", "scale", "value_w", "value_b", "face_w")}
            thresholds = {k: float(data[k]) for k in ("die_at", "doubt_at") if data.get(k) is not None}
            out = cls(**arrays, face_b=float(data["face_b"]), face_model=str(data.get("face_model", "")), **thresholds)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an adaptation ({exc})") from None
        e = len(out.mean)
        if out.scale.shape != (e,) or out.value_w.shape != (e, 6) or out.value_b.shape != (6,) or out.face_w.shape != (e,):
            raise ValueError("not an adaptation (its arrays disagree)")
        if not all(0.0 <= v <= 1.0 for v in thresholds.values()):
            raise ValueError("not an adaptation (a threshold outside 0-1)")
        return out


def model_id(*paths: Path) -> str:
    """The SHA-1 (hex) of the model files' bytes, one after the other, which an adaptation names.
    Raises OSError."""
    digest = hashlib.sha1()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def shipped_counts(gate: Gate, scores, pr: np.ndarray) -> np.ndarray:
    """(N,) bool: the crops the shipped ``gate`` counts as dice (P(die) at least its ``die_at``),
    from their (N,) finder ``scores`` (None, or NaN for one: unknown, counted as not) and shipped
    (N, CLASSES) face probabilities ``pr``."""
    if scores is None:
        return np.zeros(len(pr), bool)
    with np.errstate(invalid="ignore"):
        return die_probabilities(gate, np.asarray(scores, np.float64), pr) >= gate.die_at


class AdaptedFaces:
    """A face reader that reads with a table's adaptation: the shipped ``FaceReader``'s interface
    (``probabilities``, ``logits``, ``outputs``), so ``vision.reader.Models`` can hold it. The
    network runs once per crop as before; the heads add well under a millisecond a frame.

    The face head moves only what the shipped ``gate`` does not count as a die: a table teaches
    which of its doubts ("may be a die") are none, and the die it counts surely stays counted. Fitted
    on a few hundred crops, the head also lowered real dice of photos it was not taught with (a
    table taught 40 phone photos, whose side faces of dice were its "not a die" crops, then read 4
    of 40 others worse without the expected count, 2 of them one die short and "ok")."""

    def __init__(self, base, adaptation: Adaptation, gate: Gate | None = None):
        self.base, self.adaptation, self.gate = base, adaptation, gate

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """The shipped logits (the adaptation acts on probabilities)."""
        return self.base.logits(crops)

    def outputs(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The shipped ((N, CLASSES) logits, (N, E) embeddings)."""
        return self.base.outputs(crops)

    def probabilities(self, bgr: np.ndarray, dice) -> np.ndarray:
        """(N, CLASSES) float64 adapted probabilities for the candidates ``dice`` (each with
        ``center`` and ``size`` px) of an (H, W, 3) uint8 BGR frame; (0, CLASSES) for none."""
        return self.crop_probabilities(crops(bgr, dice))

    def crop_probabilities(self, cut: np.ndarray, scores=None) -> np.ndarray:
        """As ``probabilities``, for crops already cut (``vision.faces.crops``): (N, CROP, CROP, 3)
        uint8 BGR; ``scores``: their (N,) finder peaks (0-1), which with the shipped gate say which
        crops the face head leaves (None: it moves them all)."""
        if not len(cut):
            return np.zeros((0, CLASSES))
        logits, emb = self.base.outputs(cut)
        counted = None if self.gate is None else shipped_counts(self.gate, scores, softmax(logits))
        return self.adaptation.adapt(logits, emb, counted)


# --- fitting ---------------------------------------------------------------------------------------

def _top_eigenvalue(gram: np.ndarray, rounds: int = 30) -> float:
    """The largest eigenvalue of a symmetric positive semi-definite matrix by power iteration, a
    little over (an SVD is far slower on a busy Pi and needs no such precision for a step size)."""
    v = np.ones(len(gram)) / np.sqrt(len(gram))
    lam = 0.0
    for _ in range(rounds):
        w = gram @ v
        lam = float(np.linalg.norm(w))
        if lam == 0.0:
            return 0.0
        v = w / lam
    return 1.05 * lam


def _logistic(x: np.ndarray, offset: np.ndarray, y: np.ndarray, l2: float, steps: int = STEPS):
    """Weights (D, K) and bias (K,) minimising the mean cross-entropy of softmax(offset + x W + b)
    against the (N,) int labels 0..K-1, plus l2/2 |W|^2: Nesterov-accelerated gradient descent with
    the step of the loss's Lipschitz bound (no line search, so its time is fixed)."""
    n, d = x.shape
    k = offset.shape[1]
    xb = np.hstack([x, np.ones((n, 1))])
    target = np.eye(k)[y]
    step = 1.0 / (0.5 * _top_eigenvalue(xb.T @ xb) / n + l2)
    theta = prev = np.zeros((d + 1, k))
    reg = np.ones((d + 1, 1))
    reg[-1] = 0.0  # the bias is not penalised
    for i in range(steps):
        look = theta + (i / (i + 3)) * (theta - prev)
        grad = xb.T @ (softmax(offset + xb @ look) - target) / n + l2 * reg * look
        prev, theta = theta, look - step * grad
    return theta[:-1], theta[-1]


def fit_heads(logits: np.ndarray, emb: np.ndarray, labels: np.ndarray, face_model: str = "",
              l2: float = L2_CHOICES[0]) -> Adaptation:
    """The heads fitted on all of the given crops: (N, CLASSES) shipped logits, (N, E) embeddings,
    (N,) labels 0-6 (at least one value 1-6), ridge penalty ``l2``. Raises ValueError when no crop
    shows a value."""
    dice = labels > 0
    if not dice.any():
        raise ValueError("no die among the examples")
    mean = emb[dice].mean(axis=0).astype(np.float64)
    scale = emb[dice].std(axis=0).astype(np.float64) + 1e-3
    x = _standardise(emb, mean, scale)
    value_w, value_b = _logistic(x[dice], logits[dice, 1:COCKED].astype(np.float64), labels[dice] - 1, l2)
    e = emb.shape[1]
    face_w, face_b = np.zeros(e), 0.0
    if (~dice).sum() >= MIN_NOT_A_DIE and dice.sum() >= MIN_NOT_A_DIE:
        p0 = np.clip(softmax(logits)[:, NOT_A_FACE], 1e-9, 1 - 1e-9)
        offset = np.stack([np.log(p0), np.log1p(-p0)], axis=1)
        w2, b2 = _logistic(x, offset, dice.astype(np.int64), l2)
        face_w, face_b = w2[:, 1] - w2[:, 0], float(b2[1] - b2[0])
    return Adaptation(mean, scale, value_w, value_b, face_w, face_b, face_model)


def read_as(pr: np.ndarray, sure_at: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the reader makes of each of (N, CLASSES) probabilities: (N,) bool a readable face (likelier
    than not), (N,) int its likeliest value 1-6, (N,) bool that value at least ``sure_at`` likely given
    a face (with a readable face, what the reader would call ok)."""
    readable = pr[:, NOT_A_FACE] < 0.5
    value = np.argmax(pr[:, 1:COCKED], axis=1) + 1
    sure = pr[:, 1:COCKED].max(axis=1) / np.maximum(1.0 - pr[:, NOT_A_FACE], 1e-12) >= sure_at
    return readable, value, sure


def _score(pr: np.ndarray, labels: np.ndarray, throws: np.ndarray, sure_at: float) -> tuple[int, int, int]:
    """(throws read right, crops read right, minus the crops read surely wrong) for (N, CLASSES)
    probabilities, each the higher the better: a die's crop is right when a readable face is
    likelier than not and its likeliest value is the label, surely wrong when that value is another
    and at least ``sure_at`` likely given a face (the reader would call it ok); a "not a die" crop
    is right when it is not readable, surely wrong when it would be a sure die; a throw is right
    when all of its crops are."""
    readable, value, sure = read_as(pr, sure_at)
    right = np.where(labels > 0, readable & (value == labels), ~readable)
    surely_wrong = readable & sure & ((labels == 0) | (value != labels))
    throws_right = sum(bool(right[throws == t].all()) for t in np.unique(throws))
    return throws_right, int(right.sum()), -int(surely_wrong.sum())


def _contradicted(pr: np.ndarray, labels: np.ndarray, sure_at: float) -> int:
    """How many taught dice (label 1-6) the (N, CLASSES) probabilities read surely as another value
    (a readable face, its likeliest value another, at least ``sure_at`` likely given a face)."""
    readable, value, sure = read_as(pr, sure_at)
    return int(((labels > 0) & readable & sure & (value != labels)).sum())


def _unconfirmed(pr: np.ndarray, labels: np.ndarray, sure_at: float) -> tuple[int, int, int] | None:
    """(the value read, how many taught dice, the value most of them were taught as) for the first
    face that the (N, CLASSES) probabilities read surely on at least ``MIN_UNCONFIRMED`` taught dice
    (label 1-6) taught otherwise, and on none taught as it; None when every such face is confirmed."""
    readable, value, sure = read_as(pr, sure_at)
    surely = (labels > 0) & readable & sure
    for face in range(1, 7):
        read = surely & (value == face)
        against = labels[read & (labels != face)]
        if len(against) >= MIN_UNCONFIRMED and not (labels[read] == face).any():
            return face, len(against), int(np.bincount(against).argmax())
    return None


def _overruled(held: np.ndarray, shipped: np.ndarray, labels: np.ndarray, sure_at: float) -> int:
    """How many taught dice that the shipped (N, CLASSES) probabilities read surely as taught the
    held-aside ones do not read surely as taught: the heads overruling, or putting in doubt, what
    the model and the table agree on (one 5 taught as a 6 left a table's untaught 5s "unclear")."""
    readable, value, sure = read_as(shipped, sure_at)
    agreed = (labels > 0) & readable & sure & (value == labels)
    readable, value, sure = read_as(held, sure_at)
    return int((agreed & ~(readable & sure & (value == labels))).sum())


def folds(throws: np.ndarray, seed: int = 0, k: int = FOLDS) -> np.ndarray:
    """(N,) int: the fold of each crop's throw (of the (N,) int ``throws``): the throws in a seeded
    order dealt round ``k`` folds, so a throw's crops always share a fold."""
    ids = np.random.default_rng(seed).permutation(np.unique(throws))
    fold_of = {int(t): i % k for i, t in enumerate(ids)}
    return np.array([fold_of[int(t)] for t in throws], np.int64)


def _out_of_fold(logits, emb, labels, fold, l2: float, counted: np.ndarray | None = None) -> np.ndarray:
    """(N, CLASSES): each crop read by heads fitted without its fold (the shipped reading where
    the rest holds no die); ``counted``: (N,) bool or None, as ``Adaptation.adapt``."""
    out = softmax(logits)
    for k in np.unique(fold):
        rest = fold != k
        if (labels[rest] > 0).any():
            heads = fit_heads(logits[rest], emb[rest], labels[rest], l2=l2)
            out[~rest] = heads.adapt(logits[~rest], emb[~rest], None if counted is None else counted[~rest])
    return out


def _counted(sides, at: float, gap: float) -> int:
    """How many throws (pairs of their dice's and their other candidates' P(die)) a die threshold
    ``at`` (a doubt ``gap`` below it) counts right."""
    return sum(bool((dice >= at).all() and (other < at - gap).all()) for dice, other in sides)


def _widest_best(sides, gate: Gate) -> float | None:
    """The middle of the widest range of ``DIE_AT_CHOICES`` (at least ``gate.doubt_at``) that count
    the most of ``sides`` right, or None when none counts more of them right than ``gate.die_at``."""
    gap = gate.die_at - gate.doubt_at
    choices = [at for at in DIE_AT_CHOICES if at >= gate.doubt_at]
    right = [_counted(sides, at, gap) for at in choices]
    best = max(right, default=0)
    if best <= _counted(sides, gate.die_at, gap):
        return None
    runs, start = [], None
    for k, r in enumerate(right + [-1]):
        if r == best and start is None:
            start = k
        elif r != best and start is not None:
            runs.append((start, k))
            start = None
    first, end = max(runs, key=lambda run: run[1] - run[0])
    return choices[(first + end - 1) // 2]


def choose_die_at(die: np.ndarray, labels: np.ndarray, throws: np.ndarray, gate: Gate,
                  seed: int = 0) -> tuple[float, tuple[int, int, int]]:
    """(the table's die threshold, (the taught throws weighed, how many of them ``gate.die_at``
    counts right, how many the table's choice counts right held aside)) from each crop's (N,)
    probability of a die ``die`` (NaN: its throw is left out), its (N,) label (0: not a die) and
    (N,) throw; ``seed``: the folds (``folds``). The threshold is ``gate.die_at`` unless the choice
    (see the module docstring), made in each fold from the other folds' throws, counts more of the
    held-aside throws right than ``gate.die_at`` counts."""
    gap = gate.die_at - gate.doubt_at
    known = np.array([t for t in np.unique(throws) if not np.isnan(die[throws == t]).any()], np.int64)
    sides = [(die[(throws == t) & (labels > 0)], die[(throws == t) & (labels == 0)]) for t in known]
    shipped = _counted(sides, gate.die_at, gap)
    chosen = _widest_best(sides, gate)
    if chosen is None:
        return gate.die_at, (len(sides), shipped, shipped)
    fold = folds(known, seed)
    held = 0
    for k in np.unique(fold):
        rest = [side for side, f in zip(sides, fold) if f != k]
        at = _widest_best(rest, gate) or gate.die_at
        held += _counted([side for side, f in zip(sides, fold) if f == k], at, gap)
    return (chosen if held > shipped else gate.die_at), (len(sides), shipped, held)


@dataclass(frozen=True)
class Fitted:
    """What ``fit`` made: the adaptation to read with, or None (the shipped model stays); the
    reason, one sentence for the journal; the held-aside figures (``_score``) of the shipped model
    and of the heads, the throws checked, the fitting time in s, and ``counted``: the taught throws
    with finder scores, and how many of them the shipped die threshold counts right, and the
    table's choice held aside (``choose_die_at``); ``contradicted``: when that is why nothing is
    used, (the taught dice whose value contradicts the shipped model's sure reading, the taught dice)."""

    adaptation: Adaptation | None
    reason: str
    shipped: tuple[int, int, int] = (0, 0, 0)
    adapted: tuple[int, int, int] = (0, 0, 0)
    held_throws: int = 0
    seconds: float = 0.0
    counted: tuple[int, int, int] = (0, 0, 0)
    contradicted: tuple[int, int] = (0, 0)


def die_probabilities(gate: Gate, scores: np.ndarray, pr: np.ndarray) -> np.ndarray:
    """(N,) float64: the gate's probability that each crop is a die, from its (N,) finder ``scores``
    and (N, CLASSES) face probabilities ``pr``; NaN where the score is unknown."""
    return np.array([np.nan if np.isnan(s) else gate.die(float(s), 1.0 - float(p[NOT_A_FACE]))
                     for s, p in zip(scores, pr)])


def embed(faces, crops: np.ndarray, batch: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The shipped ((N, CLASSES) logits, (N, E) embeddings) float32 of (N, CROP, CROP, 3) uint8 BGR
    crops (``faces``: a ``FaceReader``). In batches of one size, the last one padded: cv2.dnn sets
    itself up again for every new input shape, which costs more than the crops themselves."""
    if not len(crops):
        return np.zeros((0, CLASSES), np.float32), np.zeros((0, 0), np.float32)
    parts = []
    for i in range(0, len(crops), batch):
        part = crops[i:i + batch]
        padded = np.concatenate([part, np.zeros((batch - len(part),) + part.shape[1:], np.uint8)])
        logits, emb = faces.outputs(padded)
        parts.append((logits[:len(part)], emb[:len(part)]))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit(faces, examples: Examples, seed: int = 0, face_model: str = "", gate: Gate | None = None) -> Fitted:
    """The table's adaptation from its ``examples``, checked on held-aside throws, and its own die
    threshold (see the module docstring). ``faces``: the shipped ``FaceReader`` (unused when there is
    nothing to fit). ``seed``: the folds. ``gate``: the shipped gate (default ``vision/models/gate.json``),
    its sure value for "surely wrong", its weights and thresholds for the die threshold. Never raises
    for too few or unsuitable examples: the ``Fitted`` then has no adaptation and says why.

    numpy's BLAS runs on one thread here, as the networks do (``vision.runtime``): its threads wait
    for one another by spinning, and on cores the kiosk, the camera or other work keep busy a fit of
    3,000 crops took 72-90 s of CPU instead of 5 (measured with a training on this machine's two)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _fit(faces, examples, seed, face_model, gate)


def _fit(faces, examples: Examples, seed: int, face_model: str, gate: Gate | None) -> Fitted:
    import time

    t0 = time.perf_counter()
    gate = gate or Gate.load()
    n_throws = examples.n_throws
    if n_throws < MIN_THROWS:
        return Fitted(None, f"too few taught throws ({n_throws}; at least {MIN_THROWS}): the shipped model reads")
    logits, emb = embed(faces, examples.crops)
    if emb.shape[1] == 0:
        return Fitted(None, "the face model gives no embedding: the shipped model reads")
    lab, thr = examples.labels, examples.throws
    fold = folds(thr, seed)
    shipped = _score(softmax(logits), lab, thr, gate.sure_at)
    sure_dice = shipped_counts(gate, examples.scores, softmax(logits))
    held = {l2: _out_of_fold(logits, emb, lab, fold, l2, sure_dice) for l2 in L2_CHOICES}
    tried = {l2: _score(held[l2], lab, thr, gate.sure_at) for l2 in L2_CHOICES}
    l2 = max(tried, key=lambda k: tried[k])
    adapted = tried[l2]
    figures = (f"each of {n_throws} throws held aside once: shipped {shipped[0]} throws / {shipped[1]} crops "
               f"right / {-shipped[2]} surely wrong, adapted {adapted[0]} / {adapted[1]} / {-adapted[2]}")
    dice = int((lab > 0).sum())
    contradicted = _contradicted(softmax(logits), lab, gate.sure_at)
    overruled = _overruled(held[l2], softmax(logits), lab, gate.sure_at)
    if overruled:
        figures += f", {overruled} of the shipped model's sure readings as taught read otherwise or unsurely"
    if contradicted >= 3 and contradicted > CONTRADICTED_AT_MOST * dice:
        return Fitted(None, f"the taught values contradict {contradicted} of the {dice} taught dice that the shipped "
                      "model reads surely (check the values taught): the shipped model reads", shipped, shipped,
                      n_throws, time.perf_counter() - t0, contradicted=(contradicted, dice))
    unconfirmed = _unconfirmed(softmax(logits), lab, gate.sure_at)
    if unconfirmed is not None:
        face, n, taught_as = unconfirmed
        return Fitted(None, f"the taught values contradict all {n} taught dice that the shipped model reads surely "
                      f"as {face} (taught as {taught_as}) and confirm none (check the values taught): the shipped "
                      "model reads", shipped, adapted, n_throws, time.perf_counter() - t0,
                      contradicted=(contradicted, dice))
    if contradicted and overruled:
        # The taught values disagree with one another: dice the model and the table agree on, read
        # wrong by heads learned from the others (one face taught as another, again and again), or
        # by heads that cannot mend the model's sure misreads without harming what it reads right.
        return Fitted(None, f"the taught values contradict {contradicted} of the {dice} taught dice that the shipped "
                      f"model reads surely, and heads learned from them read {overruled} held-aside "
                      f"{'die' if overruled == 1 else 'dice'} otherwise or unsurely that the shipped model reads surely as taught "
                      "(values taught wrong, or misreads the heads cannot mend without harm: check the values "
                      "taught): the shipped model reads", shipped, adapted, n_throws, time.perf_counter() - t0,
                      contradicted=(contradicted, dice))
    worse = any(a < b for a, b in zip(adapted, shipped)) or overruled > 0
    # A tie is no evidence that it helps: where the shipped model already reads the taught throws, a
    # head fitted on a few dozen crops can still move readings it was never shown (never worse first).
    heads_used = not worse and adapted != shipped
    pr = held[l2] if heads_used else softmax(logits)
    die_at, counted = choose_die_at(die_probabilities(gate, examples.scores, pr), lab, thr, gate, seed)
    heads = fit_heads(logits, emb, lab, face_model, l2) if heads_used else Adaptation.identity(emb.shape[1], face_model)
    verdict = (f"adapted to {n_throws} taught throws ({figures})" if heads_used else
               f"the heads read {'worse' if worse else 'no better'} ({figures})")
    own = die_at != gate.die_at
    if own:
        heads = replace(heads, die_at=die_at, doubt_at=round(max(0.0, die_at - (gate.die_at - gate.doubt_at)), 2))
        reason = (f"{verdict}; the table's own die threshold {die_at:.2f} (shipped {gate.die_at:.2f}): held aside, "
                  f"{counted[2]} of {counted[0]} taught throws counted right, {counted[1]} at the shipped one")
    elif heads_used:
        reason = (f"{verdict}; the shipped die threshold ({counted[1]} of {counted[0]} taught throws counted right, "
                  f"a threshold of their own {counted[2]} held aside)")
    else:
        reason = (f"{verdict}, and the shipped die threshold counts as many taught throws right as one of their own "
                  f"held aside, or more ({counted[1]} and {counted[2]} of {counted[0]}): the shipped model reads")
    if counted[0] < n_throws:
        reason += f" ({n_throws - counted[0]} taught before finder scores were kept: left out of the threshold's choice)"
    return Fitted(heads if heads_used or own else None, reason, shipped, adapted, n_throws, time.perf_counter() - t0,
                  counted)
