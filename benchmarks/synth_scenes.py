"""Render speed of the randomised training scenes at 640x480 on one core, and a labelled contact sheet.

    .venv/bin/python benchmarks/synth_scenes.py [--seeds 100] [--first 0] [--sheet FILE] [--tiles 24]

Renders ``--seeds`` scenes (seeds ``--first``, ``--first`` + 1, ...) at 640x480 with
``vision.synth_scenes.render_scene`` and prints the median, mean and 90th percentile of the wall-clock
ms per scene, and the mean dice per scene. The first scene is rendered once before timing (it builds
the module's fixed noise tile). Pinned to one core, OpenCV single-threaded.

``--sheet FILE`` also saves a PNG contact sheet of ``--tiles`` scenes (each at its own random size,
shown at 320 px wide): every die's box is drawn in green (flat) or orange (cocked) with its value and
``c`` for cocked, a dashed box when less than half of the die shows, and the top face's outline in
cyan. For looking at the scenes beside real photos.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pinning import one_core  # noqa: E402

from vision.synth_scenes import render_scene  # noqa: E402

TILE_W = 320


def time_scenes(first: int, seeds: int) -> tuple[list[float], float]:
    """(ms per scene, mean dice per scene) over ``seeds`` seeds at 640x480."""
    render_scene(first, size=(640, 480))
    times, dice = [], 0
    for seed in range(first, first + seeds):
        t0 = time.perf_counter()
        _, truth = render_scene(seed, size=(640, 480))
        times.append((time.perf_counter() - t0) * 1e3)
        dice += len(truth)
    return times, dice / max(seeds, 1)


def labelled_tile(seed: int) -> np.ndarray:
    """One scene at its own random size, scaled to TILE_W px wide, with its truth drawn on it."""
    img, truth = render_scene(seed)
    k = TILE_W / img.shape[1]
    tile = cv2.resize(img, (TILE_W, round(img.shape[0] * k)), interpolation=cv2.INTER_AREA)
    for die in truth:
        x, y, w, h = (round(v * k) for v in die.box)
        colour = (0, 220, 0) if die.flat else (0, 140, 255)
        if die.visible >= 0.5:
            cv2.rectangle(tile, (x, y), (x + w, y + h), colour, 1)
        else:
            for i in range(0, w + h, 6):  # a dashed box for a die mostly hidden
                cv2.rectangle(tile, (x + min(i, w), y), (x + min(i + 3, w), y), colour, 1)
                cv2.rectangle(tile, (x, y + min(i, h)), (x, y + min(i + 3, h)), colour, 1)
        cv2.polylines(tile, [np.round(die.top * k).astype(np.int32)], True, (255, 255, 0), 1)
        label = f"{die.value}{'' if die.flat else 'c'}"
        cv2.putText(tile, label, (x, max(10, y - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3)
        cv2.putText(tile, label, (x, max(10, y - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1)
    cv2.putText(tile, f"seed {seed} {img.shape[1]}x{img.shape[0]} n={len(truth)}", (3, tile.shape[0] - 4),
                cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 255, 255), 1)
    return tile


def contact_sheet(first: int, tiles: int, cols: int = 6) -> np.ndarray:
    """A grid of labelled scenes, rows padded to the tallest tile."""
    shown = [labelled_tile(seed) for seed in range(first, first + tiles)]
    rows = []
    for r in range(0, len(shown), cols):
        row = shown[r:r + cols] + [np.zeros((1, TILE_W, 3), np.uint8)] * (cols - len(shown[r:r + cols]))
        height = max(t.shape[0] for t in row)
        rows.append(np.hstack([np.pad(t, ((0, height - t.shape[0]), (0, 2), (0, 0))) for t in row]))
    return np.vstack([np.pad(r, ((0, 2), (0, 0), (0, 0))) for r in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="scenes to time (default 100)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--sheet", type=Path, help="save a labelled contact sheet PNG here")
    parser.add_argument("--tiles", type=int, default=24, help="scenes on the contact sheet (default 24)")
    args = parser.parse_args()

    print(f"synthetic training scenes at 640x480, {one_core()}, OpenCV threads {cv2.getNumThreads()}")
    times, dice = time_scenes(args.first, args.seeds)
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    print(f"{'scenes':>6} {'median ms':>9} {'mean ms':>8} {'p90 ms':>7} {'dice/scene':>10}")
    print(f"{len(times):>6} {statistics.median(times):>9.1f} {statistics.fmean(times):>8.1f} {p90:>7.1f} {dice:>10.2f}")
    if args.sheet:
        cv2.imwrite(str(args.sheet), contact_sheet(args.first, args.tiles))
        print(f"contact sheet of {args.tiles} scenes: {args.sheet}")


if __name__ == "__main__":
    main()
