"""The table learns its own dice: a source's validation photos read before and after teaching with
ten of its training photos.

    .venv/bin/python benchmarks/teach.py [--source NAME ...] [--teach 10] [--wrong-labels 0.1]
                                         [--models DIR] [--rest] [--seed 0] [--val N] [--speed-throws 50]

For each source (default: every scored source of ``vision.photos``): ``--teach`` of its
training-split photos (table-like ones first, seeded) are taught as the table would be taught with
``dicetable teach --manifest`` (their label boxes give the values, ``vision.examples.from_boxes``);
the adaptation is fitted (``vision.adapt.fit``, its held-aside check included) and the source's
validation photos are read with the shipped models and with the adaptation (``vision.evaluate``),
the expected count given, and then without it (as ``dicetable read`` without ``--dice``). Printed per source: the evaluation's table before and after, whether the
adaptation is used and why, the fit's time (wall and CPU of one core) and the per-frame extra cost
of reading with it (the heads alone, and the median CPU time of whole reads with and without).
Then the fit's time from ``--speed-throws`` taught throws (the first source's training photos), and
what heads fitted on them cost a frame, whether or not the check would use them.

``--wrong-labels F`` corrupts that share of the taught throws on purpose (each of their dice one
value off): the held-aside check must catch it, or it must cost at most a point.

The issue's target is leave-one-source-out: the models trained without the source
(``python -m vision.train --exclude-source NAME --out DIR``, about 100 minutes of CPU) and
``--models`` that folder, with ``--rest`` to read all its photos not taught (not only its validation
fifth). With the shipped models every source was trained on (its training photos,
not its validation ones): the figures then say what teaching adds to a reader that knows the source.
Needs ``../shared`` (the photo sets); says so and exits 2 without it. Pinned to one core.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pinning import one_core  # noqa: E402

from vision import evaluate  # noqa: E402
from vision.adapt import Examples, embed, fit, fit_heads  # noqa: E402
from vision.examples import from_boxes  # noqa: E402
from vision.faces import crops  # noqa: E402
from vision.photos import DEFAULT_MANIFESTS, SOURCES, TRAIN_ONLY, load_manifests  # noqa: E402
from vision.reader import MODELS, Models, read_dice  # noqa: E402


def taught_photos(photos, n: int, seed: int):
    """``n`` of the source's training photos, table-like ones first, in a seeded order."""
    rng = np.random.default_rng(seed)
    train = [p for p in photos if not p.excluded and p.split == "train"]
    order = [train[i] for i in rng.permutation(len(train))]
    return sorted(order, key=lambda p: not p.table_like)[:n]


def examples_of(photos, models, wrong: float, seed: int) -> tuple[Examples, int]:
    """The taught photos' labelled crops, one throw each, and how many throws were corrupted."""
    import cv2

    rng = np.random.default_rng([seed, 1])
    corrupt = set(rng.choice(len(photos), int(round(wrong * len(photos))), replace=False).tolist())
    cut, labels, throws, scores = [], [], [], []
    for n, photo in enumerate(photos):
        c, lab, sc = from_boxes(cv2.imread(str(photo.path), cv2.IMREAD_COLOR), photo, models)
        if n in corrupt:
            lab = np.where(lab > 0, lab % 6 + 1, 0)
        cut.append(c)
        labels.append(lab)
        throws.append(np.full(len(lab), n))
        scores.append(sc)
    ex = Examples(np.concatenate(cut), np.concatenate(labels), np.concatenate(throws), np.concatenate(scores))
    return ex, len(corrupt)


def cpu_ms(reader, frames) -> float:
    """The median CPU time in ms of one read of each (photo, frame)."""
    times = []
    for photo, frame in frames:
        t0 = time.process_time()
        reader(frame, expected=len(photo.values))
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times) if times else 0.0


def head_ms(adaptation, models, frames) -> float:
    """The median ms the heads alone add to a frame: adapting its candidates' logits and embeddings."""
    times = []
    for photo, frame in frames:
        reads = read_dice(frame, expected=len(photo.values), models=models, debug=True).extra.get("candidates", [])
        if not reads:
            continue
        logits, emb = models.faces.outputs(crops(frame, reads))
        t0 = time.perf_counter()
        adaptation.adapt(logits, emb)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times) if times else 0.0


def countless(photos, reader) -> str:
    """Exact and ok-but-wrong counts of ``photos`` read with ``reader`` not told how many dice lie there."""
    results = evaluate.run(photos, lambda frame, expected: reader(frame, expected=None))
    parts = []
    for name, group in (("all", results), ("table-like", [r for r in results if r.photo.table_like])):
        parts.append(f"{name} {sum(r.exact for r in group)}/{len(group)} exact, "
                     f"{sum(r.ok_wrong for r in group)} ok-but-wrong")
    return "; ".join(parts)


def one_source(source: str, photos, models, args) -> None:
    mine = [p for p in photos if p.source == source]
    taught = taught_photos(mine, args.teach, args.seed)
    val = [p for p in mine if (p not in taught if args.rest else p.split == "val")][:args.val]
    examples, corrupted = examples_of(taught, models, args.wrong_labels, args.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    fitted = fit(models.faces, examples, seed=args.seed, gate=models.gate)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    shipped = partial(read_dice, models=models)
    before = evaluate.run(val, shipped)
    print(f"\n== {source}: taught {len(taught)} training photos ({int((examples.labels > 0).sum())} dice, "
          f"{int((examples.labels == 0).sum())} not-a-die crops, {corrupted} throws corrupted on purpose)")
    print(f"adaptation {'used' if fitted.adaptation is not None else 'NOT used'}: {fitted.reason}")
    print(f"fit: {wall:.2f} s wall, {cpu:.2f} s CPU")
    print("before (shipped models):")
    print(evaluate.format_table(evaluate.summarise(before)))
    if fitted.adaptation is None:
        print("after: the same (the shipped models read)")
        return
    adapted = partial(read_dice, models=models, adaptation=fitted.adaptation)
    print("after (with the adaptation):")
    print(evaluate.format_table(evaluate.summarise(evaluate.run(val, adapted))))
    # The kiosk always gives the count; ``dicetable read`` without ``--dice`` does not, and then the
    # gate's die threshold alone decides how many dice lie there, which a face head moves.
    print("without the expected count, before and after (exact / ok-but-wrong, all and table-like):")
    for name, reader in (("before", shipped), ("after", adapted)):
        print(f"  {name}: {countless(val, reader)}")
    frames = list(evaluate.scored_frames(val))
    print(f"per-frame extra cost: heads {head_ms(fitted.adaptation, models, frames):.3f} ms median; whole read "
          f"{cpu_ms(shipped, frames):.1f} ms CPU shipped, {cpu_ms(adapted, frames):.1f} ms CPU adapted (medians)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    scored = [s for s in SOURCES if s not in TRAIN_ONLY]
    parser.add_argument("--source", nargs="+", default=scored, choices=scored, metavar="NAME")
    parser.add_argument("--teach", type=int, default=10, help="training photos taught (default 10)")
    parser.add_argument("--wrong-labels", type=float, default=0.0, metavar="F",
                        help="the share of taught throws corrupted on purpose (e.g. 0.1)")
    parser.add_argument("--models", type=Path, default=MODELS, metavar="DIR",
                        help="the models to read with (e.g. trained with --exclude-source NAME)")
    parser.add_argument("--val", type=int, default=None, metavar="N", help="read at most N validation photos (default all)")
    parser.add_argument("--rest", action="store_true",
                        help="read every photo of the source that was not taught, not only its validation "
                             "photos (for --models trained without the source: the issue's leave-one-source-out)")
    parser.add_argument("--speed-throws", type=int, default=50, metavar="N",
                        help="also time the fit from N taught throws (default 50; 0: not)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not all(m.is_file() for m in DEFAULT_MANIFESTS):
        print(f"benchmarks/teach.py: needs the photo sets {', '.join(map(str, DEFAULT_MANIFESTS))}", file=sys.stderr)
        return 2
    print(f"teach benchmark: models {args.models}, {one_core()}, seed {args.seed}")
    models = Models.load(args.models)
    photos = load_manifests(DEFAULT_MANIFESTS)
    for source in args.source:
        one_source(source, photos, models, args)
    if args.speed_throws:
        speed(photos, models, args)
    return 0


def speed(photos, models, args) -> None:
    """The fit's time from ``--speed-throws`` taught throws: training photos of the first source."""
    mine = [p for p in photos if p.source == args.source[0] and not p.excluded and p.split == "train"]
    examples, _ = examples_of(mine[:args.speed_throws], models, 0.0, args.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    fitted = fit(models.faces, examples, seed=args.seed, gate=models.gate)
    print(f"\nfit from {examples.n_throws} taught throws ({len(examples.labels)} crops, {args.source[0]}): "
          f"{time.perf_counter() - t0:.2f} s wall, {time.process_time() - c0:.2f} s CPU "
          f"(adaptation {'used' if fitted.adaptation is not None else 'not used'})")
    # What reading with heads costs, whether or not the check let these be used.
    heads = fitted.adaptation or fit_heads(*embed(models.faces, examples.crops), examples.labels)
    frames = list(evaluate.scored_frames([p for p in photos if p.source == args.source[0] and p.split == "val"]))
    shipped, adapted = partial(read_dice, models=models), partial(read_dice, models=models, adaptation=heads)
    print(f"per-frame extra cost of heads fitted on them ({len(frames)} validation photos): heads "
          f"{head_ms(heads, models, frames):.3f} ms median; whole read {cpu_ms(shipped, frames):.1f} ms CPU "
          f"shipped, {cpu_ms(adapted, frames):.1f} ms CPU with the heads (medians)")


if __name__ == "__main__":
    sys.exit(main())
