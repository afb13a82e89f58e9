"""The evening's chart (``appliance.evening.Summary``), drawn with pygame alone (no plotting library
on the Pi): each player's drinks and penalty points game by game as lines, the players with their
totals in words (``appliance.kiosk.legend``), the evening's rarest throw with its dice, and the
Yacht scores.

Readable from 2 metres: no text under 20 design px (20 px at 800x480). The legend sits beside the
lines when every player fits there, else under them across the whole width in columns; what still
does not fit at that size is left out, not shrunk: the players with the most drinks and points are
charted first, and a line says how many more there are. Each player has a colour and a marker
shape; lines that meet at a point (equal totals) are drawn a little apart, so that none hides
another.
"""

from __future__ import annotations

import pygame

from appliance.i18n import _, ngettext
from appliance.kiosk import legend as lg
from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.words import more_players, totals
from appliance.table import game_name
from appliance.table.base import dice_text

TEXT = th.READABLE  # design px of every text on the chart: the kiosk's smallest readable size
CHART_LEAST = 96  # design px of the lines' panels at least, when the legend goes under them
SPREAD = 5  # design px between lines that meet at a point
STRIP_LINE = 30  # design px of a line of the strip under the chart (the rarest throw, the Yacht scores)


def draw_summary(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, summary) -> None:
    """The chart of ``summary`` filling ``rect`` (px of ``surface``); a summary with no game says so."""
    if summary.empty:
        w.text(surface, t, _("No game has ended this evening yet"), rect, size=28, colour=th.MUTED, lines=2)
        return
    m = t.gap
    # The Yacht scores give up their second line (and their lowest scores) before a player leaves the legend.
    for short in (False, True):
        strip = _strip_lines(t, summary, rect.width, short)
        strip_h = sum(n for _text, n, _dice in strip) * t.px(STRIP_LINE) + (t.px(8) if strip else 0)
        body = pygame.Rect(rect.x, rect.y, rect.width, rect.height - strip_h - (m if strip else 0))
        legend, plots, across = _places(t, body, summary)
        if lg.arrange(t, legend, summary)[3] == 0:
            break
    styles = lg.styles(summary.players)
    shown = lg.draw(surface, t, legend, summary, styles)
    charts = [(title, series) for title, series in ((_("Drinks"), summary.drinks), (_("Penalty points"), summary.penalties))
              if any(v[-1] for v in series.values())] or [(_("Drinks"), summary.drinks)]
    k = len(charts)
    for i, (title, series) in enumerate(charts):
        if across:
            each = (plots.width - m * (k - 1)) // k
            panel = pygame.Rect(plots.x + i * (each + m), plots.y, each, plots.height)
        else:
            each = (plots.height - m * (k - 1)) // k
            panel = pygame.Rect(plots.x, plots.y + i * (each + m), plots.width, each)
        lines(surface, t, panel, title, {p: series[p] for p in shown}, styles, len(summary.games))
    if strip:
        _bottom(surface, t, pygame.Rect(rect.x, rect.bottom - strip_h, rect.width, strip_h), strip)


def _places(t: th.Theme, body: pygame.Rect, summary) -> tuple[pygame.Rect, pygame.Rect, bool]:
    """(the legend's rect, the lines' panels' rect, whether the panels stand side by side): the
    legend beside the lines when every player fits there in one column, else under them across the
    whole width, as tall as it needs while the lines keep CHART_LEAST."""
    m = t.gap
    side = pygame.Rect(body.right - int(body.width * 0.42), body.y, int(body.width * 0.42), body.height)
    if lg.fits_all(t, side, summary):
        return side, pygame.Rect(body.x, body.y, side.x - body.x - m, body.height), False
    need = lg.height_for_all(t, body.width, summary)
    legend_h = max(0, min(need, body.height - t.px(CHART_LEAST) - m))
    legend = pygame.Rect(body.x, body.bottom - legend_h, body.width, legend_h)
    return legend, pygame.Rect(body.x, body.y, body.width, legend.y - m - body.y), True


def lines(surface, t: th.Theme, rect: pygame.Rect, title: str, series: dict[str, tuple[int, ...]],
          styles: dict[str, tuple[th.Colour, str]], games: int) -> None:
    """One panel: ``title`` and a line per player of their running total (0, then after each of
    the ``games``), the y axis from 0 to the largest total, the x axis the games' numbers; each
    player's colour and marker from ``styles`` (``legend.styles``), lines that meet spread apart."""
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
    apart = spread(series, t.px(SPREAD))
    for player, values in series.items():
        colour, marker = styles[player]
        points = [(xs[i], plot.bottom - round(plot.height * v / top) + apart[player][i]) for i, v in enumerate(values)]
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, max(2, t.px(3)))
        for p in points[1:]:
            lg.mark(surface, marker, colour, p, max(3, t.px(5)))


def spread(series: dict[str, tuple[int, ...]], step: int) -> dict[str, list[int]]:
    """Per player, per point, px to move it up or down: the players whose totals are equal at a
    point (after the start, where everyone is at 0) are fanned out ``step`` px apart around it, in
    seat order, so that lines of equal totals run side by side instead of one over the other."""
    apart = {p: [0] * len(values) for p, values in series.items()}
    length = max((len(v) for v in series.values()), default=0)
    for i in range(1, length):
        at: dict[int, list[str]] = {}
        for p, values in series.items():
            if i < len(values):
                at.setdefault(values[i], []).append(p)
        for same in at.values():
            for k, p in enumerate(same):
                apart[p][i] = round((k - (len(same) - 1) / 2) * step)
    return apart


def _strip_lines(t: th.Theme, summary, width: int, short: bool = False) -> list[tuple[str, int, tuple[int, ...]]]:
    """The strip's lines in a strip ``width`` px wide: (text, the lines it takes (1 or 2), the dice
    drawn before it): the rarest throw and the latest Yacht game's scores (``short``: in one line,
    the lowest scores left out when they do not fit, and said how many)."""
    out = []
    inner = width - 2 * t.gap
    if summary.rarest is not None:
        text, dice = rarest_text(summary.rarest), summary.rarest.dice
        out.append((text, w.lines_for(t, text, TEXT, inner - _dice_width(t, dice), t.px(STRIP_LINE)), dice))
    if summary.yacht:
        scores = summary.yacht[-1][1]
        text = yacht_text(scores)
        n = w.lines_for(t, text, TEXT, inner, t.px(STRIP_LINE))
        if short and n > 1:
            keep = len(scores) - 1
            while keep > 1 and not w.fits(t, yacht_text(scores, keep), TEXT, pygame.Rect(0, 0, inner, t.px(STRIP_LINE))):
                keep -= 1
            text, n = yacht_text(scores, keep), w.lines_for(t, yacht_text(scores, keep), TEXT, inner, t.px(STRIP_LINE))
        out.append((text, n, ()))
    return out


def _dice_width(t: th.Theme, dice: tuple[int, ...]) -> int:
    return len(dice) * (t.px(28) + t.px(4)) + (t.px(6) if dice else 0)


def _bottom(surface, t: th.Theme, rect: pygame.Rect, strip: list[tuple[str, int, tuple[int, ...]]]) -> None:
    """The strip under the chart: the rarest throw (its dice drawn, then who, in which game and the
    odds) and the latest Yacht game's scores."""
    w.panel(surface, t, rect)
    y = rect.y + t.px(4)
    x0 = rect.x + t.gap
    for text, n, dice in strip:
        side = t.px(28)
        for i, v in enumerate(dice):
            w.die(surface, pygame.Rect(x0 + i * (side + t.px(4)), y + t.px(1), side, side), v)
        x = x0 + _dice_width(t, dice)
        w.text(surface, t, text, pygame.Rect(x, y, rect.right - x - t.gap, n * t.px(STRIP_LINE)), size=TEXT,
               align="left", lines=n)
        y += n * t.px(STRIP_LINE)


def rarest_text(rarest) -> str:
    """The rarest throw in words, the game named as the game: "Rarest throw: Ann in game 2 (Yacht),
    1 in 1296"."""
    # TRANSLATORS: the least likely faces thrown this evening, who threw them, in which game (its
    # number and name: the game, not the roll) and the odds of those faces. The dice are drawn before it.
    return _("Rarest throw: {player} in game {number} ({game}), 1 in {odds}").format(
        player=rarest.player, number=rarest.game, game=game_name(rarest.kind), odds=rarest.odds)


def _ranked(scores: dict[str, int]) -> list[str]:
    """A Yacht game's scores, highest first: ["Ann 212", "Bo 180"]."""
    return [f"{p} {s}" for p, s in sorted(scores.items(), key=lambda kv: -kv[1])]


def yacht_text(scores: dict[str, int], keep: int | None = None) -> str:
    """A Yacht game's scores, highest first: "Yacht scores: Ann 212, Bo 180"; with ``keep``, the
    highest ``keep`` of them and how many players are left out."""
    ranked = _ranked(scores)
    said = _("Yacht scores: {scores}").format(scores=", ".join(ranked[:keep]))
    return said if keep is None or keep >= len(ranked) else f"{said} {more_players(len(ranked) - keep)}"


def summary_lines(summary) -> list[str]:
    """The summary as short text lines (``dicetable summary``): per player the totals, the rarest
    throw with its dice, the Yacht scores per game."""
    if summary.empty:
        return [_("No game has ended this evening yet")]
    out = [ngettext("{count} game this evening", "{count} games this evening", len(summary.games))
           .format(count=len(summary.games))]
    out += [f"  {p}: {totals(summary.drinks[p][-1], summary.penalties[p][-1], summary.water.get(p, 0))}"
            for p in summary.players]
    if summary.rarest is not None:
        out.append(f"{rarest_text(summary.rarest)}: {dice_text(summary.rarest.dice)}")
    for number, scores in summary.yacht:  # one line per Yacht game: numbered, as the rarest throw's game
        # TRANSLATORS: one Yacht game's scores in the evening's summary, highest first: "Ann 212, Bo 180".
        out.append(_("Yacht scores in game {number}: {scores}").format(number=number,
                                                                        scores=", ".join(_ranked(scores))))
    return out
