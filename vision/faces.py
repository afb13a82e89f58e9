"""The face reader: which face a found die shows, or that it is no die's top face, from a small network.

Each candidate die (``vision.finder.Candidate``) is cut out of the full-resolution frame as a square
of ``CROP_SCALE`` times its size around its centre, resampled to ``CROP`` x ``CROP`` px and
standardised; the network (``vision/models/face.onnx``, run by ``vision.runtime``; card:
``vision/models/README.md``) gives eight logits, temperature-scaled when it was trained:

0. not a die's top face: the tray, a pip, a die's side or edge, two dice, a die cut by the frame;
1-6. the top face shows that many pips;
7. a die, but cocked: leaning on another die or the tray wall, no face squarely up.

In colour, because red pips on a black die are as dark as the die in grey; standardised (each
channel less its mean, all divided by the crop's spread), so light, exposure and white balance do
not matter; with a floor on the spread, so that a flat patch of tray is not blown up into pips.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import Network

MODEL = Path(__file__).resolve().parent / "models" / "face.onnx"
CROP = 32  # px, the network's input side
CROP_SCALE = 1.25  # the crop's side / the die's size
MIN_SPREAD = 8.0  # grey levels: the smallest standard deviation a crop is divided by
NOT_A_FACE = 0  # the class index of "not a die's top face"; 1-6 are the values
COCKED = 7  # the class index of "a cocked die"
CLASSES = 8


def crop(bgr: np.ndarray, center: tuple[float, float], size: float, out: int = CROP,
         scale: float = CROP_SCALE) -> np.ndarray:
    """The (out, out, 3) uint8 BGR crop of an (H, W, 3) uint8 BGR frame (an (H, W) grey frame gives
    (out, out)): a square of ``scale * size`` px around ``center`` (px), area-resampled; parts
    outside the frame repeat its border."""
    side = max(2.0, scale * size)
    x0, y0 = int(np.floor(center[0] - side / 2)), int(np.floor(center[1] - side / 2))
    n = max(2, int(round(side)))
    h, w = bgr.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + n), min(h, y0 + n)
    if xa >= xb or ya >= yb:
        return np.zeros((out, out) + bgr.shape[2:], np.uint8)
    roi = bgr[ya:yb, xa:xb]
    if (xa, ya, xb, yb) != (x0, y0, x0 + n, y0 + n):
        roi = cv2.copyMakeBorder(roi, ya - y0, y0 + n - yb, xa - x0, x0 + n - xb, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if n > out else cv2.INTER_LINEAR
    return cv2.resize(roi, (out, out), interpolation=interp)


def crops(bgr: np.ndarray, dice) -> np.ndarray:
    """(N, CROP, CROP, 3) uint8 BGR: the crop of each of the candidates ``dice`` (each with
    ``center`` and ``size`` px) of an (H, W, 3) uint8 BGR frame, as the face reader reads them;
    (0, CROP, CROP, 3) for none."""
    if not dice:
        return np.zeros((0, CROP, CROP, 3), np.uint8)
    return np.stack([crop(bgr, d.center, d.size) for d in dice])


def standardise(crops: np.ndarray) -> np.ndarray:
    """(N, S, S, 3) uint8 BGR crops to the network's (N, 3, S, S) float32 input: each channel minus
    its mean, all divided by the crop's standard deviation over its channels (at least
    ``MIN_SPREAD``)."""
    # Planes first: numpy sums a contiguous last axis several times faster than the middle ones
    # of (N, S, S, 3), and the networks take a contiguous input without copying it.
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32)
    x -= x.mean(axis=(2, 3), keepdims=True)
    x /= np.maximum(np.sqrt((x * x).mean(axis=(1, 2, 3), keepdims=True)), MIN_SPREAD)
    return x


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, K) logits, float64."""
    z = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FaceReader:
    """The face network, loaded once (``vision.runtime``: cv2.dnn, or onnxruntime if installed;
    well under a ms a die on one core of a PC).

    path: the ONNX file; runtime: as ``vision.runtime.Network``'s. Raises OSError or ValueError
    when it cannot be loaded.
    """

    def __init__(self, path: Path = MODEL, runtime: str | None = None):
        self.net = Network(path, runtime)
        self._names = ["logits", "embedding"] if {"logits", "embedding"} <= set(self.net.outputs) else None

    @functools.cached_property
    def embedding_size(self) -> int:
        """E, the length of the embedding ``outputs`` gives a crop (0 for a model without one)."""
        return self.outputs(np.zeros((1, CROP, CROP, 3), np.uint8))[1].shape[1]

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """(N, CLASSES) float32 logits for (N, CROP, CROP, 3) uint8 BGR crops (N >= 1)."""
        return self.outputs(crops)[0]

    def outputs(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """((N, CLASSES) logits, (N, E) embeddings), float32, for (N, CROP, CROP, 3) uint8 BGR crops."""
        x = standardise(crops)
        if self._names is None:
            return self.net.run(x)[0], np.zeros((len(crops), 0), np.float32)
        logits, embedding = self.net.run(x, self._names)
        return logits, embedding

    def probabilities(self, bgr: np.ndarray, dice) -> np.ndarray:
        """(N, CLASSES) float64 class probabilities (``NOT_A_FACE``, values 1-6, ``COCKED``) for
        the candidates ``dice`` (each with ``center`` and ``size`` px) of an (H, W, 3) uint8 BGR
        frame; (0, CLASSES) for none."""
        return self.crop_probabilities(crops(bgr, dice))

    def crop_probabilities(self, cut: np.ndarray, scores=None) -> np.ndarray:
        """As ``probabilities``, for crops already cut (``crops``): (N, CROP, CROP, 3) uint8 BGR.
        ``scores`` (the finder's peaks) are for a table's adaptation (``vision.adapt.AdaptedFaces``)
        and unused here."""
        if not len(cut):
            return np.zeros((0, CLASSES))
        return softmax(self.logits(cut))
