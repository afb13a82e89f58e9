"""Drawing a ``View`` with pygame: one layout per screen, scaled from the window size.

``draw(surface, view, theme, camera=...) -> hits`` paints the whole screen and returns where each
choice landed, ``[(pygame.Rect, choice id), ...]``, topmost last, for resolving taps
(:func:`hit`); the message line's is "hush" (a tap on it only hides it). Each screen's layout
returns how far down its head (title, prompt) reaches: the message line lies over it
(:func:`message_rect`). Layouts work from 800x480 (the 7-inch touch display) to 1920x1080 (a
TV), landscape 3:2 and wider (a narrower screen lends the kiosk a 3:2 band of itself:
``theme.layout_area``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pygame

from appliance.i18n import _
from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.standings import draw_standings as _standings
from appliance.kiosk.standings import full_height, shows_all
from appliance.table.base import Choice, Row, Sheet, View

Hits = list[tuple[pygame.Rect, str]]


@dataclass
class CameraFeed:
    """What the camera panel shows: the latest frame ((H, W, 3) uint8 BGR or None), the dice the
    reader found in it (``vision.reading.Die``), whether that reading is ok, and a status line."""

    frame: np.ndarray | None = None
    dice: tuple = ()
    ok: bool = True
    status: str = ""


def hit(hits: Hits, pos: tuple[int, int]) -> str | None:
    """The id of the topmost choice under ``pos`` (window px), or None."""
    for rect, cid in reversed(hits):
        if rect.collidepoint(pos):
            return cid
    return None


def draw(surface: pygame.Surface, view: View, t: th.Theme, camera: CameraFeed | None = None) -> Hits:
    """Paint ``view`` on ``surface`` (the whole window); returns the choices' hit rects."""
    surface.fill(th.BACKGROUND)
    hits: Hits = []
    layout = {
        "setup": _setup, "names": _names, "play": _play, "correct": _correct, "hand": _hand,
        "sheet": _sheet_screen, "menu": _menu, "confirm": _menu, "over": _over, "summary": _summary,
        "guided": _guided,
    }.get(view.screen, _menu)
    head = layout(surface, view, t, hits, camera or CameraFeed())
    if view.message:
        hits.append((_message(surface, view.message, t, hits, head), "hush"))
    if view.banner is not None:
        _banner(surface, view, t, hits)
    return hits


# -------------------------------------------------------------------------------- shared pieces

def _numbered(view: View) -> dict[str, str]:
    """choice id -> its digit key (the first ten enabled choices: 1-9, 0)."""
    keys = {}
    for n, c in enumerate([c for c in view.choices if c.style != "disabled"][:10], 1):
        keys.setdefault(c.id, str(n % 10))
    return keys


def _focused_id(view: View) -> str | None:
    enabled = [c for c in view.choices if c.style != "disabled"]
    return enabled[view.focus].id if 0 <= view.focus < len(enabled) else None


def _buttons(surface, view: View, t: th.Theme, hits: Hits, choices: list[Choice], rects: list[pygame.Rect],
             size: float = 24, keys: bool = True) -> None:
    numbered = _numbered(view) if keys else {}
    focused = _focused_id(view)
    for c, r in zip(choices, rects):
        w.button(surface, t, r, c.label, sub=c.sub, style=c.style, focused=c.id == focused,
                 key=numbered.get(c.id, "") if c.style != "disabled" else "", size=size)
        if c.style != "disabled":
            hits.append((r, c.id))


def grid(rect: pygame.Rect, n: int, columns: int, gap: int, max_h: int | None = None) -> list[pygame.Rect]:
    """``n`` cells in ``columns`` columns filling ``rect`` row by row (at most ``max_h`` px high each)."""
    if n <= 0:
        return []
    columns = max(1, min(columns, n))
    rows = math.ceil(n / columns)
    cw = (rect.width - gap * (columns - 1)) // columns
    ch = (rect.height - gap * (rows - 1)) // rows
    if max_h:
        ch = min(ch, max_h)
    return [pygame.Rect(rect.x + (i % columns) * (cw + gap), rect.y + (i // columns) * (ch + gap), cw, ch)
            for i in range(n)]


BAR_WIDTH = 112  # design px of a header button, at least: wider for a label that needs it


def _bar_width(t: th.Theme, label: str, height: int) -> int:
    """The width, px, of a header button ``height`` px high whose ``label`` reads at th.READABLE:
    BAR_WIDTH, or as wide as the label needs in one line or, when the button has room for two, in
    two (split at the space that makes the narrower button)."""
    font = t.font(th.READABLE, True)
    pad = 2 * t.px(6) + t.px(4)
    words = label.split(" ")
    need = font.size(label)[0]
    if font.get_height() + font.get_linesize() <= (height - 2 * t.px(6)) * 1.08:
        for i in range(1, len(words)):
            need = min(need, max(font.size(" ".join(words[:i]))[0], font.size(" ".join(words[i:]))[0]))
    return max(t.px(BAR_WIDTH), need + pad)


def _bar(surface, view: View, t: th.Theme, hits: Hits, right: int, top: int, height: int) -> int:
    """The header buttons, right-aligned ending at ``right``; returns their left edge."""
    x = right
    rects = []
    for c in view.bar:
        width = _bar_width(t, c.label, height)
        x -= width
        rects.append(pygame.Rect(x, top, width, height))
        x -= t.gap
    for c, r in zip(view.bar, rects):
        w.button(surface, t, r, c.label, style=c.style, size=th.READABLE)
        hits.append((r, c.id))
    return x


def _header(surface, view: View, t: th.Theme, hits: Hits) -> pygame.Rect:
    """Game title and whose turn on the left, the bar buttons on the right; returns the body rect."""
    W, H = surface.get_size()
    m = t.gap
    h = t.px(76)
    left = _bar(surface, view, t, hits, W - m, m, h - 2 * m) if view.bar else W - m
    title = pygame.Rect(m * 2, m, left - 3 * m, t.px(24))
    w.text(surface, t, view.title, title, size=th.READABLE, colour=th.MUTED, align="left")
    if view.player:
        who = pygame.Rect(m * 2, title.bottom, left - 3 * m, h - title.bottom - m // 2)
        w.text(surface, t, view.player, who, size=38, colour=th.ACCENT, bold=True, align="left")
    else:
        who = pygame.Rect(m * 2, title.bottom, left - 3 * m, h - title.bottom - m // 2)
        w.text(surface, t, view.prompt, who, size=28, bold=True, align="left")
    pygame.draw.line(surface, th.PANEL_EDGE, (m, h), (W - m, h), max(1, t.px(2)))
    return pygame.Rect(m, h + m, W - 2 * m, H - h - 2 * m)


def _sheet(surface, t: th.Theme, rect: pygame.Rect, sheet: Sheet) -> None:
    """The Yacht score sheet: players across, categories down, totals at the bottom."""
    w.panel(surface, t, rect)
    inner = rect.inflate(-t.gap, -t.gap)
    n_rows = len(sheet.categories) + 2
    row_h = inner.height // n_rows
    # The category names need about a quarter of the width; the rest goes to the players' columns.
    label_w = int(inner.width * (0.34 if len(sheet.players) <= 4 else 0.28 if len(sheet.players) <= 6 else 0.23))
    col_w = (inner.width - label_w) // max(1, len(sheet.players))
    size = max(10.0, min(20.0, row_h / t.unit * 0.62))
    y = inner.y
    for j, p in enumerate(sheet.players):
        r = pygame.Rect(inner.x + label_w + j * col_w, y, col_w, row_h)
        if sheet.current == j:
            pygame.draw.rect(surface, th.BUTTON, pygame.Rect(r.x, inner.y, r.width, row_h * n_rows), border_radius=t.px(4))
        w.text(surface, t, p, r.inflate(-t.px(4), 0), size=size, colour=th.ACCENT if sheet.current == j else th.TEXT,
               bold=True, lines=2)  # "Anna Maria" may wrap; one long word is cut with "…"
    for i, name in enumerate(sheet.categories):
        y = inner.y + (i + 1) * row_h
        if sheet.declared == i:
            pygame.draw.rect(surface, th.SELECTED, pygame.Rect(inner.x, y, inner.width, row_h), width=max(2, t.px(2)),
                             border_radius=t.px(4))
        if i % 2 == 0:
            shade = pygame.Surface((inner.width, row_h), pygame.SRCALPHA)
            shade.fill((255, 255, 255, 12))
            surface.blit(shade, (inner.x, y))
        w.text(surface, t, name, pygame.Rect(inner.x + t.px(6), y, label_w - t.px(8), row_h), size=size,
               colour=th.MUTED, align="left")
        for j, cell in enumerate(sheet.cells[i]):
            r = pygame.Rect(inner.x + label_w + j * col_w, y, col_w, row_h)
            w.text(surface, t, cell, r, size=size, colour=th.MUTED if cell == "0" else th.TEXT, bold=cell not in ("", "0"))
    y = inner.y + (len(sheet.categories) + 1) * row_h
    pygame.draw.line(surface, th.PANEL_EDGE, (inner.x, y), (inner.right, y), max(1, t.px(2)))
    w.text(surface, t, _("Total"), pygame.Rect(inner.x + t.px(6), y, label_w - t.px(8), row_h), size=size,
           bold=True, align="left")
    for j, total in enumerate(sheet.totals):
        r = pygame.Rect(inner.x + label_w + j * col_w, y, col_w, row_h)
        w.text(surface, t, total, r, size=size * 1.1, colour=th.ACCENT, bold=True)


def _turn_sheet_fit(t: th.Theme, rect: pygame.Rect, sheet: Sheet) -> tuple[float, list[int]] | None:
    """How ``_turn_sheet`` fits in ``rect``: the text size (design px: the largest up to 22 at which
    every name fits on one line, bold as the declared one is) and the two columns' widths (px, each as
    wide as its longest name needs, the room left shared out); None when the size would be under
    SHEET_MIN (not legible from 2 m) or there is no player on turn."""
    if sheet.current is None or not sheet.categories:
        return None
    per = math.ceil(len(sheet.categories) / 2)
    columns = [sheet.categories[:per], sheet.categories[per:]]
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    row_h = inner.height // per
    pad = t.px(12)  # the name's indent and the space between name and score
    size = min(22.0, row_h / t.unit * 0.62)
    while True:
        if size < SHEET_MIN:
            return None
        font = t.font(size, True)
        value_w = t.font(size * 1.1, True).size("50")[0] + t.px(6)
        need = [max(font.size(name)[0] for name in names) + value_w + pad for names in columns]
        if sum(need) + t.gap <= inner.width and font.get_height() <= row_h - t.px(2):
            break
        if size <= SHEET_MIN:
            return None
        size = max(SHEET_MIN, size * 0.95)  # SHEET_MIN itself is tried last
    spare = (inner.width - t.gap - sum(need)) // 2
    return size, [n + spare for n in need]


def _turn_sheet(surface, t: th.Theme, rect: pygame.Rect, sheet: Sheet,
                fit: tuple[float, list[int]] | None = None) -> bool:
    """The play screen's score sheet: the player on turn only (``sheet.current``), the 12 categories
    in two columns of six in RULES.md §3's order (Ones … Sixes left), each with its
    score once written; open ones bright, written ones dim, the declared one outlined. Everyone's
    totals are in the standings beside it and the whole sheet is behind the Sheet button.

    Drawn only when it fits legibly (``_turn_sheet_fit``, or ``fit`` as that gave it); returns whether
    it was drawn."""
    fit = fit or _turn_sheet_fit(t, rect, sheet)
    if fit is None:
        return False
    size, widths = fit
    per = math.ceil(len(sheet.categories) / 2)
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    row_h = inner.height // per
    pad = t.px(12)
    value_w = t.font(size * 1.1, True).size("50")[0] + t.px(6)
    w.panel(surface, t, rect)
    for i, name in enumerate(sheet.categories):
        col = i // per
        x = inner.x + (widths[0] + t.gap if col else 0)
        r = pygame.Rect(x, inner.y + (i % per) * row_h, widths[col], row_h - t.px(2))
        cell = sheet.cells[i][sheet.current]
        if i % 2 == 0:
            shade = pygame.Surface(r.size, pygame.SRCALPHA)
            shade.fill((255, 255, 255, 12))
            surface.blit(shade, r)
        if sheet.declared == i:
            pygame.draw.rect(surface, th.SELECTED, r, width=max(2, t.px(2)), border_radius=t.px(4))
        written = cell != ""
        w.text(surface, t, name, pygame.Rect(r.x + t.px(8), r.y, r.width - value_w - pad, r.height), size=size,
               colour=th.MUTED if written else th.TEXT, bold=sheet.declared == i, align="left")
        w.text(surface, t, cell, pygame.Rect(r.right - value_w - t.px(6), r.y, value_w, r.height), size=size * 1.1,
               colour=th.MUTED if cell == "0" else th.TEXT, bold=True, align="right")
    return True


MESSAGE_LINE = 26  # design px of a line of the message panel
MESSAGE_LINES = 3  # lines the message takes at most (a longer one would be drawn under th.READABLE)


def message_rect(t: th.Theme, width: int, text: str, hits: Hits, head: int | None = None) -> tuple[pygame.Rect, int]:
    """Where the message line goes on a screen ``width`` px wide whose choices landed at ``hits``,
    and in how many lines: across the top, over the screen's head (its title and prompt, down to
    ``head`` px: nothing to press there, and the head is hidden whole, not cut through), left of
    the buttons at the top's right (the play screen's Menu, the setup's "Set up the table") when it
    keeps to MESSAGE_LINES there; else the whole width, over those buttons. Nothing under it can be
    pressed while it shows: a tap on it only hides it (``draw``'s "hush")."""
    m = t.gap

    def box(right: int) -> tuple[pygame.Rect, int]:
        n = w.lines_for(t, text, th.READABLE, right - m - 2 * m, t.px(MESSAGE_LINE), most=MESSAGE_LINES)
        high = max(n * t.px(MESSAGE_LINE) + t.px(16), (head or 0) - m, t.px(th.FINGER))  # a tap hides it
        return pygame.Rect(m, m, right - m, high), n

    full, lines = box(width - m)
    under = [r for r, _cid in hits if r.colliderect(full)]
    if not under:
        return full, lines
    left_of = box(min(r.left for r in under) - m)
    clear = not any(r.colliderect(left_of[0]) for r, _cid in hits)
    fits = w.fits(t, text, th.READABLE, left_of[0].inflate(-2 * m, -t.px(16)), lines=left_of[1])
    return left_of if clear and fits and left_of[0].width >= width // 3 else (full, lines)


def _message(surface, text: str, t: th.Theme, hits: Hits, head: int | None) -> pygame.Rect:
    """A problem or notice across the top of the screen (``message_rect``), at th.READABLE in as
    many lines (up to MESSAGE_LINES) as it needs; returns where it is."""
    r, n = message_rect(t, surface.get_width(), text, hits, head)
    # What it hides goes whole, across the screen (a prompt reaching under a corner button too);
    # the buttons beside it stay.
    band = pygame.Rect(0, 0, surface.get_width(), r.bottom + t.gap // 2)
    beside = [(b, surface.subsurface(b).copy()) for b, _cid in hits
              if b.colliderect(band) and not b.colliderect(r) and surface.get_rect().contains(b)]
    surface.fill(th.BACKGROUND, band)
    for b, pixels in beside:
        surface.blit(pixels, b)
    w.panel(surface, t, r, colour=(70, 24, 26), edge=th.DANGER)
    w.text(surface, t, text, r.inflate(-2 * t.gap, -t.px(16)), size=th.READABLE, lines=n)
    return r


DETAIL_SIZE, DETAIL_LINE = 24, 30  # design px of the banner's second line, and its line's height


def _banner(surface, view: View, t: th.Theme, hits: Hits) -> None:
    """The announcement, big across the middle of the screen; a tap on it shows the next one."""
    W, H = surface.get_size()
    a = view.banner
    colour = th.TONES.get(a.tone, th.INFO)
    # Across the bottom: the camera view (top left) stays visible, so the table sees the dice and
    # what they mean at once.
    r = pygame.Rect(2 * t.gap, 0, W - 4 * t.gap, int(H * 0.31))
    r.bottom = H - t.gap
    pygame.draw.rect(surface, th.BACKGROUND, r.inflate(2 * t.gap, 2 * t.gap), border_radius=t.px(22))
    pygame.draw.rect(surface, colour, r, border_radius=t.px(18))
    pygame.draw.rect(surface, th.TEXT, r, width=max(2, t.px(3)), border_radius=t.px(18))
    fg = th.ACCENT_TEXT if a.tone in ("win", "good", "info") else th.TEXT
    if a.detail:
        # The line under it (who threw, why) at DETAIL_SIZE, read from 2 m: in two lines when one
        # is too short, the announcement itself giving way.
        width = r.width - t.px(32)
        n = w.lines_for(t, a.detail, DETAIL_SIZE, width, t.px(DETAIL_LINE))
        sub = pygame.Rect(r.x + t.px(16), r.bottom - t.px(6) - n * t.px(DETAIL_LINE), width, n * t.px(DETAIL_LINE))
        main = pygame.Rect(r.x + t.px(16), r.y + t.px(6), width, sub.y - r.y - t.px(6))
        w.text(surface, t, a.text, main, size=54, colour=fg, bold=True, lines=2)
        w.text(surface, t, a.detail, sub, size=DETAIL_SIZE, colour=fg, lines=n)
    else:
        w.text(surface, t, a.text, r.inflate(-t.px(32), -t.px(12)), size=56, colour=fg, bold=True, lines=2)
    hits.append((r, "dismiss"))


# ------------------------------------------------------------------------------------- screens

def _setup(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    W, H = surface.get_size()
    m = t.gap
    # End the evening and the guided setup of the table, top right beside the title (the prompt
    # under them keeps the width), a whole touch target high.
    corner = [c for cid in ("evening", "guided") for c in view.choices if c.id == cid]
    corner_rects, x = [], W - m
    for c in reversed(corner):  # from the right: each at least as wide as its label needs at READABLE
        each = max(int(W * (0.3 if len(corner) == 1 else 0.22)), _bar_width(t, c.label, t.px(56)))
        x -= each
        corner_rects.insert(0, pygame.Rect(x, m, each, t.px(56)))
        x -= m
    _buttons(surface, view, t, hits, corner, corner_rects, size=22)
    right = corner_rects[0].x - m if corner else W - 2 * m
    top = pygame.Rect(2 * m, m, right - 2 * m, t.px(56) if corner else t.px(44))
    w.text(surface, t, view.title, top, size=34, colour=th.ACCENT, bold=True, align="left")
    sub = pygame.Rect(2 * m, top.bottom, W - 4 * m, t.px(26))
    w.text(surface, t, view.prompt, sub, size=th.READABLE, colour=th.MUTED, align="left")
    games = [c for c in view.choices if c.id.startswith("game:")]
    seats = [c for c in view.choices if c.id.startswith(("seat:", "up:", "del:"))]
    page = [c for c in view.choices if c.id == "page"]
    bottom = [c for c in view.choices if c.id in ("add", "lang", "start")]
    game_row = pygame.Rect(m, sub.bottom + m, W - 2 * m, t.px(78))
    _buttons(surface, view, t, hits, games, grid(game_row, len(games), len(games), m), size=28)
    foot = pygame.Rect(m, H - t.px(72) - m, W - 2 * m, t.px(72))
    foot_rects = [pygame.Rect(foot.x, foot.y, int(foot.width * 0.28), foot.height),
                  pygame.Rect(foot.x + int(foot.width * 0.28) + m, foot.y, int(foot.width * 0.22), foot.height)]
    foot_rects.append(pygame.Rect(foot_rects[1].right + m, foot.y, foot.right - foot_rects[1].right - m, foot.height))
    _buttons(surface, view, t, hits, bottom, foot_rects, size=26)
    area = pygame.Rect(m, game_row.bottom + 2 * m, W - 2 * m, foot.y - game_row.bottom - 3 * m)
    n = len(seats) // 3  # a page of them (view.SEATS_PAGE), and the cell turning the page
    cells = grid(area, n + len(page), 2, m, max_h=t.px(70))
    if page:
        _buttons(surface, view, t, hits, page, cells[-1:], size=24)
    for i, cell in enumerate(cells[:n]):
        name, up, delete = seats[3 * i: 3 * i + 3]
        side = min(cell.height, t.px(60))
        name_r = pygame.Rect(cell.x, cell.y, cell.width - 2 * (side + m // 2), cell.height)
        up_r = pygame.Rect(name_r.right + m // 2, cell.y, side, cell.height)
        del_r = pygame.Rect(up_r.right + m // 2, cell.y, side, cell.height)
        _buttons(surface, view, t, hits, [name, up, delete], [name_r, up_r, del_r], size=24)
    return sub.bottom


def _names(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    W, H = surface.get_size()
    m = t.gap
    head = pygame.Rect(2 * m, m, W - 4 * m, t.px(30))
    w.text(surface, t, view.title, head, size=20, colour=th.MUTED, align="left")
    field_r = pygame.Rect(m, head.bottom + m // 2, W - 2 * m, t.px(58))
    w.panel(surface, t, field_r, colour=(8, 18, 14), edge=th.ACCENT)
    shown = (view.text_field or "") + "▏"
    w.text(surface, t, shown, field_r.inflate(-2 * m, -m), size=36, bold=True, align="left")
    keys = [c for c in view.choices if c.id.startswith("key:") or c.id == "shift"]  # ⇧ is in a row of keys
    tools = [c for c in view.choices if c not in keys]
    foot = pygame.Rect(m, H - t.px(64) - m, W - 2 * m, t.px(64))
    _buttons(surface, view, t, hits, tools, grid(foot, len(tools), len(tools), m), size=22, keys=False)
    area = pygame.Rect(m, field_r.bottom + m, W - 2 * m, foot.y - field_r.bottom - 2 * m)
    rows = view.key_rows or [len(keys)]
    gap = max(2, m // 2)
    key_w = (area.width - gap * (max(rows) - 1)) // max(rows)
    key_h = (area.height - gap * (len(rows) - 1)) // len(rows)
    rects, y = [], area.y
    for n in rows:  # each row centred, as on a keyboard
        x = area.centerx - (n * key_w + (n - 1) * gap) // 2
        rects += [pygame.Rect(x + i * (key_w + gap), y, key_w, key_h) for i in range(n)]
        y += key_h + gap
    _buttons(surface, view, t, hits, keys, rects, size=24, keys=False)
    # A message hides the title and the name field whole (not cut through, and a finger's height to
    # tap away); the next key typed takes it away and shows the name again.
    return field_r.bottom


# The play screen's right column (design px). The prompt is the most important text on the screen,
# read from 2 m: it is never drawn smaller than PROMPT_MIN, which is bigger than the info line under it.
PROMPT_SIZE, PROMPT_MIN, PROMPT_H = 27, 24, 58
# The state line and the coach's hint under the prompt: at th.READABLE, in a second line when one is
# too short (LINE_H design px each).
INFO_SIZE = HINT_SIZE = th.READABLE
LINE_H = 26
# The score sheet panel on the play screen is drawn only when its text gets at least SHEET_MIN: as big
# as the info line.
SHEET_MIN = INFO_SIZE
DICE_SIDE = 44  # the dice on the table beside the prompt, at most
CAMERA_LEAST = 0.42  # of the left column's height: the live view's least, when the standings need room


def _play(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    body = _header(surface, view, t, hits)
    m = t.gap
    head = body.y - 2 * m  # the header's buttons' bottom
    if view.camera:
        left = pygame.Rect(body.x, body.y, int(body.width * 0.38), body.height)
        _live_and_standings(surface, view, t, left, camera)
        right = pygame.Rect(left.right + m, body.y, body.right - left.right - m, body.height)
    else:
        right = body
    # Right column: the prompt (the dice beside it when it keeps its size there), one line of state,
    # the coach's hint, then the choices.
    y = right.y
    dice_left = list(view.dice)  # the dice still to place: they give way to the prompt
    if not view.big_prompt:
        row = pygame.Rect(right.x, y, right.width, t.px(PROMPT_H))
        if dice_left and _prompt_beside_dice(surface, view, t, row):
            dice_left = []
        else:
            w.text(surface, t, view.prompt, row, size=PROMPT_SIZE, bold=True, align="left", lines=2)
        y = row.bottom
    for line, colour, size in ((view.info, th.MUTED, INFO_SIZE), (view.hint, th.INFO, HINT_SIZE)):
        if line:
            n = w.lines_for(t, line, size, right.width, t.px(LINE_H))
            w.text(surface, t, line, pygame.Rect(right.x, y, right.width, n * t.px(LINE_H)), size=size,
                   colour=colour, align="left", lines=n)
            y += n * t.px(LINE_H)
    rest = pygame.Rect(right.x, y + m, right.width, right.bottom - y - m)
    if view.big_prompt:
        _big_prompt(surface, view, t, rest)
        return head
    few = len(view.choices) <= 2
    if view.sheet is not None and few:
        btn_h = t.px(64) if view.choices else 0
        area = pygame.Rect(rest.x, rest.y, rest.width, rest.height - btn_h - (m if btn_h else 0))
        if dice_left:  # the dice first: they are what this turn is about; the sheet if legible under them
            dice_r = pygame.Rect(area.x, area.y, area.width, t.px(60))
            sheet_r = pygame.Rect(area.x, dice_r.bottom + m, area.width, area.bottom - dice_r.bottom - m)
            if not _turn_sheet(surface, t, sheet_r, view.sheet):
                dice_r = area  # no legible sheet here: the dice take its place, bigger
            w.dice_row(surface, t, dice_r, dice_left, max_side=t.px(72))
        else:
            _turn_sheet(surface, t, area, view.sheet)
        if view.choices:
            row = pygame.Rect(rest.x, area.bottom + m, rest.width, btn_h)
            _buttons(surface, view, t, hits, view.choices, grid(row, len(view.choices), len(view.choices), m))
        return head
    if dice_left:
        dice_r = pygame.Rect(rest.x, rest.y, rest.width, t.px(48))
        w.dice_row(surface, t, dice_r, dice_left, max_side=t.px(DICE_SIDE))
        rest = pygame.Rect(rest.x, dice_r.bottom + m, rest.width, rest.bottom - dice_r.bottom - m)
    columns = view.columns or (3 if len(view.choices) > 4 else 2)
    rects = choice_grid(t, rest, view.choices, columns, m, max_h=t.px(96))
    _buttons(surface, view, t, hits, view.choices, rects, size=26 if columns <= 3 else 24)
    return head


def choice_grid(t: th.Theme, rect: pygame.Rect, choices: list[Choice], columns: int, gap: int,
                max_h: int | None = None) -> list[pygame.Rect]:
    """The choices' cells: a ``grid`` of ``columns``, except that in a dense grid (5 columns or more:
    Mäxle's values) the few choices whose label is wider than a cell at th.READABLE ("Mäxle",
    "Back") share a row of their own under it, in the choices' order."""
    cell = grid(rect, len(choices), columns, gap, max_h)
    if columns < 5 or not cell:
        return cell
    inner = cell[0].inflate(-2 * t.px(6), -2 * t.px(6))
    wide = [i for i, c in enumerate(choices) if not w.fits(t, c.label, th.READABLE, inner, bold=True)]
    if not wide or len(wide) > columns // 2:
        return cell
    narrow = [i for i in range(len(choices)) if i not in wide]
    rows = math.ceil(len(narrow) / columns) + 1
    cells = grid(rect, rows * columns, columns, gap, max_h)
    out: list[pygame.Rect] = [pygame.Rect(0, 0, 0, 0)] * len(choices)
    for k, i in enumerate(narrow):
        out[i] = cells[k]
    last = cells[-columns]
    share = grid(pygame.Rect(rect.x, last.y, rect.width, last.height), len(wide), len(wide), gap)
    for k, i in enumerate(wide):
        out[i] = share[k]
    return out


def _live_and_standings(surface, view: View, t: th.Theme, rect: pygame.Rect, camera: CameraFeed) -> None:
    """The play screen's left column: the live view over the standings. The live view gives the
    standings room to show every player, down to CAMERA_LEAST of the column (more players than that
    leaves room for are "and N more")."""
    m = t.gap
    cam_h = min(int(rect.width * 3 / 4), int(rect.height * 0.62),
                rect.height - m - full_height(t, rect.width, view.standings_title, view.standings))
    cam = pygame.Rect(rect.x, rect.y, rect.width, max(cam_h, int(rect.height * CAMERA_LEAST)))
    w.camera(surface, t, cam, camera.frame, camera.dice, status=camera.status, ok=camera.ok)
    _standings(surface, t, pygame.Rect(rect.x, cam.bottom + m, rect.width, rect.bottom - cam.bottom - m),
               view.standings_title, view.standings)


def _prompt_beside_dice(surface, view: View, t: th.Theme, row: pygame.Rect) -> bool:
    """The prompt and the dice on the table side by side in ``row``, if the prompt keeps at least
    PROMPT_MIN there (the dice shrink down to 2/3 of DICE_SIDE for it); returns False, drawing
    nothing, when it would not: the caller then gives the dice a row of their own."""
    n = len(view.dice)
    for side in (DICE_SIDE, DICE_SIDE * 5 // 6, DICE_SIDE * 2 // 3):
        dice_w = min(int(row.width * 0.48), n * t.px(side + 4))
        box = pygame.Rect(row.x, row.y, row.width - dice_w - t.gap, row.height)
        if w.fits(t, view.prompt, PROMPT_MIN, box, bold=True, lines=2):
            w.dice_row(surface, t, pygame.Rect(row.right - dice_w, row.y + t.px(6), dice_w, row.height - t.px(12)),
                       view.dice, max_side=t.px(side))
            w.text(surface, t, view.prompt, box, size=PROMPT_SIZE, bold=True, align="left", lines=2)
            return True
    return False


def _big_prompt(surface, view: View, t: th.Theme, rect: pygame.Rect) -> None:
    """Roll / lift the cup: the one thing to do, big, with the player's score sheet under it in Yacht
    when it is legible there."""
    if view.sheet is not None:
        top = pygame.Rect(rect.x, rect.y, rect.width, t.px(70))
        sheet_r = pygame.Rect(rect.x, top.bottom + t.gap, rect.width, rect.bottom - top.bottom - t.gap)
        fit = _turn_sheet_fit(t, sheet_r, view.sheet)
        if fit is not None:
            w.panel(surface, t, top, colour=th.BUTTON, edge=th.ACCENT)
            w.text(surface, t, view.prompt, top.inflate(-t.px(16), -t.px(8)), size=34, bold=True, colour=th.TEXT,
                   lines=2)
            _turn_sheet(surface, t, sheet_r, view.sheet, fit)
            return
    w.panel(surface, t, rect, colour=th.PANEL, edge=th.ACCENT)
    icon = pygame.Rect(0, 0, rect.width, int(rect.height * 0.38))
    icon.midtop = (rect.centerx, rect.y + int(rect.height * 0.1))
    if view.icon == "cup":
        w.cup(surface, t, icon)
    elif view.icon == "throw":
        # Dice in the air, faces unknown: right after a roll, fixed faces here would read as that roll.
        w.tumbling_dice(surface, t, icon.inflate(-t.px(16), 0), view.throw_dice, max_side=t.px(80))
    label = pygame.Rect(rect.x + t.px(16), icon.bottom + t.px(8), rect.width - t.px(32), rect.bottom - icon.bottom - t.px(24))
    w.text(surface, t, view.prompt, label, size=46, bold=True, colour=th.ACCENT, lines=2)


def _correct(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    body = _titled(surface, view, t)
    m = t.gap
    left = pygame.Rect(body.x, body.y, int(body.width * 0.42), body.height)
    cam = pygame.Rect(left.x, left.y, left.width, min(int(left.width * 0.75), left.height - t.px(80)))
    w.camera(surface, t, cam, camera.frame, camera.dice, status=camera.status, ok=camera.ok)
    if view.dice:
        strip = pygame.Rect(left.x, cam.bottom + m, left.width, left.bottom - cam.bottom - m)
        head = t.px(LINE_H)
        w.text(surface, t, _("Last roll"), pygame.Rect(strip.x, strip.y, strip.width, head), size=th.READABLE,
               colour=th.MUTED, align="left")
        w.dice_row(surface, t, pygame.Rect(strip.x, strip.y + head, strip.width, strip.height - head),
                   view.dice, max_side=t.px(56))
    right = pygame.Rect(left.right + 2 * m, body.y, body.right - left.right - 2 * m, body.height)
    # One column: in two, "Undo roll, enter by hand" and its line would be under 20 px at 800x480.
    columns = 1 if len(view.choices) <= 5 else 2
    _buttons(surface, view, t, hits, view.choices, grid(right, len(view.choices), columns, m, max_h=t.px(84)),
             size=24 if columns == 1 else 20)
    return body.y - m


# The guided setup's right column (design px): the instruction is what the table reads first, then a
# problem with the last choice, the dice read, the choices; the left one what the camera sees, its
# status and the step's state (the tray's frame, the throws taught).
GUIDED_PROMPT, GUIDED_PROMPT_LINE, GUIDED_NOTICE, GUIDED_NOTICE_LINE = 26, 33, 22, 27
GUIDED_LINE, GUIDED_STATUS_LINE, GUIDED_BUTTON = 24, 30, 56


def _guided(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    """The guided setup: the step's title, the live camera view with the tray framed on the left
    (its status and the step's state, ``view.info``, under it), the instruction, a problem
    (``view.hint``), the dice read and the choices on the right."""
    W, H = surface.get_size()
    m = t.gap
    title = pygame.Rect(2 * m, m, W - 4 * m, t.px(38))
    w.text(surface, t, view.title, title, size=26, colour=th.ACCENT, bold=True, align="left")
    top = title.bottom
    if view.message:  # it lies over the title; the step's question stays in view below it
        top = max(top, message_rect(t, W, view.message, hits)[0].bottom)
    body = pygame.Rect(m, top + m, W - 2 * m, H - top - 2 * m)
    left = pygame.Rect(body.x, body.y, int(body.width * 0.46), body.height)
    # A camera fault's status is what the step must be read with ("the tray area lies outside the
    # picture"): up to three lines at full size, the picture a little shorter for it.
    status_lines = _lines_for(t, camera.status, GUIDED_LINE, GUIDED_STATUS_LINE, left.width, 3, False)
    status_h, info_h = max(t.px(34), status_lines * t.px(GUIDED_STATUS_LINE)), t.px(30) if view.info else 0
    cam = pygame.Rect(left.x, left.y, left.width, min(int(left.width * 0.75), left.height - status_h - info_h))
    w.camera(surface, t, cam, camera.frame, camera.dice, ok=camera.ok, tray=view.tray)
    w.text(surface, t, camera.status, pygame.Rect(cam.x, cam.bottom, cam.width, status_h), size=GUIDED_LINE,
           colour=th.GOOD if camera.ok else th.DANGER, lines=status_lines)
    if view.info:
        w.text(surface, t, view.info, pygame.Rect(cam.x, cam.bottom + status_h, cam.width, info_h), size=GUIDED_LINE,
               colour=th.MUTED, lines=1)
    right = pygame.Rect(left.right + 2 * m, body.y, body.right - left.right - 2 * m, body.height)
    n = len(view.choices)
    buttons_h = n * t.px(GUIDED_BUTTON) + (n - 1) * m if n else 0
    notice_lines = _lines_for(t, view.hint, GUIDED_NOTICE, GUIDED_NOTICE_LINE, right.width, 3, False)
    blocks = [(view.hint, notice_lines * t.px(GUIDED_NOTICE_LINE)), (view.dice, t.px(48) + m)]
    below = sum(h for content, h in blocks if content)
    room = max(1, (right.height - buttons_h - below - 2 * m) // t.px(GUIDED_PROMPT_LINE))
    lines = _lines_for(t, view.prompt, GUIDED_PROMPT, GUIDED_PROMPT_LINE, right.width, room, True)
    y = right.y
    prompt = pygame.Rect(right.x, y, right.width, lines * t.px(GUIDED_PROMPT_LINE))
    w.text(surface, t, view.prompt, prompt, size=GUIDED_PROMPT, bold=True, align="left", lines=lines)
    y = prompt.bottom + m
    if view.hint:
        box = pygame.Rect(right.x, y, right.width, notice_lines * t.px(GUIDED_NOTICE_LINE))
        w.text(surface, t, view.hint, box, size=GUIDED_NOTICE, colour=th.DANGER, align="left", lines=notice_lines)
        y = box.bottom
    if view.dice:
        w.dice_row(surface, t, pygame.Rect(right.x, y + m, right.width, t.px(48)), view.dice, max_side=t.px(48))
        y += t.px(48) + m
    rest = pygame.Rect(right.x, y + m, right.width, max(0, right.bottom - y - m))  # squeezed, never off screen
    _buttons(surface, view, t, hits, view.choices, grid(rest, n, 1, m, max_h=t.px(GUIDED_BUTTON)), size=24)
    return title.bottom


def _lines_for(t: th.Theme, content: str, size: float, line: float, width: int, most: int, bold: bool) -> int:
    """The fewest lines (1 to ``most``) ``content`` fits in at ``size`` in a box ``width`` px wide whose
    lines are ``line`` design px high; ``most`` when it fits in none (it is then drawn smaller)."""
    for lines in range(1, max(1, most) + 1):
        if w.fits(t, content, size, pygame.Rect(0, 0, width, lines * t.px(line)), bold=bold, lines=lines):
            return lines
    return max(1, most)


def _titled(surface, view: View, t: th.Theme) -> pygame.Rect:
    """A dialog's title and question; returns the rest of the screen."""
    W, H = surface.get_size()
    m = t.gap
    title = pygame.Rect(2 * m, m, W - 4 * m, t.px(40))
    w.text(surface, t, view.title, title, size=30, colour=th.ACCENT, bold=True, align="left")
    y = title.bottom
    if view.prompt:
        w.text(surface, t, view.prompt, pygame.Rect(2 * m, y, W - 4 * m, t.px(30)), size=20, align="left")
        y += t.px(30)
    return pygame.Rect(m, y + m, W - 2 * m, H - y - 2 * m)


def _hand(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    body = _titled(surface, view, t)
    m = t.gap
    dice = [c for c in view.choices if c.id.startswith("die:")]
    tools = [c for c in view.choices if not c.id.startswith("die:")]
    foot = pygame.Rect(body.x, body.bottom - t.px(72), body.width, t.px(72))
    _buttons(surface, view, t, hits, tools, grid(foot, len(tools), len(tools), m), size=28, keys=False)
    area = pygame.Rect(body.x, body.y, body.width, foot.y - body.y - m)
    side = min(area.height - t.px(20), (area.width - m * 4 * (len(dice) - 1)) // max(1, len(dice)))
    total = side * len(dice) + 4 * m * (len(dice) - 1)
    x = area.centerx - total // 2
    focused = _focused_id(view)  # Tab's focus (Return turns that die): a ring of its own, outside
    for i, c in enumerate(dice):
        r = pygame.Rect(x, area.centery - side // 2, side, side)
        if c.id == focused:
            pygame.draw.rect(surface, th.TEXT, r.inflate(3 * m, 3 * m), width=max(2, t.px(3)),
                             border_radius=side // 4)
        if i == view.dice_focus:
            pygame.draw.rect(surface, th.ACCENT, r.inflate(t.px(12), t.px(12)), width=max(2, t.px(4)),
                             border_radius=side // 5)
        w.die(surface, r, view.dice[i])  # 0: blank, not set yet
        hits.append((r, c.id))
        x += side + 4 * m
    return body.y - m


def _sheet_screen(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    body = _titled(surface, view, t)
    m = t.gap
    back = pygame.Rect(body.right - t.px(140), t.gap, t.px(140), t.px(60))
    rects = [back] if len(view.choices) == 1 else [back.move(-t.px(200) - m, 0).inflate(t.px(60), 0).move(t.px(30), 0), back]
    _buttons(surface, view, t, hits, view.choices, rects, size=22)
    if view.sheet is not None:
        _sheet(surface, t, body, view.sheet)
    return body.y - m


def _menu(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    body = _titled(surface, view, t)
    area = body.inflate(-int(body.width * 0.1), 0)
    # Rows up to 104 design px: three of them fit at 800x480, and a label over a sub line of two
    # lines ("Spiel beenden" / "die Zähler bleiben für den Abend") keeps its size and some air.
    _buttons(surface, view, t, hits, view.choices, grid(area, len(view.choices), view.columns or 2, t.gap,
                                                         max_h=t.px(104)), size=26)
    return body.y - t.gap


def _summary(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    """The evening's chart (``appliance.kiosk.chart``) between the title and a row of buttons."""
    from appliance.kiosk.chart import draw_summary

    body = _titled(surface, view, t)
    foot = pygame.Rect(body.x, body.bottom - t.px(64), body.width, t.px(64))
    _buttons(surface, view, t, hits, view.choices, grid(foot, len(view.choices), view.columns or 2, t.gap), size=26)
    draw_summary(surface, t, pygame.Rect(body.x, body.y, body.width, foot.y - body.y - t.gap), view.summary)
    return body.y - t.gap


def final_totals(view: View) -> list[Row]:
    """The game over screen's sheet totals as standings rows, highest first, the winners lit."""
    won = {r.name for r in view.standings if r.mark == "winner"}
    rows = [Row(p, total, current=p in won) for p, total in zip(view.sheet.players, view.sheet.totals)]
    return sorted(rows, key=lambda r: -int(r.value or 0))


# The game over screen's winner line (design px): its band, and the least it gives up to the
# evening's standings when they would not all show.
WINNER_BAND, WINNER_BAND_LEAST = 70, 50


def _over(surface, view: View, t: th.Theme, hits: Hits, camera: CameraFeed) -> int:
    """The winner big at the top, the evening's standings (and Yacht's points), Play again and New
    game over a row of the others (Fix dice, Score sheet, End the evening). The winner's line
    gives way (down to WINNER_BAND_LEAST) to show more players."""
    W, H = surface.get_size()
    m = t.gap
    title = pygame.Rect(2 * m, m, W - 4 * m, t.px(28))
    w.text(surface, t, view.title, title, size=20, colour=th.MUTED, align="left")
    # Play again and New game with their lines, over a row of the others: four in one row would
    # leave their lines too little room.
    main, more = view.choices[:2], view.choices[2:]
    foot = pygame.Rect(m, H - t.px(72) - m, W - 2 * m, t.px(72))
    if more:
        low = pygame.Rect(m, H - t.px(56) - m, W - 2 * m, t.px(56))
        _buttons(surface, view, t, hits, more, grid(low, len(more), len(more), m), size=24)
        foot.bottom = low.y - m
    _buttons(surface, view, t, hits, main, grid(foot, len(main), len(main), m), size=28)
    for band in (WINNER_BAND, WINNER_BAND_LEAST):
        win = pygame.Rect(2 * m, title.bottom, W - 4 * m, t.px(band))
        body = pygame.Rect(m, win.bottom + m, W - 2 * m, foot.y - win.bottom - 2 * m)
        panels = _over_panels(t, view, body)
        if all(shows_all(t, rect, title_, rows) for rect, title_, rows in panels):
            break
    w.text(surface, t, view.prompt, win, size=52, colour=th.ACCENT, bold=True)
    for rect, title_, rows in panels:
        _standings(surface, t, rect, title_, rows)
    return win.bottom


def _over_panels(t: th.Theme, view: View, body: pygame.Rect) -> list[tuple[pygame.Rect, str, list[Row]]]:
    """The game over screen's standings panels in ``body``: the evening's and, in Yacht, the final
    points beside them (the whole sheet is a button away: too small here); the evening's alone in a
    column in the middle, or the whole width when that shows more players."""
    if view.sheet is not None:
        left = pygame.Rect(body.x, body.y, int(body.width * 0.5), body.height)
        right = pygame.Rect(left.right + t.gap, body.y, body.right - left.right - t.gap, body.height)
        return [(left, view.standings_title, view.standings), (right, _("Points"), final_totals(view))]
    narrow = body.inflate(-int(body.width * 0.2), 0)
    wide = not shows_all(t, narrow, view.standings_title, view.standings)
    return [(body if wide else narrow, view.standings_title, view.standings)]
