"""Build the reader's two models: ``python -m vision.train`` (or ``make models``).

Needs the ``[train]`` extra (PyTorch and onnx: ``pip install -e '.[train]'``) and the labelled photos
beside the repository (``../shared/dice-photos``, ``../shared/dice-train``). Every step is seeded, so
a rerun on the same machine builds the same models:

1. the training part of every photo source (``vision.photos``: the validation fifth is never read
   here until the last step), less a calibration eighth kept from the face reader;
2. ``--scenes`` rendered scenes (``vision.synth_scenes``; 0 for none);
3. the die finder, trained on both, exported to ``finder.onnx``;
4. the finder's finds on the training images (``vision.train.mine``), with crops around the
   labelled dice and around what is not a die (``vision.train.face_data``), train the face reader;
5. its temperature fitted on crops of the calibration photos (the finder's finds and the labelled
   dice), exported to ``face.onnx``; the gate (``vision.gate``) fitted on the finder's finds there
   and the reader's thresholds chosen there (``vision.train.thresholds``), written to ``gate.json``;
6. the product's reader, with the new models, scored on the validation photos (``vision.evaluate``).

The figures of a run go to ``--report`` (JSON) beside the log; ``vision/models/README.md`` is the
card that quotes them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from vision.faces import COCKED, NOT_A_FACE
from vision.photos import DEFAULT_MANIFESTS, TRAIN_ONLY, load_manifests

MODELS = Path(__file__).resolve().parent.parent / "models"


def calibration(photo) -> bool:
    """Whether a training photo is in the calibration eighth (by the SHA-1 of its bytes, a byte
    apart from the one the validation split uses)."""
    return hashlib.sha1(photo.path.read_bytes()).digest()[5] % 8 == 0


def _source_weights(items, synthetic_share: float) -> np.ndarray:
    """Per image: each photo source drawn about equally often (by the square root of its size, so
    a large source still counts more), rendered scenes ``synthetic_share`` of all draws."""
    n = Counter(it.source for it in items)
    real = [s for s in n if s != "synthetic"]
    w = np.array([0.0 if it.source == "synthetic" else 1 / math.sqrt(n[it.source]) for it in items])
    if w.sum() > 0:
        w /= w.sum()
    if "synthetic" in n:
        share = synthetic_share if real else 1.0
        w = w * (1 - share) + np.array([share / n["synthetic"] if it.source == "synthetic" else 0.0 for it in items])
    return w


NEGATIVE_SHARE = 0.4  # of each source's face crops: "not a die's top face"
COCKED_SHARE = 0.05  # of a source's face crops that has cocked dice (the rendered scenes)
HARDNESS = 10.0  # a false find of score s is drawn 1 + HARDNESS * s times as often as an easy negative


def _face_weights(items, specs, synthetic_share: float, hardness: np.ndarray) -> np.ndarray:
    """Per crop spec: sources balanced as ``_source_weights`` (by dice), and within each source
    ``NEGATIVE_SHARE`` of the draws negatives, ``COCKED_SHARE`` cocked dice, the rest the six values
    alike (a source's finds hold far more false alarms than dice; rolls hold every value alike);
    within a class, each spec in proportion to its ``hardness``."""
    sources = [items[k].source for k, *_ in specs]
    classes = np.array([c for *_, c, _ in specs])
    n = Counter(sources)
    per_class: Counter = Counter()
    for src, c, h in zip(sources, classes.tolist(), hardness):
        per_class[(src, c)] += h
    w = np.empty(len(specs))
    for i, (src, c) in enumerate(zip(sources, classes)):
        share = {NOT_A_FACE: NEGATIVE_SHARE, COCKED: COCKED_SHARE}.get(int(c), (1 - NEGATIVE_SHARE - COCKED_SHARE) / 6)
        w[i] = math.sqrt(n[src]) * share * hardness[i] / per_class[(src, int(c))]
    synth = np.array([s == "synthetic" for s in sources])
    if synth.any() and (~synth).any():
        w[~synth] *= (1 - synthetic_share) / w[~synth].sum()
        w[synth] *= synthetic_share / w[synth].sum()
    return w


def _fit_gate(finder, faces, items):
    """The gate fitted on the finder's finds in ``items`` (photos neither model trained on): a find
    on a labelled die at its size is a die, any other find in a fully labelled photo is not."""
    from vision.reader import DEFAULT
    from vision.train import face_fit, mine

    scores, face_probs, is_die = [], [], []
    for it in items:
        finds = [f for f in finder.find(it.image, DEFAULT.floor) if DEFAULT.min_die <= f.size]
        if not it.complete or not finds:
            continue
        probs = faces.probabilities(it.image, finds)
        for f, pr in zip(finds, probs):
            scores.append(f.score)
            face_probs.append(1.0 - float(pr[NOT_A_FACE]))
            is_die.append(mine.match(f, it.dice, it.typical) is not None)
    return face_fit.fit_gate(scores, face_probs, is_die)


def _widths(n: int):
    """An argparse type: ``n`` positive channel counts written "A,B,..."."""
    def parse_widths(text: str) -> tuple[int, ...]:
        try:
            widths = tuple(int(v) for v in text.split(","))
        except ValueError:
            widths = ()
        if len(widths) != n or min(widths) < 1:
            raise argparse.ArgumentTypeError(f"{n} positive whole numbers separated by commas, not {text!r}")
        return widths
    return parse_widths


def parse(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", type=Path, nargs="+", default=list(DEFAULT_MANIFESTS), metavar="CSV")
    parser.add_argument("--out", type=Path, default=MODELS, help="where the .onnx files go (default: vision/models)")
    parser.add_argument("--scenes", type=int, default=4000, help="rendered scenes to train on (0: photos only)")
    parser.add_argument("--table-throws", type=int, default=400,
                        help="throws on the appliance's synthetic table to train on (its cocked dice)")
    parser.add_argument("--finder-epochs", type=int, default=60)
    parser.add_argument("--views", type=int, default=2000, help="finder training views per epoch")
    parser.add_argument("--finder-widths", type=_widths(5), metavar="A,B,C,D,E",
                        help="the finder's five widths (default: vision.train.nets.Finder's)")
    parser.add_argument("--finder-slant", type=float, default=0.0, metavar="SHARE",
                        help="share of the finder's views also seen at a slant, another camera's perspective (0: none)")
    parser.add_argument("--finder-mosaic", type=float, default=0.0, metavar="SHARE",
                        help="share of the finder's views made of four images side by side (0: none)")
    parser.add_argument("--finder-mixstyle", type=float, default=0.0, metavar="SHARE",
                        help="share of the finder's batches whose early feature styles are mixed between views (0: none)")
    parser.add_argument("--face-epochs", type=int, default=40)
    parser.add_argument("--crops", type=int, default=40000, help="face training crops per epoch")
    parser.add_argument("--face-widths", type=_widths(4), metavar="A,B,C,D",
                        help="the face reader's four widths (default: vision.train.nets.FaceNet's)")
    parser.add_argument("--teacher", type=Path, nargs="+", default=[], metavar="ONNX",
                        help="trained face readers (face.onnx) the new one also learns from: their mean logits")
    parser.add_argument("--label-smoothing", type=float, default=0.0, metavar="SHARE",
                        help="the face reader's label smoothing (0: none)")
    parser.add_argument("--mixup", type=float, default=0.0, metavar="ALPHA",
                        help="the face reader's mixup: crops blended with Beta(ALPHA, ALPHA) weights (0: none)")
    parser.add_argument("--pips", type=float, default=0.0, metavar="WEIGHT",
                        help="the weight of the face reader's pip map loss, learned on rendered crops (0: none)")
    parser.add_argument("--ema", type=float, default=0.0, metavar="DECAY",
                        help="the face reader's weights averaged over its last steps, this decay per step (0: none)")
    parser.add_argument("--small-dice", type=float, default=0.0, metavar="SHARE",
                        help="share of the face reader's crops also seen as from a die of 10-24 px (0: none)")
    parser.add_argument("--mixstyle", type=float, default=0.0, metavar="SHARE",
                        help="share of the face reader's batches whose early feature styles are mixed between crops (0: none)")
    parser.add_argument("--randconv", type=float, default=0.0, metavar="SHARE",
                        help="share of the face reader's batches seen through a random filter (0: none)")
    parser.add_argument("--centre-view", action="store_true",
                        help="the face reader also sees each crop standardised by its centre, the top face "
                             "(red pips on a dark die stand out; vision.train.nets.centre_view)")
    parser.add_argument("--synthetic-share", type=float, default=0.4, help="share of views and crops that are rendered")
    parser.add_argument("--exclude-source", action="append", default=[], metavar="SOURCE",
                        help="leave a photo source out of training (to measure a source never seen)")
    parser.add_argument("--finder", type=Path, metavar="ONNX",
                        help="reuse this trained finder instead of training one (to retrain the face reader alone)")
    parser.add_argument("--finder-only", action="store_true",
                        help="train the finder alone (then train the face reader on it with --finder)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=Path, help="write the run's figures as JSON here")
    args = parser.parse_args(argv)
    # Refused here, not an hour later when the face reader's training starts.
    if args.mixup < 0:
        parser.error(f"--mixup: alpha is 0 (none) or more, not {args.mixup}")
    if args.mixup and args.teacher:
        parser.error("--mixup and --teacher do not go together: the teachers never saw blended crops")
    if args.randconv and args.teacher:
        parser.error("--randconv and --teacher do not go together: the teachers never saw filtered crops")
    for name in ("finder_slant", "finder_mosaic", "finder_mixstyle", "small_dice", "mixstyle", "randconv"):
        if not 0 <= getattr(args, name) <= 1:
            parser.error(f"--{name.replace('_', '-')}: a share is 0-1, not {getattr(args, name)}")
    if args.pips < 0:
        parser.error(f"--pips: a weight is 0 (none) or more, not {args.pips}")
    if not 0 <= args.ema < 1:
        parser.error(f"--ema: a decay per step is 0 (none) or more and under 1, not {args.ema}")
    if args.mixup and args.pips:
        parser.error("--mixup and --pips do not go together: a blend of two crops has no pips of its own")
    return args


def _finder(args, items, log):
    """The die finder: trained on ``items`` and exported to ``args.out``, or ``--finder``'s copied."""
    import torch

    from vision.finder import DieFinder
    from vision.train import finder_fit

    if args.finder:
        if args.finder.resolve() != (args.out / "finder.onnx").resolve():
            shutil.copyfile(args.finder, args.out / "finder.onnx")
        log(f"finder from {args.finder}")
    else:
        net = finder_fit.train(items, epochs=args.finder_epochs, per_epoch=args.views, seed=args.seed,
                               weights=_source_weights(items, args.synthetic_share),
                               widths=args.finder_widths, slant=args.finder_slant,
                               mosaic=args.finder_mosaic, mixstyle=args.finder_mixstyle, log=log)
        finder_fit.export(net, args.out / "finder.onnx")
        torch.save(net.state_dict(), args.out / "finder.pt")  # for looking into it later; not shipped
    return DieFinder(args.out / "finder.onnx")


def _train_face(args, finder, items, log, report):
    """The face reader (torch), trained on crops around the labelled dice of ``items`` and around
    the finder's finds there (and from ``--teacher``'s face readers)."""
    from vision.runtime import Network
    from vision.train import face_data, face_fit, mine

    teachers = [Network(path) for path in args.teacher]  # a wrong path fails before the mining
    found, found_scores, counts = mine.found_specs(finder, items)
    log(f"finder on its training images: {counts['found']} of {counts['dice']} dice found, {counts['false']} false finds")
    report["finder_on_training"] = counts
    rng = np.random.default_rng([args.seed, 7])
    labelled = face_data.label_specs(items, rng, negatives=0.5)
    specs = labelled + found
    # The finder's false alarms are drawn the more often the stronger they were: those are the
    # ones the face reader must refuse.
    hardness = [1.0] * len(labelled) + [1.0 + HARDNESS * sc if c == 0 else 1.0 for (*_, c, _), sc in zip(found, found_scores)]
    log(f"{len(specs)} face crops to draw from, classes {np.bincount([s[4] for s in specs]).tolist()}")
    weights = _face_weights(items, specs, args.synthetic_share, np.array(hardness))
    return face_fit.train(items, specs, weights, epochs=args.face_epochs, per_epoch=args.crops, seed=args.seed,
                          widths=args.face_widths, teachers=teachers, label_smoothing=args.label_smoothing,
                          mixup=args.mixup, pips=args.pips, ema=args.ema,
                          small=args.small_dice, mixstyle=args.mixstyle,
                          randconv=args.randconv, centre=args.centre_view, log=log)


def _calibrate(args, finder, face, calib, log, report: dict):
    """On the calibration photos (``calib``, neither network trained on them): the face reader's
    temperature, then its export to ``args.out``, the gate and the reader's thresholds
    (``gate.json``). Returns the run's ``vision.reader.Models``, as the reader loads them."""
    import torch

    from vision.faces import FaceReader
    from vision.reader import Models
    from vision.train import face_data, face_fit, mine, thresholds
    from vision.train.samples import load_photos

    calib_items = load_photos(calib)
    calib_rng = np.random.default_rng([args.seed, 8])
    calib_finds = mine.found_specs(finder, calib_items)[0]
    calib_specs = calib_finds + face_data.label_specs(calib_items, calib_rng, 0.5)
    crops, classes = face_data.make(calib_items, calib_specs, calib_rng, jitter=False)
    report["temperature"] = face_fit.fit_temperature(face, crops, classes)
    log(f"temperature {report['temperature']:.2f} on {len(crops)} crops of the calibration photos")
    face_fit.export(face, args.out / "face.onnx")
    torch.save(face.state_dict(), args.out / "face.pt")
    faces = FaceReader(args.out / "face.onnx")
    gate = _fit_gate(finder, faces, calib_items)
    gate = thresholds.choose(Models(finder, faces, gate), [p for p in calib if p.source not in TRAIN_ONLY], log)
    gate.save(args.out / "gate.json")
    report["gate"] = vars(gate)
    log(f"gate {gate}")
    return Models(finder, faces, gate)


def _validate(args, models, report: dict) -> None:
    """The validation photos read with ``models``: the table printed and kept in ``report``."""
    from vision import evaluate
    from vision.reader import read_dice

    results = evaluate.run(load_manifests(args.manifest, "val"),
                           lambda frame, expected: read_dice(frame, expected, models=models))
    table = evaluate.summarise(results)
    print(evaluate.format_table(table), flush=True)
    report["val"] = {f"{s}/{sub}": vars(v) for (s, sub), v in table.items()}


def main(argv: list[str] | None = None) -> int:
    import cv2
    import torch

    from vision.train import scenes
    from vision.train.samples import load_photos

    args = parse(argv)
    torch.set_num_threads(2)
    cv2.setNumThreads(1)
    t_start = time.time()
    report: dict = {"args": {k: str(v) for k, v in vars(args).items()}}

    def log(msg: str) -> None:
        print(f"[{time.time() - t_start:6.0f} s] {msg}", flush=True)

    photos = [p for p in load_manifests(args.manifest, "train") if p.source not in args.exclude_source]
    calib = [p for p in photos if calibration(p)]
    fit_photos = [p for p in photos if not calibration(p)]
    real = load_photos(fit_photos)
    log(f"{len(real)} training photos ({len(calib)} more kept for calibration), "
        f"{sum(len(it.dice) for it in real)} dice")
    rendered = scenes.scenes(args.scenes, args.seed) + scenes.table_throws(args.table_throws, args.seed)
    log(f"{args.scenes} rendered scenes and {args.table_throws} synthetic table throws, "
        f"{sum(len(it.dice) for it in rendered)} dice")

    args.out.mkdir(parents=True, exist_ok=True)
    finder = _finder(args, [it for it in real if it.complete] + rendered, log)
    if args.finder_only:
        log(f"finder written to {args.out}; done in {(time.time() - t_start) / 60:.1f} min")
        return 0
    face = _train_face(args, finder, real + rendered, log, report)

    _validate(args, _calibrate(args, finder, face, calib, log, report), report)
    report["minutes"] = round((time.time() - t_start) / 60, 1)
    log(f"done in {report['minutes']} min")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
