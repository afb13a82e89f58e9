"""Measure the reader on labelled photos (``../shared/dice-photos`` and ``../shared/dice-train``).

Each photo is read as the appliance would read a frame: the reader is told how many dice to expect
(the manifest's ``n_dice``; the appliance always knows, 2 or 5). Excluded rows are not scored, nor
are the sources whose labels are doubtful (``vision.photos.TRAIN_ONLY``).

How dice are matched to labels (per-die accuracy): a die the reader returned and a labelled die match
when the reader's centre lies inside the label box, or the label box's centre lies inside the reader's
box. The second rule is needed because label boxes mean different things per source
(``vision.photos``): the top face, the pip pattern only (a "1" box is the single pip), or the whole die
with its visible sides. Pairs are then taken one-to-one, nearest centres first (reader centre to label
box centre). A labelled die is read right when it is matched to a reader die of the same value.
Per-die accuracy counts the dice of every reading, ``unreadable`` ones too (their dice are the
reader's best effort, shown but never acted on): it measures finding and counting; the per-image
figures measure what the game may act on.

Per image: ``exact`` when the reading is ``ok`` and its sorted values equal the labelled ones (an
``unreadable`` reading is never right); ``ok wrong`` when the reading is ``ok`` but its values differ.

Splits (``vision.photos.split_of``): ``val`` is the fifth of every source the learned parts never
saw in training; ``train`` the rest. Figures on ``val`` are the honest ones.

Run: ``python -m vision.evaluate [--manifest CSV ...] [--split train|val|all] [--errors]`` or
``dicetable read --manifest CSV ...``. A training's models are read with ``--models DIR``; with
``--thresholds GATE_JSON`` they decide with another gate's four thresholds (die, doubt, sure,
cocked), e.g. the shipped ``vision/models/gate.json``, to compare two models at the same thresholds.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.photos import DEFAULT_MANIFESTS, SOURCES, TRAIN_ONLY, Box, Photo, load_manifest
from vision.reading import DiceReading

def _inside(point: tuple[float, float], box: Box) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def match(photo: Photo, reading: DiceReading) -> list[tuple[int, int]]:
    """Pairs (label index, reading die index), one-to-one, by the rule in the module docstring."""
    pairs = []
    for li, lbox in enumerate(photo.boxes):
        lc = (lbox[0] + lbox[2] / 2, lbox[1] + lbox[3] / 2)
        for di, die in enumerate(reading.dice):
            if _inside(die.center, lbox) or _inside(lc, die.box):
                d2 = (die.center[0] - lc[0]) ** 2 + (die.center[1] - lc[1]) ** 2
                pairs.append((d2, li, di))
    pairs.sort()
    used_l, used_d, out = set(), set(), []
    for _, li, di in pairs:
        if li not in used_l and di not in used_d:
            used_l.add(li)
            used_d.add(di)
            out.append((li, di))
    return out


@dataclass(frozen=True)
class Result:
    """One photo read and scored. dice_right: labelled dice matched to a die of the same value."""

    photo: Photo
    reading: DiceReading
    ms: float
    dice_right: int

    @property
    def exact(self) -> bool:
        """Read right: ``ok`` with the labelled values, or for a photo of no dice, "no dice"."""
        if not self.photo.values:
            return self.reading.kind == "no_dice"
        return self.reading.ok and self.reading.values == self.photo.values

    @property
    def ok_wrong(self) -> bool:
        """Read ``ok`` with other values than labelled (for a photo of no dice: any ``ok``)."""
        return self.reading.ok and self.reading.values != self.photo.values


def score(photo: Photo, reading: DiceReading, ms: float = 0.0) -> Result:
    """Score one reading of ``photo``."""
    right = sum(photo.box_values[li] == reading.dice[di].value for li, di in match(photo, reading))
    return Result(photo, reading, ms, right)


def scored_frames(photos: Iterable[Photo]) -> Iterator[tuple[Photo, np.ndarray]]:
    """Each scored photo (not excluded, not of a ``TRAIN_ONLY`` source) with its (H, W, 3) uint8 BGR
    frame. Raises OSError with the photo's path as its ``filename`` when a photo cannot be loaded
    (FileNotFoundError when it is not there): a broken evaluation set is not a reader result."""
    from vision.images import ImageError, load_image

    for photo in photos:
        if photo.excluded or photo.source in TRAIN_ONLY:
            continue
        if not photo.path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(photo.path))
        try:
            frame = load_image(photo.path)
        except ImageError as exc:
            raise OSError(errno.EIO, exc.reason, str(photo.path)) from None
        yield photo, frame


def run(photos: Iterable[Photo], reader: Callable | None = None) -> list[Result]:
    """Read every scored photo (not excluded, not of a ``TRAIN_ONLY`` source) with
    ``reader(frame, expected=n)`` (default: ``vision.reader.read_dice``).

    Raises OSError when a photo cannot be loaded (a broken evaluation set is not a reader result).
    """
    if reader is None:
        from vision.reader import read_dice as reader
    results = []
    for photo, frame in scored_frames(photos):
        t0 = time.perf_counter()
        reading = reader(frame, expected=len(photo.values))
        ms = (time.perf_counter() - t0) * 1000.0
        results.append(score(photo, reading, ms))
    return results


@dataclass(frozen=True)
class Summary:
    """Figures for a group of results; shares are 0-1 (nan-free: 0 when the group is empty)."""

    images: int
    dice: int
    per_die: float
    exact: float
    unreadable: float
    ok_wrong: float  # share of the ok readings that were wrong
    ok_wrong_of_images: float
    median_ms: float

    @classmethod
    def of(cls, results: list[Result]) -> Summary:
        n = len(results)
        dice = sum(len(r.photo.values) for r in results)
        oks = [r for r in results if r.reading.ok]
        wrong = sum(r.ok_wrong for r in results)
        ms = sorted(r.ms for r in results)
        return cls(
            images=n,
            dice=dice,
            per_die=sum(r.dice_right for r in results) / dice if dice else 0.0,
            exact=sum(r.exact for r in results) / n if n else 0.0,
            unreadable=(n - len(oks)) / n if n else 0.0,
            ok_wrong=wrong / len(oks) if oks else 0.0,
            ok_wrong_of_images=wrong / n if n else 0.0,
            median_ms=ms[n // 2] if n else 0.0,
        )


def summarise(results: list[Result]) -> dict[tuple[str, str], Summary]:
    """Summaries keyed by (source, "all" | "table_like"), sources in SOURCES order."""
    out = {}
    for source in SOURCES + tuple(sorted({r.photo.source for r in results} - set(SOURCES))):
        mine = [r for r in results if r.photo.source == source]
        if mine:
            out[(source, "all")] = Summary.of(mine)
            out[(source, "table_like")] = Summary.of([r for r in mine if r.photo.table_like])
    return out


def format_table(summaries: dict[tuple[str, str], Summary]) -> str:
    """The per-source table as printed by the evaluation."""
    head = (f"{'source':<24}{'subset':<11}{'images':>7}{'dice':>6}{'per die':>9}{'exact':>8}"
            f"{'unread':>8}{'ok wrong':>10}{'ms med':>8}")
    lines = [head, "-" * len(head)]
    for (source, subset), s in summaries.items():
        lines.append(
            f"{source:<24}{subset:<11}{s.images:>7}{s.dice:>6}{s.per_die:>9.1%}{s.exact:>8.1%}"
            f"{s.unreadable:>8.1%}{s.ok_wrong:>10.1%}{s.median_ms:>8.1f}"
        )
    return "\n".join(lines)


def format_errors(results: list[Result]) -> str:
    """One line per photo not read exactly: file, expected values, what the reader said."""
    lines = []
    for r in results:
        if r.exact:
            continue
        got = " ".join(str(v) for v in r.reading.values)
        want = " ".join(str(v) for v in r.photo.values)
        tag = "OK-WRONG" if r.ok_wrong else "unread"
        lines.append(f"{tag:<9}{r.photo.file}  want [{want}]  got [{got}]  {r.reading.reason}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The evaluation's options beside ``--manifest`` (shared with ``dicetable read --manifest``)."""
    parser.add_argument("--split", choices=("train", "val", "all"), default=None,  # None: not given (val)
                        help="score the validation photos the learned parts never saw (default), the "
                             "training photos, or all")
    parser.add_argument("--errors", action="store_true", help="also list every photo not read exactly")


def evaluate_manifests(manifests, split: str | None = None, errors: bool = False, out=None,
                       reader: Callable | None = None, prog: str = "python -m vision.evaluate") -> int:
    """Read and score the photos of one or more manifests (``split``: "train", "val" or "all"; None,
    not given, is "val") and print the per-source table to ``out`` (default stdout); returns an
    exit status: 0, or 2 when a manifest or a photo cannot be read or they list no photo to score
    (said on stderr after ``prog: ``)."""
    out = out or sys.stdout
    split = split or "val"
    names = ", ".join(str(m) for m in manifests)
    photos = []
    for manifest in manifests:
        try:
            photos += load_manifest(manifest)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or exc
            print(f"{prog}: cannot read the manifest {manifest}: {why}", file=sys.stderr)
            return 2
    try:
        if split != "all":
            photos = [p for p in photos if p.split == split]
        if all(p.excluded or p.source in TRAIN_ONLY for p in photos):
            print(f"{prog}: no photos to score in {names} (split: {split})", file=sys.stderr)
            return 2
        results = run(photos, reader)
    except OSError as exc:  # a photo a manifest lists is not there, or not an image
        if exc.filename is None:
            print(f"{prog}: {exc}", file=sys.stderr)
        else:
            where = " (a manifest's photos lie beside it, as it names them)" if isinstance(exc, FileNotFoundError) else ""
            print(f"{prog}: cannot read the photo {exc.filename} of {names}: {exc.strerror}{where}", file=sys.stderr)
        return 2
    print(f"{names} (split: {split}, {len(results)} photos scored, expected count given)", file=out)
    print(format_table(summarise(results)), file=out)
    astray = boxes_astray(results)
    if astray:
        print(f"note: {astray} photo(s) read ok where their label boxes lie on none of the dice read (boxes of "
              "another image size?): per die counts their dice wrong", file=out)
    if errors:
        print(format_errors(results), file=out)
    return 0


def boxes_astray(results: list[Result]) -> int:
    """How many of ``results`` were read ok, yet not one of their dice lies where a label box of
    its photo does: a manifest whose boxes belong to another size of the images (a resized copy)
    scores exact readings at 0% per die, which the table alone would leave unexplained. (A photo
    read short may find only a false die, away from every box: not counted.)"""
    return sum(1 for r in results if r.photo.boxes and r.reading.ok and not match(r.photo, r.reading))


def models_reader(directory: Path | None, thresholds: Path | None) -> Callable:
    """``read_dice`` with the models in ``directory`` (None: the shipped ones), deciding with the four
    thresholds of the gate file ``thresholds`` (None: their own). Raises OSError or ValueError when
    a model or the gate file cannot be read."""
    from functools import partial

    from vision.gate import Gate
    from vision.reader import MODELS, Models, read_dice

    models = Models.load(directory or MODELS)
    if thresholds is not None:
        g = Gate.load(thresholds)
        models = replace(models, gate=models.gate.with_thresholds(g.die_at, g.doubt_at, g.sure_at, g.cocked_at))
    return partial(read_dice, models=models)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", type=Path, nargs="+", metavar="CSV", default=list(DEFAULT_MANIFESTS),
                        help="manifests to score (default: both photo sets beside the repository)")
    add_arguments(parser)
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="the models' folder (finder.onnx, face.onnx, gate.json; default: the shipped ones)")
    parser.add_argument("--thresholds", type=Path, metavar="GATE_JSON",
                        help="decide with this gate file's die, doubt, sure and cocked thresholds instead of "
                             "the models' own (e.g. vision/models/gate.json)")
    args = parser.parse_args(argv)
    reader = None
    if args.models is not None or args.thresholds is not None:
        try:
            reader = models_reader(args.models, args.thresholds)
        except (OSError, ValueError) as exc:
            print(f"python -m vision.evaluate: cannot load the models: {exc}", file=sys.stderr)
            return 2
    return evaluate_manifests(args.manifest, args.split, args.errors, reader=reader)


if __name__ == "__main__":
    sys.exit(main())
