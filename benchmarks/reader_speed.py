"""Speed and memory of the pip reader on 640x480 frames, on one core, beside a baseline reader.

    .venv/bin/python benchmarks/reader_speed.py [--rounds 3] [--memory 10000] [--stages]

Frame sets, all 640x480: the synthetic table (seeded stills of 2 and of 5 dice, read with and
without the empty-tray reference, as the appliance reads), and when ../shared/dice-photos exists the
table-like matteop65 webcam photos (640x480 as taken) and nell-byler photos (centre 640x480 crop).
Each frame is read ``--rounds`` times; a frame's time is its median, as CPU time (what one core
spends; robust to other processes on a shared machine) and wall-clock time. The baseline is the public
blob-detector + clustering recipe (``benchmarks/blob_baseline.py``), run in the same process on the
same frames; the ratio is reader / baseline. Target: the reader's median under 10 ms.

``--memory N`` then reads N frames in a loop (the sets above, cycled) and prints the process's
resident memory and Python's traced allocations after the first 200 and after all N: no growth
means no leak. ``--stages`` then reads every frame once more with the reader's stages timed (CPU ms
per frame, each stage's time including the stages listed under it) and counts the regions read:
where the time goes, for whoever speeds the reader up next. Pinned to one core, OpenCV
single-threaded.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from blob_baseline import read_blobs  # noqa: E402
from pinning import one_core  # noqa: E402

from vision.reader import read_dice  # noqa: E402
from vision.synth import render_empty, render_still  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "dice-photos"


def _synthetic(n_frames: int, reference: bool) -> list[tuple[np.ndarray, int, np.ndarray | None]]:
    frames = []
    for seed in range(n_frames):
        rng = np.random.default_rng(seed + 5000)
        n = 2 if seed % 2 else 5
        image, _ = render_still([int(v) for v in rng.integers(1, 7, n)], seed=seed + 5000)
        frames.append((image, n, render_empty(seed=seed + 5000) if reference else None))
    return frames


def _photos(source: str, limit: int) -> list[tuple[np.ndarray, int, None]]:
    manifest = PHOTOS / "manifest.csv"
    if not manifest.is_file():
        return []
    frames = []
    with open(manifest, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["source"] != source or row["table_like"] != "1" or row["excluded"] == "1":
                continue
            image = cv2.imread(str(PHOTOS / row["file"]), cv2.IMREAD_COLOR)
            if image is None:
                continue
            h, w = image.shape[:2]
            if (w, h) != (640, 480):
                y0, x0 = max(0, (h - 480) // 2), max(0, (w - 640) // 2)
                image = np.ascontiguousarray(image[y0:y0 + 480, x0:x0 + 640])
                if image.shape[:2] != (480, 640):
                    continue
            frames.append((image, int(row["n_dice"]), None))
            if len(frames) == limit:
                break
    return frames


def _time(reader, frames, rounds: int) -> tuple[list[float], list[float]]:
    """Per frame, the median over ``rounds`` reads of (CPU ms, wall ms). CPU time is what one core
    spends on the frame; wall time also counts waiting while other processes hold the core."""
    cpu, wall = [], []
    for image, n, ref in frames:
        cs, ws = [], []
        for _ in range(rounds):
            c0, w0 = time.process_time(), time.perf_counter()
            reader(image, expected=n, reference=ref)
            cs.append((time.process_time() - c0) * 1000.0)
            ws.append((time.perf_counter() - w0) * 1000.0)
        cpu.append(statistics.median(cs))
        wall.append(statistics.median(ws))
    return cpu, wall


# The reader's stages, as (label, module, attribute, depth): each is wrapped to add its CPU time.
# Names the reader imports into its own module are wrapped there.
STAGES = (
    ("background (no reference)", "vision.reader", "background", 0),
    ("foreground distance", "vision.reader", "foreground_distance", 0),
    ("blob tree", "vision.reader", "blob_tree", 0),
    ("region reads (read_face)", "vision.reader", "read_face", 0),
    ("resample, masks, face colour", "vision.face", "_Die", 1),
    ("find pips", "vision.face", "find_pips", 1),
    ("rings of pips beside", "vision.face", "_ring_shares", 1),
    ("layouts (candidates)", "vision.layout", "candidates", 1),
    ("top-face checks", "vision.face._Checks", "__call__", 1),
)


def _stages(frames) -> None:
    """Read each frame once with the STAGES wrapped; print CPU ms per frame for each and the
    regions read per frame."""
    import importlib

    spent = {label: 0.0 for label, *_ in STAGES}
    calls = {label: 0 for label, *_ in STAGES}
    saved = []
    for label, module, name, _ in STAGES:
        mod, _, cls = module.partition("._")
        owner = importlib.import_module(mod)
        if cls:
            owner = getattr(owner, "_" + cls)
        real = getattr(owner, name)
        saved.append((owner, name, real))

        def timed(*args, _real=real, _label=label, **kwargs):
            c0 = time.process_time()
            try:
                return _real(*args, **kwargs)
            finally:
                spent[_label] += time.process_time() - c0
                calls[_label] += 1

        setattr(owner, name, timed)
    try:
        c0 = time.process_time()
        for image, n, ref in frames:
            read_dice(image, expected=n, reference=ref)
        total = time.process_time() - c0
    finally:
        for owner, name, real in saved:
            setattr(owner, name, real)
    k = len(frames)
    print(f"stages over {k} frames, CPU ms per frame (wrapping adds a little): whole read {total * 1000 / k:.1f}")
    for label, _, _, depth in STAGES:
        print(f"  {'  ' * depth}{label:<32}{spent[label] * 1000 / k:7.2f}   ({calls[label] / k:.1f} calls a frame)")


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="reads per frame (default 3)")
    parser.add_argument("--frames", type=int, default=40, help="frames per set (default 40)")
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="then read N frames and report memory")
    parser.add_argument("--stages", action="store_true", help="then time the reader's stages on every frame")
    args = parser.parse_args()
    print(f"reader_speed: 640x480 frames, {one_core()}, OpenCV {cv2.__version__}")
    sets = {
        "synthetic, with reference": _synthetic(args.frames, True),
        "synthetic, no reference": _synthetic(args.frames, False),
        "matteop65 photos": _photos("matteop65", args.frames),
        "nell-byler photos (crop)": _photos("nell-byler", args.frames),
    }
    read_dice(sets["synthetic, with reference"][0][0], expected=2)  # warm up
    read_blobs(sets["synthetic, with reference"][0][0], expected=2)
    print("CPU ms per frame (wall-clock ms in brackets); ratio = reader / baseline CPU")
    print(f"{'frames':<28}{'n':>4}{'reader median':>22}{'p90':>8}{'baseline median':>22}{'ratio':>7}")
    every = []
    for name, frames in sets.items():
        if not frames:
            print(f"{name:<28}   - (photos not found at {PHOTOS})")
            continue
        mine, mine_wall = _time(read_dice, frames, args.rounds)
        base, base_wall = _time(read_blobs, frames, args.rounds)
        every += mine
        med, base_med = statistics.median(mine), statistics.median(base)
        p90 = float(np.percentile(mine, 90))
        print(f"{name:<28}{len(frames):>4}{med:>10.1f} ({statistics.median(mine_wall):6.1f}) ms{p90:>6.1f}"
              f"{base_med:>10.1f} ({statistics.median(base_wall):6.1f}) ms{med / base_med:>7.2f}")
    print(f"{'all':<28}{len(every):>4}{statistics.median(every):>10.1f}          ms   (target: median < 10 ms)")
    if args.stages:
        _stages([f for frames in sets.values() for f in frames])
    if args.memory:
        pool = [f for frames in sets.values() for f in frames]
        tracemalloc.start()
        marks = {}
        for i in range(args.memory):
            image, n, ref = pool[i % len(pool)]
            read_dice(image, expected=n, reference=ref)
            if i + 1 in (200, args.memory):
                marks[i + 1] = (_rss_mb(), tracemalloc.get_traced_memory()[0] / 2**20)
        tracemalloc.stop()
        (r0, t0), (r1, t1) = marks[200], marks[args.memory]
        print(f"memory after 200 frames: RSS {r0:.1f} MB, Python {t0:.2f} MB; after {args.memory}: "
              f"RSS {r1:.1f} MB, Python {t1:.2f} MB; growth {r1 - r0:+.1f} MB RSS, {t1 - t0:+.2f} MB Python")


if __name__ == "__main__":
    main()
