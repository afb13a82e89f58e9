"""Choose the reader's four thresholds for a set of models, on the calibration photos.

A die, a doubt, a sure value and a cocked die (``vision.gate.Gate.die_at``, ``doubt_at``,
``sure_at``, ``cocked_at``) trade re-throws against wrong readings, and where the trade lies depends
on the models. Each photo of the calibration eighth (photos neither network trained on,
``vision.train.calibration``) is read once; every combination of the grid then decides its reading,
and the combination with the best ``exact - WRONG_COST * ok_wrong`` wins (ties: the more cautious
one). A wrong reading costs WRONG_COST re-throws: at the bar a wrong result is worse than a "throw
again".

The photos' dice lie flat, so a lower cocked threshold can only cost them readings; the tie rule
takes the lowest that costs none. A die read as a roll while it leans on the tray's wall is the
wrong reading that threshold exists for (``benchmarks/mishaps.py`` counts them on the synthetic
table).

Run: ``python -m vision.train.thresholds [DIR] [--exclude-source NAME]`` (default ``vision/models``):
prints the grid's best rows and writes the chosen thresholds into ``DIR/gate.json``. ``python -m
vision.train`` runs it too.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

from vision.gate import Gate

WRONG_COST = 10
DIE_AT = (0.4, 0.5, 0.6, 0.7, 0.8)
DOUBT_BELOW = (0.1, 0.2, 0.3)  # doubt_at = die_at - this
SURE_AT = (0.5, 0.7, 0.8, 0.9, 0.95)
COCKED_AT = (0.1, 0.2, 0.3, 0.5)


def choose(models, photos, log=print) -> Gate:
    """``models.gate`` with the grid's best thresholds on ``photos`` (``vision.photos.Photo``, the
    scored ones: not excluded, not train-only). Raises OSError when a photo cannot be loaded."""
    from vision import evaluate
    from vision.frames import to_bgr
    from vision.reader import DEFAULT, decide, gather, levels_read

    # Every level of every photo read once (the finer ones too: which of them the reader reads
    # depends on the threshold of a die).
    weighed = [(photo, len(photo.values), list(levels_read(to_bgr(frame), len(photo.values), None, DEFAULT, models)))
               for photo, frame in evaluate.scored_frames(photos)]
    rows = []
    for die_at, below, sure_at, cocked_at in itertools.product(DIE_AT, DOUBT_BELOW, SURE_AT, COCKED_AT):
        gate = models.gate.with_thresholds(die_at, die_at - below, sure_at, cocked_at)
        results = [evaluate.score(p, decide(gather(w, n, die_at), n, gate)) for p, n, w in weighed]
        exact, wrong = sum(r.exact for r in results), sum(r.ok_wrong for r in results)
        rows.append((exact - WRONG_COST * wrong, die_at, below, sure_at, -cocked_at, exact, wrong, gate))
    rows.sort(key=lambda r: r[:5], reverse=True)
    log(f"thresholds on {len(weighed)} calibration photos (die, doubt, sure, cocked: exact, ok but wrong):")
    for *_, exact, wrong, g in rows[:5]:
        log(f"  {g.die_at:.2f} {g.doubt_at:.2f} {g.sure_at:.2f} {g.cocked_at:.2f}: {exact} exact, {wrong} ok but wrong")
    return rows[0][-1]


def main(argv: list[str] | None = None) -> int:
    from vision.photos import DEFAULT_MANIFESTS, load_manifests
    from vision.reader import MODELS, Models
    from vision.train.__main__ import calibration

    parser = argparse.ArgumentParser(prog="python -m vision.train.thresholds", description=__doc__.split("\n")[0])
    parser.add_argument("models", type=Path, nargs="?", default=MODELS, help="the models' folder (default: vision/models)")
    parser.add_argument("--manifest", type=Path, nargs="+", default=list(DEFAULT_MANIFESTS), metavar="CSV")
    parser.add_argument("--exclude-source", action="append", default=[], metavar="SOURCE",
                        help="a source the models were trained without (python -m vision.train --exclude-source)")
    args = parser.parse_args(argv)
    models = Models.load(args.models)
    photos = [p for p in load_manifests(args.manifest, "train")
              if calibration(p) and p.source not in args.exclude_source]
    gate = choose(models, photos)
    gate.save(args.models / "gate.json")
    print(f"wrote {args.models / 'gate.json'}: {gate}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
