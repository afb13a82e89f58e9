"""The pip reader: one frame in, every die's top-face value out, or an honest ``unreadable``."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice import Blob, background, blob_tree, foreground_distance
from vision.face import FaceRead, read_face
from vision.frames import to_bgr
from vision.reading import DiceReading, Die, unreadable


@dataclass(frozen=True)
class ReaderParams:
    """The reader's tunables. Sizes are shares of the die's side unless marked px."""

    min_die: float = 15.0  # px, smallest die side read
    max_die: float = 200.0  # px, largest
    levels: tuple[float, ...] = (10, 14, 20, 28, 40, 56, 80)  # foreground cuts, Lab units
    min_fill: float = 0.6  # region area / its minimum-area rectangle
    min_solidity: float = 0.82  # region area / its convex hull
    max_region_per_face: float = 2.2  # a region this much larger than a die's face may hold more
    max_cluster: float = 6.0  # dice' areas in the largest cluster of touching dice read as one
    max_aspect: float = 2.0  # the longer side of that rectangle / the shorter
    max_pips: int = 10  # most pip candidates considered for each die's area of a region
    min_pip_response: float = 6.0  # Lab units of the pip filter
    min_pip_share: float = 0.25  # of the die's strongest pip
    shape_tol: float = 0.6  # how differently squashed pips of one face may look
    one_radius: tuple[float, float] = (0.05, 0.22)  # a 1's pip radius
    step_range: tuple[float, float] = (0.13, 0.42)  # grid step (centre to a middle pip)
    pip_to_step: tuple[float, float] = (0.15, 0.75)  # pip radius / grid step
    contrast_ratio: float = 1.6  # strongest / weakest pip of one face (one colour, glare aside)
    two_alike: float = 1.4  # the two pips of a 2: largest ratio of their sizes, of their contrasts
    face_extent: float = 1.45  # grid steps from the centre still on the face (pips sit at 1)
    empty_share: float = 0.5  # an empty grid position stays below this share of the pips' contrast
    max_uneven: float = 0.15  # share of a face, between its pips, allowed a pip-like contrast
    one_face: float = 0.5  # a 1's face (the face-coloured patch around its pip): smallest side
    one_offset: float = 0.15  # a 1's pip to the middle of its face, share of the face's side
    side_squash: float = 1.3  # pips squashed more than this may lie on a side face ...
    rounder: float = 1.25  # ... and do if a pip on the die is rounder by this factor


DEFAULT = ReaderParams()


def read_dice(frame, expected: int | None = None, reference: np.ndarray | None = None,
              params: ReaderParams = DEFAULT) -> DiceReading:
    """Read the dice in one frame."""
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
        return _read(bgr, expected, ref, params)
    except (cv2.error, ValueError, ArithmeticError, IndexError, MemoryError, np.linalg.LinAlgError) as exc:
        # A safety net for the kiosk, not a code path: the tests feed garbage frames and require
        # that this reason never appears.
        return unreadable(f"reader failure ({type(exc).__name__})")


def _read(bgr, expected, ref, p: ReaderParams) -> DiceReading:
    h, w = bgr.shape[:2]
    small = cv2.medianBlur(cv2.resize(bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA), 3)
    if ref is not None:
        bg = _ycc(cv2.GaussianBlur(cv2.resize(ref, (w // 2, h // 2), interpolation=cv2.INTER_AREA), (5, 5), 0))
    else:
        bg = background(small)
    dist = foreground_distance(_ycc(small), bg)
    roots = blob_tree(dist, p.levels, 2.0, (p.min_die * 0.8) ** 2, (p.max_die * 1.6) ** 2)
    ctx = _Context(bgr, p)
    ctx.debug["blobs"] = roots
    dice: list[Die] = []
    for root in roots:
        dice.extend(_solve(ctx, root))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    if not dice:
        out = unreadable("no dice", ())
    elif ctx.problems:
        out = unreadable(ctx.problems[0], tuple(dice))
    elif expected is not None and len(dice) != expected:
        out = unreadable(f"expected {expected} dice, found {len(dice)}", tuple(dice))
    else:
        out = DiceReading("ok", tuple(dice))
    out.extra["debug"] = ctx.debug
    return out


class _Context:
    """One frame's reading in progress: the frame, the tunables, what went wrong, what was tried."""

    def __init__(self, bgr: np.ndarray, p: ReaderParams):
        self.bgr, self.p = bgr, p
        self.problems: list[str] = []
        self.debug: dict = {"reads": []}


def _ycc(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb).astype(np.float32)


def _die_like(b: Blob, p: ReaderParams) -> bool:
    """Whether a blob may be one die: its size (a die's rounded corners and a high cut shave its
    region a little), squareness and convexity."""
    return (0.85 * p.min_die <= b.side <= p.max_die and b.aspect <= p.max_aspect and b.fill >= p.min_fill
            and b.solidity >= p.min_solidity)


def _solve(ctx: _Context, blob: Blob, failed_area: float = 0.0, seen=()) -> list[Die]:
    """The dice in a blob's subtree: the blob itself as one die, or its children's dice.

    A blob nearly as large as one already read without success (``failed_area``) is not read again:
    at a slightly higher cut the same region says the same. The pips that failed read saw (``seen``)
    must be explained by a reading of a tighter region inside it too. A blob read as one die but much larger
    than that die's face may hold another die, or show a side face as squarely as the top: its
    children are read too. More dice there win; one die of another value makes the die ambiguous.
    """
    p = ctx.p
    if _die_like(blob, p) and (not failed_area or blob.area < 0.8 * failed_area):
        # A die's scale: the side of a square of the region's area, or, for a region of several
        # touching dice, the largest disk inside it.
        fr: FaceRead = read_face(ctx.bgr, blob.contour, min(blob.side, blob.inscribed), p, seen)
        ctx.debug["reads"].append({"blob": blob, "pips": fr.pips, "why": fr.reason or f"read {fr.value}",
                                   "lay": fr.dice[0].layout if fr.dice else None, "tried": fr.tried,
                                   "faces": fr.dice})
        if fr.dice:
            dice = [Die(f.value, f.center, f.box, f.confidence) for f in fr.dice]
            area = sum(f.area for f in fr.dice)
            if len(dice) == 1 and area and blob.area > p.max_region_per_face * area:
                die = dice[0]
                kids = [k for c in blob.children for k in _solve(ctx, c)]
                if len(kids) >= 2:
                    return kids
                if kids and kids[0].value != die.value:
                    ctx.problems.append(f"a die at ({die.center[0]:.0f}, {die.center[1]:.0f}) reads "
                                        f"{die.value} or {kids[0].value}")
            return dice
        failed_area, seen = blob.area, fr.pips
    kids: list[Die] = []
    for child in blob.children:
        kids.extend(_solve(ctx, child, failed_area, seen))
    # Touching dice that never part at a higher cut: read the cluster at the size of one die in it.
    if not _die_like(blob, p) and _cluster_like(blob, p):
        fr = read_face(ctx.bgr, blob.contour, blob.inscribed, p)
        ctx.debug["reads"].append({"blob": blob, "pips": fr.pips, "why": "cluster: " + (fr.reason or f"{len(fr.dice)} dice"),
                                   "lay": fr.dice[0].layout if fr.dice else None, "tried": fr.tried,
                                   "faces": fr.dice})
        if len(fr.dice) > len(kids):
            return [Die(f.value, f.center, f.box, f.confidence) for f in fr.dice]
    return kids


def _cluster_like(b: Blob, p: ReaderParams) -> bool:
    """Whether a blob may be a few touching dice: larger than one die, at most a handful."""
    return p.min_die <= b.inscribed <= p.max_die and b.area <= p.max_cluster * b.inscribed ** 2
