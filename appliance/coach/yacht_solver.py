"""The exact solitaire optimum of declared Yacht (RULES.md §3, seeds/002_eb2fdbc33035b68e.txt).

A turn is: roll five dice, declare one unused category, then up to two rerolls of any dice; the
final dice score in the declared category only. Declared Yacht has no upper-section bonus, so the
value of a declared category within a turn does not depend on the rest of the sheet. The solve is
therefore two small dynamic programmes:

1. the turn: for each of the 252 sorted five-dice states, each category and 0, 1 or 2 rerolls left,
   the expected score under the best keeps (462 kept multisets, 32 keep masks per state);
2. the game: for each of the 4096 sets of used categories, the expected score of the rest of the
   game when every declaration maximises the expected final total (the solitaire optimum, the anchor
   of Verhoeff 1999 and Glenn 2006 for the classic game).

Stopping early (the ``stop`` action) is the keep of all five dice, so it is one of the keeps.
Everything here is pure: no I/O (the disk cache is ``appliance.coach.yacht_cache``).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from appliance.games.yacht import Yacht
from appliance.games.yacht_scoring import CATEGORIES, SCORINGS, check_dice, score

# Bump when the tables' meaning or layout changes: the disk cache is keyed by it.
SOLVER_VERSION = 1

N_CATEGORIES = len(CATEGORIES)
ALL_USED = (1 << N_CATEGORIES) - 1
ROLLS_PER_TURN = 3  # the first roll and two rerolls (RULES.md §3 "Turn")
MAX_REROLLS = ROLLS_PER_TURN - 1

# Near-equal keeps (float noise) count as equal, and the one keeping more dice wins the tie: fewer
# dice to pick up, and "keep everything" is the stop action.
_TIE = 1e-9


@dataclass(frozen=True)
class YachtRules:
    """The Yacht switches that change scores (RULES.md §3): ``scoring`` is "seed" or "sackson"."""

    scoring: str = "seed"
    yacht_counts_as_full_house: bool = False

    def __post_init__(self):
        if self.scoring not in SCORINGS:
            raise ValueError(f"unknown scoring {self.scoring!r}; one of {', '.join(SCORINGS)}")
        if not isinstance(self.yacht_counts_as_full_house, bool):
            raise ValueError(
                f"yacht_counts_as_full_house must be true or false, got {self.yacht_counts_as_full_house!r}"
            )

    @classmethod
    def from_mapping(cls, rules: Mapping | None) -> YachtRules:
        """The Yacht switches of a game setup's ``rules`` dict (other keys are ignored).

        Values are read as the engine reads a setup line (``"on"``/``"off"`` too, RULES.md).
        Raises ValueError (the engine's SetupError) for a bad value of one of the two switches.
        """
        rules, switches = rules or {}, Yacht.switches
        return cls(**{key: switches[key].check(key, rules[key]) if key in rules else switches[key].default
                      for key in ("scoring", "yacht_counts_as_full_house")})

    @property
    def key(self) -> str:
        """A short stable name of the switches, e.g. ``seed-fh0`` (cache file names)."""
        return f"{self.scoring}-fh{int(self.yacht_counts_as_full_house)}"

    def as_dict(self) -> dict:
        """The switches as a game setup's ``rules`` dict."""
        return {"scoring": self.scoring, "yacht_counts_as_full_house": self.yacht_counts_as_full_house}


@dataclass(frozen=True)
class DiceSpace:
    """The five-dice state space, independent of the rules.

    states: the 252 sorted five-dice tuples; ``state_index`` maps each to its row.
    keeps: the 462 sorted kept multisets of 0-5 dice; ``keep_index`` maps each to its row.
    first_roll: ``(252,) float64``, the probability of each state from rolling all five dice.
    transition: ``(462, 252) float64``, P(state after rerolling the other dice | kept multiset).
    masks: ``(32,) int64`` keep masks (bit i keeps die i of the sorted state), most dice first.
    subkeeps: ``(252, 32) int64``, the keep row of ``masks[j]`` applied to state s.
    code_to_state: ``(7776,) int64``, state row of a sorted roll by its base-6 code
        ``sum((d_i - 1) * 6**i)`` (vectorised lookups in the simulation).
    """

    states: tuple[tuple[int, ...], ...]
    state_index: dict
    keeps: tuple[tuple[int, ...], ...]
    keep_index: dict
    first_roll: np.ndarray
    transition: np.ndarray
    masks: np.ndarray
    subkeeps: np.ndarray
    code_to_state: np.ndarray


def _multiset_probability(faces: tuple[int, ...]) -> float:
    """P(rolling exactly this sorted multiset with len(faces) fair dice)."""
    ways = math.factorial(len(faces))
    for n in (faces.count(f) for f in set(faces)):
        ways //= math.factorial(n)
    return ways / 6 ** len(faces)


@functools.cache
def dice_space() -> DiceSpace:
    """The shared :class:`DiceSpace` (built once, a few ms)."""
    faces = range(1, 7)
    states = tuple(itertools.combinations_with_replacement(faces, 5))
    state_index = {s: i for i, s in enumerate(states)}
    keeps = tuple(k for n in range(6) for k in itertools.combinations_with_replacement(faces, n))
    keep_index = {k: i for i, k in enumerate(keeps)}

    transition = np.zeros((len(keeps), len(states)))
    for ki, kept in enumerate(keeps):
        for fresh in itertools.combinations_with_replacement(faces, 5 - len(kept)):
            transition[ki, state_index[tuple(sorted(kept + fresh))]] += _multiset_probability(fresh)
    first_roll = transition[keep_index[()]].copy()

    masks = np.array(sorted(range(32), key=lambda m: (-m.bit_count(), m)), dtype=np.int64)
    subkeeps = np.array(
        [[keep_index[tuple(s[i] for i in range(5) if m >> i & 1)] for m in masks] for s in states],
        dtype=np.int64,
    )
    code_to_state = np.full(6**5, -1, dtype=np.int64)
    for i, s in enumerate(states):
        code_to_state[sum((d - 1) * 6**p for p, d in enumerate(s))] = i
    return DiceSpace(states, state_index, keeps, keep_index, first_roll, transition, masks, subkeeps, code_to_state)


@dataclass(frozen=True)
class YachtTables:
    """The solved game for one set of rules.

    turn: ``(3, 252, 12) float64``; ``turn[r, s, c]`` is the expected points of category c
        (CATEGORIES order) from state s with r rerolls left under the best keeps; ``turn[0]`` is
        the score of the dice as they lie.
    keep: ``(3, 252, 12) int64``; the best keep mask (bit i keeps die i of the sorted state) with
        r rerolls left; 31 (keep all: stop) when r = 0 or when nothing beats stopping.
    game: ``(4096,) float64``; ``game[u]`` is the expected points still to come from the start of
        a turn when the categories with bit i of u set are used (``game[4095] == 0``).
    """

    rules: YachtRules
    turn: np.ndarray
    keep: np.ndarray
    game: np.ndarray

    @property
    def expected_game(self) -> float:
        """The optimal expected total of a whole game from an empty sheet (points)."""
        return float(self.game[0])


def score_table(rules: YachtRules) -> np.ndarray:
    """``(252, 12) float64``: the score of every state in every category (yacht_scoring.score)."""
    space = dice_space()
    return np.array(
        [
            [score(c, s, scoring=rules.scoring, yacht_counts_as_full_house=rules.yacht_counts_as_full_house)
             for c in CATEGORIES]
            for s in space.states
        ],
        dtype=np.float64,
    )


def solve_turn(rules: YachtRules) -> tuple[np.ndarray, np.ndarray]:
    """The turn programme: ``(turn, keep)`` as described in :class:`YachtTables`."""
    space = dice_space()
    n_states = len(space.states)
    turn = np.empty((ROLLS_PER_TURN, n_states, N_CATEGORIES))
    keep = np.full((ROLLS_PER_TURN, n_states, N_CATEGORIES), 31, dtype=np.int64)
    turn[0] = score_table(rules)
    for r in range(1, ROLLS_PER_TURN):
        after_keep = space.transition @ turn[r - 1]  # (462, 12): expected value of each kept multiset
        options = after_keep[space.subkeeps]  # (252, 32, 12), masks ordered most dice first
        best = options.max(axis=1)
        first_near_best = np.argmax(options >= best[:, None, :] - _TIE, axis=1)
        turn[r] = best
        keep[r] = space.masks[first_near_best]
    return turn, keep


def solve_game(first_roll_values: np.ndarray) -> np.ndarray:
    """The game programme over used-sets.

    first_roll_values: ``(252, 12) float64``, the expected points of each category right after the
    first roll (``turn[2]``). Returns ``(4096,) float64`` as ``YachtTables.game``.
    """
    first_roll = dice_space().first_roll
    bits = 1 << np.arange(N_CATEGORIES)
    used_sets = np.arange(ALL_USED + 1)
    popcount = ((used_sets[:, None] & bits) != 0).sum(axis=1)
    game = np.zeros(ALL_USED + 1)
    # Fill from the full sheet back to the empty one: every used-set of one layer depends only on
    # the next layer.
    for n_used in range(N_CATEGORIES - 1, -1, -1):
        layer = used_sets[popcount == n_used]
        is_used = (layer[:, None] & bits) != 0  # (n, 12)
        rest = np.where(is_used, -np.inf, game[layer[:, None] | bits])  # (n, 12)
        best_declaration = (first_roll_values[None, :, :] + rest[:, None, :]).max(axis=2)  # (n, 252)
        game[layer] = best_declaration @ first_roll
    return game


def solve(rules: YachtRules = YachtRules()) -> YachtTables:
    """Solve declared Yacht for ``rules`` from scratch (about 0.1 s; see benchmarks/yacht_solver.py)."""
    turn, keep = solve_turn(rules)
    return YachtTables(rules=rules, turn=turn, keep=keep, game=solve_game(turn[MAX_REROLLS]))


def used_mask(used: Iterable[str]) -> int:
    """The used-set bitmask of category names (bit i = CATEGORIES[i]).

    Raises ValueError for a name that is not a category of RULES.md §3.
    """
    mask = 0
    for name in used:
        if name not in CATEGORIES:
            raise ValueError(f"unknown category {name!r}; one of {', '.join(CATEGORIES)}")
        mask |= 1 << CATEGORIES.index(name)
    return mask


def state_of(dice) -> tuple[tuple[int, ...], int]:
    """The sorted dice and their state row; raises ValueError unless five faces 1-6."""
    sorted_dice = check_dice(dice)
    return sorted_dice, dice_space().state_index[sorted_dice]
