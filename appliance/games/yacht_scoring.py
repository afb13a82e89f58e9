"""Declared Yacht categories and their scores.

Source: seeds/002_eb2fdbc33035b68e.txt ("КОМБИНАЦИИ"), RULES.md §3 "Categories" and its switches
``scoring = seed | sackson`` and ``yacht_counts_as_full_house``.
"""

from __future__ import annotations

from collections import Counter

from appliance.games.engine import brief

CATEGORIES: tuple[str, ...] = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "small_straight", "large_straight", "full_house", "four_of_a_kind", "choice", "yacht",
)
UPPER = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
SCORINGS = ("seed", "sackson")


def check_dice(dice) -> tuple[int, ...]:
    """The five dice as a sorted tuple; raises ValueError unless exactly five faces 1-6 (None, a
    number or any other non-sequence included: the kiosk may hold no dice yet)."""
    try:
        faces = tuple(dice)
    except TypeError:
        faces = ()
    if len(faces) != 5 or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in faces):
        raise ValueError(f"a Yacht roll is five dice 1-6, got {brief(dice)}")
    return tuple(sorted(faces))


def score(category: str, dice, *, scoring: str = "seed", yacht_counts_as_full_house: bool = False) -> int:
    """Points the five ``dice`` make in ``category``; 0 when the dice do not make it.

    seed scoring (RULES.md §3): Ones-Sixes the face times its count; Small straight 1-2-3-4-5 = 30;
    Large straight 2-3-4-5-6 = 30; Full house (three of one face, two of another) = sum + 10;
    Four of a kind = the sum of the four alike + 10 (a Yacht counts: the seed's exception);
    Choice = sum; Yacht = 50. sackson scoring drops both +10.

    Raises ValueError for an unknown category or scoring, or dice that are not five faces 1-6.
    """
    dice = check_dice(dice)
    if scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {scoring!r}; one of {', '.join(SCORINGS)}")
    bonus = 10 if scoring == "seed" else 0
    counts = Counter(dice)
    shape = sorted(counts.values())
    if category in UPPER:
        face = UPPER[category]
        return face * counts[face]
    if category == "small_straight":
        return 30 if dice == (1, 2, 3, 4, 5) else 0
    if category == "large_straight":
        return 30 if dice == (2, 3, 4, 5, 6) else 0
    if category == "full_house":
        if shape == [2, 3] or (yacht_counts_as_full_house and shape == [5]):
            return sum(dice) + bonus
        return 0
    if category == "four_of_a_kind":
        face, n = counts.most_common(1)[0]
        return 4 * face + bonus if n >= 4 else 0
    if category == "choice":
        return sum(dice)
    if category == "yacht":
        return 50 if shape == [5] else 0
    raise ValueError(f"unknown category {category!r}; one of {', '.join(CATEGORIES)}")
