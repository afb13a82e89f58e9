"""The Fix dice screen leads to what can help: with a camera that gives pictures, reading the dice
again; with no camera, or one that gives no picture now ("Camera not found"), entering them by hand
(the first choice, the gold one, digit 1)."""

from __future__ import annotations

import numpy as np

from appliance.kiosk.app import App
from appliance.kiosk.camera import CameraPipeline
from vision.reading import DiceReading, Die
from vision.settle import SettleDetector
from vision.sources import CameraMissing, Frame


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


class Unplugged:
    """A camera source that is missing until ``plug()``, then gives grey frames."""

    def __init__(self) -> None:
        self.there, self.index = False, 0

    def plug(self) -> None:
        self.there = True

    def read(self) -> Frame:
        if not self.there:
            raise CameraMissing("no camera at /dev/video5")
        self.index += 1
        return Frame(np.full((48, 64, 3), 90, np.uint8), self.index / 30, self.index)

    def close(self) -> None:
        pass


def first(app: App):
    choice = app.view().choices[0]
    assert choice.style == "primary" and [c.style for c in app.view().choices].count("primary") == 1
    return choice.id


def biscuit(app: App) -> App:
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("fix")
    return app


def test_without_a_camera_the_fix_screen_leads_to_entering_the_dice_by_hand():
    app = biscuit(App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0))
    assert first(app) == "hand"
    app.select(1)
    assert app.screen == "hand"


def test_with_a_camera_that_gives_no_picture_entering_by_hand_comes_first_until_it_does():
    source = Unplugged()
    camera = CameraPipeline(source, SettleDetector(lambda image, expected=None, reference=None: reading(2, 5)),
                            lambda r: None)
    app = biscuit(App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0, camera=camera))
    camera.step()                       # "Camera not found — check its cable"
    assert camera.gives_no_picture and first(app) == "hand"
    source.plug()
    camera.step()
    assert not camera.gives_no_picture and first(app) == "reread"


def test_a_misread_roll_is_entered_by_hand_first_without_a_camera_and_read_again_with_one():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(2, 4))       # the last roll (misread?), and the next roll is due
    app.choose("fix")
    assert first(app) == "rehand"
    app.camera = type("Camera", (), {"gives_no_picture": False})()
    assert first(app) == "undo_reread"


def test_dice_typed_on_a_keypad_are_taken_with_enter():
    from appliance.inputs import Command

    now = [0.0]
    app = biscuit(App(players=["Ann", "Bo", "Cy"], clock=lambda: now[0]))
    # Enter by hand, then the faces at once (a quick typist: the key guard is not for faces), then OK
    for dt, key in ((0.0, Command("select", 1, "key")), (0.1, Command("select", 6, "key")),
                    (0.1, Command("select", 5, "key")), (0.5, Command("activate", None, "key"))):
        now[0] += dt
        app.handle(key)
    assert app.screen == "play" and sorted(app.last_seen) == [5, 6]
