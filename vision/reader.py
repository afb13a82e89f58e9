"""The dice reader: one frame in, every die's top-face value out, or an honest ``unreadable``.

How a frame is read:

1. The frame is normalised (``vision.frames.to_bgr``); a frame of pure noise is refused.
2. The die finder (``vision.finder``) proposes candidate dice at two levels of its pyramid: centres
   and sizes, each with a score. While fewer dice than expected are found, its weaker candidates
   are read too, then its finer levels, one by one (dice too small for the first two: a crowded
   photo, a high camera, a large frame).
3. The face reader (``vision.faces``) reads the strongest candidates from the full-resolution frame:
   the probability that each is no readable top face, and of each value 1-6. With an empty-tray
   reference, a candidate that looks the same as the reference there is tray, not a die.
4. The gate (``vision.gate``) weighs the two into the probability that a candidate is a die; of a
   die proposed twice (at two levels, or a large die and its own pips) the surer one stays.
5. A candidate sure enough is a die; one only half sure is a doubt: the reading is unreadable, as a
   die might be missed or invented. When the caller said how many dice to expect and k are
   missing, exactly k weaker candidates (nothing else in view even a little like a die), each a
   surely read, upright face, are the missing dice: a camera or dice the finder never saw give real
   dice weak peaks. A die that is cocked (leaning on another die or the wall, no
   face squarely up), or whose value is not sure enough, makes it unreadable too.
6. The reading is ``ok`` only when every die is sure and, if the caller said how many dice to
   expect, there are exactly that many; else ``unreadable`` with its reason and kind.

The models (``Models``: the two networks and the gate) are loaded once, on first use, from
``vision/models/``; their card is ``vision/models/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.faces import COCKED, NOT_A_FACE, FaceReader, crop, crops
from vision.finder import Candidate, DieFinder, finer_levels, suppress
from vision.frames import is_noise, to_bgr
from vision.gate import Gate
from vision.reading import DiceReading, Die, no_dice, unreadable, wrong_count

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class Models:
    """What the reader reads with: the die finder, the face reader and the gate between them."""

    finder: DieFinder
    faces: FaceReader
    gate: Gate

    @classmethod
    def load(cls, directory: Path = MODELS, runtime: str | None = None) -> Models:
        """The models in ``directory`` (finder.onnx, face.onnx, gate.json), the networks run with
        ``runtime`` (``vision.runtime``; default: onnxruntime if installed, else cv2.dnn). Raises
        OSError or ValueError when one cannot be read."""
        directory = Path(directory)
        return cls(DieFinder(directory / "finder.onnx", runtime), FaceReader(directory / "face.onnx", runtime),
                   Gate.load(directory / "gate.json"))


@dataclass(frozen=True)
class ReaderParams:
    """The reader's limits that do not depend on the models, one frozen set with its defaults.
    Those that do (a die, a doubt, a sure value) are chosen with the models and kept in their
    gate (``vision.gate.Gate``)."""

    max_noise: int = 10  # grey levels: a frame whose typical pixel strays further is noise
    floor: float = 0.1  # the weakest finder peak read by the face reader
    # The face reader reads at most read_per_die candidates per expected die and most_read more: a
    # die is often proposed twice or three times (at two levels, or with its own pips).
    read_per_die: float = 2.0
    most_read: int = 4
    # While dice are missing, the first levels' next candidates are read, as many again, up to this
    # many times before the finer levels: on a busy background (granite, carpet) a real die's weak
    # peak may rank below many of the background's (vision/models/README.md, "More candidates").
    more_reads: int = 2
    min_die: float = 10.0  # px, dice smaller than this in the frame are not read
    max_die: float = 0.6  # share of the frame's short side: larger "dice" are not read
    same_as_reference: float = 6.0  # grey levels: a candidate this close to the reference is tray

    def most_candidates(self, expected: int | None) -> int:
        """How many candidates, the strongest first, the face reader reads for ``expected`` dice
        (None: up to six)."""
        return math.ceil(self.read_per_die * (expected or 6)) + self.most_read


DEFAULT = ReaderParams()


@lru_cache(maxsize=1)
def _models() -> Models:
    """The shipped models, loaded once (well under half a second)."""
    return Models.load()


def read_dice(frame, expected: int | None = None, reference: np.ndarray | None = None,
              params: ReaderParams = DEFAULT, *, models: Models | None = None,
              debug: bool = False, adaptation=None) -> DiceReading:
    """Read the dice in one frame (see the module docstring).

    frame: anything ``vision.frames.to_bgr`` accepts: (H, W, 3) uint8 BGR, (H, W) or (H, W, 1)
        grey, (H, W, 4) BGRA/XBGR, uint16 or float 0-1; from 32x32 px to beyond 4056x3040. Dice of
        ``params.min_die`` px up to about a third of the short side are read (``vision.finder``).
    expected: the number of dice the game expects (2 or 5 at the table); a reading with another
        count is ``unreadable`` ("expected 5 dice, found 4"). None: whatever lies there.
    reference: an empty-tray frame of the same size from calibration (same formats as ``frame``);
        ignored when it cannot be normalised or its size differs.
    params: the thresholds. models: what to read with (default: the shipped ``Models``, loaded
        once). debug: also put every candidate with its scores in
        ``reading.extra["candidates"]``, for drawing and investigating. adaptation: a table's
        ``vision.adapt.Adaptation`` the face reader's probabilities go through, with its die
        and doubt thresholds if it has its own (None: as shipped).
    Returns a ``DiceReading``: ``ok`` with each die's value (1-6), centre and box (frame px) and
    confidence (0-1), in reading order; or ``unreadable`` with the reason and the dice that were
    read (for display only). Raises ``vision.frames.FrameError`` for a frame ``to_bgr`` rejects,
    and nothing else: any other fault gives an ``unreadable`` reading ("reader failure ...").
    """
    bgr = to_bgr(frame)
    ref = None
    if reference is not None:
        try:
            ref = to_bgr(reference)
        except ValueError:
            ref = None
        if ref is not None and ref.shape != bgr.shape:
            ref = None
    try:
        models = models or _models()
        if adaptation is not None:  # the table's own dice: the face reader wrapped, its die threshold
            from vision.adapt import AdaptedFaces
            models = replace(models, faces=AdaptedFaces(models.faces, adaptation, models.gate),
                             gate=adaptation.gate(models.gate))
        return _read(bgr, expected, ref, params, models, debug)
    except Exception as exc:  # noqa: BLE001
        # A safety net so the kiosk never shows a traceback, not a code path: the tests feed
        # drawn, synthetic, garbage and noise frames and require that this reason never appears.
        return unreadable(f"reader failure ({type(exc).__name__}: {exc})", kind="failure")


def _noise(bgr: np.ndarray, p: ReaderParams) -> bool:
    """Whether the frame is noise, not a picture of a tray (``vision.frames.is_noise``)."""
    return is_noise(bgr, p.max_noise)


@dataclass(frozen=True)
class Weighed:
    """A candidate with what the face reader and the gate made of it."""

    cand: Candidate
    die: float  # the gate's probability that it is a die
    value: int  # its most likely value
    confidence: float  # that value's probability, given a die
    cocked: float  # the probability that it is cocked, given a die

    @property
    def center(self) -> tuple[float, float]:
        return self.cand.center

    @property
    def size(self) -> float:
        return self.cand.size

    def as_die(self) -> Die:
        (cx, cy), s = self.cand.center, self.cand.size
        box = (int(round(cx - s / 2)), int(round(cy - s / 2)), int(round(s)), int(round(s)))
        return Die(self.value, (cx, cy), box, self.confidence)


def found(bgr: np.ndarray, p: ReaderParams, models: Models, scales=None) -> list[Candidate]:
    """The finder's candidates in a (H, W, 3) uint8 BGR frame at its ``scales`` (default: its first
    levels) that are of a size the reader reads, strongest first."""
    h, w = bgr.shape[:2]
    return [c for c in models.finder.find(bgr, p.floor, scales) if p.min_die <= c.size <= p.max_die * min(h, w)]


def weigh(bgr: np.ndarray, cands: list[Candidate], ref: np.ndarray | None, p: ReaderParams,
          models: Models) -> list[Weighed]:
    """``cands`` of a (H, W, 3) uint8 BGR frame read by the face reader and weighed by the gate.
    ``ref``: the normalised empty-tray frame of the same size, or None; a candidate that looks like
    the tray there is left out. Not yet one per die: ``suppress`` them by ``Weighed.die``."""
    cut = crops(bgr, cands)  # cut once: the reference's comparison and the face reader use the same
    if ref is not None:
        kept = np.array([not _like_reference(piece, ref, c, p) for piece, c in zip(cut, cands)], bool)
        cands, cut = [c for c, k in zip(cands, kept) if k], cut[kept]
    reads = []
    for c, pr in zip(cands, models.faces.crop_probabilities(cut, [c.score for c in cands])):
        die_like = max(1.0 - float(pr[NOT_A_FACE]), 1e-9)
        v = int(np.argmax(pr[1:COCKED])) + 1
        reads.append(Weighed(c, models.gate.die(c.score, die_like), v, float(pr[v]) / die_like,
                           float(pr[COCKED]) / die_like))
    return reads


def candidates(bgr: np.ndarray, expected: int | None, ref: np.ndarray | None, p: ReaderParams,
               models: Models, scales=None) -> list[Weighed]:
    """The strongest candidates of a (H, W, 3) uint8 BGR frame at the finder's ``scales`` (default:
    its first levels), as many as the face reader reads for ``expected`` dice
    (``ReaderParams.most_candidates``), read and weighed (``weigh``)."""
    return weigh(bgr, found(bgr, p, models, scales)[:p.most_candidates(expected)], ref, p, models)


def _like_reference(piece: np.ndarray, ref: np.ndarray, c: Candidate, p: ReaderParams) -> bool:
    """Whether the frame's crop ``piece`` of candidate ``c`` looks like the empty tray there."""
    a = piece.astype(np.int16)
    b = crop(ref, c.center, c.size).astype(np.int16)
    return float(np.abs(a - b).mean()) < p.same_as_reference


def levels_read(bgr: np.ndarray, expected: int | None, ref: np.ndarray | None, p: ReaderParams,
                models: Models) -> Iterator[list[Weighed]]:
    """The weighed candidates of the finder's first levels, the strongest first (``candidates``);
    then, each only when asked for, the first levels' next candidates, as many again, up to
    ``p.more_reads`` times; then each finer level's (``vision.finder.finer_levels``)."""
    first, n = found(bgr, p, models), p.most_candidates(expected)
    yield weigh(bgr, first[:n], ref, p, models)
    for k in range(1, p.more_reads + 1):
        if len(first) > k * n:
            yield weigh(bgr, first[k * n:(k + 1) * n], ref, p, models)
    for scale in finer_levels(bgr.shape[1], bgr.shape[0]):
        yield candidates(bgr, expected, ref, p, models, [scale])


def gather(levels: Iterable[list[Weighed]], expected: int | None, die_at: float) -> list[Weighed]:
    """One weighed candidate per die, surest first, from the first of ``levels`` and, while fewer
    than ``expected`` of them are dice (``Weighed.die`` at least ``die_at``), the next ones: the
    finer levels cost time only when dice are missing."""
    more = iter(levels)
    reads = list(next(more, []))
    kept = suppress(reads, lambda r: r.die)
    while expected is not None and sum(r.die >= die_at for r in kept) < expected:
        level = next(more, None)
        if level is None:
            break
        reads += level
        kept = suppress(reads, lambda r: r.die)
    return kept


def _read(bgr, expected, ref, p: ReaderParams, models: Models, debug: bool) -> DiceReading:
    if _noise(bgr, p):
        return unreadable("the frame is noise, not a picture", kind="noise")
    reads = gather(levels_read(bgr, expected, ref, p, models), expected, models.gate.die_at)
    out = decide(reads, expected, models.gate)
    if debug:
        out.extra["candidates"] = reads
    return out


def completes(dice: list[Weighed], weak: list[Weighed], expected: int | None, gate: Gate) -> bool:
    """Whether the ``weak`` candidates (below the die threshold, at least ``gate.fill_at``) are the
    dice missing from ``dice`` for the ``expected`` count: as many as are missing, and each read
    surely (``gate.sure_at``) and upright (below ``gate.cocked_at``).

    A camera, tray or dice the finder never saw give real dice weak peaks, so the gate weighs them
    below its die threshold and the reading is a count short; the game's count, with nothing else
    in view even a little like a die, says which they are. Measured (``vision/models/README.md``,
    "The expected count completes a throw"): with the models trained without rune55-graytray, 12
    more of its 126 photos read exactly and none wrong; over the shipped models' 1,001 scored
    photos, 7 more exact and 1 wrong (a game board strewn with dotted tokens, not table-like)."""
    missing = (expected or 0) - len(dice)
    return 0 < missing == len(weak) and all(r.confidence >= gate.sure_at and r.cocked < gate.cocked_at for r in weak)


def decide(reads: list[Weighed], expected: int | None, gate: Gate) -> DiceReading:
    """The reading from the weighed candidates, one per die (``gather``), with the gate's
    thresholds: the dice (with the weak candidates that complete the expected count,
    ``completes``), unless one is cocked or unclear, something may be a die, or the count is not
    ``expected``."""
    dice = [r for r in reads if r.die >= gate.die_at]
    weak = [r for r in reads if min(gate.fill_at, gate.doubt_at) <= r.die < gate.die_at]
    if completes(dice, weak, expected, gate):
        dice, weak = dice + weak, []
    doubts = [r for r in weak if r.die >= gate.doubt_at]
    found = tuple(sorted((r.as_die() for r in dice), key=lambda d: (d.center[1], d.center[0])))
    cocked = [r for r in dice if r.cocked >= gate.cocked_at]
    unsure = [r for r in dice if r.confidence < gate.sure_at]
    if not dice and not doubts:
        out = no_dice()
    elif expected is not None and len(dice) != expected:
        out = wrong_count(expected, found)
    elif cocked:
        c = cocked[0].center
        out = unreadable(f"the die at ({c[0]:.0f}, {c[1]:.0f}) is cocked", found, "cocked")
    elif doubts:
        c = doubts[0].center
        out = unreadable(f"something at ({c[0]:.0f}, {c[1]:.0f}) may be a die", found, "unsure")
    elif unsure:
        r = unsure[0]
        out = unreadable(f"the die at ({r.center[0]:.0f}, {r.center[1]:.0f}) is unclear (a {r.value} at "
                         f"{r.confidence:.0%})", found, "unsure")
    else:
        out = DiceReading("ok", found)
    return out
