"""``dicetable demo``: the whole appliance on a table that needs no hardware.

Headless (no display, or ``--headless``), :class:`ScriptedEvening` plays an evening of all three
games — Mäxle, Biscuit, declared Yacht — and prints a transcript. The demo plays the *table*: it
throws the dice (the synthetic table renders them; with ``--source DIR`` a folder of real photos
gives each throw), makes every choice on the kiosk by tapping it (posted touch events), presses the
REVEAL button (a gpiozero mock pin) and says so. Everything else is the real appliance: every roll
is read by the settle detector and the dice reader from the frames, the session and the engine play
the rules, the kiosk announces and draws. A roll the camera cannot read is thrown again or entered
by hand on the kiosk's correction screen, and a misread the table notices is corrected there; the
transcript says so each time. One screenshot per screen goes into the output folder. Each game's
players are its table module's demo bot (``appliance.table.<game>``, ``Table.demo_bot``); they act
through the evening's hands: ``start``, ``table_for``, ``tap``, ``roll``, ``press_reveal``,
``wait_still``, ``show_correction``, ``table_says``, ``dice`` and ``rng``.

With a display, :func:`play_window` opens the kiosk in a window on the trial mode's simulated table
(``appliance.trial``), which throws the dice (or shakes and lifts the Mäxle cup) whenever the game
waits for it; Space does it at once, R is REVEAL, digits and the mouse pick. Its store is a
temporary one, gone when the window closes, so the guided setup (the setup screen's "Set up the
table", and the menu's) can be walked through as on a real table: the simulated table clears its
tray and throws the dice the teach step asks for.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from appliance.i18n import _
from appliance.inputs import Command, CommandQueue, GpioButtons
from appliance.kiosk.app import App, Hooks
from appliance.kiosk.words import unreadable_reason
from appliance.table import find_table, game_name, kinds
from appliance.table.base import Announcement, dice_text
from vision.sources.stills import Photo, PhotoSource
from vision.sources.stills import photo_pools as vision_photo_pools

log = logging.getLogger(__name__)

FPS = 15.0  # the camera's frame rate (config [camera] fps defaults to 15 too)
STEP = 1.0 / FPS
DRAW_EVERY = 15         # headless: draw once a (virtual) second, and always before a tap: the screenshots
MAX_THROW_S = 6.0       # virtual seconds to wait for a throw to settle
UNLABELLED_TRIES = 12   # photos without labels: how many photos a roll may take before the demo gives up


# ---------------------------------------------------------------------------------------- tables

class SynthTable:
    """The synthetic table as the demo scripts it: the demo chooses the values it throws (it is the
    table: it sees its own dice), the frames go to the camera pipeline."""

    name = "synthetic table"

    def __init__(self, dice: int, seed: int, size: tuple[int, int] = (640, 480)) -> None:
        from vision.synth import SyntheticTable, TableLook

        self.source = SyntheticTable(dice, seed=seed, fps=FPS, look=TableLook(size=size), throw_s=0.6)
        self.has_cup = False

    def throw(self, values) -> tuple[int, ...] | None:
        """Throw ``values`` in the open; returns what the dice show (the table sees them)."""
        self.source.throw(list(values))
        self.has_cup = False
        return tuple(values)

    def cover(self, values) -> tuple[int, ...] | None:
        """Mäxle: shake ``values`` under the cup and put it down; returns what the holder peeks."""
        self.source.cover(list(values))
        self.has_cup = True
        return tuple(values)

    def lift(self) -> None:
        """Lift the cup off the dice."""
        if self.has_cup:
            self.source.lift()
            self.has_cup = False

    def moving(self) -> bool:
        """True while something scripted still moves on the table."""
        return self.source.frames_until_still() > 0


class PhotoTable:
    """Real photos as the table: each throw is the next photo with the needed number of dice.

    The values the demo would like to throw are ignored: the photo decides. The table "sees" its
    dice through the manifest's labels when there is one (to peek under the Mäxle cup and to notice
    a misread); without labels it cannot peek and trusts the camera.
    """

    name = "real photos"

    def __init__(self, pools: dict[int, list[Photo]]) -> None:
        self.pools = {n: list(p) for n, p in pools.items()}
        self.next = {n: 0 for n in pools}
        self.source = PhotoSource(FPS)
        self.has_cup = False
        self._hidden: Photo | None = None
        self.used: list[Photo] = []
        # Labels (a manifest) let the table peek and enter a roll by hand; without them an
        # unreadable photo is replaced by another.
        self.labelled = all(p.values is not None for pool in self.pools.values() for p in pool)

    def _take(self, n: int) -> Photo:
        pool = self.pools.get(n) or []
        if not pool:
            raise DemoError(_("no photo with {n} dice in the source folder").format(n=n))
        photo = pool[self.next[n] % len(pool)]
        self.next[n] += 1
        self.used.append(photo)
        return photo

    def _image(self, photo: Photo) -> np.ndarray:
        from vision.images import ImageError, load_image

        try:
            return load_image(photo.path)
        except ImageError:
            raise DemoError(_("cannot read the photo {path}").format(path=photo.path)) from None

    def throw(self, values) -> tuple[int, ...] | None:
        photo = self._take(len(values))
        self.source.show(self._image(photo))
        self.has_cup = False
        self.current = photo
        return photo.values

    def cover(self, values) -> tuple[int, ...] | None:
        self._hidden = self._take(len(values))
        self.source.show(None)  # the cup: an empty, dark scene
        self.has_cup = True
        return self._hidden.values

    def lift(self) -> None:
        if self.has_cup and self._hidden is not None:
            self.source.show(self._image(self._hidden))
            self.current = self._hidden
        self.has_cup = False

    def moving(self) -> bool:
        return self.source.moving > 0


def photo_pools(folder: Path, seed: int, needed=(2, 5)) -> dict[int, list[Photo]]:
    """The photos of ``folder`` by number of dice (2 and 5), shuffled with ``seed``
    (``vision.sources.photo_pools``: a manifest's labels, or the dice reader's count). Raises
    DemoError when the folder is not one or has no photo of a count in ``needed``.
    """
    try:
        pools = vision_photo_pools(folder, seed, (2, 5))
    except NotADirectoryError:
        raise DemoError(_("--source {folder}: not a folder").format(folder=folder)) from None
    missing = [n for n in needed if not pools[n]]
    if missing:
        raise DemoError(_("--source {folder}: needs photos of {counts} dice (found {two} of 2 and {five} of 5)")
                        .format(folder=folder, counts=" & ".join(map(str, sorted(needed))), two=len(pools[2]),
                                five=len(pools[5])))
    return pools


class DemoError(RuntimeError):
    """The demo cannot go on (a missing source, a screen without the choice it needs). ``status``:
    the command's exit status, 2 for arguments it cannot take (as argparse's), else 1."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# -------------------------------------------------------------------------------------- evening

@dataclass
class Stats:
    """What the camera did over the evening."""

    throws: int = 0
    read_right: int = 0
    unreadable: int = 0
    misread: int = 0
    by_hand: int = 0
    unchecked: int = 0  # read ok, but the table has no labels to check them against
    read_again: int = 0  # rolls taken back and read again from the same dice (the correction shown once)

    def line(self) -> str:
        """What the camera made of the throws."""
        return _("{throws} throws read by the camera: {right} right, {misread} misread (corrected by hand), "
                 "{unreadable} unreadable (thrown again or entered by hand), {unchecked} not checkable "
                 "(no labels)").format(throws=self.throws, right=self.read_right, misread=self.misread,
                                       unreadable=self.unreadable, unchecked=self.unchecked)

    def rolls_line(self, sources: dict[str, int]) -> str:
        """The rolls the engine took (``sources``: Session.roll_sources added up), said so that they
        add up with :meth:`line`: every throw read (right, misread or unchecked) once, the rolls read
        again after Fix dice, the hand entries."""
        camera = sources.get("camera", 0)
        return _("rolls the engine took: {camera} from the camera ({taken} of the throws above, the "
                 "unreadable ones not, and {again} read again after Fix dice), {hand} entered by hand").format(
            camera=camera, taken=camera - self.read_again, again=self.read_again, hand=sources.get("hand", 0))


@dataclass
class ScriptedEvening:
    """The headless demo. out: the screenshot folder; size: the kiosk's window size (px);
    source: a folder of real photos instead of the synthetic table; seed: every random choice;
    say: where transcript lines go (print)."""

    out: Path
    size: tuple[int, int] = (800, 480)
    source: Path | None = None
    seed: int = 7
    say: Callable[[str], None] = print
    games: tuple[str, ...] = kinds()
    stats: Stats = field(default_factory=Stats)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.now = 0.0
        self.shots: dict[str, Path] = {}
        self.transcript: list[str] = []
        self._settled: list = []
        self._frame = 0
        self._tapped_at = float("-inf")  # virtual s of the table's last tap
        unknown = [g for g in self.games if g not in kinds()]
        if not self.games:
            raise DemoError(_("name at least one game: maexle, biscuit or yacht"), status=2)
        if unknown:
            raise DemoError(_("the games are maexle, biscuit and yacht, not {games}").format(games=", ".join(unknown)),
                            status=2)
        needed = {5} if self.games == ("yacht",) else ({2} if "yacht" not in self.games else {2, 5})
        self.pools = photo_pools(self.source, self.seed, needed) if self.source else None
        self.sessions: list = []

    # -- the parts ------------------------------------------------------------------------------

    def _build(self) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        from gpiozero.pins.mock import MockFactory

        from appliance.kiosk.loop import Kiosk

        self.commands = CommandQueue()
        self.app = App(clock=lambda: self.now, yacht_hint=True, maexle_odds=True,
                       hooks=Hooks(announce=self._announced, expect=self._expect, reread=self._reread))
        self.pins = MockFactory()
        self.buttons = GpioButtons(self.commands, reveal_pin=17, clock=lambda: self.now, pin_factory=self.pins)
        self.kiosk = Kiosk(self.app, self.commands, size=self.size, buttons=self.buttons)
        self.pipeline = None

    def table_for(self, dice: int, seed: int):
        """The next game's table and its camera pipeline, set up before the game starts (the kiosk
        then shows this table, not the last game's dice). The detector starts with the dice count
        the kiosk last told the camera; the kiosk tells it when a game needs another."""
        from vision.reader import read_dice
        from vision.settle import SettleDetector

        from appliance.kiosk.camera import CameraPipeline

        table = PhotoTable(self.pools) if self.pools else SynthTable(dice, seed)
        detector = SettleDetector(read_dice, self.app.camera_dice)
        self.pipeline = CameraPipeline(table.source, detector, self._on_settled)
        self.kiosk.pipeline = self.app.camera = self.pipeline
        return table

    def _on_settled(self, reading) -> None:
        self._settled.append(reading)
        if reading.ok:
            self._line(_("camera: read {dice}").format(dice=dice_text(reading.values)))
        else:
            self._line(_("camera: cannot read the dice ({reason})").format(reason=unreadable_reason(reading)))
        self.commands.put(Command("settled", reading, source="camera"))

    def _expect(self, dice) -> None:
        if self.pipeline is not None:
            self.pipeline.expect(dice)

    def _reread(self) -> None:
        if self.pipeline is not None:
            self.pipeline.reread()

    def _announced(self, items: list[Announcement]) -> None:
        for a in items:
            self._line(f"  >> {a.text}" + (f"  ({a.detail})" if a.detail else ""))

    def _line(self, text: str) -> None:
        self.transcript.append(text)
        self.say(text)

    def table_says(self, text: str) -> None:
        """A line for what the demo does as the table (its choices, its throws, its buttons)."""
        self._line(_("table: {text}").format(text=text))

    # -- time -----------------------------------------------------------------------------------

    def frame(self, draw: bool | None = None) -> None:
        """One frame of virtual time: a camera frame through the pipeline, then one kiosk frame."""
        if self.pipeline is not None:
            self.pipeline.step()
        self._frame += 1
        draw = self._frame % DRAW_EVERY == 0 if draw is None else draw
        self._kiosk_step(draw)
        self.now += STEP

    def _kiosk_step(self, draw: bool) -> None:
        self.kiosk.step(draw=draw)
        if draw:
            self._maybe_shot()

    def _maybe_shot(self) -> None:
        view = self.kiosk.view
        if view is None:
            return
        key = view.key + ("-announcement" if view.banner is not None else "") + ("-message" if view.message and
                                                                               view.banner is None else "")
        if key.endswith("-message") and key[:-8] in self.shots:
            return
        if key not in self.shots:
            import pygame

            path = self.out / f"{len(self.shots) + 1:02d}-{key}.png"
            try:
                self.shots[key] = self.kiosk.screenshot(path)
            except (pygame.error, OSError) as exc:  # a read-only folder, a full disk
                raise DemoError(_("cannot save the screenshots in {folder}: {reason}").format(
                    folder=self.out, reason=getattr(exc, "strerror", None) or exc)) from None

    # -- the table's hands ----------------------------------------------------------------------

    def tap(self, cid: str, why: str = "") -> None:
        """Tap the choice ``cid`` on the kiosk, as a finger would (a posted FINGERDOWN event)."""
        import pygame

        self.clear_banners()
        self._look()
        self.kiosk.redraw()
        self._maybe_shot()
        rect = next((r for r, c in self.kiosk.hits if c == cid), None)
        if rect is None:
            raise DemoError(f"the {self.app.screen} screen offers no {cid!r} (choices: "
                            f"{[c for _r, c in self.kiosk.hits]})")
        if why:
            self.table_says(why)
        w, h = self.kiosk.screen.get_size()
        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=rect.centerx / w, y=rect.centery / h,
                                             touch_id=1, finger_id=0, dx=0.0, dy=0.0, pressure=1.0))
        self._tapped_at = self.now
        self.frame(draw=True)

    def _look(self) -> None:
        """A person looks at a screen before pressing on it: the kiosk drops a tap so soon after the
        last one, on a changed screen, as the same finger's bounce (appliance.kiosk.loop.TAP_GUARD_S),
        and a press so soon after a settled roll changed the screen as aimed at the one before
        (appliance.kiosk.app.ROLL_GUARD_S)."""
        from appliance.kiosk.app import ROLL_GUARD_S
        from appliance.kiosk.loop import TAP_GUARD_S

        while self.now - self._tapped_at <= TAP_GUARD_S or self.now - self.app.roll_changed_at <= ROLL_GUARD_S:
            self.frame()

    def key(self, name: str) -> None:
        """Press a key (pygame key name), as a USB keypad would."""
        import pygame

        self._look()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), mod=0, unicode="",
                                             scancode=0))
        self.frame(draw=True)

    def press_reveal(self) -> None:
        """Press and release the REVEAL button (a mock GPIO pin, debounced by the kiosk)."""
        self.clear_banners()
        pin = self.pins.pin(17)
        pin.drive_low()
        for _n in range(6):  # held 0.2 s
            self.frame()
        pin.drive_high()
        for _n in range(3):
            self.frame()

    def clear_banners(self) -> None:
        """The table has read the announcements on screen; a tap on each moves on (after its shot)."""
        for _n in range(20):
            if self.app.banner is None and not self.app.banners:
                return
            self.kiosk.redraw()
            self._maybe_shot()
            self.app.dismiss_banner()

    def settle(self, table) -> object | None:
        """Run frames until the camera reports a settled reading (returned), or give up (None)."""
        self._settled.clear()
        for _n in range(int(MAX_THROW_S * FPS)):
            self.frame()
            if self._settled:
                self.frame(draw=True)  # the kiosk handles the settled command
                return self._settled[-1]
        return None

    def wait_still(self, table) -> None:
        """Frames until the cup stands still (the camera sees only the cup)."""
        for _n in range(int(MAX_THROW_S * FPS)):
            if not table.moving():
                return
            self.frame()

    # -- throwing and checking --------------------------------------------------------------------

    def roll(self, table, n: int, values=None, *, keep=(), lift: bool = False, seen=None, tries: int = 3) -> bool:
        """Throw ``n`` dice (or lift the cup) until the session takes a roll: the camera's reading,
        or the table's hand entry after unreadable throws or a misread. ``values``: the first
        throw's dice (else random); ``keep``: dice kept out of a Yacht reroll, which stay when a throw
        the camera cannot read is thrown again; ``seen``: with ``lift``, what the holder peeked under
        the cup (None: the table cannot tell). Returns True when taken."""
        hidden = seen
        session = self.app.session
        if not getattr(table, "labelled", True):
            tries = max(tries, UNLABELLED_TRIES)
        self.clear_banners()  # the table reads the kiosk before it throws
        for attempt in range(tries):
            before = len(session.game.actions)
            if lift:
                seen = hidden
                table.lift()
            else:
                if values is None or attempt > 0:
                    values = tuple(keep) + self.dice(n - len(keep))
                seen = table.throw(values)
                self.table_says(_("{player} throws {dice}").format(player=session.need.player,
                                                                    dice=dice_text(seen) if seen else _("the dice")))
            reading = self.settle(table)
            self.stats.throws += 1
            if reading is None:
                self._line(_("camera: sees no dice"))
                self.stats.unreadable += 1
            took = len(session.game.actions) > before
            if took:
                read = tuple(sorted(session.last_roll or ()))
                if seen is None:
                    self.stats.unchecked += 1
                    return True
                if read == tuple(sorted(seen)):
                    self.stats.read_right += 1
                    return True
                self.stats.misread += 1
                self.table_says(_("the camera read {read} but the dice show {dice}: the table corrects it by hand")
                                .format(read=dice_text(read), dice=dice_text(seen)))
                self.fix_by_hand(seen, undo_roll=True)
                return True
            if reading is not None and not reading.ok:
                self.stats.unreadable += 1
            if seen is None:  # photos without labels: nothing to enter by hand, another photo
                if attempt == tries - 1:
                    raise DemoError(_("the camera cannot read this photo and the table has no labels to enter"))
                self.table_says(_("the camera cannot read this photo: the table throws another"))
                if lift:
                    table.cover([0] * n)
                continue
            if lift or attempt == tries - 1:
                self.fix_by_hand(seen, undo_roll=False)
                return True
            self.table_says(_("throws again"))
        return False

    def fix_by_hand(self, values, *, undo_roll: bool) -> None:
        """The correction path: Fix dice, then enter ``values`` by hand (digit keys set the dice)."""
        self.tap("fix")
        choice = "hand"
        if undo_roll:  # "rehand" when another roll is due as well (a Yacht reroll)
            choice = "rehand" if any(c == "rehand" for _r, c in self.kiosk.hits) else "hand"
        self.tap(choice, _("enters the dice by hand in place of the misread roll") if undo_roll
                 else _("enters the dice by hand on the kiosk"))
        for v in values:
            self.key(str(v))
        self.tap("handok")
        self.stats.by_hand += 1

    def show_correction(self, table) -> None:
        """The correction path once, on a roll that was read right: the table opens Fix dice, looks
        at the hand entry (and cancels it), then takes the roll back and lets the camera read the
        same dice again (the session gets the camera's reading, not the table's)."""
        self.tap("fix", _("opens Fix dice to show the correction screen"))
        self.tap("hand", _("looks at the hand entry"))
        self.tap("back", _("cancels it: the reading was right"))
        self.tap("fix")
        before = len(self.app.session.game.actions)
        choice = "undo_reread" if any(c == "undo_reread" for _r, c in self.kiosk.hits) else "reread"
        self.tap(choice, _("takes the roll back and lets the camera read the dice again"))
        for _n in range(int(MAX_THROW_S * FPS)):
            self.frame()
            if len(self.app.session.game.actions) > before + 1:
                self.stats.read_again += 1
                break
        self.frame(draw=True)

    def dice(self, n: int) -> tuple[int, ...]:
        """``n`` random dice (the seeded evening's)."""
        return tuple(int(v) for v in self.rng.integers(1, 7, n))

    # -- the evening ----------------------------------------------------------------------------

    def run(self) -> int:
        """Play the evening; returns the exit status (0). Raises DemoError when --out cannot be made
        or a screenshot cannot be saved in it."""
        started = time.perf_counter()
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # --out names a file, or a place that cannot hold a folder
            reason = _("it is a file, not a folder") if self.out.is_file() else exc.strerror or exc
            raise DemoError(_("cannot save the screenshots in {folder}: {reason}").format(
                folder=self.out, reason=reason)) from None
        self._build()
        where = _("real photos from {folder}").format(folder=self.source) if self.source else \
            _("the synthetic table (seed {seed})").format(seed=self.seed)
        self._line(_("Dice Table demo: a scripted evening on {where}, kiosk {width}x{height}.").format(
            where=where, width=self.size[0], height=self.size[1]))
        self._line(_("The demo plays the table: it throws the dice, presses REVEAL and taps every choice on the "
                     "kiosk, and says so on lines starting 'table:'. The camera pipeline (settle detector and "
                     "pip reader) reads every roll; the session and the engine play the rules; '>>' lines are "
                     "the kiosk's announcements."))
        try:
            self.setup_screen()
            for game in self.games:
                find_table(game).demo_bot(self).play()
                self.sessions.append(self.app.session)
        finally:
            self.kiosk.close()
        self._line("")
        self._line(self.stats.line())
        sources: dict[str, int] = {}
        for s in self.sessions:
            for k, n in s.roll_sources.items():
                sources[k] = sources.get(k, 0) + n
        self._line(self.stats.rolls_line(sources))
        self._line(_("{n} screenshots in {folder}").format(n=len(self.shots), folder=self.out))
        self._line(_("played in {seconds:.1f} s").format(seconds=time.perf_counter() - started))
        return 0

    def setup_screen(self) -> None:
        self.frame(draw=True)
        self.app.setup.seats = ["Ann", "Bo"]
        self.frame(draw=True)
        self.tap("add", _("adds a player"))
        for ch in "Cy":
            self.commands.put(Command("text", ch, source="key"))
        self.frame(draw=True)
        self.tap("named", _("names the new seat {name}").format(name="Cy"))

    def start(self, kind: str, seats: list[str], rules: dict) -> None:
        """Choose the game ``kind`` on the setup screen and start it with ``seats`` and ``rules``."""
        self.app.rules[kind] = rules
        self.app.setup.seats = list(seats)
        self.app.screen = "setup"
        self.tap(f"game:{kind}", _("chooses {game}").format(game=game_name(kind)))
        self.tap("start", _("starts {game} with {players}").format(game=game_name(kind), players=", ".join(seats))
                 + (" " + _("(house rules {rules})").format(
                     rules=", ".join(f"{k} = {v}" for k, v in rules.items())) if rules else ""))
        self._line("")
        self._line(f"== {game_name(kind)} ==")


# --------------------------------------------------------------------------------------- window

WINDOW = (1280, 720)     # the demo window's size when the display has room for it
WINDOW_SHARE = 0.9      # of the display's width and height, at most (room for the title bar and a panel)


def fit_window(wanted: tuple[int, int], display: tuple[int, int] | None) -> tuple[int, int]:
    """``wanted`` (W, H), scaled down with its shape kept to fit within WINDOW_SHARE of ``display``
    (W, H; None or zeros: unknown, ``wanted`` as it is). 1280x720 on a 1024x768 screen: 921x518."""
    if not display or not all(display):
        return wanted
    scale = min(1.0, WINDOW_SHARE * display[0] / wanted[0], WINDOW_SHARE * display[1] / wanted[1])
    return max(1, int(wanted[0] * scale)), max(1, int(wanted[1] * scale))


def display_size() -> tuple[int, int] | None:
    """The (first) display's size in px, as SDL reports it, or None."""
    import pygame

    try:
        pygame.display.init()
        sizes = pygame.display.get_desktop_sizes()
    except (pygame.error, AttributeError):
        return None
    return tuple(sizes[0]) if sizes else None


def play_window(size: tuple[int, int] | None = None, seed: int | None = None, max_frames: int | None = None,
                steps=None) -> int:
    """The demo with a display: the kiosk in a window on the trial mode's simulated table
    (``appliance.trial``: it throws, shakes and lifts the Mäxle cup whenever the game waits for it;
    Space does it at once), keyboard and mouse for the rest.
    size: the window's (W, H); None: WINDOW, made smaller to fit the display (``fit_window``).
    max_frames: stop after that many frames (a smoke test), else run until the window closes.
    steps: called with the kiosk after each frame of a smoke test. Returns the exit status."""
    if size is None:
        size = fit_window(WINDOW, display_size())
    from vision.reader import read_dice
    from vision.settle import SettleDetector

    from appliance.kiosk.camera import CameraPipeline, CameraWorker
    from appliance.kiosk.loop import Kiosk
    from appliance.trial import TrialTable, trial_source

    import tempfile

    from appliance import guided
    from appliance.store import Store
    from appliance.teaching import TableReader

    rng = np.random.default_rng(seed)
    commands = CommandQueue()
    source = trial_source((640, 480), FPS, seed=int(rng.integers(1 << 30)))
    reader = TableReader()
    pipeline = CameraPipeline(source, SettleDetector(reader),
                              lambda r: commands.put(Command("settled", r, source="camera")))
    state = tempfile.TemporaryDirectory(prefix="dicetable-demo-")
    store = Store.open(state.name)
    app = App(store=store, yacht_hint=True, maexle_odds=True, camera=pipeline,
              hooks=Hooks(expect=pipeline.expect, reread=pipeline.reread, forgot=reader.forget, adapted=reader.use))
    app.guided.configure(tray_area=None, reference=None, tray_stamp=guided.tray_stamp(None, (640, 480)),
                         camera_stamp="")
    trial = TrialTable(app, pipeline.call, seed=int(rng.integers(1 << 30)))
    worker = CameraWorker(pipeline, pace_fps=FPS).start()
    kiosk = Kiosk(app, commands, size=size, pipeline=pipeline, on_throw=trial.now, frame_hook=trial.tick,
                  caption="Dice Table demo: Space throws, R reveals, Backspace fixes, Ctrl+Q quits")
    app.say(_("Space throws the dice, R is REVEAL, Backspace fixes a reading, Ctrl+Q quits"), seconds=10)
    try:
        if max_frames is None:
            kiosk.run()
        else:
            for _frame in range(max_frames):
                kiosk.step()
                if steps is not None:
                    steps(kiosk)
    finally:
        worker.stop()
        kiosk.close()
        store.close()
        state.cleanup()
    return 0


def has_display() -> bool:
    """True when a window can be opened (X11 or Wayland), not counting the dummy driver."""
    if os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
