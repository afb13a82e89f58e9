"""Speed and memory of the dice reader on one core, beside the classical pip reader and a blob baseline.

    .venv/bin/python benchmarks/reader_speed.py [--rounds 3] [--frames 40] [--memory 10000] [--no-classical]

Frame sets: the synthetic table at 640x480 (seeded stills of 2 and of 5 dice, read with and without
the empty-tray reference, as the appliance reads), the labelled photos at 640x480 when
``../shared`` holds them (matteop65's webcam as taken; the other sources' photos resized to cover
640x480 and cut to it), and the synthetic table at 4056x3040, the Pi HQ camera's full frame. Each
frame is read ``--rounds`` times; a frame's time is its median, as CPU time (what one core spends;
robust to other processes on a shared machine) and wall-clock time.

The reader is timed with each runtime installed (``vision.runtime``): OpenCV's dnn module, the
product's own, and onnxruntime, the optional ``[fast]`` extra, with their ratio. Baselines, timed in
the same run on the same frames: the classical pip reader this reader replaced
(taken from the repository's history at ``CLASSICAL``, run in a child process pinned to the same
core; skipped outside a git clone) and the public blob-detector + clustering recipe
(``benchmarks/blob_baseline.py``). Targets: median <= 8 ms a 640x480 frame, <= 40 ms a 4056x3040
frame, the models loaded in <= 0.5 s.

``--memory N`` then reads N frames in a loop (the 640x480 sets, cycled) and prints the resident
memory and Python's traced allocations after the first 200 and after all N: no growth, no leak.
Pinned to one core, OpenCV single-threaded.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from blob_baseline import read_blobs  # noqa: E402
from pinning import one_core  # noqa: E402

from vision.faces import FaceReader  # noqa: E402
from vision.finder import DieFinder  # noqa: E402
from vision.photos import DEFAULT_MANIFESTS, TRAIN_ONLY, load_manifest  # noqa: E402
from vision.reader import MODELS, Models, read_dice  # noqa: E402
from vision.runtime import available, chosen  # noqa: E402
from vision.synth import render_empty, render_still  # noqa: E402

# The last commit whose vision/ held the classical pip reader (dice regions, pip contrast, layouts).
CLASSICAL = "d5482be"

Frames = list[tuple[np.ndarray, int, np.ndarray | None]]


def _synthetic(n_frames: int, reference: bool, size=(640, 480)) -> Frames:
    frames = []
    for seed in range(n_frames):
        rng = np.random.default_rng(seed + 5000)
        n = 2 if seed % 2 else 5
        image, _ = render_still([int(v) for v in rng.integers(1, 7, n)], seed=seed + 5000, size=size)
        frames.append((image, n, render_empty(seed=seed + 5000, size=size) if reference else None))
    return frames


def _cover(image: np.ndarray, size=(640, 480)) -> np.ndarray:
    """The image resized to cover ``size`` and cut to it around its centre."""
    h, w = image.shape[:2]
    s = max(size[0] / w, size[1] / h)
    img = cv2.resize(image, (max(size[0], round(w * s)), max(size[1], round(h * s))), interpolation=cv2.INTER_AREA)
    y0, x0 = (img.shape[0] - size[1]) // 2, (img.shape[1] - size[0]) // 2
    return np.ascontiguousarray(img[y0:y0 + size[1], x0:x0 + size[0]])


def _photos(limit: int) -> Frames:
    """Table-like labelled photos, ``limit`` per source, at 640x480 (their dice may lose a border)."""
    frames: Frames = []
    for manifest in DEFAULT_MANIFESTS:
        if not manifest.is_file():
            continue
        taken: dict[str, int] = {}
        for p in load_manifest(manifest):
            if not p.table_like or p.excluded or p.source in TRAIN_ONLY or taken.get(p.source, 0) >= limit:
                continue
            image = cv2.imread(str(p.path), cv2.IMREAD_COLOR)
            if image is not None:
                frames.append((_cover(image), len(p.values), None))
                taken[p.source] = taken.get(p.source, 0) + 1
    return frames


def _time(reader, frames: Frames, rounds: int) -> tuple[list[float], list[float]]:
    """Per frame, the median over ``rounds`` reads of (CPU ms, wall ms)."""
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


# Run in a child process on the classical reader's own vision/ package: prints one line of CPU ms
# per frame set, each the median over its frames of the median over rounds.
_CHILD = """
import os, pickle, statistics, sys, time
import cv2
cv2.setNumThreads(1)
os.sched_setaffinity(0, {int(sys.argv[3])})
sys.path.insert(0, sys.argv[1])
from vision.reader import read_dice
sets, rounds = pickle.load(open(sys.argv[2], "rb")), int(sys.argv[4])
for name, frames in sets:
    cpu = []
    for image, n, ref in frames:
        cs = []
        for _ in range(rounds):
            c0 = time.process_time()
            read_dice(image, expected=n, reference=ref)
            cs.append((time.process_time() - c0) * 1000.0)
        cpu.append(statistics.median(cs))
    print(statistics.median(cpu), flush=True)
"""


def _classical(sets: list[tuple[str, Frames]], rounds: int) -> list[float] | str:
    """The classical reader's median CPU ms per set, or why it was not timed."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", CLASSICAL, "vision"], capture_output=True)
        if archive.returncode != 0:
            return f"not timed (commit {CLASSICAL} is not in this clone's history)"
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        import pickle

        data = Path(tmp) / "frames.pkl"
        data.write_bytes(pickle.dumps(sets))
        core = str(min(os.sched_getaffinity(0)))
        done = subprocess.run([sys.executable, "-c", _CHILD, tmp, str(data), core, str(rounds)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return "not timed (" + (done.stderr.strip().splitlines() or ["failed"])[-1] + ")"
        return [float(v) for v in done.stdout.split()]


def _load_ms(runtime: str, times: int = 5) -> float:
    """The median wall ms to load both networks from their files with ``runtime``."""
    ms = []
    for _ in range(times):
        t0 = time.perf_counter()
        DieFinder(runtime=runtime), FaceReader(runtime=runtime)
        ms.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(ms)


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _memory(pool: Frames, n: int) -> None:
    tracemalloc.start()
    marks = {}
    for i in range(n):
        image, k, ref = pool[i % len(pool)]
        read_dice(image, expected=k, reference=ref)
        if i + 1 in (min(200, n), n):
            marks[i + 1] = (_rss_mb(), tracemalloc.get_traced_memory()[0] / 2**20)
    tracemalloc.stop()
    (r0, t0), (r1, t1) = marks[min(200, n)], marks[n]
    print(f"memory after {min(200, n)} frames: RSS {r0:.1f} MB, Python {t0:.2f} MB; after {n}: "
          f"RSS {r1:.1f} MB, Python {t1:.2f} MB; growth {r1 - r0:+.1f} MB RSS, {t1 - t0:+.2f} MB Python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="reads per frame (default 3)")
    parser.add_argument("--frames", type=int, default=40, help="frames per set (default 40; 4056x3040: a tenth)")
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="then read N frames and report memory")
    parser.add_argument("--no-classical", action="store_true", help="do not time the classical reader")
    args = parser.parse_args()
    print(f"reader_speed: {one_core()}, OpenCV {cv2.__version__}")
    loads = ", ".join(f"{name} {_load_ms(name):.0f} ms" for name in available())
    print(f"model load: {loads} (target <= 500 ms)")
    sets = [
        ("640x480 synthetic, reference", _synthetic(args.frames, True)),
        ("640x480 synthetic", _synthetic(args.frames, False)),
        ("640x480 photos", _photos(max(1, args.frames // 4))),
        ("4056x3040 synthetic", _synthetic(max(1, args.frames // 10), False, (4056, 3040))),
    ]
    sets = [(name, frames) for name, frames in sets if frames]
    readers = {name: partial(read_dice, models=Models.load(MODELS, name)) for name in available()}
    for reader in readers.values():
        reader(sets[0][1][0][0], expected=2)  # warm up
    classical = "skipped (--no-classical)" if args.no_classical else _classical(sets, args.rounds)
    if isinstance(classical, str):
        print(f"classical reader: {classical}")
    print(f"CPU ms per frame, median over the set (wall-clock ms in brackets); runtimes: {', '.join(readers)} "
          f"(the reader uses {chosen()}); ratios: reader / baseline, onnxruntime / opencv")
    print(f"{'frames':<30}{'n':>4}{'opencv':>18}{'p90':>7}{'onnxrt':>8}{'ratio':>7}{'classical':>11}{'ratio':>7}"
          f"{'blobs':>8}{'ratio':>7}")
    small: dict[str, list[float]] = {name: [] for name in readers}
    for k, (name, frames) in enumerate(sets):
        times = {rt: _time(reader, frames, args.rounds) for rt, reader in readers.items()}
        mine, mine_wall = times["opencv"]
        base, _ = _time(read_blobs, frames, args.rounds)
        med, base_med = statistics.median(mine), statistics.median(base)
        if name.startswith("640x480"):
            for rt, (cpu, _) in times.items():
                small[rt] += cpu
        fast = (f"{statistics.median(times['onnxruntime'][0]):>8.1f}"
                f"{statistics.median(times['onnxruntime'][0]) / med:>7.2f}") if "onnxruntime" in times else f"{'-':>8}{'-':>7}"
        cl = f"{classical[k]:>11.1f}{med / classical[k]:>7.2f}" if not isinstance(classical, str) else f"{'-':>11}{'-':>7}"
        print(f"{name:<30}{len(frames):>4}{med:>8.1f} ({statistics.median(mine_wall):5.1f}) ms"
              f"{float(np.percentile(mine, 90)):>7.1f}{fast}{cl}{base_med:>8.1f}{med / base_med:>7.2f}")
    all_fast = f"{statistics.median(small['onnxruntime']):>8.1f}" if "onnxruntime" in small else f"{'-':>8}"
    print(f"{'all 640x480':<30}{len(small['opencv']):>4}{statistics.median(small['opencv']):>8.1f}         ms"
          f"{'':>7}{all_fast}   (targets: 640x480 <= 8 ms, 4056x3040 <= 40 ms)")
    if args.memory:
        _memory([f for name, frames in sets if name.startswith("640x480") for f in frames], args.memory)


if __name__ == "__main__":
    main()
