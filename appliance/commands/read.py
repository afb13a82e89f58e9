"""Read the dice in still photos with the dice reader, or measure it on a labelled photo set.

Each IMAGE gives one line: its values and status, or why it is unreadable (the reader says
"unreadable" rather than guess). --dice N tells the reader how many dice to expect, as the game
does (2 or 5): a photo with another count is unreadable. --reference IMAGE is an empty-tray photo
from the same camera. With --json each image is one JSON object per line: "file", "values" (sorted),
"status" ("ok" or "unreadable"), "reason" when unreadable, "dice" (each with "value", "center",
"box", "confidence") and "ms" (the reader's time). A byte of a file name that is not UTF-8 is
written as \\xNN (strict JSON has no lone surrogates). The values mean nothing unless "status" is "ok":
an unreadable reading keeps what the reader made of its dice, for a look. A file that cannot be read
as an image gets a line too: {"file": ..., "status": "error", "reason": ...} (and its message on
standard error).

--manifest CSV... reads every photo of labelled sets (../shared/dice-photos/manifest.csv,
../shared/dice-train/manifest.csv), giving the reader each photo's number of dice, and prints per
source the images, per-die accuracy, exact images, unreadable share and the share of "ok" readings
that were wrong; --split val (the default) scores only the photos the learned reader never saw in
training (see vision/evaluate.py).

--state DIR reads with the adaptation to the dice taught at that table (`dicetable teach`); the
reason it is used or not goes to standard error. Without --state the shipped model reads.

Exit status: 0, or 1 when an image file cannot be read (the others are still read), 2 for a bad
argument or manifest.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from appliance.commands import argtypes
from appliance.commands.text import json_name


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``dicetable read``."""
    from vision import evaluate

    parser.add_argument("images", nargs="*", type=Path, metavar="IMAGE", help="photos to read")
    parser.add_argument("--dice", type=int, choices=range(1, 13), metavar="N", default=None,
                        help="the number of dice expected (another count is reported as unreadable)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--reference", type=Path, metavar="IMAGE", help="an empty-tray photo from the same camera")
    parser.add_argument("--state", type=argtypes.state_directory, metavar="DIR",
                        help="read with the adaptation to the dice taught in this state directory, or its dicetable.sqlite3 (dicetable teach)")
    parser.add_argument("--manifest", type=Path, nargs="+", metavar="CSV",
                        help="measure the reader on labelled photo sets (manifest.csv files)")
    evaluate.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Reads the IMAGEs (or measures on --manifest); returns the exit status."""
    from appliance.commands.text import counted
    from vision import evaluate
    from vision.frames import FrameError
    from vision.images import ImageError, load_image
    from vision.reader import read_dice

    if args.state is not None:
        from appliance import teaching

        read_dice = teaching.reader(args.state, "dicetable read")
        if read_dice is None:
            return 2

    if args.manifest is not None:
        from vision.sources import IMAGE_SUFFIXES

        # --manifest takes every name after it: a photo there was meant as an IMAGE.
        photos = [m for m in args.manifest if m.suffix.lower() in IMAGE_SUFFIXES]
        if args.images or photos:
            also = f" ({photos[0]} is a photo, not a manifest)" if photos else ""
            print(f"dicetable read: give IMAGEs or --manifest, not both{also}", file=sys.stderr)
            return 2
        for given, meant in ((args.json, "--json"), (args.reference, "--reference"), (args.dice, "--dice")):
            if given:  # a manifest's report is a table of figures, its photos' counts their own
                print(f"dicetable read: {meant} goes with IMAGEs, not with --manifest", file=sys.stderr)
                return 2
        return evaluate.evaluate_manifests(args.manifest, args.split, args.errors, reader=read_dice,
                                           prog="dicetable read")
    if not args.images:
        print("dicetable read: no IMAGE given (or use --manifest CSV)", file=sys.stderr)
        return 2
    if args.split is not None or args.errors:  # they score labelled photos; an IMAGE has no label
        given = f"--split {args.split}" if args.split is not None else "--errors"
        print(f"dicetable read: {given} scores labelled photos and goes with --manifest CSV, not with IMAGEs",
              file=sys.stderr)
        return 2
    reference = None
    if args.reference is not None:
        try:
            reference = load_image(args.reference)
        except ImageError as exc:
            print(f"dicetable read: cannot read the reference image {args.reference}: {exc.reason}", file=sys.stderr)
            return 2
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
        except ImageError as exc:
            _error(path, exc.reason, _not_an_image(path, exc.reason), args.json)
            status = 1
            continue
        ref = reference
        if ref is not None and ref.shape != image.shape:
            print(f"dicetable read: {path} is {image.shape[1]}x{image.shape[0]} px but the reference is "
                  f"{ref.shape[1]}x{ref.shape[0]} px; reading it without the reference", file=sys.stderr)
            ref = None
        t0 = time.perf_counter()
        try:
            reading = read_dice(image, expected=args.dice, reference=ref)
        except FrameError as exc:  # load_image gives 8-bit BGR, so only as a guard
            _error(path, str(exc), f"{path}: {exc}", args.json)
            status = 1
            continue
        ms = (time.perf_counter() - t0) * 1000.0
        if args.json:
            print(json.dumps({"file": json_name(path), **reading.to_json(), "ms": round(ms, 2)}), flush=True)
        elif reading.ok:
            print(f"{path}: {' '.join(str(v) for v in reading.values)}  ({counted(len(reading.dice), 'die', 'dice')}, "
                  f"{ms:.1f} ms)")
        else:
            seen = " ".join(str(v) for v in reading.values)
            print(f"{path}: unreadable: {reading.reason}" + (f" (saw {seen})" if seen else "") + f"  ({ms:.1f} ms)")
    return status


def _error(path: Path, reason: str, message: str, as_json: bool) -> None:
    """An IMAGE that gives no reading: ``message`` on standard error, and with --json its line."""
    print(f"dicetable read: {message}", file=sys.stderr)
    if as_json:
        print(json.dumps({"file": json_name(path), "status": "error", "reason": reason}), flush=True)


def _not_an_image(path: Path, reason: str) -> str:
    """Why ``path`` gave no image (``reason``, from ``vision.images.load_image``), in the words a user
    needs: a folder gets a hint, a missing file or one that is no image its reason."""
    if path.is_dir():
        return f"{path} is a directory: give its images (e.g. {path}/*.jpg), or --manifest for labelled photos"
    return f"{path}: {reason}"
