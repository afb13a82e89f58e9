"""Seeded weighted draws for the training sets: one epoch is ``per_epoch`` draws, each from its own
generator seeded by (seed, epoch, i), so item ``i`` of an epoch is the same whatever worker makes it."""

from __future__ import annotations

import numpy as np
from torch.utils.data import Dataset


class WeightedDraws(Dataset):
    """A dataset of ``per_epoch`` items, each drawn from ``weights`` (one per thing drawn from, any
    scale; None: all equal). Subclasses make the item from ``draw(i)``; the training loop sets
    ``epoch`` before each epoch."""

    def __init__(self, count: int, per_epoch: int, seed: int, weights=None):
        w = np.ones(count) if weights is None else np.asarray(weights, float)
        self.cumulative = np.cumsum(w / w.sum())  # drawn by bisection: O(log n) a draw
        self.count, self.per_epoch, self.seed, self.epoch = count, per_epoch, seed, 0

    def __len__(self) -> int:
        return self.per_epoch

    def draw(self, i: int) -> tuple[np.random.Generator, int]:
        """Item ``i``'s generator and the index it drew (its first random number spent on it)."""
        rng = np.random.default_rng([self.seed, self.epoch, i])
        return rng, self.pick(rng)

    def pick(self, rng: np.random.Generator) -> int:
        """An index drawn from the weights with ``rng`` (one random number spent)."""
        return min(int(np.searchsorted(self.cumulative, rng.random())), self.count - 1)
