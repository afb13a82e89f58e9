"""The labelled dice photos: manifests, the fixed train/validation split, what each source's boxes mean.

The photo sets live beside the repository (``../shared/dice-photos`` and ``../shared/dice-train``,
each with a ``manifest.csv`` described in its README.txt). The reader's learned parts are trained on
the ``train`` part of every source and measured on the ``val`` part, which they never see: a photo's
part is fixed by the SHA-1 of its bytes (one in five is ``val``), so a renamed or moved copy stays
where it was, and the split needs no list kept anywhere.

Box meanings differ per source (each source's SOURCE.txt and the manifests' README.txt):
nell-byler boxes are the top face, matteop65 boxes hold only the pip pattern (a 1's box is its one
pip), every other source's boxes hold the whole die with its visible sides. Only training needs to
know (``BOX_KINDS``); the evaluation's matching rule accepts all three.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
# The development photos and the training photos, in the order their sources are reported.
DEFAULT_MANIFESTS = (SHARED / "dice-photos" / "manifest.csv", SHARED / "dice-train" / "manifest.csv")
SOURCES = ("nell-byler", "matteop65", "epanemu-dice3", "epanemu-dice3-trainaug", "aws-reinvent2019",
           "rune55-graytray", "rune55-purpletray")

BoxKind = Literal["top_face", "pips", "whole_die"]
# What a source's label boxes enclose (their SOURCE.txt); sources not named here: the whole die.
BOX_KINDS: dict[str, BoxKind] = {"nell-byler": "top_face", "matteop65": "pips"}
# Sources whose labels are doubtful in crowded images (dice-train/README.txt): train on, never score.
TRAIN_ONLY = ("rune55-purpletray",)

Split = Literal["train", "val"]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Photo:
    """One labelled photo of a manifest.

    file: path relative to the manifest's folder; root: that folder. values: sorted top-face values.
    boxes / box_values: each labelled die's box (x, y, w, h) in px and its value, in the same order.
    table_like: the appliance's situation (<= 5 dice, none touching, tiny or cut by the border).
    excluded: not to be scored (a label file that misses visible dice, a label error found).
    """

    file: str
    source: str
    values: tuple[int, ...]
    boxes: tuple[Box, ...]
    box_values: tuple[int, ...]
    table_like: bool
    excluded: bool
    root: Path = Path(".")

    @property
    def path(self) -> Path:
        """The photo's file."""
        return self.root / self.file

    @property
    def split(self) -> Split:
        """``"train"`` or ``"val"`` by the SHA-1 of the file's bytes (see the module docstring).
        Raises OSError when the file cannot be read."""
        return split_of(self.path)

    @property
    def box_kind(self) -> BoxKind:
        """What this photo's boxes enclose (``BOX_KINDS``)."""
        return BOX_KINDS.get(self.source, "whole_die")


@lru_cache(maxsize=None)
def split_of(path: Path) -> Split:
    """``"val"`` for one photo in five, by the SHA-1 of the file's bytes, else ``"train"``.
    Raises OSError when the file cannot be read."""
    digest = hashlib.sha1(Path(path).read_bytes()).digest()
    return "val" if int.from_bytes(digest[:4], "big") % 5 == 0 else "train"


# The manifest's columns read here (README.txt of the photo set names them all).
COLUMNS = ("file", "source", "boxes", "values_in_box_order", "table_like", "excluded")


def load_manifest(path: str | Path) -> list[Photo]:
    """All rows of a manifest.csv (README.txt format), excluded ones included (flagged).

    Raises OSError when the file cannot be read, ValueError on a missing column, a malformed row (an
    ``n_dice``, when given, that does not count its labelled dice) or text that is not UTF-8 (the
    caller names the file).
    """
    try:
        return _read_manifest(path)
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (the byte 0x{exc.object[exc.start]:02x} at position {exc.start})") from None


def _read_manifest(path: str | Path) -> list[Photo]:
    photos = []
    root = Path(path).parent
    with open(path, newline="", encoding="utf-8") as fh:
        rows = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (rows.fieldnames or ())]
        if missing:
            raise ValueError(f"missing column{'s' * (len(missing) > 1)} {', '.join(missing)}")
        for row in rows:
            if any(row[c] is None for c in COLUMNS):  # csv fills a short row's missing fields with None
                raise ValueError(f"line {rows.line_num}: too few fields")
            try:
                boxes = tuple(tuple(int(v) for v in b.split(",")) for b in row["boxes"].split(";") if b)
                box_values = tuple(int(v) for v in row["values_in_box_order"].split())
            except ValueError:
                raise ValueError(f"line {rows.line_num}: boxes and values must be integers") from None
            if len(boxes) != len(box_values) or any(len(b) != 4 for b in boxes):
                raise ValueError(f"{row['file']}: boxes and values_in_box_order disagree")
            n_dice, n = (row.get("n_dice") or "").strip(), len(box_values)
            if n_dice and not (n_dice.isdigit() and int(n_dice) == n):  # optional; given, it counts the labelled dice
                if not n_dice.isdigit():
                    raise ValueError(f"{row['file']}: n_dice is a number of dice, not {n_dice!r}")
                raise ValueError(f"{row['file']}: n_dice is {n_dice}, but {n} {'die is' if n == 1 else 'dice are'} labelled")
            wrong = [v for v in box_values if not 1 <= v <= 6]
            if wrong:
                raise ValueError(f"{row['file']}: a die's value is 1-6, not {wrong[0]}")
            photos.append(Photo(
                file=row["file"],
                source=row["source"],
                values=tuple(sorted(box_values)),
                boxes=boxes,  # type: ignore[arg-type]
                box_values=box_values,
                table_like=row["table_like"] == "1",
                excluded=row["excluded"] == "1",
                root=root,
            ))
    return photos


def load_manifests(paths=DEFAULT_MANIFESTS, split: Split | Literal["all"] = "all") -> list[Photo]:
    """The photos of several manifests, of one split or all. Raises OSError or ValueError as
    ``load_manifest`` does (and OSError when a photo of a split cannot be read)."""
    photos = [p for path in paths for p in load_manifest(path)]
    return photos if split == "all" else [p for p in photos if p.split == split]
