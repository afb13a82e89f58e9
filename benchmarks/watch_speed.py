"""Frames per second of the whole watch loop at 640x480 on one core.

    .venv/bin/python benchmarks/watch_speed.py [--frames 600] [--seed 1]

The loop is what ``dicetable watch`` and the kiosk run per frame: take a frame from the source, feed
it to the settle detector (motion on a shrunk frame every time; the real reader only while the dice
have just come to rest). The source is the synthetic table playing throws of 2 and of 5 dice (with a
nudge and a hand now and then), so the figures include its rendering; the detector alone is also
timed on the same frames, pre-rendered. The baseline, run in the same process on the same frames, is
the naive loop that runs the reader on every frame; the ratio is what the settle gating buys.

Prints per dice count: fps of the whole loop (render + detect), of the detector alone, of the
naive read-every-frame baseline, the ratio, and the share of frames that were read. Pinned to one
core, OpenCV single-threaded.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
from pinning import one_core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600, help="frames per run (default 600: 20 s at 30 fps)")
    parser.add_argument("--baseline-frames", type=int, default=120, help="frames for the read-every-frame baseline")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from vision.reader import read_dice
    from vision.settle import SettleDetector
    from vision.sources import EndOfFrames
    from vision.synth import SyntheticTable, TableLook

    print(f"watch loop at 640x480, {one_core()}, OpenCV threads {cv2.getNumThreads()}")
    print(f"{'dice':>4} {'loop fps':>9} {'render ms':>9} {'detect fps':>10} {'read-all fps':>12} {'ratio':>6} "
          f"{'read share':>10} {'reads':>6}")
    for n in (2, 5):
        table = SyntheticTable(n, seed=args.seed, look=TableLook(size=(640, 480))).autoplay(throws=1000, pause_s=1.0)
        detector = SettleDetector(read_dice, expected=n)
        frames, render_ms, detect_ms = [], [], []
        reads = 0
        start = time.perf_counter()
        for _ in range(args.frames):
            t0 = time.perf_counter()
            try:
                frame = table.read()
            except EndOfFrames:
                break
            t1 = time.perf_counter()
            update = detector.update(frame.image, frame.t, frame.index)
            t2 = time.perf_counter()
            render_ms.append((t1 - t0) * 1000)
            detect_ms.append((t2 - t1) * 1000)
            reads += update.reading is not None
            frames.append(frame)
        loop_fps = len(frames) / (time.perf_counter() - start)

        # The detector alone, on the same frames (a fresh detector: same decisions, same reads).
        detector = SettleDetector(read_dice, expected=n)
        start = time.perf_counter()
        for frame in frames:
            detector.update(frame.image, frame.t, frame.index)
        detect_fps = len(frames) / (time.perf_counter() - start)

        # Baseline: the reader on every frame, as a loop without settling would have to.
        sample = frames[:: max(1, len(frames) // args.baseline_frames)][: args.baseline_frames]
        start = time.perf_counter()
        for frame in sample:
            read_dice(frame.image, expected=n)
        base_fps = len(sample) / (time.perf_counter() - start)

        print(f"{n:>4} {loop_fps:>9.1f} {statistics.median(render_ms):>9.2f} {detect_fps:>10.1f} {base_fps:>12.1f} "
              f"{detect_fps / base_fps:>5.1f}x {reads / len(frames):>10.1%} {reads:>6}")
        print(f"     detector per frame: median {statistics.median(detect_ms):.2f} ms, "
              f"95th percentile {sorted(detect_ms)[int(0.95 * len(detect_ms))]:.1f} ms, max {max(detect_ms):.1f} ms")


if __name__ == "__main__":
    main()
