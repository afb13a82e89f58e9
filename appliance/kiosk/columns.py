"""Lists laid out in columns (the standings, the evening chart's legend): how many columns, how
close the lines, which entries fit. Pure arithmetic on px (no drawing)."""

from __future__ import annotations

from typing import Callable, TypeVar

from appliance.kiosk import theme as th

Entry = TypeVar("Entry")


def column_width(t: th.Theme, width: int, columns: int) -> int:
    """The width, px, of each of ``columns`` columns side by side in ``width`` px (a gap between)."""
    return (width - t.gap * (columns - 1)) // columns


def first_fit(t: th.Theme, width: int, lines: tuple[int, ...], fit: Callable[[int, int, int], tuple[list[Entry], int]],
              min_column: float, most: int = 3) -> tuple[int, int, list[Entry], int]:
    """(columns, line px, the entries shown, how many are left out): the first arrangement, in
    ``width`` px, whose ``fit(columns, column width, line px)`` leaves nobody out: one column at
    each of ``lines`` (px, roomiest first), then two, up to ``most`` (each at least ``min_column``
    design px wide), a line height at a time; else the one that shows the most."""
    best: tuple[int, int, list[Entry], int] | None = None
    for line in lines:
        for columns in range(1, most + 1):
            col_w = column_width(t, width, columns)
            if columns > 1 and col_w < t.px(min_column):
                break
            shown, more = fit(columns, col_w, line)
            if best is None or len(shown) > len(best[2]):
                best = (columns, line, shown, more)
            if not more:
                return best
    return best


def widths(t: th.Theme, width: int, min_column: float, most: int = 3) -> list[tuple[int, int]]:
    """Each (columns, column width px) :func:`first_fit` may try in ``width`` px."""
    out = [(1, width)]
    for columns in range(2, most + 1):
        col_w = column_width(t, width, columns)
        if col_w < t.px(min_column):
            break
        out.append((columns, col_w))
    return out
