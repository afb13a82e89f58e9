"""The evening's chart (``appliance.evening.Summary``), drawn with pygame alone (no plotting library
on the Pi): each player's drinks and penalty points game by game as lines, the players with their
totals in words, the evening's best throw with its dice, and the Yacht scores.

Readable from 2 metres: no text under 20 design px (20 px at 800x480). What does not fit at that
size is left out, not shrunk: the players with the most drinks and points are charted first, and a
line says how many more there are.
"""

from __future__ import annotations

import pygame

from appliance.i18n import _, ngettext
from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.words import more_players, totals
from appliance.table import game_name
from appliance.table.base import dice_text

TEXT = th.READABLE  # design px of every text on the chart: the kiosk's smallest readable size
# One colour per charted player, told apart on the dark felt (and from the gold of the title).
PALETTE: tuple[th.Colour, ...] = ((96, 208, 128), (88, 170, 255), (244, 120, 160), (250, 230, 120),
                                  (190, 140, 255), (255, 160, 80), (120, 230, 230), (230, 230, 230))


def draw_summary(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, summary) -> None:
    """The chart of ``summary`` filling ``rect`` (px of ``surface``); a summary with no game says so."""
    if summary.empty:
        w.text(surface, t, _("No game has ended this evening yet"), rect, size=28, colour=th.MUTED, lines=2)
        return
    m = t.gap
    strip = _strip_height(t, summary)
    body = pygame.Rect(rect.x, rect.y, rect.width, rect.height - strip - (m if strip else 0))
    legend = pygame.Rect(body.right - int(body.width * 0.42), body.y, int(body.width * 0.42), body.height)
    shown, more = charted(summary, _legend_fit(t, legend, summary))
    colours = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(shown)}
    charts = [(title, series) for title, series in ((_("Drinks"), summary.drinks), (_("Penalty points"), summary.penalties))
              if any(v[-1] for v in series.values())] or [(_("Drinks"), summary.drinks)]
    left = pygame.Rect(body.x, body.y, legend.x - body.x - m, body.height)
    h = (left.height - m * (len(charts) - 1)) // len(charts)
    for i, (title, series) in enumerate(charts):
        lines(surface, t, pygame.Rect(left.x, left.y + i * (h + m), left.width, h), title,
              {p: series[p] for p in shown}, colours, len(summary.games))
    _legend(surface, t, legend, summary, shown, colours, more)
    if strip:
        _bottom(surface, t, pygame.Rect(rect.x, rect.bottom - strip, rect.width, strip), summary)


def ranked(summary) -> list[str]:
    """The players, those with the most drinks and penalty points at the end of the evening first."""
    return sorted(summary.players, key=lambda p: -(summary.drinks[p][-1] + summary.penalties[p][-1]))


def charted(summary, room: int) -> tuple[list[str], int]:
    """The players to chart when ``room`` fit: the first ``room`` of ``ranked``, in seat order; and
    how many are left out."""
    keep = set(ranked(summary)[:max(1, room)])
    shown = [p for p in summary.players if p in keep]
    return shown, len(summary.players) - len(shown)


def lines(surface, t: th.Theme, rect: pygame.Rect, title: str, series: dict[str, tuple[int, ...]],
          colours: dict[str, th.Colour], games: int) -> None:
    """One panel: ``title`` and a line per player of their running total (0, then after each of
    the ``games``), the y axis from 0 to the largest total, the x axis the games' numbers."""
    w.panel(surface, t, rect)
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    head = pygame.Rect(inner.x, inner.y, inner.width, t.px(26))
    w.text(surface, t, title, head, size=TEXT, colour=th.MUTED, align="left")
    top = max([1] + [v for values in series.values() for v in values])
    axis_w, foot = t.px(44), t.px(26)
    plot = pygame.Rect(inner.x + axis_w, head.bottom + t.px(6), inner.width - axis_w - t.px(8),
                       inner.bottom - head.bottom - foot - t.px(6))
    if plot.height < t.px(12) or plot.width < t.px(40):
        return
    for value, y in ((0, plot.bottom), (top, plot.top)):
        pygame.draw.line(surface, th.PANEL_EDGE, (plot.x, y), (plot.right, y), max(1, t.px(1)))
        w.text(surface, t, str(value), pygame.Rect(inner.x, y - t.px(13), axis_w - t.px(6), t.px(26)),
               size=TEXT, colour=th.MUTED, align="right")
    xs = [plot.x + round(plot.width * i / max(1, games)) for i in range(games + 1)]
    step = max(1, -(-games // max(1, plot.width // t.px(34))))  # game numbers that fit side by side
    for i in range(1, games + 1, step):
        w.text(surface, t, str(i), pygame.Rect(xs[i] - t.px(17), plot.bottom + t.px(2), t.px(34), foot),
               size=TEXT, colour=th.MUTED)
    for player, values in series.items():
        points = [(xs[i], plot.bottom - round(plot.height * v / top)) for i, v in enumerate(values)]
        if len(points) > 1:
            pygame.draw.lines(surface, colours[player], False, points, max(2, t.px(3)))
        for p in points[1:]:
            pygame.draw.circle(surface, colours[player], p, max(2, t.px(4)))


LINE = 27  # design px of one legend line


def _legend_lines(t: th.Theme, rect: pygame.Rect, summary, player: str) -> int:
    """The lines a player takes in the legend: the name, and the totals in one line or two (20 px)."""
    box = pygame.Rect(0, 0, rect.width - 2 * t.gap - t.px(22), t.px(LINE))
    said = totals(summary.drinks[player][-1], summary.penalties[player][-1])
    return 2 if w.fits(t, said, TEXT, box) else 3


def _legend_fit(t: th.Theme, rect: pygame.Rect, summary) -> int:
    """How many players (in ``ranked`` order) the legend holds at full size, with a line for "more"."""
    room = rect.height - 2 * t.gap
    order = ranked(summary)
    used = 0
    for n, p in enumerate(order):
        need = _legend_lines(t, rect, summary, p) * t.px(LINE)
        rest = t.px(LINE) if n + 1 < len(order) else 0  # the "and N more" line, unless all fit
        if used + need + rest > room:
            return max(1, n)
        used += need
    return len(order)


def _legend(surface, t: th.Theme, rect: pygame.Rect, summary, shown: list[str], colours, more: int) -> None:
    w.panel(surface, t, rect)
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    y, swatch = inner.y, t.px(14)
    for p in shown:
        n = _legend_lines(t, rect, summary, p) - 1
        pygame.draw.rect(surface, colours[p], (inner.x, y + t.px(7), swatch, swatch), border_radius=t.px(3))
        name = pygame.Rect(inner.x + swatch + t.px(8), y, inner.right - inner.x - swatch - t.px(8), t.px(LINE))
        w.text(surface, t, p, name, size=TEXT, bold=True, align="left")
        w.text(surface, t, totals(summary.drinks[p][-1], summary.penalties[p][-1]),
               pygame.Rect(name.x, name.bottom, name.width, n * t.px(LINE)), size=TEXT, colour=th.MUTED,
               align="left", lines=n)
        y += (n + 1) * t.px(LINE)
    if more:
        w.text(surface, t, more_players(more),
               pygame.Rect(inner.x, y, inner.width, t.px(LINE)), size=TEXT, colour=th.MUTED, align="left")


def _strip_height(t: th.Theme, summary) -> int:
    return t.px(34) * ((summary.best is not None) + bool(summary.yacht)) + (t.px(8) if summary.best or summary.yacht else 0)


def _bottom(surface, t: th.Theme, rect: pygame.Rect, summary) -> None:
    """The best throw (its dice drawn, then who and the odds) and the latest Yacht game's scores."""
    w.panel(surface, t, rect)
    y = rect.y + t.px(4)
    x0 = rect.x + t.gap
    if summary.best is not None:
        b = summary.best
        side = t.px(28)
        for i, v in enumerate(b.dice):
            w.die(surface, pygame.Rect(x0 + i * (side + t.px(4)), y + t.px(3), side, side), v)
        x = x0 + len(b.dice) * (side + t.px(4)) + t.px(6)
        w.text(surface, t, best_text(b), pygame.Rect(x, y, rect.right - x - t.gap, t.px(34)), size=TEXT, align="left")
        y += t.px(34)
    if summary.yacht:
        number, scores = summary.yacht[-1]
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        line = _("Yacht scores: {scores}").format(scores=", ".join(f"{p} {s}" for p, s in ranked))
        w.text(surface, t, line, pygame.Rect(x0, y, rect.width - 2 * t.gap, t.px(34)), size=TEXT, align="left")


def best_text(best) -> str:
    """The best throw in words: "Best throw: Ann, Yacht (1 in 7776)"."""
    return _("Best throw: {player}, {game} (1 in {odds})").format(player=best.player, game=game_name(best.kind),
                                                                   odds=best.odds)


def summary_lines(summary) -> list[str]:
    """The summary as short text lines (``dicetable summary``): per player the totals, the best
    throw with its dice, the Yacht scores per game."""
    if summary.empty:
        return [_("No game has ended this evening yet")]
    out = [ngettext("{count} game this evening", "{count} games this evening", len(summary.games))
           .format(count=len(summary.games))]
    out += [f"  {p}: {totals(summary.drinks[p][-1], summary.penalties[p][-1])}" for p in summary.players]
    if summary.best is not None:
        out.append(f"{best_text(summary.best)}: {dice_text(summary.best.dice)}")
    for number, scores in summary.yacht:
        out.append(_("Yacht scores: {scores}").format(
            scores=", ".join(f"{p} {s}" for p, s in sorted(scores.items(), key=lambda kv: -kv[1]))))
    return out
