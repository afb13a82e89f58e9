"""The kiosk's font: DejaVu Sans, bundled (licence in ``LICENSE`` beside this file).

It covers every letter the four languages use (German umlauts and ß, Latvian ā č ē ģ ī ķ ļ ņ š ū ž,
Russian Cyrillic with ё) and the symbols the screens use; ``tests/appliance/test_i18n_render.py``
checks every catalog message against it. Bundled rather than taken from /usr/share/fonts so that the
kiosk on the Pi and the tests here measure text with the very same file.
"""

from __future__ import annotations

from pathlib import Path

_DIR = Path(__file__).resolve().parent
REGULAR = _DIR / "DejaVuSans.ttf"
BOLD = _DIR / "DejaVuSans-Bold.ttf"


def font_path(bold: bool = False) -> Path:
    """Path of the bundled TrueType font, regular or bold; pass it to ``pygame.font.Font(path, size_px)``."""
    return BOLD if bold else REGULAR
