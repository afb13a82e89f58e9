"""The delay from the last moving frame of a throw to its settled reading, in frames and ms at 30 fps.

    .venv/bin/python benchmarks/watch_latency.py [--throws 20] [--seed 1]

Throws of 2 and of 5 dice on the synthetic table (virtual time, 30 fps), through the settle detector
and the real reader. The last moving frame is the table's truth (the last frame in which a die still
moved), so the delay counts what the detector waits for: ``still_s`` of stillness (0.4 s = 12
frames), and any extra frames until ``agree`` readings agree. The baseline, measured on the same
throws, is that floor: ``still_s`` itself. Also counted: throws with no report or more than one,
reports made while a die moved, and (the reader's part) reports that were unreadable or, worse,
``ok`` with wrong values.
"""

from __future__ import annotations

import argparse
import statistics

FPS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=20, help="throws per dice count (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from vision.reader import read_dice
    from vision.settle import SettleDetector
    from vision.synth import SyntheticTable

    print(f"delay from the last moving frame to the settled reading, {FPS:.0f} fps (virtual time)")
    print(f"{'dice':>4} {'throws':>6} {'median':>14} {'worst':>14} {'floor':>14} {'median/floor':>12} "
          f"{'missed':>6} {'extra':>5} {'moving':>6} {'unread':>6} {'wrong':>5}")
    for n in (2, 5):
        table = SyntheticTable(n, seed=args.seed, fps=FPS)
        detector = SettleDetector(read_dice, expected=n)
        delays: list[int] = []
        missed = extra = while_moving = unread = wrong = 0
        for _ in range(args.throws):
            table.throw()
            last_moving = None
            reports = []
            for frame in table.frames(table.still_at - table.t + 3.0):
                update = detector.update(frame.image, frame.t, frame.index)
                if table.truth.moving:
                    last_moving = frame.index
                if update.settled is not None:
                    reports.append((frame.index, update.settled, table.truth))
            if not reports:
                missed += 1
                continue
            extra += len(reports) - 1
            index, settled, truth = reports[0]
            while_moving += truth.moving
            unread += not settled.ok
            wrong += settled.ok and settled.reading.values != truth.values
            delays.append(index - last_moving)
        floor = round(detector.params.still_s * FPS)
        med, worst = statistics.median(delays), max(delays)
        print(f"{n:>4} {args.throws:>6} {med:>4.0f} fr {med / FPS * 1000:>4.0f} ms {worst:>4} fr {worst / FPS * 1000:>4.0f} ms "
              f"{floor:>4} fr {floor / FPS * 1000:>4.0f} ms {med / floor:>11.2f}x {missed:>6} {extra:>5} {while_moving:>6} "
              f"{unread:>6} {wrong:>5}")


if __name__ == "__main__":
    main()
