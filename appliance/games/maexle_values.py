"""Mäxle values: what two dice are worth and how values compare.

Source: seeds/001_384ec687ee7ec7e5.txt ("Bei den Würfelwerten gilt immer die höhere Augenzahl als
vordere Ziffer ..."), RULES.md §1 "Value of a roll".
"""

from __future__ import annotations

from appliance.games.engine import brief

# Lowest to highest (RULES.md §1): mixed values, then doubles 11-66, then 21 "Mäxle".
ORDER: tuple[int, ...] = (
    31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65,
    11, 22, 33, 44, 55, 66,
    21,
)
MAEXLE = 21
_RANK = {v: i for i, v in enumerate(ORDER)}


def value_of(dice: tuple[int, int] | list[int]) -> int:
    """The Mäxle value of two dice, higher die first: (3, 6) -> 63, (1, 2) -> 21, (4, 4) -> 44.

    Raises ValueError unless given exactly two faces 1-6 (None or a number included).
    """
    try:
        faces = tuple(dice)
    except TypeError:
        faces = ()
    if len(faces) != 2 or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in faces):
        raise ValueError(f"a Mäxle roll is two dice 1-6, got {brief(dice)}")
    hi, lo = max(faces), min(faces)
    return hi * 10 + lo


def is_value(value: object) -> bool:
    """True if ``value`` is one of the 21 Mäxle values (an announcement may only name these)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in _RANK


def rank(value: int) -> int:
    """Position of a value in ORDER, 0 (31, the lowest) to 20 (21, Mäxle). Raises KeyError."""
    return _RANK[value]


def beats(a: int, b: int) -> bool:
    """True if value ``a`` is strictly higher than value ``b`` in Mäxle order."""
    return _RANK[a] > _RANK[b]


def at_least(a: int, b: int) -> bool:
    """True if value ``a`` is at least value ``b`` in Mäxle order."""
    return _RANK[a] >= _RANK[b]
