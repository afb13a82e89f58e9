"""The standings panel: the players and their counts, readable from 2 metres.

Every text in it is at least ``READABLE`` design px (20 px at 800x480), never shrunk below. The
rows fill one column, or two or three when the panel is wide enough, and close up to ``TIGHT`` when
that shows more players (:func:`arrange`); when the players still do not all fit, those nearest the
turn are shown (the player on turn, then the next ones in seat order) and a last line says how many
more there are. A row whose name does not fit beside its badge (the cup, the
Biscuit, the winner) or its count in words ("8 drinks, 3 penalty points") takes a second line for
them, so the name is never given up.
"""

from __future__ import annotations

import math

import pygame

from appliance.i18n import _
from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.columns import column_width, first_fit
from appliance.kiosk.words import more_players
from appliance.table.base import Row

READABLE = th.READABLE  # design px: the smallest text a player reads from 2 metres
ROW = 30       # design px of a row at READABLE, with a little air
TIGHT = 25     # design px of a row closed up, the text still at READABLE: when that shows more players
MIN_COLUMN = 230  # design px: a narrower column is not worth a second one
MAX_COLUMNS = 3


def badge(row: Row) -> str:
    """The row's badge in words ("" for none)."""
    return {"biscuit": _("Biscuit"), "cup": _("cup"), "winner": _("winner")}.get(row.mark, "")


def nearest(rows: list[Row], k: int) -> list[Row]:
    """The ``k`` rows nearest the turn: the current one, then the ones after it in seat order."""
    start = next((i for i, r in enumerate(rows) if r.current), 0)
    return [rows[(start + i) % len(rows)] for i in range(min(k, len(rows)))]


def draw_standings(surface, t: th.Theme, rect: pygame.Rect, title: str, rows: list[Row]) -> None:
    """The panel in ``rect``: ``title``, then the rows that fit (see the module docstring)."""
    w.panel(surface, t, rect)
    head, lines, body = _parts(t, rect, title)
    w.text(surface, t, title, head, size=READABLE, colour=th.MUTED, align="left", lines=lines)
    if not rows or body.height < t.px(TIGHT):
        return
    columns, row_h, shown, more = arrange(t, body, rows)
    col_w = column_width(t, body.width, columns)
    column = pygame.Rect(body.x, body.y, col_w, body.height)
    per = math.ceil((len(shown) + bool(more)) / columns)
    y, col = body.y, 0
    for i, row in enumerate(shown):
        if i and i % per == 0:
            col, y = col + 1, body.y
        h = _lines(t, column, row) * row_h
        _row(surface, t, pygame.Rect(body.x + col * (col_w + t.gap), y, col_w, h - t.px(2)), row, row_h)
        y += h
    if more:
        if len(shown) % per == 0:
            col, y = col + 1, body.y
        w.text(surface, t, more_players(more), pygame.Rect(body.x + col * (col_w + t.gap), y, col_w, row_h),
               size=READABLE, colour=th.MUTED, align="left")


def _parts(t: th.Theme, rect: pygame.Rect, title: str) -> tuple[pygame.Rect, int, pygame.Rect]:
    """The panel ``rect``'s title box, the title's lines, and the box the rows fill."""
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    lines = w.lines_for(t, title, READABLE, inner.width, t.px(ROW))
    head = pygame.Rect(inner.x, inner.y, inner.width, lines * t.px(ROW))
    return head, lines, pygame.Rect(inner.x, head.bottom, inner.width, inner.bottom - head.bottom)


def shows_all(t: th.Theme, rect: pygame.Rect, title: str, rows: list[Row]) -> bool:
    """Whether a panel in ``rect`` shows every one of ``rows`` (no "and N more")."""
    body = _parts(t, rect, title)[2]
    return not rows or (body.height >= t.px(TIGHT) and arrange(t, body, rows)[3] == 0)


def arrange(t: th.Theme, body: pygame.Rect, rows: list[Row]) -> tuple[int, int, list[Row], int]:
    """How the rows fill ``body``: (columns, row height px, the rows shown, how many are left out).
    The first of these that shows every row: one column at ROW, two, three (each at least
    MIN_COLUMN wide), then the same at TIGHT; else the one that shows the most."""
    return first_fit(
        t, body.width, (t.px(ROW), t.px(TIGHT)),
        lambda n, col_w, row_h: _fit(t, pygame.Rect(body.x, body.y, col_w, body.height), rows, n, row_h),
        MIN_COLUMN, MAX_COLUMNS)


def full_height(t: th.Theme, width: int, title: str, rows: list[Row]) -> int:
    """The height, px, a panel ``width`` px wide needs to show ``title`` and every row in one column."""
    inner_w = width - 2 * t.gap
    head = w.lines_for(t, title, READABLE, inner_w, t.px(ROW)) * t.px(ROW)
    return 2 * t.gap + head + (_height(t, pygame.Rect(0, 0, inner_w, 0), rows, 1, t.px(ROW)) if rows else 0)


def _height(t: th.Theme, column: pygame.Rect, rows: list[Row], columns: int, row_h: int) -> int:
    """The height the rows take in ``columns`` columns as wide as ``column`` with rows ``row_h`` px
    high, px."""
    per = math.ceil(len(rows) / columns)
    return max(sum(_lines(t, column, r) for r in rows[c * per:(c + 1) * per]) for c in range(columns)) * row_h


def _fit(t: th.Theme, column: pygame.Rect, rows: list[Row], columns: int, row_h: int) -> tuple[list[Row], int]:
    """The rows shown (nearest the turn first when not all fit, a line kept for "and N more") and
    how many are left out."""
    if _height(t, column, rows, columns, row_h) <= column.height:
        return rows, 0
    k = len(rows) - 1
    while k > 1 and _height(t, column, nearest(rows, k) + [Row("", "")], columns, row_h) > column.height:
        k -= 1
    return nearest(rows, k), len(rows) - k


def _value_size(row: Row) -> float:
    """A figure is drawn a little larger than the names; counts in words at READABLE."""
    return READABLE if " " in row.value else READABLE * 1.1


def _widths(t: th.Theme, r: pygame.Rect, row: Row) -> tuple[int, int]:
    """(value, badge-or-note) widths in px of a row ``r`` wide (the value as wide as it needs, on
    two lines when one is too short: ``_value_lines``)."""
    value = max(t.font(_value_size(row), True).size(line)[0] for line in _value_lines(t, r.width, row)) + t.px(8)
    value = min(r.width - t.px(16), max(int(r.width * 0.18), value))
    side = badge(row) or row.note
    side_w = t.font(READABLE, bool(badge(row))).size(side)[0] + t.px(18) if side else 0
    return value, side_w


def _value_lines(t: th.Theme, width: int, row: Row) -> list[str]:
    """The row's value as drawn in a row ``width`` px wide: one line, or a count in words too long
    for a line of its own ("9 drinks, 2 penalty points") broken after its comma."""
    font = t.font(_value_size(row), True)
    if font.size(row.value)[0] + t.px(8) <= width - t.px(16) or ", " not in row.value:
        return [row.value]
    first, rest = row.value.split(", ", 1)
    return [first + ",", rest]


def _layout(t: th.Theme, width: int, row: Row) -> tuple[int, int]:
    """On which line (0 to 3) of a row ``width`` px wide the value (its first line) and the
    badge-or-note go: all on the name's line when they fit at READABLE; else the badge (or the
    value, if the badge does not fit) beside the name, the other on the next line; else one line
    each (a value of two lines, ``_value_lines``, takes two)."""
    r = pygame.Rect(0, 0, width, t.px(ROW))
    value_w, side_w = _widths(t, r, row)
    name_w = t.font(READABLE, row.current).size(row.name)[0] + t.px(14)
    two = len(_value_lines(t, width, row)) == 2
    if not two and name_w + value_w + side_w + _side_air(t, 0) <= width:
        return 0, 0
    if not side_w:
        return 1, 1
    # The badge stays beside the name when it fits there (on a line of its own under a value, the
    # winner's pill looked like the next player's), the value under them.
    if name_w + side_w + _side_air(t, 1) <= width:
        return 1, 0
    if not two and name_w + value_w <= width:
        return 0, 1
    if two:
        return 1, 3
    return (1, 1) if value_w + side_w + t.px(9) <= width else (1, 2)


def _side_air(t: th.Theme, at_value: int) -> int:
    """px a badge beside the name needs besides its own width: air after the name, and before
    the value when that is on the same line (``at_value`` 0) or the row's edge."""
    return t.px(11) if at_value == 0 else t.px(7)


def _lines(t: th.Theme, column: pygame.Rect, row: Row) -> int:
    """How many lines (1-4) the row takes (``_layout``)."""
    at_value, at_side = _layout(t, column.width, row)
    return max(at_value + len(_value_lines(t, column.width, row)) - 1, at_side) + 1


def _row(surface, t: th.Theme, r: pygame.Rect, row: Row, row_h: int) -> None:
    """One player's row in ``r``: lines ``row_h`` px apart (``_layout`` says what goes on which)."""
    if row.current:
        pygame.draw.rect(surface, th.BUTTON, r, border_radius=t.px(6))
        pygame.draw.rect(surface, th.ACCENT, (r.x, r.y, t.px(5), r.height), border_radius=t.px(2))
    colour = th.MUTED if row.dim else (th.ACCENT if row.mark == "winner" else th.TEXT)
    value_w, side_w = _widths(t, r, row)
    at_value, at_side = _layout(t, r.width, row)
    value = _value_lines(t, r.width, row)
    h = row_h - t.px(2)
    name_w = r.width - t.px(14) - (value_w if at_value == 0 else 0) - \
        (side_w + _side_air(t, at_value) if at_side == 0 else 0)
    w.text(surface, t, row.name, pygame.Rect(r.x + t.px(9), r.y, name_w, h), size=READABLE,
           colour=colour, bold=row.current, align="left")
    value_r = pygame.Rect(r.right - value_w - t.px(6), r.y + at_value * row_h, value_w,
                          h + (len(value) - 1) * row_h)
    w.text(surface, t, "\n".join(value), value_r, size=_value_size(row), bold=True, align="right",
           colour=th.DANGER if row.alert and not row.dim else colour, lines=len(value))
    if side_w:  # left of the value on the name's line; else at the name line's end, or a line's start
        if at_side == at_value == 0:
            x = value_r.x - t.px(4) - side_w
        else:
            x = r.right - t.px(6) - side_w if at_side == 0 else r.x + t.px(9)
        # The pill keeps a little air above and below while its word still fits at READABLE.
        pill = max(h - t.px(4), min(h, math.ceil(t.font(READABLE, True).get_height() / 1.08)))
        _side(surface, t, pygame.Rect(x, r.y + at_side * row_h + (h - pill) // 2, side_w, pill), row)


def _side(surface, t: th.Theme, r: pygame.Rect, row: Row) -> None:
    """The badge as a gold pill, or the note in muted words."""
    label = badge(row)
    if label:
        pygame.draw.rect(surface, th.ACCENT, r, border_radius=t.px(8))
        w.text(surface, t, label, r.inflate(-t.px(8), 0), size=READABLE, colour=th.ACCENT_TEXT, bold=True)
    else:
        w.text(surface, t, row.note, r, size=READABLE, colour=th.MUTED, align="right")
