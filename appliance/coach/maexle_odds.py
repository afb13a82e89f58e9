"""Mäxle odds: exact chances of one fresh roll of two dice against an announcement.

Counted over the 36 equally likely outcomes of two dice, with the value order of
``appliance.games.maexle_values`` (RULES.md §1, seeds/001_384ec687ee7ec7e5.txt). Each mixed value
comes up 2 ways in 36 (21 "Mäxle" included), each double 1 way.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from fractions import Fraction

from appliance.games import maexle_values

OUTCOMES = 36
ANNOUNCE_RULES = ("strictly_higher", "higher_or_equal")  # RULES.md §1 switch ``announce``


@dataclass(frozen=True)
class MaexleOdds:
    """Ways out of 36 that one fresh roll is above, at least, or exactly ``announcement``.

    beat: the roll beats the announcement (what a believing receiver needs to announce truthfully
        higher). at_least: the roll is at least the announcement (a fresh roll's chance that the
        announcement is true under ``truth = at_least``). exact: the roll is that value
        (``truth = exact``).
    """

    announcement: int
    beat: int
    at_least: int
    exact: int

    @property
    def p_beat(self) -> Fraction:
        return Fraction(self.beat, OUTCOMES)

    @property
    def p_at_least(self) -> Fraction:
        return Fraction(self.at_least, OUTCOMES)

    @property
    def p_exact(self) -> Fraction:
        return Fraction(self.exact, OUTCOMES)

    def to_top(self, announce: str = "strictly_higher") -> Fraction:
        """The chance a fresh roll may be announced truthfully next under the ``announce`` switch.

        Raises ValueError for a switch value other than ANNOUNCE_RULES.
        """
        if announce not in ANNOUNCE_RULES:
            raise ValueError(f"unknown announce rule {announce!r}; one of {', '.join(ANNOUNCE_RULES)}")
        return self.p_beat if announce == "strictly_higher" else self.p_at_least


@functools.cache
def _rolled_values() -> tuple[int, ...]:
    return tuple(maexle_values.value_of(roll) for roll in itertools.product(range(1, 7), repeat=2))


def maexle_odds(announcement: int) -> MaexleOdds:
    """The odds of one fresh roll against ``announcement`` (one of the 21 values, e.g. 54 or 21).

    Raises ValueError for anything that is not a Mäxle value (e.g. 12, 70, None).
    """
    if not maexle_values.is_value(announcement):
        raise ValueError(f"not a Mäxle value: {announcement!r}; one of {', '.join(map(str, maexle_values.ORDER))}")
    rolled = _rolled_values()
    return MaexleOdds(
        announcement=announcement,
        beat=sum(maexle_values.beats(v, announcement) for v in rolled),
        at_least=sum(maexle_values.at_least(v, announcement) for v in rolled),
        exact=sum(v == announcement for v in rolled),
    )


def odds_table() -> list[MaexleOdds]:
    """:func:`maexle_odds` of every value, lowest (31) to highest (21)."""
    return [maexle_odds(v) for v in maexle_values.ORDER]
