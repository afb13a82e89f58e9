"""Drawing primitives of the kiosk: text that fits its box, buttons, dice faces, the camera view.

Every text on screen is drawn by :func:`text`, which shrinks the font until the text fits its box
and then reports ``(text, drawn rect, box)`` to ``text_hook`` when one is set: a test can check
that no text overflows and no glyph is missing in any language.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pygame

from appliance.kiosk import theme as th

# Called with (text, drawn rect, box rect) for every text drawn; None in normal use.
text_hook: Callable[[str, pygame.Rect, pygame.Rect], None] | None = None

MIN_SIZE = 9  # design px: below this a text is unreadable anyway; it is cut with "…" instead
# design px of a button's keyboard digit: a hint for a keyboard on a desk, not read across the table
KEY_SIZE = 12


def fitted_font(t: th.Theme, content: str, size: float, box: pygame.Rect, *, bold: bool = False,
                lines: int = 1):
    """The largest font of at most ``size`` design px in which ``content`` fits ``box`` in at most
    ``lines`` lines; returns (font, wrapped lines)."""
    while True:
        font = t.font(size, bold)
        ok, wrapped = _fit(font, content, box, lines)
        if ok:
            return font, wrapped
        if size <= MIN_SIZE:  # as small as it gets: cut what is still too wide, and say so with "…"
            return font, [ellipsize(line, font, box.width) for line in wrapped[:lines]]
        # th.READABLE itself is tried on the way down: a layout that makes room for a text at that
        # size gets it, not the next step under it.
        size = th.READABLE if size * 0.9 < th.READABLE < size else size * 0.9


def fits(t: th.Theme, content: str, size: float, box: pygame.Rect, *, bold: bool = False, lines: int = 1) -> bool:
    """True when ``content`` fits ``box`` at ``size`` design px (in at most ``lines`` lines) without
    shrinking: for layouts that choose a size or an arrangement before drawing."""
    return _fit(t.font(size, bold), content, box, lines)[0]


def lines_for(t: th.Theme, content: str, size: float, width: int, line_h: int, *, bold: bool = False,
              most: int = 2) -> int:
    """The fewest lines (1 to ``most``) of ``line_h`` px in which ``content`` fits ``width`` px at
    ``size`` design px unshrunk; ``most`` when even that many are too few (it is then shrunk)."""
    for n in range(1, most):
        if fits(t, content, size, pygame.Rect(0, 0, width, n * line_h), bold=bold, lines=n):
            return n
    return most


def _fit(font, content: str, box: pygame.Rect, lines: int) -> tuple[bool, list[str]]:
    """Whether ``content`` fits ``box`` in ``font`` in at most ``lines`` lines, and its lines."""
    wrapped = wrap(content, font, box.width) if lines > 1 else [content]
    # The first line needs the font's height, each further one its line spacing; a line box
    # may reach 8% past the box (ascent and descent are room, not glyphs).
    tall = font.get_height() + font.get_linesize() * (len(wrapped) - 1)
    ok = len(wrapped) <= lines and all(font.size(line)[0] <= box.width for line in wrapped) \
        and tall <= box.height * 1.08
    return ok, wrapped


def ellipsize(line: str, font, width: int) -> str:
    """``line`` as it fits ``width`` px in ``font``: whole, or its start and "…" (a name cut at the
    end is still known by its start; a centred text clipped at both ends would lose the start)."""
    if font.size(line)[0] <= width:
        return line
    cut = line
    while cut and font.size(cut.rstrip() + "…")[0] > width:
        cut = cut[:-1]
    return cut.rstrip() + "…"


ORPHAN = 3  # characters: a last line this short ("3)", "54") takes the word before it along


def wrap(content: str, font, width: int) -> list[str]:
    """``content`` broken into lines no wider than ``width`` px at word boundaries (a word wider than
    the box stays on its own line). A short word is not left alone on a paragraph's last line
    ("(out at / 3)"): the word before it goes down with it, when the line still fits."""
    out: list[str] = []
    for paragraph in content.split("\n"):
        lines, line = [], ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        if lines and len(line) <= ORPHAN and " " not in line and " " in lines[-1]:
            head, moved = lines[-1].rsplit(" ", 1)
            if font.size(f"{moved} {line}")[0] <= width:
                lines[-1], line = head, f"{moved} {line}"
        out += lines + [line]
    return out


def text(surface: pygame.Surface, t: th.Theme, content: str, box: pygame.Rect, *, size: float = 22,
         colour: th.Colour = th.TEXT, bold: bool = False, align: str = "center", lines: int = 1,
         keep_clear: pygame.Rect | None = None) -> pygame.Rect:
    """Draw ``content`` inside ``box`` (shrunk to fit, wrapped to at most ``lines`` lines), aligned
    "center" | "left" | "right" horizontally and centred vertically. Returns the drawn rect.
    ``keep_clear``: a rect at the box's left (a button's keyboard digit) the text must not touch:
    where it would, the box is narrowed on both sides (a centred text stays centred) and the text
    fitted again."""
    if not content:
        return pygame.Rect(box.x, box.y, 0, 0)
    font, placed = _placed(t, content, box, size, bold, align, lines)
    if keep_clear is not None and any(r.colliderect(keep_clear) for _, r in placed):
        box = box.inflate(-2 * max(0, keep_clear.right - box.x), 0)
        font, placed = _placed(t, content, box, size, bold, align, lines)
    clip = surface.get_clip()
    surface.set_clip(box.inflate(2, 2).clip(clip) if clip else box)
    for line, r in placed:
        surface.blit(font.render(line, True, colour), r)
    surface.set_clip(clip)
    total = placed[0][1].unionall([r for _, r in placed[1:]])
    if text_hook is not None:
        text_hook(content, total, box)
    return total


def _placed(t: th.Theme, content: str, box: pygame.Rect, size: float, bold: bool, align: str,
            lines: int) -> tuple[pygame.font.Font, list[tuple[str, pygame.Rect]]]:
    """Where :func:`text` draws ``content`` in ``box``: its font and each line with its rect."""
    font, wrapped = fitted_font(t, content, size, box, bold=bold, lines=lines)
    line_h = font.get_linesize()
    y = box.centery - line_h * len(wrapped) // 2
    placed = []
    for i, line in enumerate(wrapped):
        r = pygame.Rect((0, 0), font.size(line))
        r.y = y + i * line_h
        if align == "left":
            r.x = box.x
        elif align == "right":
            r.right = box.right
        else:
            r.centerx = box.centerx
        placed.append((line, r))
    return font, placed


def panel(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, colour: th.Colour = th.PANEL,
          edge: th.Colour | None = th.PANEL_EDGE) -> None:
    """A rounded panel."""
    radius = t.px(10)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if edge:
        pygame.draw.rect(surface, edge, rect, width=max(1, t.px(2)), border_radius=radius)


STYLES = {
    # style -> (fill, edge, text colour)
    "normal": (th.BUTTON, th.BUTTON_EDGE, th.TEXT),
    "primary": (th.ACCENT, th.ACCENT, th.ACCENT_TEXT),
    "danger": (th.DANGER, th.DANGER, th.TEXT),
    "selected": (th.SELECTED, th.SELECTED, th.ACCENT_TEXT),
    "quiet": (th.PANEL, th.PANEL_EDGE, th.MUTED),
    "disabled": (th.DISABLED, th.DISABLED, th.MUTED),
}


def button(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, label: str, *, sub: str = "",
           style: str = "normal", focused: bool = False, key: str = "", size: float = 24) -> None:
    """A touch button: ``label`` big, ``sub`` small under it, ``key`` (its keyboard digit) in the
    corner; ``focused`` draws the keyboard focus ring."""
    fill, edge, fg = STYLES.get(style, STYLES["normal"])
    radius = t.px(12)
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=max(1, t.px(2)), border_radius=radius)
    if focused:
        pygame.draw.rect(surface, th.TEXT, rect.inflate(t.px(6), t.px(6)), width=max(2, t.px(3)),
                         border_radius=radius + t.px(3))
    pad = t.px(6)
    inner = rect.inflate(-2 * pad, -2 * pad)
    clear = None  # the keyboard digit and a little air round it: a long label in a low button keeps off it
    if key:
        k = pygame.Rect(rect.x + t.px(4), rect.y + t.px(2), t.px(16), t.px(16))
        drawn = text(surface, t, key, k, size=KEY_SIZE, colour=fg if style != "normal" else th.MUTED, align="left")
        clear = drawn.inflate(t.px(4), t.px(2))
    if sub:
        _label_over_sub(surface, t, inner, label, sub, size, fg, clear)
    else:  # one line when it fits at th.READABLE (a name is not broken), else two
        one = fits(t, label, th.READABLE, inner, bold=True)
        text(surface, t, label, inner, size=size, colour=fg, bold=True, lines=1 if one else 2, keep_clear=clear)


def _label_over_sub(surface: pygame.Surface, t: th.Theme, inner: pygame.Rect, label: str, sub: str, size: float,
                    colour: th.Colour, clear: pygame.Rect | None = None) -> None:
    """A button's ``label`` (bold, up to ``size``) over its ``sub`` line, both at least th.READABLE
    (the sub is read from across the table too), as one block centred in ``inner``. Each takes a
    second line when one is too short and the button is tall enough; the label grows into room left."""
    bold, regular = t.font(th.READABLE, True), t.font(th.READABLE)
    n_label, n_sub = _label_and_sub_lines(t, inner, label, sub)
    sub_h = regular.get_height() + regular.get_linesize() * (n_sub - 1)
    big = t.font(size, True)
    least = bold.get_height() + bold.get_linesize() * (n_label - 1)
    # The label grows into the room left, keeping some air over it (a label flush with the
    # button's top edge looks cut off).
    room = inner.height - sub_h
    label_h = min(room, max(least, min(room - t.px(6), big.get_height() + big.get_linesize() * (n_label - 1))))
    top = max(inner.y, inner.centery - (label_h + sub_h) // 2)
    box = pygame.Rect(inner.x, top, inner.width, label_h)
    text(surface, t, label, box, size=size, colour=colour, bold=True, lines=n_label, keep_clear=clear)
    text(surface, t, sub, pygame.Rect(inner.x, box.bottom, inner.width, sub_h), size=th.READABLE, colour=colour,
         lines=n_sub)


def _label_and_sub_lines(t: th.Theme, inner: pygame.Rect, label: str, sub: str) -> tuple[int, int]:
    """How many lines (1 or 2 each) a button's label and sub line take at th.READABLE in ``inner``:
    the fewest that fit it, (1, 1) when none does (the texts are then shrunk)."""
    bold, regular = t.font(th.READABLE, True), t.font(th.READABLE)
    for n_label, n_sub in ((1, 1), (2, 1), (1, 2), (2, 2)):
        label_h = bold.get_height() + bold.get_linesize() * (n_label - 1)
        sub_h = regular.get_height() + regular.get_linesize() * (n_sub - 1)
        if label_h + sub_h <= inner.height * 1.08 \
                and fits(t, label, th.READABLE, pygame.Rect(0, 0, inner.width, label_h), bold=True, lines=n_label) \
                and fits(t, sub, th.READABLE, pygame.Rect(0, 0, inner.width, sub_h), lines=n_sub):
            return n_label, n_sub
    return 1, 1


# Pip positions on a face, in thirds of the face (RULES.md dice are standard western pips).
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die(surface: pygame.Surface, rect: pygame.Rect, value: int, *, face: th.Colour = th.DIE_FACE,
        pip: th.Colour = th.DIE_PIP) -> None:
    """A die showing ``value`` (1-6) in the square ``rect``; another value draws a blank face."""
    side = min(rect.width, rect.height)
    r = pygame.Rect(0, 0, side, side)
    r.center = rect.center
    pygame.draw.rect(surface, face, r, border_radius=max(2, side // 6))
    if value not in _PIPS:
        return
    cell = side / 4
    radius = max(2, int(side * 0.09))
    for cx, cy in _PIPS[value]:
        pygame.draw.circle(surface, pip, (int(r.x + cell * (cx + 1)), int(r.y + cell * (cy + 1))), radius)


def cup(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect) -> None:
    """A dice cup upside down on the tray, with an arrow: "lift it"."""
    h = min(rect.height, rect.width)
    base_w, top_w = int(h * 0.9), int(h * 0.62)
    cx, bottom = rect.centerx, rect.bottom
    top = bottom - int(h * 0.72)
    body = [(cx - base_w // 2, bottom), (cx + base_w // 2, bottom), (cx + top_w // 2, top), (cx - top_w // 2, top)]
    pygame.draw.polygon(surface, (150, 60, 40), body)
    pygame.draw.polygon(surface, th.TEXT, body, width=max(2, t.px(3)))
    pygame.draw.line(surface, th.TEXT, (cx - base_w // 2 + t.px(6), bottom - t.px(10)),
                     (cx + base_w // 2 - t.px(6), bottom - t.px(10)), max(1, t.px(2)))
    tip = top - int(h * 0.05)
    arrow = [(cx, rect.top), (cx - int(h * 0.14), rect.top + int(h * 0.14)), (cx + int(h * 0.14), rect.top + int(h * 0.14))]
    if rect.top + int(h * 0.14) < tip:
        pygame.draw.polygon(surface, th.ACCENT, arrow)
        pygame.draw.line(surface, th.ACCENT, (cx, rect.top + int(h * 0.1)), (cx, tip), max(3, t.px(6)))


def tumbling_dice(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, n: int, *,
                  max_side: int | None = None) -> None:
    """``n`` dice in the air, in a row inside ``rect``: tilted blank faces with a "?" and motion
    strokes behind them, the "throw the dice" drawing. No face shows pips, so it never reads as a
    roll (the real one is on the camera view and in the announcement)."""
    if n <= 0:
        return
    gap = t.px(14)
    side = min(int(rect.height * 0.8), (rect.width - gap * (n - 1) - t.px(40)) // n, max_side or 10 ** 6)
    if side < 8:
        return
    total = side * n + gap * (n - 1)
    x = rect.centerx - total // 2 + t.px(20)
    stroke = max(2, t.px(4))
    for k in range(3):  # motion strokes: the dice fly in from the left
        y = rect.centery - side // 3 + k * side // 3
        length = int(side * (0.55 - 0.12 * abs(k - 1)))
        pygame.draw.line(surface, th.MUTED, (x - t.px(12) - length, y), (x - t.px(12), y), stroke)
    tilts = (-16, 11, -7, 18, -12)
    for i in range(n):
        face = pygame.Surface((side, side), pygame.SRCALPHA)
        box = face.get_rect()
        pygame.draw.rect(face, th.DIE_FACE, box, border_radius=max(2, side // 6))
        pygame.draw.rect(face, th.MUTED, box, width=max(1, side // 24), border_radius=max(2, side // 6))
        text(face, t, "?", box.inflate(-side // 4, -side // 4), size=side / t.unit * 0.6, colour=th.MUTED, bold=True)
        tilted = pygame.transform.rotate(face, tilts[i % len(tilts)])
        lift = (side // 8) * (1 if i % 2 else -1)  # up and down, as thrown dice tumble
        surface.blit(tilted, tilted.get_rect(center=(x + side // 2, rect.centery + lift)))
        x += side + gap


def dice_row(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, values, *, max_side: int | None = None) -> None:
    """``values`` as dice faces in a centred row inside ``rect``."""
    values = list(values)
    if not values:
        return
    gap = t.px(8)
    side = min(rect.height, (rect.width - gap * (len(values) - 1)) // len(values), max_side or 10 ** 6)
    total = side * len(values) + gap * (len(values) - 1)
    x = rect.centerx - total // 2
    for v in values:
        die(surface, pygame.Rect(x, rect.centery - side // 2, side, side), v)
        x += side + gap


STATUS_LINE = 26  # design px of a line of the live view's status


def _showable(frame) -> bool:
    """True for a picture the live view can show: an (H, W, 3) uint8 array with H, W >= 1."""
    return (isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3
            and frame.shape[2] == 3 and frame.shape[0] > 0 and frame.shape[1] > 0)


def camera(surface: pygame.Surface, t: th.Theme, rect: pygame.Rect, frame: np.ndarray | None, dice=(),
           *, status: str = "", ok: bool = True, tray=None) -> None:
    """The live camera view: ``frame`` ((H, W, 3) uint8 BGR; None or anything else: no picture) scaled to fit
    ``rect``, each die of ``dice`` (``vision.reading.Die``, boxes in frame px) boxed with its value,
    a ``status`` caption (green when the reading is ok, red otherwise), and the ``tray`` area
    ((x, y, w, h) frame px, or None) framed in green."""
    panel(surface, t, rect, colour=(0, 0, 0))
    inner = rect.inflate(-t.px(4), -t.px(4))
    if not _showable(frame):  # no camera, or garbage from it: the status alone
        text(surface, t, status, inner.inflate(-t.px(8), 0), size=th.READABLE, colour=th.MUTED, lines=3)
        return
    fh, fw = frame.shape[:2]
    scale = min(inner.width / fw, inner.height / fh)
    w, h = max(1, int(fw * scale)), max(1, int(fh * scale))
    import cv2  # the kiosk depends on OpenCV anyway; resizing before the copy keeps it cheap

    small = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    img = pygame.image.frombuffer(np.ascontiguousarray(small).tobytes(), (w, h), "BGR")
    dest = img.get_rect(center=inner.center)
    surface.blit(img, dest)
    line = max(2, t.px(3))
    if tray is not None:
        x, y, tw, th_ = tray
        pygame.draw.rect(surface, th.GOOD, pygame.Rect(dest.x + int(x * scale), dest.y + int(y * scale),
                                                       max(4, int(tw * scale)), max(4, int(th_ * scale))),
                         width=line + 1)
    for d in dice:
        x, y, bw, bh = d.box
        box = pygame.Rect(dest.x + int(x * scale), dest.y + int(y * scale), max(4, int(bw * scale)),
                          max(4, int(bh * scale)))
        colour = th.GOOD if ok else th.DANGER
        pygame.draw.rect(surface, colour, box, width=line, border_radius=t.px(4))
        tag = pygame.Rect(0, 0, t.px(26), t.px(26))
        # Above its die; a die at the picture's top edge has it beside, at its height (below, it sat
        # between other dice, and which die it named was unclear).
        if box.y - tag.height - t.px(2) >= dest.y:
            tag.midbottom = (box.centerx, box.y - t.px(2))
        elif box.right + t.px(2) + tag.width <= dest.right:
            tag.midleft = (box.right + t.px(2), box.centery)
        else:
            tag.midright = (box.x - t.px(2), box.centery)
        pygame.draw.rect(surface, colour, tag, border_radius=t.px(6))
        text(surface, t, str(d.value), tag, size=20, colour=th.ACCENT_TEXT, bold=True)
    if status:  # across the foot of the panel (a picture narrower than it too), a second line if need be;
        # a fault (what the table must do something about) a third rather than shrink past readable
        n = lines_for(t, status, th.READABLE, inner.width - t.px(8), t.px(STATUS_LINE), most=2 if ok else 3)
        cap = pygame.Rect(inner.x, inner.bottom - n * t.px(STATUS_LINE) - t.px(4), inner.width,
                          n * t.px(STATUS_LINE) + t.px(4))
        shade = pygame.Surface(cap.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, cap)
        text(surface, t, status, cap.inflate(-t.px(8), -t.px(4)), size=th.READABLE, colour=th.GOOD if ok else th.DANGER,
             lines=n)
