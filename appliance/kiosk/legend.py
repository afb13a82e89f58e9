"""The evening chart's legend: each player's colour and marker, name and totals in words.

Every text at ``TEXT`` (20 px at 800x480), never shrunk. A player takes one line when the name and
the totals fit side by side, else the name over the totals (in one line or two). The players fill
one column, or two or three when the legend is wide enough, with lines closed up to ``TIGHT`` when
that shows more; those that still do not fit are the ones with the fewest drinks and points, and a
last line says how many they are (``appliance.kiosk.chart`` gives the legend the room it needs
first).
"""

from __future__ import annotations

import math

import pygame

from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.columns import column_width, first_fit, widths
from appliance.kiosk.words import more_players, totals

TEXT = th.READABLE
LINE, TIGHT = 27, 24  # design px of a legend line, and closed up (the text's own height)
MIN_COLUMN = 230  # design px: a narrower column is not worth another
MAX_COLUMNS = 3
SWATCH = 22  # design px of the marker's box before the name
# One colour per player, told apart on the dark felt (and from the gold of the title), and a marker
# shape: with more players than colours, the shape still tells them apart.
PALETTE: tuple[th.Colour, ...] = ((96, 208, 128), (88, 170, 255), (244, 120, 160), (250, 230, 120),
                                  (190, 140, 255), (255, 160, 80), (120, 230, 230), (230, 230, 230))
MARKERS = ("circle", "square", "triangle", "diamond")


def styles(players) -> dict[str, tuple[th.Colour, str]]:
    """Each player's (colour, marker) in seat order: no two alike for up to 32 players."""
    return {p: (PALETTE[i % len(PALETTE)], MARKERS[(i + i // len(PALETTE)) % len(MARKERS)])
            for i, p in enumerate(players)}


def mark(surface, marker: str, colour: th.Colour, center: tuple[int, int], r: int) -> None:
    """A marker of ``marker``'s shape, ``r`` px from its centre to its edge."""
    x, y = center
    if marker == "square":
        pygame.draw.rect(surface, colour, (x - r + 1, y - r + 1, 2 * r - 1, 2 * r - 1))
    elif marker == "triangle":
        pygame.draw.polygon(surface, colour, [(x, y - r), (x + r, y + r - 1), (x - r, y + r - 1)])
    elif marker == "diamond":
        pygame.draw.polygon(surface, colour, [(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
    else:
        pygame.draw.circle(surface, colour, center, r)


def ranked(summary) -> list[str]:
    """The players, those with the most drinks and penalty points at the end of the evening first."""
    return sorted(summary.players, key=lambda p: -(summary.drinks[p][-1] + summary.penalties[p][-1]))


def _said(summary, player: str) -> str:
    return totals(summary.drinks[player][-1], summary.penalties[player][-1], summary.water.get(player, 0))


# The lines of a player whose name does not fit a column at TEXT: more than any legend holds.
TOO_NARROW = 1000


def lines_of(t: th.Theme, width: int, summary, player: str) -> int:
    """The lines (1-3) a player takes in a legend column ``width`` px wide (see the module
    docstring); TOO_NARROW when the name itself does not fit."""
    room = width - t.px(SWATCH) - t.px(6)
    name_w = t.font(TEXT, True).size(player)[0]
    said_w = t.font(TEXT).size(_said(summary, player))[0]
    if name_w > room:
        return TOO_NARROW
    if name_w + t.px(12) + said_w <= room:
        return 1
    return 2 if said_w <= room else 3


def _column_height(t: th.Theme, col_w: int, summary, players: list[str], columns: int, line: int,
                   more: bool) -> int:
    """The tallest column's height, px, of ``players`` (and a "more" line) in ``columns`` columns."""
    heights = [lines_of(t, col_w, summary, p) for p in players] + ([1] if more else [])
    per = math.ceil(len(heights) / columns)
    return max(sum(heights[c * per:(c + 1) * per]) for c in range(columns)) * line


def arrange(t: th.Theme, rect: pygame.Rect, summary) -> tuple[int, int, list[str], int]:
    """(columns, line px, the players shown in seat order, how many are left out) in a legend
    ``rect``: the first arrangement that shows everyone (one column at LINE, two, three, then the
    same at TIGHT), else the one that shows the most."""
    room = rect.height - 2 * t.gap
    order = ranked(summary)

    def fit(columns: int, col_w: int, line: int) -> tuple[list[str], int]:
        k = len(order)
        while k > 0 and _column_height(t, col_w, summary, _seated(summary, order[:k]), columns, line,
                                       k < len(order)) > room:
            k -= 1
        shown = _seated(summary, order[:max(1, k)])
        return shown, len(order) - len(shown)

    return first_fit(t, rect.width - 2 * t.gap, (t.px(LINE), t.px(TIGHT)), fit, MIN_COLUMN, MAX_COLUMNS)


def _seated(summary, players: list[str]) -> list[str]:
    keep = set(players)
    return [p for p in summary.players if p in keep]


def fits_all(t: th.Theme, rect: pygame.Rect, summary) -> bool:
    """Whether a legend in ``rect`` shows every player in one column at LINE."""
    columns, line, _shown, more = arrange(t, rect, summary)
    return not more and columns == 1 and line == t.px(LINE)


def height_for_all(t: th.Theme, width: int, summary) -> int:
    """The least height, px, of a legend ``width`` px wide that shows every player (columns and
    lines as :func:`arrange` would choose them)."""
    return min(_column_height(t, col_w, summary, list(summary.players), columns, line, False) + 2 * t.gap
               for line in (t.px(LINE), t.px(TIGHT))
               for columns, col_w in widths(t, width - 2 * t.gap, MIN_COLUMN, MAX_COLUMNS))


def draw(surface, t: th.Theme, rect: pygame.Rect, summary, style: dict[str, tuple[th.Colour, str]]) -> list[str]:
    """The legend in ``rect``; returns the players it shows (the chart draws their lines only)."""
    if rect.height < t.px(TIGHT) + 2 * t.gap:
        return _seated(summary, ranked(summary)[:1])
    w.panel(surface, t, rect)
    columns, line, shown, more = arrange(t, rect, summary)
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    col_w = column_width(t, rect.width - 2 * t.gap, columns)
    per = math.ceil((len(shown) + bool(more)) / columns)
    swatch = t.px(SWATCH)
    for i, p in enumerate(shown):
        col = i // per
        x = inner.x + col * (col_w + t.gap)
        y = inner.y + line * sum(lines_of(t, col_w, summary, q) for q in shown[col * per:i])
        n = lines_of(t, col_w, summary, p)
        colour, marker = style[p]
        mark(surface, marker, colour, (x + swatch // 2, y + line // 2), max(4, t.px(7)))
        text_x = x + swatch + t.px(6)
        room = col_w - swatch - t.px(6)
        name = pygame.Rect(text_x, y, room, line)
        if n == 1:
            said = _said(summary, p)
            said_w = t.font(TEXT).size(said)[0]
            w.text(surface, t, p, pygame.Rect(text_x, y, room - said_w - t.px(12), line), size=TEXT, bold=True,
                   align="left")
            w.text(surface, t, said, pygame.Rect(text_x + room - said_w, y, said_w, line), size=TEXT,
                   colour=th.MUTED, align="right")
            continue
        w.text(surface, t, p, name, size=TEXT, bold=True, align="left")
        w.text(surface, t, _said(summary, p), pygame.Rect(text_x, y + line, room, (n - 1) * line), size=TEXT,
               colour=th.MUTED, align="left", lines=n - 1)
    if more:
        col = len(shown) // per
        x = inner.x + col * (col_w + t.gap)
        y = inner.y + line * sum(lines_of(t, col_w, summary, q) for q in shown[col * per:])
        w.text(surface, t, more_players(more), pygame.Rect(x, y, col_w, line), size=TEXT, colour=th.MUTED,
               align="left")
    return shown
