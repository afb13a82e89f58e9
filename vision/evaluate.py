"""Measure the pip reader on labelled photos (``../shared/dice-photos/manifest.csv``).

Each photo is read as the appliance would read a frame: the reader is told how many dice to expect
(the manifest's ``n_dice``; the appliance always knows, 2 or 5). Excluded rows are not scored.

How dice are matched to labels (per-die accuracy): a die the reader returned and a labelled die match
when the reader's centre lies inside the label box, or the label box's centre lies inside the reader's
box. The second rule is needed because label boxes mean different things per source (README.txt):
nell-byler boxes are the top face, matteop65 boxes hold only the pip pattern (a "1" box is the single
pip), epanemu boxes hold the whole die with its visible sides. Pairs are then taken one-to-one, nearest
centres first (reader centre to label box centre). A labelled die is read right when it is matched to a
reader die of the same value. Per-die accuracy counts the dice of every reading, ``unreadable`` ones
too (their dice are the reader's best effort, shown but never acted on): it measures finding and
counting; the per-image figures measure what the game may act on.

Per image: ``exact`` when the reading is ``ok`` and its sorted values equal the labelled ones (an
``unreadable`` reading is never right); ``ok wrong`` when the reading is ``ok`` but its values differ.

Development split: ``split_of(file)`` puts each photo in ``dev`` or ``held`` by a hash of its path, so
thresholds can be tuned on one half and checked on the other.

Run: ``python -m vision.evaluate [--manifest PATH] [--split dev|held|all] [--errors]`` or
``dicetable read --manifest PATH``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from vision.reading import DiceReading

SOURCES = ("nell-byler", "matteop65", "epanemu-dice3", "epanemu-dice3-trainaug")
DEFAULT_MANIFEST = Path(__file__).resolve().parent.parent.parent / "shared" / "dice-photos" / "manifest.csv"

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Photo:
    """One labelled photo of the manifest.

    file: path relative to the manifest's folder. values: sorted top-face values.
    boxes / box_values: each labelled die's box (x, y, w, h) in px and its value, in the same order.
    table_like: the appliance's situation (<= 5 dice, none touching, tiny or cut by the border).
    """

    file: str
    source: str
    values: tuple[int, ...]
    boxes: tuple[Box, ...]
    box_values: tuple[int, ...]
    table_like: bool
    excluded: bool

    @property
    def split(self) -> str:
        return split_of(self.file)


def split_of(file: str) -> str:
    """``"dev"`` or ``"held"``: a fixed half of the photos by the SHA-1 of the file path."""
    return "dev" if hashlib.sha1(file.encode()).digest()[0] % 2 == 0 else "held"


# The manifest's columns the evaluation reads (README.txt of the photo set names them all).
COLUMNS = ("file", "source", "boxes", "values_in_box_order", "table_like", "excluded")


def load_manifest(path: str | Path = DEFAULT_MANIFEST) -> list[Photo]:
    """All rows of a manifest.csv (README.txt format), excluded ones included (flagged).

    Raises OSError when the file cannot be read, ValueError on a missing column or a malformed row.
    """
    photos = []
    with open(path, newline="", encoding="utf-8") as fh:
        rows = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (rows.fieldnames or ())]
        if missing:
            raise ValueError(f"missing column{'s' * (len(missing) > 1)} {', '.join(missing)}")
        for row in rows:
            if any(row[c] is None for c in COLUMNS):  # csv fills a short row's missing fields with None
                raise ValueError(f"line {rows.line_num}: too few fields")
            boxes = tuple(tuple(int(v) for v in b.split(",")) for b in row["boxes"].split(";") if b)
            box_values = tuple(int(v) for v in row["values_in_box_order"].split())
            if len(boxes) != len(box_values) or any(len(b) != 4 for b in boxes):
                raise ValueError(f"{row['file']}: boxes and values_in_box_order disagree")
            photos.append(Photo(
                file=row["file"],
                source=row["source"],
                values=tuple(sorted(box_values)),
                boxes=boxes,  # type: ignore[arg-type]
                box_values=box_values,
                table_like=row["table_like"] == "1",
                excluded=row["excluded"] == "1",
            ))
    return photos


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
        return self.reading.ok and self.reading.values == self.photo.values

    @property
    def ok_wrong(self) -> bool:
        return self.reading.ok and self.reading.values != self.photo.values


def score(photo: Photo, reading: DiceReading, ms: float = 0.0) -> Result:
    """Score one reading of ``photo``."""
    right = sum(photo.box_values[li] == reading.dice[di].value for li, di in match(photo, reading))
    return Result(photo, reading, ms, right)


def run(photos: Iterable[Photo], root: Path, reader: Callable | None = None) -> list[Result]:
    """Read every non-excluded photo with ``reader(frame, expected=n)`` (default: the pip reader).

    Raises OSError when a photo cannot be loaded (a broken evaluation set is not a reader result).
    """
    import cv2

    if reader is None:
        from vision.reader import read_dice as reader
    results = []
    for photo in photos:
        if photo.excluded:
            continue
        frame = cv2.imread(str(root / photo.file), cv2.IMREAD_COLOR)
        if frame is None:
            raise OSError(f"cannot load {root / photo.file}")
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
    """The evaluation's options (shared with ``dicetable read --manifest``)."""
    parser.add_argument("--split", choices=("dev", "held", "all"), default="all",
                        help="score only the development half, the held-out half, or all photos")
    parser.add_argument("--errors", action="store_true", help="also list every photo not read exactly")


def evaluate_manifest(manifest: Path, split: str = "all", errors: bool = False, out=None) -> int:
    """Read and score a manifest's photos and print the per-source table to ``out`` (default
    stdout); returns an exit status: 0, or 2 when the manifest or a photo cannot be read or it lists
    no photo to score."""
    out = out or sys.stdout
    try:
        photos = load_manifest(manifest)
    except (OSError, ValueError) as exc:
        print(f"cannot read the manifest {manifest}: {exc}", file=sys.stderr)
        return 2
    if split != "all":
        photos = [p for p in photos if p.split == split]
    if all(p.excluded for p in photos):
        print(f"no photos to score in the manifest {manifest} (split: {split})", file=sys.stderr)
        return 2
    try:
        results = run(photos, Path(manifest).parent)
    except OSError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{manifest} (split: {split}, {len(results)} photos scored, expected count given)", file=out)
    print(format_table(summarise(results)), file=out)
    if errors:
        print(format_errors(results), file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return evaluate_manifest(args.manifest, args.split, args.errors)


if __name__ == "__main__":
    sys.exit(main())
