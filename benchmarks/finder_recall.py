"""The die finder alone: how many of the labelled dice it proposes, per source, and its time; for
comparing finders (a retrained or wider one against the shipped one) before a face reader is trained
on them.

    .venv/bin/python benchmarks/finder_recall.py [FINDER.onnx ...] [--split val] [--photos N] [--rounds 3]

For each finder (default: the shipped ``vision/models/finder.onnx``) on each source's scored photos
of ``--split`` (default val: the photos no model trained on), printed per source: the dice labelled;
the share matched (``vision.train.mine.match``: centre and size) among the reader's budget of
candidates for the photo's count (``vision.reader.ReaderParams.most_candidates``, the strongest
first); the share matched among finds scored at least STRONG; and the finds scored at least STRONG
on no labelled die (false finds the gate must refuse). Then each
finder's median CPU time of its first levels (``DieFinder.find``) on the photos shrunk to 640x480,
the finders alternated frame by frame in ``--rounds`` rounds, and its ratio to the first finder's.
Needs ``../shared`` (the photo sets); says so and exits 2 without it. Pinned to one core.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pinning import one_core  # noqa: E402

import cv2  # noqa: E402

from vision.finder import DieFinder  # noqa: E402
from vision.photos import DEFAULT_MANIFESTS, TRAIN_ONLY, load_manifests  # noqa: E402
from vision.reader import DEFAULT, MODELS  # noqa: E402
from vision.train.mine import FLOOR, match  # noqa: E402
from vision.train.samples import load_photos  # noqa: E402

STRONG = 0.5  # a find's score (the finder's peak, 0-1) counted as a strong proposal


def recall(finder: DieFinder, items) -> dict[str, list[int]]:
    """Per source: [dice, matched in the budget, matched among strong finds, strong false finds]."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for it in items:
        finds = finder.find(it.image, FLOOR)
        budget = finds[:DEFAULT.most_candidates(len(it.dice))]
        strong = [match(f, it.dice, it.typical) for f in finds if f.score >= STRONG]
        c = counts[it.source]
        c[0] += len(it.dice)
        c[1] += len({match(f, it.dice, it.typical) for f in budget} - {None})
        c[2] += len(set(strong) - {None})
        c[3] += sum(i is None for i in strong)
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("finders", type=Path, nargs="*", default=[MODELS / "finder.onnx"], metavar="FINDER.onnx")
    parser.add_argument("--split", choices=("train", "val", "all"), default="val")
    parser.add_argument("--photos", type=int, default=None, metavar="N", help="at most N photos (default all)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds over the photos (default 3)")
    args = parser.parse_args(argv)
    if not all(m.is_file() for m in DEFAULT_MANIFESTS):
        print(f"benchmarks/finder_recall.py: needs the photo sets {', '.join(map(str, DEFAULT_MANIFESTS))}",
              file=sys.stderr)
        return 2
    photos = [p for p in load_manifests(DEFAULT_MANIFESTS, args.split)
              if not p.excluded and p.source not in TRAIN_ONLY][:args.photos]
    items = load_photos(photos)
    finders = [DieFinder(path) for path in args.finders]
    print(f"finder benchmark: {len(items)} {args.split} photos, {one_core()}")
    for path, finder in zip(args.finders, finders):
        print(f"\n{path}\n{'source':24s} {'dice':>5s} {'in budget':>10s} {f'>= {STRONG}':>9s} {'false':>6s}")
        for source, (n, budget, strong, false) in sorted(recall(finder, items).items()):
            print(f"{source:24s} {n:5d} {budget / n:10.1%} {strong / n:9.1%} {false:6d}")
    frames = [cv2.resize(it.image, (640, 480)) for it in items]
    times: list[list[float]] = [[] for _ in finders]
    for _ in range(args.rounds):
        for frame in frames:
            for finder, t in zip(finders, times):
                c0 = time.process_time()
                finder.find(frame)
                t.append((time.process_time() - c0) * 1000)
    first = statistics.median(times[0])
    print("\n640x480, the finder's first levels, CPU ms median:")
    for path, t in zip(args.finders, times):
        print(f"  {statistics.median(t):.2f} ms ({statistics.median(t) / first:.2f} of the first)  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
