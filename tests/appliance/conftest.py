"""The kiosk tests' shared check: "readable from 2 metres", no text a player must read under 20 px
at 800x480 (the 7-inch display), nor cut short with "…"."""

from __future__ import annotations

import pygame
import pytest

from appliance.kiosk import theme as th
from appliance.kiosk import widgets

READABLE_PX = th.READABLE  # the smallest font, px at 800x480, a player reads from 2 metres


class TextSizes:
    """Records every text drawn through ``widgets.text``: its content, font height, whether it was
    cut, and ``where`` it was drawn (a label the test sets, e.g. the screen's key). ``small(size)``:
    the texts drawn in a font smaller than READABLE_PX px would be at that window size (the theme
    scales fonts with the window height), or cut short.

    Exempt, as no player needs to read them: a button's keyboard digit (``widgets.KEY_SIZE``), a
    hint for a keyboard on a desk."""

    def __init__(self) -> None:
        self.drawn: list[tuple[str, int, bool]] = []
        self.where = ""
        self.places: list[str] = []  # where each of ``drawn`` was drawn
        self._font = None

    def fitted_font(self, original):
        def wrapper(t, content, size, box, **kw):
            font, wrapped = original(t, content, size, box, **kw)
            self._font = (font, wrapped, size == widgets.KEY_SIZE)
            return font, wrapped
        return wrapper

    def hook(self, content: str, drawn, box) -> None:
        font, wrapped, key_hint = self._font
        if not key_hint:
            self.drawn.append((content, font.get_height(), " ".join(wrapped).split() != content.split()))
            self.places.append(self.where)

    def small(self, size: tuple[int, int]) -> list[str]:
        least = th.Theme(*size).font(READABLE_PX).get_height()
        return [f"{where + ': ' if where else ''}{c!r}: {h} px high{' and cut' if cut else ''} (least {least})"
                for (c, h, cut), where in zip(self.drawn, self.places) if h < least or cut]

    def clear(self) -> None:
        """Forget what was drawn so far."""
        self.drawn.clear()
        self.places.clear()


@pytest.fixture
def text_sizes(monkeypatch):
    """A ``TextSizes`` recording every text the kiosk draws during the test."""
    pygame.init()
    rec = TextSizes()
    monkeypatch.setattr(widgets, "fitted_font", rec.fitted_font(widgets.fitted_font))
    monkeypatch.setattr(widgets, "text_hook", rec.hook)
    return rec
