"""A table's own dice: a small per-table head on the face reader's embedding, fitted in numpy.

The shipped face reader (``vision.faces``) gives, for each crop, eight logits and a 96-number
embedding. From one table's labelled crops (``Examples``: values 1-6, and optionally 0 for "not a
die") two small residual heads are fitted on the standardised embedding:

- the value head adds ``x @ W + b`` to the shipped logits of the values 1-6 (which face it shows);
- the face head, only when both dice and "not a die" crops were taught, adds ``x @ w + c`` to the
  logit of "a readable face" (whether it is a die's face at all).

Both are L2-regularised multinomial logistic regressions with the shipped logits as offsets, so a
head that learned nothing reads as the shipped model does; the probability of a cocked die keeps its
shipped share. Fitting is a few hundred accelerated gradient steps (well under a second for
thousands of crops).

The check: the taught throws are split, seeded and by throw (a throw's dice are never on both
sides), into a part to fit on and a part held aside. The heads fitted on the first part are used only
when they read the held-aside part at least as well as the shipped model (throws read right and crops
read right, ``_score``); otherwise ``fit`` returns no adaptation and says why, for the journal.

>>> import numpy as np
>>> examples = Examples.empty()
>>> fit(None, examples).adaptation is None
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.faces import CLASSES, COCKED, CROP, NOT_A_FACE, crop, softmax

MIN_THROWS = 4  # fewer taught throws than this leave too little to fit and to hold aside
HELD_SHARE = 0.25  # the share of the taught throws held aside for the check
MIN_NOT_A_DIE = 3  # "not a die" crops (and dice) needed before the face head is fitted
L2 = 0.05  # the heads' ridge penalty on standardised embeddings: enough to keep a few throws honest
STEPS = 300


@dataclass(frozen=True)
class Examples:
    """One table's labelled crops.

    crops: (N, CROP, CROP, 3) uint8 BGR, cut as the face reader cuts them (``vision.faces.crop``).
    labels: (N,) int64, 1-6 the value shown, 0 not a die. throws: (N,) int64, the throw each crop
    came from (the check splits by throw). Raises ValueError when the shapes or labels disagree.
    """

    crops: np.ndarray
    labels: np.ndarray
    throws: np.ndarray

    def __post_init__(self):
        n = len(self.labels)
        if self.crops.shape != (n, CROP, CROP, 3) or self.crops.dtype != np.uint8:
            raise ValueError(f"crops must be ({n}, {CROP}, {CROP}, 3) uint8, not {self.crops.shape} {self.crops.dtype}")
        if self.throws.shape != (n,) or self.labels.shape != (n,):
            raise ValueError("labels and throws must be one per crop")
        if n and (self.labels.min() < 0 or self.labels.max() > 6):
            raise ValueError("labels are 1-6 (a value) or 0 (not a die)")

    @classmethod
    def empty(cls) -> Examples:
        """No examples."""
        return cls(np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64))

    @property
    def n_throws(self) -> int:
        return len(np.unique(self.throws))

    def subset(self, mask: np.ndarray) -> Examples:
        """The examples where the (N,) bool ``mask`` is true."""
        return Examples(self.crops[mask], self.labels[mask], self.throws[mask])


def _standardise(emb: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return (emb.astype(np.float64) - mean) / scale


@dataclass(frozen=True)
class Adaptation:
    """The fitted heads (float64): ``mean``, ``scale`` (E,) standardise the embedding; ``value_w``
    (E, 6), ``value_b`` (6,); ``face_w`` (E,), ``face_b`` (a zero head when not fitted).
    ``face_model``: the SHA-1 of the face.onnx it was fitted on (another model needs another fit)."""

    mean: np.ndarray
    scale: np.ndarray
    value_w: np.ndarray
    value_b: np.ndarray
    face_w: np.ndarray
    face_b: float
    face_model: str = ""

    def adapt(self, logits: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """(N, CLASSES) float64 probabilities from the shipped (N, CLASSES) logits and (N, E)
        embeddings: the values redistributed by the value head, the share of a readable face moved
        by the face head, the cocked share of a readable face kept."""
        pr = softmax(logits)
        x = _standardise(emb, self.mean, self.scale)
        readable = np.clip(1.0 - pr[:, NOT_A_FACE], 1e-9, 1 - 1e-9)
        z = np.log(readable) - np.log1p(-readable) + x @ self.face_w + self.face_b
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
            out = cls(**arrays, face_b=float(data["face_b"]), face_model=str(data.get("face_model", "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an adaptation ({exc})") from None
        e = len(out.mean)
        if out.scale.shape != (e,) or out.value_w.shape != (e, 6) or out.value_b.shape != (6,) or out.face_w.shape != (e,):
            raise ValueError("not an adaptation (its arrays disagree)")
        return out


def model_id(path: Path) -> str:
    """The SHA-1 of a face.onnx file (hex), which an adaptation names. Raises OSError."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


class AdaptedFaces:
    """A face reader that reads with a table's adaptation: the shipped ``FaceReader``'s interface
    (``probabilities``, ``logits``, ``outputs``), so ``vision.reader.Models`` can hold it. The
    network runs once per crop as before; the heads add well under a millisecond a frame."""

    def __init__(self, base, adaptation: Adaptation):
        self.base, self.adaptation = base, adaptation

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """The shipped logits (the adaptation acts on probabilities)."""
        return self.base.logits(crops)

    def outputs(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The shipped ((N, CLASSES) logits, (N, E) embeddings)."""
        return self.base.outputs(crops)

    def probabilities(self, bgr: np.ndarray, dice) -> np.ndarray:
        """(N, CLASSES) float64 adapted probabilities for the candidates ``dice`` (each with
        ``center`` and ``size`` px) of an (H, W, 3) uint8 BGR frame; (0, CLASSES) for none."""
        if not dice:
            return np.zeros((0, CLASSES))
        logits, emb = self.base.outputs(np.stack([crop(bgr, d.center, d.size) for d in dice]))
        return self.adaptation.adapt(logits, emb)


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


def _logistic(x: np.ndarray, offset: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = STEPS):
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


def fit_heads(logits: np.ndarray, emb: np.ndarray, labels: np.ndarray, face_model: str = "") -> Adaptation:
    """The heads fitted on all of the given crops: (N, CLASSES) shipped logits, (N, E) embeddings,
    (N,) labels 0-6 (at least one value 1-6). Raises ValueError when no crop shows a value."""
    dice = labels > 0
    if not dice.any():
        raise ValueError("no die among the examples")
    mean = emb[dice].mean(axis=0).astype(np.float64)
    scale = emb[dice].std(axis=0).astype(np.float64) + 1e-3
    x = _standardise(emb, mean, scale)
    value_w, value_b = _logistic(x[dice], logits[dice, 1:COCKED].astype(np.float64), labels[dice] - 1)
    e = emb.shape[1]
    face_w, face_b = np.zeros(e), 0.0
    if (~dice).sum() >= MIN_NOT_A_DIE and dice.sum() >= MIN_NOT_A_DIE:
        p0 = np.clip(softmax(logits)[:, NOT_A_FACE], 1e-9, 1 - 1e-9)
        offset = np.stack([np.log(p0), np.log1p(-p0)], axis=1)
        w2, b2 = _logistic(x, offset, dice.astype(np.int64))
        face_w, face_b = w2[:, 1] - w2[:, 0], float(b2[1] - b2[0])
    return Adaptation(mean, scale, value_w, value_b, face_w, face_b, face_model)


def _score(pr: np.ndarray, labels: np.ndarray, throws: np.ndarray) -> tuple[int, int]:
    """(throws read right, crops read right) for (N, CLASSES) probabilities: a die's crop is right
    when a readable face is likelier than not and its likeliest value is the label; a "not a die"
    crop when it is not; a throw when all of its crops are."""
    readable = pr[:, NOT_A_FACE] < 0.5
    value = np.argmax(pr[:, 1:COCKED], axis=1) + 1
    right = np.where(labels > 0, readable & (value == labels), ~readable)
    throws_right = sum(bool(right[throws == t].all()) for t in np.unique(throws))
    return throws_right, int(right.sum())


@dataclass(frozen=True)
class Fitted:
    """What ``fit`` made: the adaptation to read with, or None (the shipped model stays); the
    reason, one sentence for the journal; the held-aside figures (throws, crops read right) of the
    shipped model and of the adaptation, and the fitting time in s."""

    adaptation: Adaptation | None
    reason: str
    shipped: tuple[int, int] = (0, 0)
    adapted: tuple[int, int] = (0, 0)
    held_throws: int = 0
    seconds: float = 0.0


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


def held_aside(throws: np.ndarray, seed: int = 0) -> np.ndarray:
    """The ids of the throws (of the (N,) int ``throws``, one per crop) held aside for the check: a
    seeded ``HELD_SHARE`` of them, at least one."""
    ids = np.unique(throws)
    return np.random.default_rng(seed).permutation(ids)[:max(1, round(HELD_SHARE * len(ids)))]


def fit(faces, examples: Examples, seed: int = 0, face_model: str = "") -> Fitted:
    """The table's adaptation from its ``examples``, checked on a held-aside part (see the module
    docstring). ``faces``: the shipped ``FaceReader`` (unused when there is nothing to fit).
    ``seed``: which throws are held aside. Never raises for too few or unsuitable examples: the
    ``Fitted`` then has no adaptation and says why."""
    import time

    t0 = time.perf_counter()
    n_throws = examples.n_throws
    if n_throws < MIN_THROWS:
        return Fitted(None, f"too few taught throws ({n_throws}; at least {MIN_THROWS}): the shipped model reads")
    logits, emb = embed(faces, examples.crops)
    if emb.shape[1] == 0:
        return Fitted(None, "the face model gives no embedding: the shipped model reads")
    held_ids = held_aside(examples.throws, seed)
    held = np.isin(examples.throws, held_ids)
    if not (examples.labels[~held] > 0).any():
        return Fitted(None, "no die to fit on outside the held-aside throws: the shipped model reads")
    adaptation = fit_heads(logits[~held], emb[~held], examples.labels[~held], face_model)
    lab, thr = examples.labels[held], examples.throws[held]
    shipped = _score(softmax(logits[held]), lab, thr)
    adapted = _score(adaptation.adapt(logits[held], emb[held]), lab, thr)
    seconds = time.perf_counter() - t0
    figures = (f"held-aside {len(held_ids)} throws: shipped {shipped[0]} throws / {shipped[1]} crops right, "
               f"adapted {adapted[0]} / {adapted[1]}")
    if adapted[0] < shipped[0] or adapted[1] < shipped[1]:
        return Fitted(None, f"the adaptation reads worse ({figures}): the shipped model reads",
                      shipped, adapted, len(held_ids), seconds)
    return Fitted(adaptation, f"adapted to {n_throws} taught throws ({figures})", shipped, adapted,
                  len(held_ids), seconds)
