"""The kiosk's look: colours, the font, and sizes scaled from the window height.

Everything is sized from ``unit = height / 480`` so that the 7-inch 800x480 touch display and a
1920x1080 TV show the same layout: text readable from 2 m, touch targets at least ~60 px on the
small screen. Colours are high-contrast light-on-dark (a bar is dim; dark screens do not glare).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# A font that covers Latvian (ā, ē, ī, ū, ķ, ļ, ņ, š, ž ...) and Cyrillic. Looked up in this order:
# one bundled in appliance/fonts, DejaVu Sans from Debian's fonts-dejavu-core (on Raspberry Pi OS),
# anything fontconfig knows by that name; pygame's own font (Latin only) is the last resort.
BUNDLED_FONTS = Path(__file__).resolve().parent.parent / "fonts"
SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")
REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"

Colour = tuple[int, int, int]

BACKGROUND: Colour = (14, 32, 26)      # dark bar-table felt
PANEL: Colour = (24, 52, 42)
PANEL_EDGE: Colour = (44, 88, 70)
TEXT: Colour = (246, 241, 228)
MUTED: Colour = (170, 190, 178)
ACCENT: Colour = (244, 180, 52)       # gold: whose turn, the primary choice
ACCENT_TEXT: Colour = (28, 22, 8)
BUTTON: Colour = (40, 96, 74)
BUTTON_EDGE: Colour = (76, 150, 116)
DISABLED: Colour = (48, 60, 56)
SELECTED: Colour = (88, 170, 255)
DANGER: Colour = (226, 74, 78)         # drinks and penalties
GOOD: Colour = (96, 208, 128)
INFO: Colour = (88, 170, 255)
DIE_FACE: Colour = (250, 248, 240)
DIE_PIP: Colour = (24, 24, 24)

# The screens are laid out for landscape (draw.py: the camera and the standings beside the choices).
# From 3:2 (720x480) to 16:9 and wider every text fits in every language (tests/appliance/
# test_i18n_render.py); narrower, texts would be cut to "…" (at 4:3 a German note and the Latvian
# Back of the Mäxle values; portrait 480x800: every Mäxle value). So a narrower screen (a 5:4 or 4:3
# monitor, a display mounted portrait) shows the screens in a 3:2 band across its full width, black
# above and below, as a TV shows a wide film: smaller, but whole and working.
MIN_ASPECT = (3, 2)

# Design px of the least side of anything a finger taps (a choice, the message line that a tap
# hides): a fingertip is about 9 mm, 56 px on the 7-inch 800x480 screen. The on-screen keyboard's keys,
# denser, are at least FINGER_KEY.
FINGER = 56
FINGER_KEY = 36

# Design px of the smallest text a player must read, from 2 metres: 20 px on the 7-inch 800x480
# display. Layouts give way (pages, columns, a second line) before any such text is drawn smaller.
READABLE = 20


def layout_area(width: int, height: int) -> tuple[int, int, int, int]:
    """The part (x, y, w, h) px of a ``width`` x ``height`` px screen the kiosk draws in: all of it
    when it is at least ``MIN_ASPECT`` wide, else a band of that aspect across its full width,
    centred top to bottom."""
    wide, high = MIN_ASPECT
    if width * high >= height * wide:
        return 0, 0, width, height
    band = width * high // wide
    return 0, (height - band) // 2, width, band


# Announcement tones -> banner colour.
TONES: dict[str, Colour] = {
    "drink": DANGER, "penalty": DANGER, "win": ACCENT, "info": INFO, "good": GOOD, "error": DANGER,
}


def font_file(bold: bool = False) -> Path | None:
    """The TTF file the kiosk draws with (bold or regular), or None for pygame's default font."""
    name = BOLD if bold else REGULAR
    for folder in (BUNDLED_FONTS, SYSTEM_FONTS):
        if (folder / name).is_file():
            return folder / name
    try:
        import pygame

        found = pygame.font.match_font("dejavusans", bold=bold)
    except Exception:  # no fontconfig: fall through to pygame's font
        found = None
    if found:
        return Path(found)
    log.warning("DejaVu Sans not found (apt install fonts-dejavu-core): Latvian and Cyrillic may not show")
    return None


def drawable(text: str) -> bool:
    """True when the kiosk's fonts, regular and bold, have a glyph for every character of ``text``
    (a name typed with an emoji would show as empty boxes on every screen)."""
    import pygame

    # Opened afresh for each question (a key typed at human speed): a Font kept across a
    # pygame.quit() (the demo's evening ends, a test's) would crash when asked again.
    pygame.font.init()
    for bold in (False, True):
        path = font_file(bold)
        if any(m is None for m in pygame.font.Font(str(path) if path else None, 12).metrics(text)):
            return False
    return True


@dataclass
class Theme:
    """Sizes for one window size, and a font cache. ``unit`` px = 1/480 of the window height."""

    width: int
    height: int

    def __post_init__(self) -> None:
        self.unit = self.height / 480.0
        self._fonts: dict[tuple[int, bool], object] = {}
        self._files = {False: font_file(False), True: font_file(True)}

    def px(self, n: float) -> int:
        """``n`` design px (at 480 px high) in window px."""
        return max(1, round(n * self.unit))

    @property
    def touch(self) -> int:
        """Minimum height of a touch target, px (60 at 480 high)."""
        return self.px(60)

    @property
    def gap(self) -> int:
        """The space between widgets, px."""
        return self.px(8)

    def font(self, size: float, bold: bool = False):
        """A pygame Font ``size`` design px high (scaled to the window), cached."""
        import pygame

        px = self.px(size)
        key = (px, bold)
        if key not in self._fonts:
            path = self._files[bold]
            f = pygame.font.Font(str(path) if path else None, px)
            if path is None and bold:
                f.set_bold(True)
            self._fonts[key] = f
        return self._fonts[key]
