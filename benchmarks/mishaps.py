"""Dice off the tray and cocked dice on the synthetic table: announced and thrown again, never read.

    .venv/bin/python benchmarks/mishaps.py [--throws 40] [--first 0]

For each of ``--throws`` seeds, a ``vision.synth.SyntheticTable`` (a random ``TableLook`` per seed with
the tray filling 70-78% of the view, 2 or 5 dice) throws three times: every die flat on the tray, one
die leaning on the tray's wall (cocked), and one die landed on the table beside the tray (off the
tray). The still frame of each throw is read as the appliance reads it (``vision.reader.read_dice``
with the expected count, then ``vision.tray.off_tray`` with the table's tray area) and counted by what
the table would do:

- flat: read right / unreadable (a re-throw) / read wrong;
- cocked and off the tray: told as such (reading kind "cocked" / "off_tray") / unreadable of another
  kind (still a re-throw) / read as a roll (the miss this exists to count).

Pinned to one core; a still frame takes about a second to reach (every frame of the throw is drawn).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pinning import one_core  # noqa: E402

from vision.reader import read_dice  # noqa: E402
from vision.synth import SyntheticTable, TableLook  # noqa: E402
from vision.tray import off_tray  # noqa: E402

ROOMY = (0.7, 0.78)  # the tray's share of the view: room beside it for a die thrown off it


def still_frame(seed: int, n: int, **mishap):
    """The synthetic table of ``seed`` (a random look, the tray ``ROOMY``) after one throw of ``n``
    dice with ``mishap`` (``cocked=i`` or ``off_tray=i``; none: all flat), and its still frame, (H,
    W, 3) uint8 BGR."""
    table = SyntheticTable(n, seed=seed, look=TableLook.random(seed, tray_frac=ROOMY))
    table.throw(n=n, **mishap)
    return table, list(table.frames(table.still_at - table.t + 0.2))[-1].image


def still_reading(seed: int, n: int, **mishap):
    """The reading of the still frame after one throw (``still_frame``), and the values that lie
    flat on the tray."""
    table, frame = still_frame(seed, n, **mishap)
    return off_tray(read_dice(frame, expected=n), table.tray_area), table.truth.values


def outcome(reading, truth, kind: str | None) -> str:
    """What the table does with ``reading``: for a flat throw "right", "re-throw" or "wrong"; for a
    mishap of ``kind`` ("cocked", "off_tray") "told", "re-throw" or "read as a roll"."""
    if kind is None:
        return "re-throw" if not reading.ok else ("right" if sorted(reading.values) == sorted(truth) else "wrong")
    if reading.ok:
        return "read as a roll"
    return "told" if reading.kind == kind else "re-throw"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="first seed")
    args = ap.parse_args(argv)
    one_core()
    counts = {k: Counter() for k in ("flat", "cocked", "off_tray")}
    kinds = Counter()
    for seed in range(args.first, args.first + args.throws):
        n = 2 if seed % 2 == 0 else 5
        die = seed % n
        for name, mishap in (("flat", {}), ("cocked", {"cocked": die}), ("off_tray", {"off_tray": die})):
            reading, truth = still_reading(seed, n, **mishap)
            result = outcome(reading, truth, None if name == "flat" else name)
            counts[name][result] += 1
            if name != "flat" and result == "re-throw":
                kinds[f"{name} read as {reading.kind}"] += 1
    print(f"mishaps on the synthetic table: {args.throws} seeds from {args.first}, 2 or 5 dice, "
          "a random look each, the tray 70-78% of the view")
    for name, c in counts.items():
        print(f"  {name:9s} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    for k, v in sorted(kinds.items()):
        print(f"  ({k}: {v})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
