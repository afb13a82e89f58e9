"""Monte Carlo of the optimal declared-Yacht policy: random dice, the solver's choices.

It checks the solver from outside: the mean total of simulated games must agree with the solver's
expected total within the confidence interval. Vectorised over games with a seeded numpy Generator,
so a run is reproducible and a million games take seconds (benchmarks/yacht_solver.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from appliance.coach.yacht_solver import MAX_REROLLS, N_CATEGORIES, YachtTables, dice_space

_PLACE = 6 ** np.arange(5)


def _states(dice: np.ndarray) -> np.ndarray:
    """State rows of ``(n, 5)`` sorted int dice."""
    return dice_space().code_to_state[(dice - 1) @ _PLACE]


def roll_dice(rng: np.random.Generator, n: int) -> np.ndarray:
    """``(n, 5) int64`` sorted fresh rolls of five dice."""
    return np.sort(rng.integers(1, 7, size=(n, 5)), axis=1)


def play_rerolls(tables: YachtTables, dice: np.ndarray, categories: np.ndarray, rng: np.random.Generator,
                 rolls_left: int = MAX_REROLLS) -> np.ndarray:
    """The final dice after the policy's rerolls for the declared categories.

    dice: ``(n, 5)`` sorted ints 1-6; categories: ``(n,)`` category indices. Returns ``(n, 5)``
    sorted ints. Each reroll keeps the dice of the solver's keep mask and rolls the others.
    """
    for r in range(rolls_left, 0, -1):
        mask = tables.keep[r, _states(dice), categories]
        kept = (mask[:, None] >> np.arange(5)) & 1 == 1
        dice = np.sort(np.where(kept, dice, rng.integers(1, 7, size=dice.shape)), axis=1)
    return dice


def simulate_games(tables: YachtTables, n_games: int, seed: int = 0) -> np.ndarray:
    """Totals ``(n_games,) int64`` of whole games played by the optimal policy from an empty sheet.

    Each turn: roll five dice, declare the unused category with the largest expected total (the
    solver's ``turn`` plus ``game`` of the sheet after it), reroll twice by the solver's keeps,
    score the final dice (``turn[0]``, i.e. yacht_scoring.score).
    """
    rng = np.random.default_rng(seed)
    bits = 1 << np.arange(N_CATEGORIES)
    rows = np.arange(n_games)
    used = np.zeros(n_games, dtype=np.int64)
    totals = np.zeros(n_games, dtype=np.int64)
    for _ in range(N_CATEGORIES):
        dice = roll_dice(rng, n_games)
        value = tables.turn[MAX_REROLLS, _states(dice)] + tables.game[used[:, None] | bits]
        value[(used[:, None] & bits) != 0] = -np.inf
        declared = np.argmax(value, axis=1)
        final = play_rerolls(tables, dice, declared, rng)
        totals += tables.turn[0, _states(final), declared].astype(np.int64)
        used |= bits[declared]
    assert (used == bits.sum()).all()  # every game filled its sheet
    return totals


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo mean with its standard error and a normal 99.9 % confidence interval (points)."""

    n: int
    mean: float
    std: float

    @property
    def stderr(self) -> float:
        return self.std / math.sqrt(self.n)

    @property
    def interval(self) -> tuple[float, float]:
        half = 3.29 * self.stderr  # two-sided 99.9 %
        return self.mean - half, self.mean + half

    def covers(self, value: float) -> bool:
        low, high = self.interval
        return low <= value <= high


def estimate(samples: np.ndarray) -> Estimate:
    """The :class:`Estimate` of ``(n,)`` samples."""
    return Estimate(n=len(samples), mean=float(np.mean(samples)), std=float(np.std(samples, ddof=1)))
