"""Speed of the declared-Yacht coach, and its optimal game values checked by Monte Carlo.

    .venv/bin/python benchmarks/yacht_solver.py [--games 500000] [--seed 1]

Prints: a machine baseline (numpy sorting 1e6 floats, so figures compare across machines as
ratios); the full solve from scratch, the first use with an empty disk cache and with a stored one,
against the 2 s budget; one advice (declarations, keep, kiosk hint) against the 5 ms budget; the
whole ``dicetable advise`` command as a fresh process; then, for each scoring preset and full-house
switch, the optimal expected total of a game from an empty sheet beside the mean of simulated games
with its 99.9 % confidence interval.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from appliance.coach.yacht_advice import YachtCoach
from appliance.coach.yacht_cache import cache_path, load_or_solve
from appliance.coach.yacht_simulation import estimate, simulate_games
from appliance.coach.yacht_solver import YachtRules, dice_space, solve
from appliance.games.yacht_scoring import CATEGORIES

SOLVE_BUDGET_S = 2.0
ADVICE_BUDGET_MS = 5.0
RULE_SETS = [YachtRules(scoring, counts) for scoring in ("seed", "sackson") for counts in (False, True)]


def seconds(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs (s)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cold_solve(rules: YachtRules):
    dice_space.cache_clear()  # count building the dice space too: it is part of a first solve
    return solve(rules)


def first_use(rules: YachtRules) -> None:
    dice_space.cache_clear()
    with tempfile.TemporaryDirectory() as empty:
        load_or_solve(rules, Path(empty))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000, help="simulated games per set of rules")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    baseline = seconds(lambda: np.sort(np.random.default_rng(0).random(1_000_000)))
    print(f"baseline: numpy sort of 1e6 float64      {baseline * 1e3:8.1f} ms")

    def row(label: str, t: float, extra: str = "") -> None:
        print(f"  {label:<38} {t:8.3f} {t / baseline:10.1f}   {t / SOLVE_BUDGET_S:8.1%}{extra}")

    print(f"\n{'solve (median of 5)':<40} {'s':>8} {'x baseline':>10}   {'of 2 s budget'}")
    for rules in RULE_SETS:
        row(f"from scratch, {rules.key}", seconds(lambda: cold_solve(rules)))
    row("first use, empty cache (solve + write)", seconds(lambda: first_use(YachtRules())))
    with tempfile.TemporaryDirectory() as cache:
        load_or_solve(YachtRules(), Path(cache))
        t_load = seconds(lambda: load_or_solve(YachtRules(), Path(cache)))
        size = cache_path(YachtRules(), Path(cache)).stat().st_size
    row("first use, stored cache (load)", t_load, f"   ({size / 1024:.0f} KiB file)")

    tables = solve(YachtRules())
    coach = YachtCoach(tables)
    rng = np.random.default_rng(args.seed)
    rolls = [tuple(int(d) for d in r) for r in rng.integers(1, 7, size=(2000, 5))]
    sheets = [[c for c, u in zip(CATEGORIES, row) if u] for row in rng.random((2000, 12)) < 0.5]
    categories = [CATEGORIES[i] for i in rng.integers(0, 12, size=2000)]
    calls = {
        "declarations(roll, used)": lambda i: coach.declarations(rolls[i], sheets[i]),
        "keep(roll, declared, 2)": lambda i: coach.keep(rolls[i], categories[i], 2, sheets[i]),
        "hint(roll, used)": lambda i: coach.hint(rolls[i], sheets[i]),
        "position_value(used)": lambda i: coach.position_value(sheets[i]),
    }
    print("\none advice (2000 random positions)   mean us    max us   of 5 ms budget (max)")
    for name, call in calls.items():
        times = []
        for i in range(len(rolls)):
            if len(sheets[i]) == 12:
                continue
            start = time.perf_counter()
            call(i)
            times.append(time.perf_counter() - start)
        worst = max(times)
        print(f"  {name:<30} {statistics.mean(times) * 1e6:8.1f} {worst * 1e6:9.1f}   {worst * 1e3 / ADVICE_BUDGET_MS:8.2%}")

    with tempfile.TemporaryDirectory() as cache:
        command = [sys.executable, "-m", "appliance", "advise", "yacht", "--roll", "5", "5", "2", "2", "1"]
        env = {"XDG_CACHE_HOME": cache, "PATH": "/usr/bin:/bin"}
        subprocess.run(command, env=env, check=True, capture_output=True)  # fills the cache
        t_cli = seconds(lambda: subprocess.run(command, env=env, check=True, capture_output=True), repeat=3)
    print(f"\n`dicetable advise yacht --roll 5 5 2 2 1`, a fresh process with a stored cache: {t_cli:.2f} s")

    print(f"\noptimal expected total of a game from an empty sheet, and {args.games} simulated games")
    print("  rules          solver     sim mean   99.9% interval        z     covered")
    for rules in RULE_SETS:
        tables = solve(rules)
        start = time.perf_counter()
        result = estimate(simulate_games(tables, args.games, seed=args.seed))
        elapsed = time.perf_counter() - start
        low, high = result.interval
        z = (result.mean - tables.expected_game) / result.stderr
        print(f"  {rules.key:<12} {tables.expected_game:9.4f} {result.mean:11.4f}   [{low:8.3f}, {high:8.3f}] "
              f"{z:+7.2f}   {'yes' if result.covers(tables.expected_game) else 'NO'}   ({elapsed:.1f} s, sd {result.std:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
