"""Advice for a declared-Yacht position from the solved tables: microseconds per answer.

The answers are small data, never sentences: the kiosk and the command line word them in their own
language. Expected values are points: ``turn`` is what this turn's declared category is expected to
score, ``total`` that plus the expected points of every later turn (the quantity the solitaire
optimum maximises; the points already on the sheet are the same for every choice).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from appliance.coach.yacht_cache import load_or_solve
from appliance.coach.yacht_solver import (
    ALL_USED,
    MAX_REROLLS,
    YachtRules,
    YachtTables,
    state_of,
    used_mask,
)
from appliance.games.yacht_scoring import CATEGORIES


@dataclass(frozen=True)
class Declaration:
    """One category to declare after the first roll, with its expected points (turn, total)."""

    category: str
    turn: float
    total: float


@dataclass(frozen=True)
class Keep:
    """The dice to keep for the declared category with ``rolls_left`` rerolls to go.

    keep, reroll: sorted faces (together the five dice). ``reroll == ()`` means stop: the dice as
    they lie are the best (always so with no rolls left). turn, total: expected points.
    """

    category: str
    rolls_left: int
    keep: tuple[int, ...]
    reroll: tuple[int, ...]
    turn: float
    total: float

    @property
    def stop(self) -> bool:
        """True when no die should be rolled again."""
        return not self.reroll


@dataclass(frozen=True)
class YachtHint:
    """The kiosk's hint line: ``action`` is "declare", "keep" or "stop".

    declare: ``category`` is the best declaration, ``expected`` its expected points this turn.
    keep: keep ``keep``, roll ``reroll`` again for the declared ``category``; ``expected`` as above.
    stop: the dice as they lie are the best for ``category``; ``expected`` is their score.
    """

    action: str
    category: str
    expected: float
    keep: tuple[int, ...] = ()
    reroll: tuple[int, ...] = ()


class YachtCoach:
    """The optimal declared-Yacht player for one set of rules (a thin view on :class:`YachtTables`)."""

    def __init__(self, tables: YachtTables):
        self.tables = tables
        self.rules = tables.rules

    def position_value(self, used: Iterable[str] = ()) -> float:
        """Expected points still to come from the start of a turn with ``used`` categories taken.

        0.0 when all 12 are used. Raises ValueError for an unknown category name.
        """
        return float(self.tables.game[used_mask(used)])

    def declarations(self, roll, used: Iterable[str] = ()) -> list[Declaration]:
        """Every unused category for the first roll ``roll`` (five faces 1-6), best total first.

        Equal totals keep the CATEGORIES order. Raises ValueError for a bad roll, an unknown
        category, or a sheet with every category used.
        """
        _, s = state_of(roll)
        used_set = used_mask(used)
        if used_set == ALL_USED:
            raise ValueError("every category is used: the game is over")
        turn = self.tables.turn[MAX_REROLLS, s]
        found = []
        for i, category in enumerate(CATEGORIES):
            if not used_set >> i & 1:
                found.append(
                    Declaration(category, float(turn[i]), float(turn[i] + self.tables.game[used_set | 1 << i]))
                )
        found.sort(key=lambda d: -d.total)  # stable: ties stay in CATEGORIES order
        return found

    def keep(self, roll, declared: str, rolls_left: int, used: Iterable[str] = ()) -> Keep:
        """The best keep of ``roll`` for ``declared`` with ``rolls_left`` (0, 1 or 2) rerolls to go.

        The keep itself does not depend on ``used``; only ``total`` does (``declared`` may or may
        not be listed in ``used``). Raises ValueError for a bad roll, category or rolls_left.
        """
        dice, s = state_of(roll)
        c = _category_index(declared)
        _check_rolls_left(rolls_left)
        mask = int(self.tables.keep[rolls_left, s, c])
        turn = float(self.tables.turn[rolls_left, s, c])
        rest = float(self.tables.game[used_mask(used) | 1 << c])
        return Keep(
            category=declared,
            rolls_left=rolls_left,
            keep=tuple(d for i, d in enumerate(dice) if mask >> i & 1),
            reroll=tuple(d for i, d in enumerate(dice) if not mask >> i & 1),
            turn=turn,
            total=turn + rest,
        )

    def hint(self, roll, used: Iterable[str] = (), declared: str | None = None,
             rolls_left: int = MAX_REROLLS) -> YachtHint | None:
        """The kiosk hint for the dice on the table.

        Before a declaration (``declared`` None, right after the first roll): the best category to
        declare. After it: the dice to keep, or stop. None when there is nothing to advise (no roll
        left, or every category used). Raises ValueError for bad input, like the methods above.
        """
        if declared is None:
            if used_mask(used) == ALL_USED:
                return None
            best = self.declarations(roll, used)[0]
            return YachtHint("declare", best.category, best.turn)
        _check_rolls_left(rolls_left)
        if rolls_left == 0:
            return None
        advice = self.keep(roll, declared, rolls_left, used)
        if advice.stop:
            return YachtHint("stop", declared, advice.turn, keep=advice.keep)
        return YachtHint("keep", declared, advice.turn, keep=advice.keep, reroll=advice.reroll)


def _check_rolls_left(rolls_left) -> None:
    # ``in range(3)`` alone would let True and 1.0 through, which then index the tables wrongly.
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, numbers.Integral) \
            or rolls_left not in range(MAX_REROLLS + 1):
        raise ValueError(f"rolls left must be 0, 1 or 2, got {rolls_left!r}")


def _category_index(name: str) -> int:
    if name not in CATEGORIES:
        raise ValueError(f"unknown category {name!r}; one of {', '.join(CATEGORIES)}")
    return CATEGORIES.index(name)


@functools.cache
def _coach(rules: YachtRules, directory: Path | None) -> YachtCoach:
    return YachtCoach(load_or_solve(rules, directory))


def coach_for(rules: YachtRules | Mapping | None = None, cache_dir: Path | None = None) -> YachtCoach:
    """The process-wide coach of ``rules`` (a YachtRules or a game setup's rules dict).

    The first call per rules loads the disk cache (a few ms) or solves (about 0.1-0.2 s); later
    calls return the same coach. Raises ValueError for bad switch values.
    """
    if not isinstance(rules, YachtRules):
        rules = YachtRules.from_mapping(rules)
    return _coach(rules, None if cache_dir is None else Path(cache_dir))


def yacht_hint(roll, used: Iterable[str] = (), declared: str | None = None, rolls_left: int = MAX_REROLLS,
               rules: YachtRules | Mapping | None = None) -> YachtHint | None:
    """The kiosk's Yacht hint: ``coach_for(rules).hint(roll, used, declared, rolls_left)``."""
    return coach_for(rules).hint(roll, used, declared, rolls_left)

