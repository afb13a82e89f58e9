"""Every screen of the guided setup, in every language, at the 7-inch display's 800x480 and a TV's
1920x1080: no text a player reads under 20 px (at 800x480; scaled alike at 1920x1080), none cut
short, every touch target a finger wide. With DICETABLE_SHOTS=DIR the screens are saved there as
PNGs, to be looked at."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from appliance import i18n
from appliance.kiosk import guided_view
from appliance.kiosk import theme as th
from appliance.kiosk.draw import CameraFeed, draw
from vision.adapt import Adaptation, Fitted
from vision.reading import unreadable
from vision.sources import ExposureUnsupported

SIZES = [(800, 480), (1920, 1080)]
FINGER = 56  # design px: the least side of a touch target (as tests/appliance/kiosk/test_render.py)


def tour(app, camera, show) -> None:
    """The guided setup through every step and phase, ``show(name)`` at each."""
    import numpy as np

    from appliance.kiosk.screens.guided import SETTLE_S

    app.open_guided()
    show("tray-found")
    frame = camera.frame
    camera.frame = np.full_like(frame, 128)
    app.choose("look")
    show("tray-none")
    camera.gone("No camera found")
    app.choose("look")
    show("tray-no-picture")
    camera.frame, camera.ok, camera.status, camera.lock = frame, True, "Tray empty", {
        "ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": [2.1, 1.6]}
    app.choose("look")
    camera.ok, camera.status = False, i18n._("The tray area lies outside the picture: set up the tray again")
    show("tray-outside-picture")  # the camera's longest status, where it sends the staff
    camera.ok, camera.status = True, "Tray empty"
    app.choose("confirm")
    show("light")
    app.choose("lock")
    app.tick()
    show("light-settling")
    app.now[0] += SETTLE_S + 0.1
    app.tick(), app.tick()
    show("light-locked")
    app.guided.light_values = {"exposure": 156.0, "wb_temperature": 4600.0}
    show("light-locked-webcam")
    camera.lock = ExposureUnsupported("no")
    app.choose("lock")
    app.tick()
    show("light-failed")
    app.choose("skip")
    show("reference")
    camera.state = "moving"
    app.choose("picture")
    show("reference-moving")
    camera.state = "empty"
    app.choose("picture")
    show("reference-taken")
    app.choose("next")
    show("teach")
    app.choose("finish")  # too soon: said beside the instruction
    show("teach-too-soon")
    app.on_reading(camera.throw((6, 5, 4, 2, 1)))
    show("teach-read")
    app.choose("fixthrow")
    show("teach-hand")
    app.choose("back")
    app.choose("again")
    image, reading = camera.last_settled
    lost = unreadable("expected 5 dice, found 4", reading.dice[:4], "count")
    camera.last_settled = (image, lost)
    app.on_reading(lost)
    show("teach-unreadable")
    app.choose("again")
    cocked = unreadable("a die is cocked", reading.dice, "cocked")
    camera.last_settled = (image, cocked)
    app.on_reading(cocked)
    show("teach-cocked")  # no throw: only thrown again
    app.choose("again")
    app.guided.fitting = "asked"
    show("teach-fitting")
    app.guided.fitting = ""
    heads = Adaptation.identity(8)
    app.store.add_throws([(np.zeros((2, 32, 32, 3), np.uint8), [4, 5])], "teach")  # something to forget
    for name, fitted, taught in (("used", Fitted(heads, "", (4, 20, 0), (6, 29, 0), 6), 6),
                                 ("counted", Fitted(replace(heads, die_at=0.45, doubt_at=0.35), "", (6, 30, 0),
                                                    (6, 30, 0), 6, 0.1, (6, 2, 6)), 6),
                                 ("not-used", Fitted(None, "", (6, 30, 0), (6, 30, 0), 6), 6),
                                 ("contradicted", Fitted(None, "", (0, 0, 0), (0, 0, 0), 6, contradicted=(30, 30)), 6),
                                 ("too-few", Fitted(None, ""), 3)):
        app.guided.decision = guided_view.decision(fitted, taught)
        app.guided.contradicted = bool(fitted.contradicted[0])  # with "Forget these dice" beside Done
        show(f"teach-decided-{name}")
    app.choose("done")
    show("setup")
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("menu")
    show("menu")
    store, app.store = app.store, None
    app.open_guided()
    for _step in ("tray", "exposure", "reference"):
        app.choose("skip")
    show("teach-no-store")
    app.choose("later")
    app.store = store
    app.camera = None
    app.open_guided()
    show("no-camera")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_guided_setup_screen_is_readable_in_every_language(guided_table, text_sizes, lang, size):
    app, camera, _store = guided_table
    app.players = ["Ann", "Bo", "Cy"]
    app.setup.seats = list(app.players)
    i18n.set_language(lang)
    surface, theme = pygame.Surface(size), th.Theme(*size)
    shots = os.environ.get("DICETABLE_SHOTS")
    shown: list[str] = []
    problems: list[str] = []

    def show(name: str) -> None:
        app.tick()
        text_sizes.drawn.clear()
        hits = draw(surface, app.view(), theme, CameraFeed(*camera.feed()))
        problems.extend(f"{name}: {cid} is {rect.size}" for rect, cid in hits
                        if min(rect.size) < theme.px(FINGER) - 1 and not cid.startswith(("die:", "dismiss")))
        small = text_sizes.small(size)
        if name in ("setup", "menu"):  # screens of their own: here only their way into the setup
            small = [p for p in small if i18n._("Set up the table") in p]
        problems.extend(f"{name}: {p}" for p in small)
        shown.append(name)
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            pygame.image.save(surface, str(Path(shots) / f"{lang}-{size[0]}x{size[1]}-{len(shown):02d}-{name}.png"))

    try:
        tour(app, camera, show)
    finally:
        i18n.set_language("en")
    assert len(shown) == 28
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_message_line_leaves_every_guided_setup_question_in_view(guided_table, text_sizes, monkeypatch, lang, size):
    """At a first start after a pulled plug damaged the saved games, their 12 s notice shows while the
    guided setup asks its first question: the question (the prompt) is drawn whole below it, every
    text still readable, no choice under the message."""
    from appliance.kiosk import widgets
    from appliance.kiosk.draw import message_rect

    app, camera, _store = guided_table
    i18n.set_language(lang)
    surface, theme = pygame.Surface(size), th.Theme(*size)
    boxes: dict[str, pygame.Rect] = {}
    def seen(content, drawn, box):
        boxes.setdefault(content, drawn)
        text_sizes.hook(content, drawn, box)

    monkeypatch.setattr(widgets, "text_hook", seen)
    problems: list[str] = []

    def show(name: str) -> None:
        notice = i18n._("The saved games could not be read ({problem}). They were put aside for the staff; "
                        "play starts fresh.").format(problem="database disk image is malformed")
        app.say(notice, seconds=12)
        app.tick()
        if app.view().screen != "guided":  # the hand entry, setup and menu: their heads lie under it
            return
        boxes.clear()
        text_sizes.clear()
        hits = draw(surface, app.view(), theme, CameraFeed(*camera.feed()))
        problems.extend(f"{name}: {p}" for p in text_sizes.small(size))
        covered = message_rect(theme, size[0], notice, hits)[0]
        prompt = boxes.get(app.view().prompt)
        if prompt is None or prompt.colliderect(covered):
            problems.append(f"{name}: the question {app.view().prompt!r} at {prompt} under the message {covered}")
        problems.extend(f"{name}: {cid} under the message" for rect, cid in hits
                        if cid != "hush" and rect.colliderect(covered))

    try:
        tour(app, camera, show)
    finally:
        i18n.set_language("en")
    assert not problems, "\n".join(problems)
