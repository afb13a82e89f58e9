"""A folder of photos as the kiosk's camera ([camera] source = "/path/to/folder"): the next photo
only when the game waits for a throw, each one in view until the game took it (or ``RETRY_S``
after it settled untaken), round again; the real settle detector and dice reader read them, on the
folder's virtual time. It played out at once and gave no throw (each image was one frame)."""

from __future__ import annotations

import cv2

from appliance.folder_table import RETRY_S, FolderTable
from appliance.inputs import Command
from appliance.kiosk.app import App, Hooks
from appliance.kiosk.camera import CameraPipeline
from vision.reader import read_dice
from vision.settle import SettleDetector
from vision.sources import ImageFolderSource
from vision.synth import TableLook, render_still

FPS = 10.0
PHOTOS = [(2, 6), (1, 1), (3, 5)]  # stills the reader reads (tests/vision/test_watch.py)


def _folder(folder, throws, first_seed: int = 40):
    for i, values in enumerate(throws):
        img, _ = render_still(values, seed=first_seed + i, look=TableLook())
        cv2.imwrite(str(folder / f"throw_{i}.png"), img)
    return folder


class Table:
    """The kiosk core on a folder of photos, stepped in one thread on the folder's virtual time: each
    frame the table ticks (as the kiosk's frame hook does), the camera steps, and what settled goes
    to the kiosk as its queue would give it."""

    def __init__(self, folder) -> None:
        self.source = ImageFolderSource(folder, fps=FPS, loop=True, wait=True)
        self.pipeline = CameraPipeline(self.source, SettleDetector(read_dice), lambda reading: None)
        self.app = App(players=["Ann", "Bo", "Cy"], clock=lambda: self.t,
                       hooks=Hooks(expect=self.pipeline.expect, reread=self.pipeline.reread))
        self.table = FolderTable(self.app, self.pipeline, clock=lambda: self.t)
        self.said: list[str] = []

    @property
    def t(self) -> float:
        """The folder's virtual time, s: the table's and the kiosk's clock."""
        return self.source.index / FPS

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.table.tick()
            settled = self.pipeline.step()
            if settled is not None:
                self.app.handle(Command("settled", settled, source="camera"))
            if self.app.message not in ("", *self.said[-1:]):
                self.said.append(self.app.message)

    def until(self, done, seconds: float = 30.0) -> None:
        """Step until ``done()``, at most ``seconds`` of the folder's time."""
        end = self.t + seconds
        while not done():
            assert self.t < end, f"not within {seconds} s: rolls {self.rolls()}, said {self.said}"
            self.frames(1)

    def rolls(self) -> list[list[int]]:
        s = self.app.session
        return [] if s is None else [sorted(a["roll"]) for a, _e in s.history if "roll" in a]


def test_the_folder_waits_for_the_game_and_each_photo_is_one_throw_round_again(tmp_path):
    t = Table(_folder(tmp_path, PHOTOS))
    t.frames(int(5 * FPS))  # the setup screen: no photo shown, none played out
    assert t.source.current_file is None and t.pipeline.last_settled == (None, None)
    t.app.setup.game_kind = "biscuit"  # none of the photos is a 7: each player rolls in turn
    assert t.app.start_game()
    t.until(lambda: len(t.rolls()) == 4)
    assert t.rolls() == [sorted(v) for v in PHOTOS + PHOTOS[:1]]  # the first photo again counts again


def test_nothing_is_shown_while_the_game_waits_for_no_throw(tmp_path):
    t = Table(_folder(tmp_path, PHOTOS))
    t.app.setup.game_kind = "biscuit"
    assert t.app.start_game()
    t.until(lambda: len(t.rolls()) == 1)
    t.app.choose("menu")
    shown = t.source.current_file
    t.frames(int(3 * RETRY_S * FPS))
    assert t.source.current_file == shown and len(t.rolls()) == 1


def test_a_photo_the_game_does_not_take_gives_way_to_the_next(tmp_path):
    _folder(tmp_path, [(4,)], first_seed=60)  # throw_0: one die, the game wants two
    (tmp_path / "throw_0.png").rename(tmp_path / "a_one_die.png")
    _folder(tmp_path, PHOTOS[:1])
    t = Table(tmp_path)
    t.app.setup.game_kind = "biscuit"
    assert t.app.start_game()
    t.until(lambda: len(t.rolls()) == 1)
    assert t.rolls() == [[2, 6]] and t.t >= RETRY_S
    assert any("needed" in m for m in t.said), t.said  # the one die was said, then the next photo
