"""Speed and memory of the rules engine on its longest game: 12 rounds of declared Yacht for 8.

    .venv/bin/python benchmarks/engine_speed.py [--seed 1]

Prints: a machine baseline (a fixed pure-Python loop, so figures compare across machines as
ratios); then for a whole 8-player Yacht game played from ``expects`` with seeded dice: the mean and
worst time of one ``apply``, of ``undo`` at the end of the game (against the "a few ms per action"
budget), a full ``replay`` and ``restore`` of the log, and the memory the game object holds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tracemalloc

from appliance.games import new_game, replay, restore

BUDGET_MS = 3.0  # "a few ms per action at most" (the issue), on a Raspberry Pi 4


def baseline_ms() -> float:
    """Median time of a fixed pure-Python workload (ms): the machine's yardstick."""
    def work():
        total = 0
        for i in range(200_000):
            total += i * i % 7
        return total

    return statistics.median(_timed(work) for _ in range(5))


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def legal(g, rng: random.Random) -> dict:
    """A legal action for ``g`` drawn from ``g.expects`` (the kiosk's view of the table)."""
    exp = g.expects
    key = rng.choice(exp["actions"])
    if key == "roll":
        return {"roll": [rng.randint(1, 6) for _ in range(exp["dice"])]}
    if key == "declare":
        return {"declare": rng.choice(exp["options"])}
    return {key: True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    base = baseline_ms()
    print(f"baseline (pure-Python loop): {base:.2f} ms")

    setup = {"game": "yacht", "players": [f"P{i}" for i in range(8)]}
    g = new_game(setup)
    per_action = []
    while not g.over:
        action = legal(g, rng)
        start = time.perf_counter()
        events = g.apply(action)
        per_action.append((time.perf_counter() - start) * 1000)
        assert "error" not in events[0], events
    n = len(per_action)
    print(f"8-player Yacht: {n} actions, winner {g.winner}")
    print(f"apply:   mean {statistics.mean(per_action):.3f} ms, worst {max(per_action):.3f} ms "
          f"(budget {BUDGET_MS} ms; mean = {statistics.mean(per_action) / base:.4f} x baseline)")

    undo_ms = []
    for _ in range(20):
        undo_ms.append(_timed(lambda: g.apply({"undo": True})))
    print(f"undo:    mean {statistics.mean(undo_ms):.3f} ms, worst {max(undo_ms):.3f} ms at the end of the game "
          f"(budget {BUDGET_MS} ms; {statistics.mean(undo_ms) / base:.4f} x baseline)")

    replay_ms = statistics.median(_timed(lambda: replay(g.setup, g.actions)) for _ in range(3))
    data = json.loads(json.dumps(g.to_json()))
    restore_ms = statistics.median(_timed(lambda: restore(data)) for _ in range(3))
    print(f"replay:  {replay_ms:.1f} ms for {len(g.actions)} lines ({replay_ms / base:.3f} x baseline)")
    print(f"restore: {restore_ms:.1f} ms ({restore_ms / base:.3f} x baseline)")
    tracemalloc.start()  # apart from the timings: tracing slows every allocation
    kept, events = replay(g.setup, g.actions)
    del events  # count the game alone
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memory:  {held / 1024:.0f} KiB held by the finished game (undo snapshots included), "
          f"{peak / 1024:.0f} KiB peak")


if __name__ == "__main__":
    main()
