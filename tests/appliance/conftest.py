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


# --- the guided setup's camera, scripted ------------------------------------------------------------

class FakeCamera:
    """The camera pipeline as the guided setup uses it (``feed``, ``state``, ``last_settled``,
    ``calibrate``, ``exposure``), scripted: ``frame`` (None: a camera fault, said by ``status``),
    ``state`` and ``dice`` of the live view; ``lock``: what a lock answers (values, or an exception; an exception fails every action).
    ``throw(values)`` puts a synthetic throw on the tray and returns its settled reading."""

    def __init__(self, frame, lock=None):
        self.frame, self.state, self.dice, self.ok, self.status = frame, "empty", (), True, "Tray empty"
        self.lock = {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": [2.1, 1.6]} if lock is None else lock
        self.calibrated: list[tuple] = []
        self.asked: list[str] = []
        self.used: list[dict] = []  # the values each "use" asked for
        self.last_settled = (None, None)

    def feed(self):
        return self.frame, self.dice, self.ok, self.status

    def calibrate(self, tray, reference):
        self.calibrated.append((tray, reference))

    def exposure(self, action, values=None):
        from concurrent.futures import Future

        self.asked.append(action)
        if action == "use":
            self.used.append(values)
        future = Future()
        if isinstance(self.lock, BaseException):
            future.set_exception(self.lock)
        else:
            future.set_result(self.lock if action == "lock" else None)
        return future

    def gone(self, status="No camera found"):
        """The camera vanished: no picture, the status says why, a lock gets no answer."""
        from vision.sources import CameraTimeout

        self.frame, self.ok, self.status, self.lock = None, False, status, CameraTimeout("no frame came")

    def throw(self, values, seed=0):
        """A settled throw of ``values`` on the synthetic table: its frame is the last settled one."""
        from vision.reader import read_dice
        from vision.synth import render_still

        image, _truth = render_still(values, seed=seed)
        reading = read_dice(image, expected=len(values))
        self.last_settled = (image, reading)
        self.frame, self.state = image, "still"
        return reading


def _empty_tray():
    from vision.synth import SyntheticTable

    table = SyntheticTable(2, seed=0)
    return table.read().image, table.tray_area


@pytest.fixture
def empty_tray():
    """(a frame of the empty synthetic tray, the tray's area in it)."""
    return _empty_tray()


@pytest.fixture
def make_camera():
    """Makes a ``FakeCamera`` over the empty synthetic tray."""
    return lambda: FakeCamera(_empty_tray()[0])


@pytest.fixture
def guided_table(tmp_path):
    """(app, camera, store): a kiosk with a store and a scripted camera over an empty tray, the
    guided setup not yet begun. The app's clock is ``app.now[0]`` s."""
    from appliance.kiosk.app import App
    from appliance.store import Store

    camera = FakeCamera(_empty_tray()[0])
    store = Store.open(tmp_path / "state")
    now = [0.0]
    app = App(store=store, clock=lambda: now[0], camera=camera)
    app.now = now
    yield app, camera, store
    store.close()
