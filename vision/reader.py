"""The pip reader: one frame in, every die's top-face value out, or an honest ``unreadable``.

How a frame is read:

1. The frame is normalised (``vision.frames.to_bgr``); a frame of pure noise is refused.
2. Foreground: each pixel's colour distance from the background, which is the empty-tray reference
   when given, else estimated from the frame (``vision.dice``). The map is cut at a ladder of levels
   into a tree of blobs: touching dice part at a higher cut, a tilted die's top face stands alone.
3. Each die-shaped blob, lowest cut first, is read (``vision.face``): pips found at the scale the
   blob implies, every layout they can form checked as a top face, the top face chosen or the die
   called ambiguous. A blob that fails is tried at higher cuts, each read with the foreground
   around it, whose pips it must still explain; a blob shaped like a few touching dice is read as
   a cluster.
4. The frame's reading is ``ok`` only when every die found was read and, if the caller said how many
   dice to expect, there are exactly that many; else ``unreadable`` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice import Blob, background, blob_tree, foreground_distance
from vision.face import FaceRead, read_face
from vision.frames import to_bgr
from vision.pips import CHROMA
from vision.reading import DiceReading, Die, no_dice, unreadable, wrong_count


@dataclass(frozen=True)
class ReaderParams:
    """The reader's tunables, one frozen set with its defaults. Colour distances are in the units
    of ``vision.pips.colour_distance`` (8-bit YCrCb, chroma weighted); sizes are shares of a die's
    side unless marked px."""

    # The frame
    max_noise: int = 10  # grey levels: a frame whose typical pixel strays further is noise
    min_die: float = 15.0  # px, the smallest die side read
    max_die: float = 200.0  # px, the largest
    levels: tuple[float, ...] = (10, 14, 20, 28, 40, 56, 80)  # foreground cuts (colour distance)
    # Regions
    min_fill: float = 0.6  # a die's region: area / its minimum-area rectangle
    min_solidity: float = 0.82  # area / its convex hull
    max_aspect: float = 2.0  # the rectangle's longer side / its shorter
    max_region_per_face: float = 2.2  # a region this much larger than its face may hold more
    max_cluster: float = 6.0  # die areas in the largest cluster of touching dice read as one
    min_spread: float = 10.0  # colour spread (std, colour distance) a region with pips shows
    # Pips
    max_pips: int = 10  # most pip candidates for each die's area of a region
    min_pip_response: float = 6.0  # the pip filter's weakest peak
    min_pip_share: float = 0.25  # of the die's strongest peak
    shape_tol: float = 0.6  # how differently squashed pips of one face may look
    # A layout as the top face
    step_range: tuple[float, float] = (0.13, 0.42)  # grid step (centre to a middle pip)
    pip_to_step: tuple[float, float] = (0.15, 0.75)  # pip radius / grid step
    contrast_ratio: float = 1.6  # strongest / weakest pip of one face (one colour, glare aside)
    two_alike: float = 1.4  # the two pips of a 2: largest ratio of their sizes, of their contrasts
    face_extent: float = 1.45  # grid steps from the centre still on the face (pips sit at 1)
    empty_share: float = 0.5  # an empty grid position stays below this share of the pips' contrast
    max_uneven: float = 0.15  # share of a face between its pips allowed a pip-like contrast
    one_radius: tuple[float, float] = (0.05, 0.22)  # a 1's pip radius
    one_face: float = 0.5  # a 1's face (the face-coloured patch around its pip): smallest side
    one_offset: float = 0.15  # a 1's pip to the middle of its face, share of the face's side
    side_squash: float = 1.3  # a face squashed more than this with the die going on above it is a side face
    # Pips beside a region (in the foreground around it, within beside_reach of a die's side)
    beside_reach: float = 0.3
    beside_ring: float = 0.75  # share of a ring around a spot there that must be face-coloured
    beside_extent: float = 2.6  # grid steps from a face's centre: such a pip alike its own sinks it
    own_extent: float = 2.0  # grid steps: a pip of the region alike the face's this near sinks it
    alike_contrast: float = 0.7  # alike a face's pips: at least this share of their weakest contrast
    alike_size: float = 1.5  # and a radius within this factor of theirs (and squashed alike)
    two_ring: float = 0.6  # share of a ring around each pip of a 2 that must be face-coloured


DEFAULT = ReaderParams()


def read_dice(frame, expected: int | None = None, reference: np.ndarray | None = None,
              params: ReaderParams = DEFAULT, *, debug: bool = False) -> DiceReading:
    """Read the dice in one frame (see the module docstring).

    frame: anything ``vision.frames.to_bgr`` accepts: (H, W, 3) uint8 BGR, (H, W) or (H, W, 1)
        grey, (H, W, 4) BGRA/XBGR, uint16 or float 0-1. Dice 15-200 px across are read.
    expected: the number of dice the game expects (2 or 5 at the table); a reading with another
        count is ``unreadable`` ("expected 5 dice, found 4"). None: whatever lies there.
    reference: an empty-tray frame of the same size from calibration (same formats as ``frame``);
        ignored when it cannot be normalised or its size differs.
    params: the tunables. debug: also put what was tried in ``reading.extra["debug"]`` (the blob
        tree, each region read with its pips and verdict), for drawing and investigating.
    Returns a ``DiceReading``: ``ok`` with each die's value (1-6), top-face centre and box (frame px)
    and confidence (0-1), in reading order; or ``unreadable`` with the reason and the dice that were
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
        return _read(bgr, expected, ref, params, debug)
    except Exception as exc:  # noqa: BLE001
        # A safety net so the kiosk never shows a traceback, not a code path: the tests feed
        # drawn, synthetic, garbage and noise frames and require that this reason never appears.
        return unreadable(f"reader failure ({type(exc).__name__}: {exc})", kind="failure")


def _read(bgr, expected, ref, p: ReaderParams, debug: bool) -> DiceReading:
    h, w = bgr.shape[:2]
    half = cv2.resize(bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    # A camera's pixels differ from their 3x3 median by a few levels (salt-and-pepper specks
    # aside); a frame where most differ by more is noise, not a picture of a tray.
    grey = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    if cv2.countNonZero(cv2.compare(cv2.absdiff(grey, cv2.medianBlur(grey, 3)), p.max_noise, cv2.CMP_GT)) > grey.size // 2:
        return unreadable("the frame is noise, not a picture", kind="noise")
    small = cv2.medianBlur(half, 3)
    if ref is not None:
        bg = _ycc(cv2.GaussianBlur(cv2.resize(ref, (w // 2, h // 2), interpolation=cv2.INTER_AREA), (5, 5), 0))
    else:
        bg = background(small)
    small_ycc = _ycc(small)
    dist = foreground_distance(small_ycc, bg)
    roots = blob_tree(dist, p.levels, 2.0, (p.min_die * 0.8) ** 2, (p.max_die * 1.6) ** 2)
    ctx = _Context(bgr, small_ycc, p, debug)
    dice: list[Die] = []
    for root in roots:
        dice.extend(_solve(ctx, root))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    if not dice:
        out = no_dice()
    elif ctx.problems:
        out = unreadable(ctx.problems[0], tuple(dice), "ambiguous")
    elif expected is not None and len(dice) != expected:
        out = wrong_count(expected, tuple(dice))
    else:
        out = DiceReading("ok", tuple(dice))
    if ctx.debug is not None:
        out.extra["debug"] = dict(ctx.debug, blobs=roots)
    return out


class _Context:
    """One frame's reading in progress: the frame, the tunables, what went wrong, what was tried."""

    def __init__(self, bgr: np.ndarray, small_ycc: np.ndarray, p: ReaderParams, debug: bool):
        self.bgr, self.small_ycc, self.p = bgr, small_ycc, p
        self.size = (bgr.shape[1], bgr.shape[0])
        self.problems: list[str] = []
        self.debug: dict | None = {"reads": []} if debug else None

    def plain(self, blob: Blob) -> bool:
        """Whether a blob's colours hardly vary (a shadow, a patch of tray, a glare halo): a die has
        pips, so its colours spread by ``min_spread`` or more (on the half-size frame)."""
        n, var = blob.spread(self.small_ycc)
        if n < 4:
            return True
        return float(np.sqrt(var[0] + CHROMA * (var[1] + var[2]))) < self.p.min_spread

    def read(self, blob: Blob, side: float, root: Blob, cluster: bool = False) -> FaceRead:
        """Read a blob's region (``vision.face.read_face``) with the foreground around it (its
        lowest cut ``root``), noting it when debugging."""
        fr = read_face(self.bgr, blob.contour, side, self.p, root.contour)
        if self.debug is not None:
            why = fr.reason or (f"{len(fr.dice)} dice" if cluster else f"read {fr.value}")
            self.debug["reads"].append({"blob": blob, "pips": fr.pips, "why": ("cluster: " if cluster else "") + why,
                                        "lay": fr.dice[0].layout if fr.dice else None, "tried": fr.tried,
                                        "faces": fr.dice, "context": root.contour})
        return fr


def _ycc(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb).astype(np.float32)


def _die_like(b: Blob, p: ReaderParams) -> bool:
    """Whether a blob may be one die: its size (a die's rounded corners and a high cut shave its
    region a little), squareness and convexity."""
    return (0.85 * p.min_die <= b.side <= p.max_die and b.aspect <= p.max_aspect and b.fill >= p.min_fill
            and b.solidity >= p.min_solidity)


def _solve(ctx: _Context, blob: Blob, failed_area: float = 0.0, root: Blob | None = None) -> list[Die]:
    """The dice in a blob's subtree: the blob itself as one die, or its children's dice.

    A blob nearly as large as one already read without success (``failed_area``) is not read again:
    at a slightly higher cut the same region says the same. Each region is read with the foreground
    around it (the subtree's ``root``, its lowest cut): a tighter region must explain the pips it
    leaves out. A blob read as one die but much larger than that die's face may hold another die,
    or show a side face as squarely as the top: its children are read too. More dice there win; one
    die of another value makes the die ambiguous.
    """
    root = root or blob
    p = ctx.p
    x, y, w, h = blob.box
    # A region at the frame's edge may be a die cut off by it: its pips are looked at (a tighter
    # cut inside it must explain them) but it is never read as dice.
    inside = x > 1 and y > 1 and x + w < ctx.size[0] - 1 and y + h < ctx.size[1] - 1
    if _die_like(blob, p) and (not failed_area or blob.area < 0.8 * failed_area) and not ctx.plain(blob):
        # A die's scale: the side of a square of the region's area, or, for a region of several
        # touching dice, the largest disk inside it.
        fr = ctx.read(blob, min(blob.side, blob.inscribed), root)
        if fr.dice and inside:
            dice = _dice(fr)
            area = sum(f.area for f in fr.dice)
            if len(dice) == 1 and area and blob.area > p.max_region_per_face * area:
                die = dice[0]
                kids = [k for c in blob.children for k in _solve(ctx, c, root=root)]
                if len(kids) >= 2:
                    return kids
                if kids and kids[0].value != die.value:
                    ctx.problems.append(f"a die at ({die.center[0]:.0f}, {die.center[1]:.0f}) reads "
                                        f"{die.value} or {kids[0].value}")
            return dice
        failed_area = blob.area
    kids: list[Die] = []
    for child in blob.children:
        kids.extend(_solve(ctx, child, failed_area, root))
    # Touching dice that never part at a higher cut: read the cluster at the size of one die in it.
    # Children read as two dice or more did part (a part that did not is a cluster of its own,
    # read as one in its turn): the whole is not read again.
    if len(kids) < 2 and inside and not _die_like(blob, p) and _cluster_like(blob, p) and not ctx.plain(blob):
        fr = ctx.read(blob, blob.inscribed, root, cluster=True)
        if len(fr.dice) >= 2 and len(fr.dice) > len(kids):
            return _dice(fr)
    return kids


def _dice(fr: FaceRead) -> list[Die]:
    return [Die(f.value, f.center, f.box, f.confidence) for f in fr.dice]


def _cluster_like(b: Blob, p: ReaderParams) -> bool:
    """Whether a blob may be a few touching dice: two dice's area or more (an L of three has 1.7
    times the square of its largest inscribed disk, two side by side 2), at most a handful."""
    return (p.min_die <= b.inscribed <= p.max_die
            and 1.6 * b.inscribed ** 2 <= b.area <= p.max_cluster * b.inscribed ** 2)
