"""The cocked threshold's margin on both sides: how likely the face reader finds flat real dice to be
cocked, and how likely the cocked dice of the synthetic table.

    .venv/bin/python benchmarks/cocked_margin.py [--models DIR] [--photos N] [--throws 30]

The thresholds' choice (``vision.train.thresholds``) sees a cocked threshold only through photos
that read exactly; a flat die that looks a little cocked in a photo missed for another reason costs
it nothing, so it takes the lowest threshold of its grid that loses no exact photo. This prints, per
source, of the dice the reader counts as dice (``Weighed.die`` at least the gate's ``die_at``) in
the scored photos of the validation fifth and of the calibration eighth (every die there lies
flat): how many, and how many a cocked threshold of each grid value would call cocked; then, for
``--throws`` throws of the synthetic table with a die leaning on the tray's wall (as
``benchmarks/mishaps.py`` throws them, ``still_frame``), that die's probability of leaning (its candidate with the
most die-like weight on its box; "-" when none is among the candidates), and how many of them each
value catches. Needs ``../shared`` (the photo sets); says so and exits 2 without it.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mishaps import still_frame  # noqa: E402

from vision import evaluate  # noqa: E402
from vision.frames import to_bgr  # noqa: E402
from vision.photos import DEFAULT_MANIFESTS, load_manifests  # noqa: E402
from vision.reader import DEFAULT, MODELS, Models, gather, levels_read, read_dice  # noqa: E402
from vision.train.__main__ import calibration  # noqa: E402
from vision.train.thresholds import COCKED_AT  # noqa: E402

def flat_dice(models: Models, photos) -> dict[str, list[float]]:
    """Per source: the probability of leaning of each die the reader counts in ``photos``."""
    found = defaultdict(list)
    at = models.gate.die_at
    for photo, frame in evaluate.scored_frames(photos):
        n = len(photo.values)
        found[photo.source] += [r.cocked for r in gather(levels_read(to_bgr(frame), n, None, DEFAULT, models), n, at)
                                if r.die >= at]
    return found


def leaning_die(models: Models, seed: int) -> float | None:
    """The probability of leaning of the die cocked against the tray's wall in one synthetic throw
    of 2 or 5 dice, as ``benchmarks/mishaps.py`` throws it (None: no candidate on it)."""
    n = 2 if seed % 2 == 0 else 5
    table, frame = still_frame(seed, n, cocked=seed % n)
    x, y, w, h = table.truth.cocked[0].box
    on_it = [r for r in read_dice(frame, expected=n, models=models, debug=True).extra["candidates"]
             if x <= r.center[0] <= x + w and y <= r.center[1] <= y + h]
    return max(on_it, key=lambda r: r.die).cocked if on_it else None


def count(text: str) -> int:
    """A command line count, 0 or more."""
    n = int(text)
    if n < 0:
        raise ValueError(text)
    return n


def row(name: str, values: list[float]) -> str:
    return f"  {name:24s} {len(values):5d}  " + "  ".join(f"{sum(v >= t for v in values):6d}" for t in COCKED_AT)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=MODELS, help="the models' folder (default: the shipped ones)")
    parser.add_argument("--photos", type=count, default=None, help="the first N photos of each part only")
    parser.add_argument("--throws", type=count, default=30, help="synthetic throws with a cocked die")
    args = parser.parse_args(argv)
    if not all(m.is_file() for m in DEFAULT_MANIFESTS):
        print(f"cocked_margin.py: needs the labelled photos ({DEFAULT_MANIFESTS[0]})", file=sys.stderr)
        return 2
    try:
        models = Models.load(args.models)
    except (OSError, ValueError) as exc:
        print(f"cocked_margin.py: cannot load the models: {exc}", file=sys.stderr)
        return 2
    photos = load_manifests()
    head = "  " + " " * 24 + "  dice  " + "  ".join(f"{'>=' + format(t, '.1f'):>6s}" for t in COCKED_AT)
    print(f"models {args.models}, counted as a die from {models.gate.die_at:.2f}, cocked from {models.gate.cocked_at:.2f}")
    for part, chosen in (("validation", [p for p in photos if p.split == "val"]),
                         ("calibration", [p for p in photos if p.split == "train" and calibration(p)])):
        print(f"flat dice of the {part} photos called cocked at each threshold:")
        print(head)
        for source, values in sorted(flat_dice(models, chosen[:args.photos]).items()):
            print(row(source, values))
    leaning = [leaning_die(models, seed) for seed in range(args.throws)]
    print("synthetic dice leaning on the tray's wall, their probability of leaning: "
          + " ".join("-" if p is None else f"{p:.2f}" for p in sorted(leaning, key=lambda p: -1 if p is None else p)))
    print(head)
    print(row("caught", [p for p in leaning if p is not None]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
