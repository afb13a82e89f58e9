"""Each game played end to end through the real kiosk (dummy SDL), session, engine, settle detector
and camera pipeline, on a fake camera the test scripts; the REVEAL button on a gpiozero mock pin,
touch, mouse and keys as posted pygame events. Time is virtual (1/30 s per frame)."""

from __future__ import annotations

import numpy as np
import pygame

from appliance.inputs import Command, CommandQueue, GpioButtons
from appliance.kiosk.app import KEY_GUARD_S, ROLL_GUARD_S, App, Hooks
from appliance.kiosk.camera import CameraPipeline
from appliance.kiosk.loop import Kiosk
from vision.reading import DiceReading, Die, no_dice, unreadable, wrong_count
from vision.settle import SettleDetector
from vision.sources import Frame

FPS = 30.0
REVEAL_PIN = 17


class FakeTable:
    """A camera over a scripted table. Each scene (a throw, the cup) is a flat frame whose first pixel
    encodes its number; ``reader`` reads it back as the scripted dice. A few noisy frames (the dice
    tumbling) come before each new scene."""

    def __init__(self) -> None:
        self.index = 0
        self.scene = 0
        self.moving = 0
        self.scenes: dict[int, tuple[int, ...] | str | None] = {0: None}
        self.rng = np.random.default_rng(0)

    def throw(self, *values: int) -> None:
        """Dice thrown in the open (``throw()`` with no values: the cup, nothing to see)."""
        self._scene(tuple(values) if values else None)

    def unreadable(self) -> None:
        self._scene("glare")

    def _scene(self, what) -> None:
        self.scene += 1
        self.scenes[self.scene] = what
        self.moving = 4

    def read(self) -> Frame:
        if self.moving:
            self.moving -= 1
            img = self.rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)
        else:
            img = np.full((48, 64, 3), 90, np.uint8)
            img[0, 0] = (self.scene % 256, self.scene // 256, 7)
        frame = Frame(img, self.index / FPS, self.index)
        self.index += 1
        return frame

    def close(self) -> None:
        pass

    def reader(self, image, expected=None, reference=None) -> DiceReading:
        if image[0, 0, 2] != 7:
            return unreadable("moving")
        what = self.scenes.get(int(image[0, 0, 0]) + 256 * int(image[0, 0, 1]))
        if what is None:
            return no_dice()
        if what == "glare":  # glare on a pip: the die could be a 4 or a 5
            return unreadable("a die at (10, 10) is unclear (a 4 at 60%)", (Die(4, (10.0, 10.0), (5, 5, 10, 10)),), "unsure")
        x0 = 3 * (self.scene % 7)
        dice = tuple(Die(v, (x0 + 8.0 + 9 * i, 20.0), (x0 + 4 + 9 * i, 16, 8, 8)) for i, v in enumerate(what))
        if expected is not None and len(dice) != expected:
            return wrong_count(expected, dice)
        return DiceReading("ok", dice)


class Rig:
    """The kiosk on a fake table. ``frames(n)``, ``tap(choice id)``, ``key(name)``, ``press(s)``
    (the REVEAL button held s seconds), ``throw(*values)`` (until the camera settles)."""

    def __init__(self, mock_pins, *, size=(800, 480), players=("Ann", "Bo", "Cy"), store=None) -> None:
        self.now = 0.0
        self.pins = mock_pins
        self.table = FakeTable()
        self.commands = CommandQueue()
        self.announced: list[str] = []
        self.settled: list[DiceReading] = []
        self.app = App(store=store, players=list(players), clock=lambda: self.now,
                       hooks=Hooks(announce=lambda items: self.announced.extend(a.text for a in items)))
        self.pipeline = CameraPipeline(self.table, SettleDetector(self.table.reader), self._settled)
        self.app.hooks.expect = self.pipeline.expect
        self.app.hooks.reread = self.pipeline.reread
        self.buttons = GpioButtons(self.commands, REVEAL_PIN, clock=lambda: self.now)
        self.kiosk = Kiosk(self.app, self.commands, size=size, pipeline=self.pipeline, buttons=self.buttons)

    def _settled(self, reading) -> None:
        self.settled.append(reading)
        self.commands.put(Command("settled", reading, source="camera"))

    def frames(self, n: int = 1) -> None:
        for _ in range(n):
            self.pipeline.step()
            self.kiosk.step()
            self.now += 1 / FPS

    def throw(self, *values: int, cup: bool = False, look: bool = True) -> DiceReading | None:
        """Dice thrown (or the cup lifted off them); frames until the camera settles (or 3 s), and
        (``look``) until the table has looked at what the screen shows then (a press sooner is dropped)."""
        n = len(self.settled)
        self.table.throw(*values)
        for _ in range(90):
            self.frames()
            if len(self.settled) > n:
                self.frames(round(ROLL_GUARD_S * FPS) + 1 if look else 1)
                return self.settled[-1]
        return None

    def rect(self, cid: str) -> pygame.Rect:
        found = [r for r, c in self.kiosk.hits if c == cid]
        assert found, f"no {cid!r} on the {self.app.screen} screen: {[c for _r, c in self.kiosk.hits]}"
        return found[-1]

    def tap(self, cid: str, *, double: bool = False) -> None:
        """Touch the choice ``cid`` (FINGERDOWN; with ``double``, SDL's mouse copy too)."""
        self.dismiss()
        r = self.rect(cid)
        w, h = self.kiosk.screen.get_size()
        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=r.centerx / w, y=r.centery / h, touch_id=1,
                                             finger_id=0, dx=0.0, dy=0.0, pressure=1.0))
        if double:
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=r.center, button=1, touch=True))
        self.frames()

    def click(self, cid: str) -> None:
        """A mouse click on ``cid``."""
        self.dismiss()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=self.rect(cid).center, button=1, touch=False))
        self.frames()

    def key(self, name: str, *, read: bool = True) -> None:
        """A key; first (``read``) every announcement tapped away, as ``tap`` does: a key aimed at a
        button under one only takes it away."""
        if read:
            self.dismiss()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), mod=0, unicode="",
                                             scancode=0))
        self.frames()

    def press(self, held_s: float = 0.2) -> None:
        """Press REVEAL for ``held_s`` seconds and release it."""
        pin = self.pins.pin(REVEAL_PIN)
        pin.drive_low()
        self.frames(max(1, round(held_s * FPS)))
        pin.drive_high()
        self.frames(3)

    def dismiss(self) -> None:
        """Tap every announcement away (the table has read them)."""
        for _ in range(30):
            if self.app.banner is None and not self.app.banners:
                return
            self.frames()
            self.tap_banner()

    def tap_banner(self) -> None:
        r = self.rect("dismiss")
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=r.center, button=1, touch=False))
        self.frames()

    def close(self) -> None:
        self.kiosk.close()


# ------------------------------------------------------------------------------------------ tests

import pytest  # noqa: E402


@pytest.fixture
def rig(mock_pins):
    r = Rig(mock_pins)
    r.frames(2)
    yield r
    r.close()


def start(rig: Rig, kind: str, players) -> None:
    rig.app.setup.seats = list(players)
    rig.frames()
    rig.tap(f"game:{kind}")
    rig.tap("start")
    assert rig.app.screen == "play" and rig.app.session.kind == kind


def test_maexle_announce_by_touch_reveal_by_button_and_the_camera_resolves(rig):
    start(rig, "maexle", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    rig.table.throw()  # Ann's cup comes down: nothing to read
    rig.frames(20)
    assert s.game.actions == []
    assert rig.app.reveal_light() == "off"
    rig.tap("announce:54")
    assert s.need.kind == "decide" and s.need.player == "Cy" and rig.app.reveal_light() == "on"
    rig.press(0.2)  # REVEAL, a short press
    assert s.need.kind == "lift" and rig.kiosk.view.big_prompt and rig.app.reveal_light() == "blink"
    reading = rig.throw(6, 3)  # the cup is lifted: the camera reads what was under it
    assert reading is not None and reading.ok
    assert s.game.actions == [{"announce": 54}, {"reveal": True}, {"roll": [3, 6]}]
    assert "63: Ann's 54 holds" in rig.announced and "Cy takes 1 penalty point" in rig.announced
    assert s.need.kind == "announce" and s.need.player == "Cy"


def test_a_cup_lifted_before_reveal_still_counts_once_reveal_is_pressed(rig):
    start(rig, "maexle", ["Ann", "Bo"])
    s = rig.app.session
    rig.tap("announce:65")
    assert rig.throw(4, 2) is not None  # Bo lifts the cup too early: the camera sees 42
    assert s.game.actions == [{"announce": 65}] and "Not now" in rig.app.message
    rig.press(0.2)  # now REVEAL: the dice already lying there are the roll
    rig.frames(30)
    assert s.game.actions == [{"announce": 65}, {"reveal": True}, {"roll": [2, 4]}]
    assert "42: Ann lied about 65" in rig.announced


def test_a_false_announcement_passed_on_blind_is_announced_as_passed_not_as_a_lie():
    app = App(players=["Ann", "Bo", "Cy"], rules={"maexle": {"blind_pass": True}}, clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    app.choose("blind_pass")  # Cy passes Ann's 54 on to Bo unrolled
    app.choose("reveal")
    app.on_reading(DiceReading("ok", (Die(3, (40.0, 60.0), (20, 40, 40, 40)), Die(2, (100.0, 60.0), (80, 40, 40, 40)))))
    said = [app.banner.announcement] + [b.announcement for b in app.banners]
    assert "32: 54 does not hold, Cy passed it on blind" in [a.text for a in said]
    assert not any("lied" in a.text for a in said)
    assert "passed a false announcement on blind" in [a.detail for a in said]


def _lifted_maexle(**rules) -> App:
    """A kiosk whose Mäxle cup is to be lifted: Ann announced 54, Bo revealed."""
    app = App(players=["Ann", "Bo"], rules={"maexle": rules}, clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    app.choose("reveal")
    assert app.session.need.kind == "lift"
    return app


@pytest.mark.parametrize("reading, why", [
    (unreadable("a die is off the tray", (Die(3, (10.0, 10.0), (5, 5, 10, 10)),), "off_tray"), "a die is off the tray"),
    (unreadable("cocked", (Die(3, (10.0, 10.0), (5, 5, 10, 10)),), "cocked"), "a die is cocked"),
    (wrong_count(2, (Die(3, (10.0, 10.0), (5, 5, 10, 10)),)), "1 die seen"),
])
def test_dice_under_a_lifted_cup_that_cannot_be_read_are_fixed_by_hand_never_thrown_again(reading, why):
    # RULES.md §1: the dice under the cup judge the announcement; a new throw would judge it instead.
    app = _lifted_maexle()
    app.on_reading(reading)
    assert app.message == f"Cannot read the dice under the cup ({why}). Do not throw them: fix them by hand."
    assert "throw again" not in app.message.lower() and app.session.game.actions == [{"announce": 54}, {"reveal": True}]


def test_an_open_throw_of_too_few_dice_says_die_for_one():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(wrong_count(2, (Die(3, (10.0, 10.0), (5, 5, 10, 10)),)))
    assert app.message == "1 die seen, 2 needed. Throw again."


def test_reveal_pressed_for_a_lift_without_a_camera_says_to_enter_the_dice_by_hand(rig):
    start(rig, "maexle", ["Ann", "Bo"])
    rig.app.camera = rig.pipeline  # as the kiosk command sets it
    rig.tap("announce:54")
    rig.press(0.2)
    rig.press(0.2)  # again, while the cup is to be lifted: the camera reads it
    assert rig.app.message == "Lift the cup: the camera reads the dice"
    rig.app.camera = type("Gone", (), {"gives_no_picture": True})()
    rig.press(0.2)
    assert rig.app.message == "No camera: lift the cup and enter the dice with Fix dice"


def test_an_announced_maexle_under_immediate_reveal_is_announced_as_lifted_not_as_a_choice():
    app = App(players=["Ann", "Bo"], rules={"maexle": {"maexle": "immediate_reveal"}}, clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:21")
    said = [a.text for a in [app.banner.announcement] + [b.announcement for b in app.banners]]
    assert "Mäxle! Lift the cup" in said and "Mäxle! Accept or reveal" not in said


def test_an_action_taken_back_takes_its_announcements_not_yet_shown_with_it():
    # Accept pressed, then Undo at once: "Bo takes 1 penalty point" must not show over the standings
    # it no longer changes; what was announced before it stays.
    retracted = []
    app = App(players=["Ann", "Bo"], clock=lambda: 0.0, hooks=Hooks(retract=retracted.extend))
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:21")
    before = [b.announcement.text for b in [app.banner, *app.banners] if b is not None]
    app.choose("accept")
    assert any("penalty" in b.announcement.text for b in app.banners if b is not None) or \
        "penalty" in app.banner.announcement.text
    app.undo()
    showing = [b.announcement.text for b in [app.banner, *app.banners] if b is not None]
    assert not any("penalty" in text for text in showing)
    assert all(text in showing for text in before)
    assert app.session.game.penalties == {"Ann": 0, "Bo": 0}
    assert any("penalty" in a.text for a in retracted)  # nor said (the voice's queue)


@pytest.mark.parametrize("penalty, beats, announce, accept, show", [
    ("points", "free", "strictly_higher", "take 2 points", "1 point unless higher"),
    ("drinks", "free", "strictly_higher", "take 2 drinks", "1 drink unless higher"),
    ("points", "free", "higher_or_equal", "take 2 points", "1 point if lower"),
    ("drinks", "free", "higher_or_equal", "take 2 drinks", "1 drink if lower"),
    ("points", "costs", "strictly_higher", "take 2 points", "take 1 point"),  # RULES.md §1 seed: it takes 1
    ("drinks", "costs", "strictly_higher", "take 2 drinks", "take 1 drink")])
def test_the_answers_to_an_announced_maexle_cost_in_the_games_penalty_unit(penalty, beats, announce, accept, show):
    # Under self_reveal_beats = free, dice that may follow the announcement cost nothing (README): an
    # equal roll only where the rules let an equal announcement follow.
    app = App(players=["Ann", "Bo"], rules={"maexle": {"penalty": penalty, "maexle_accept_cost": 2,
                                                       "self_reveal": True, "self_reveal_beats": beats,
                                                       "announce": announce}},
              clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:21")
    assert {c.id: c.sub for c in app.choices()}["accept"] == accept
    app.choose("accept")  # Bo takes it; Bo announces to Ann, who may show her own dice
    app.choose("announce:54")
    assert {c.id: c.sub for c in app.choices()}["self_reveal"] == show


@pytest.mark.parametrize("announce, higher", [("strictly_higher", "announce higher"),
                                              ("higher_or_equal", "announce the same or higher")])
def test_believing_says_what_the_announce_switch_allows(announce, higher):
    # RULES.md §1 switch announce = strictly_higher | higher_or_equal
    app = App(players=["Ann", "Bo"], rules={"maexle": {"announce": announce}}, clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:54")
    assert {c.id: c.sub for c in app.choices()}["believe"] == f"roll and {higher}"
    app.choose("believe")
    assert app.view().prompt == f"Roll under the cup, peek, {higher}"


def test_reveal_is_taken_only_when_the_game_expects_it(rig):
    start(rig, "maexle", ["Ann", "Bo"])
    rig.press(0.2)
    assert rig.app.session.game.actions == [] and "Nothing to reveal" in rig.app.message


def test_reveal_held_while_a_reveal_is_due_reveals_as_a_press_does(rig):
    """Guests calling a bluff slam and hold the big button: the hold used to open the correction
    screen, offering to undo the announcer's call, and nothing was revealed."""
    start(rig, "maexle", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    rig.tap("announce:54")
    rig.frames(int(FPS))
    rig.press(2.5)
    assert s.game.actions[-1] == {"reveal": True} and rig.app.screen == "play"
    assert s.need.kind == "lift"


def test_reveal_pressed_again_and_again_after_the_reveal_leaves_each_announcement_up_a_second(rig):
    start(rig, "maexle", ["Ann", "Bo", "Cy"])
    rig.tap("announce:54")
    rig.press(0.2)
    rig.dismiss()
    rig.table.throw(6, 3)  # the cup comes off: 63 holds 54, Cy doubted wrongly
    for _ in range(60):
        rig.frames()
        if rig.app.banner is not None:
            break
    shown = rig.app.banner
    assert shown is not None
    for _ in range(4):  # pressed every 0.2 s, as the cup comes off
        rig.press(0.1)
        assert rig.app.banner is shown
    rig.frames(int(FPS))
    rig.press(0.1)  # now it has been read
    assert rig.app.banner is not shown


def test_an_undo_button_pressed_twice_at_once_takes_back_one_action(rig):
    start(rig, "biscuit", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    for dice in ((3, 4), (2, 6), (1, 1)):
        rig.throw(*dice)
    taken = len(s.game.actions)
    rig.app.handle(Command("press", "undo", source="button"))
    rig.now += 0.23
    rig.app.handle(Command("press", "undo", source="button"))  # the same push again
    assert s.game.actions[taken:] == [{"undo": True}]
    rig.now += 1.0
    rig.app.handle(Command("press", "undo", source="button"))  # a second undo, on purpose
    assert s.game.actions[taken:] == [{"undo": True}, {"undo": True}]
    down = rig.now + 2.0
    rig.now += 3.5  # the loop stalled: two presses 0.3 s apart are handled together
    for at in (down, down + 0.3):
        rig.app.handle(Command("press", "undo", source="button", at=at))
    assert s.game.actions[taken:] == [{"undo": True}] * 3


def test_a_long_press_opens_the_correction_and_the_dice_are_entered_by_keys(rig):
    start(rig, "maexle", ["Ann", "Bo"])
    s = rig.app.session
    rig.tap("announce:31")
    rig.press(0.2)
    rig.table.unreadable()  # the cup comes off, but glare hides a pip
    rig.frames(40)
    assert s.need.kind == "lift" and "a die is unclear" in rig.app.message
    rig.press(2.0)  # held: the correction path
    assert rig.app.screen == "correct"
    rig.tap("hand")
    assert rig.app.screen == "hand" and len(rig.app.hand.dice) == 2
    rig.key("2")
    rig.key("1")
    rig.tap("handok")
    assert s.game.actions[-1] == {"roll": [2, 1]}
    assert any("Mäxle" in a or "21" in a for a in rig.announced)


def test_a_misread_roll_is_undone_and_read_again(rig):
    start(rig, "biscuit", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    rig.throw(2, 3)
    assert s.game.actions == [{"roll": [2, 3]}]
    rig.key("backspace")  # the correction path from the keyboard
    assert rig.app.screen == "correct"
    rig.tap("undo_reread")  # Bo's roll is due too: this one says it is Ann's roll that was misread
    rig.frames(30)  # the camera reads the same dice again
    assert s.game.actions == [{"roll": [2, 3]}, {"undo": True}, {"roll": [2, 3]}]
    assert [a for a, _e in s._in_effect] == [{"roll": [2, 3]}]


def test_biscuit_with_picks_duel_rule_and_thumbs(rig):
    start(rig, "biscuit", ["Ann", "Bo", "Cy", "Dace"])
    s = rig.app.session
    rig.throw(2, 4)  # Ann: 6, no Biscuit
    rig.throw(3, 4)  # Bo: 7, the Biscuit
    assert s.game.biscuit == "Bo"
    rig.throw(2, 2)  # pick 2 players
    assert s.need.kind == "pick"
    rig.tap("pick:Ann", double=True)  # SDL's finger and mouse copy: one tap, not a toggle on and off
    assert rig.app.play.picked == ["Ann"]
    rig.click("pick:Cy")
    assert s.game.drinks["Ann"] == 1 and s.game.drinks["Cy"] == 1
    rig.throw(1, 2)  # duel
    rig.tap("pick:Dace")
    rig.throw(4, 5)  # Dace 9
    rig.throw(2, 4)  # Bo 6: the seed's example, Bo drinks 3
    assert s.game.drinks["Bo"] == 3
    rig.throw(6, 6)  # a rule
    assert s.game.rule["by"] == "Bo"
    rig.tap("breaker")
    rig.tap("broke:Cy")
    assert s.game.drinks["Cy"] == 2
    rig.throw(1, 6)  # thumbs on foreheads
    assert s.need.kind == "thumbs"
    rig.tap("thumbs:Dace")
    assert s.game.biscuit == "Dace"
    assert "Dace is the Biscuit" in rig.announced and "Thumbs on foreheads!" in rig.announced
    rig.tap("menu")
    rig.tap("end"); rig.frames(int(FPS)); rig.tap("yes")  # the answer, not a double tap
    assert rig.app.screen == "over" and s.ended


@pytest.mark.parametrize("by", ["key", "tap"])
def test_a_press_in_the_instant_a_roll_closed_the_menu_is_dropped_not_taken_by_the_game(rig, by):
    """The menu is open when the camera settles a roll, and the game's next step comes up in its
    place: a digit or a tap in that instant was aimed at the menu, not at the category now under it."""
    start(rig, "yacht", ["Ann"])
    s = rig.app.session
    rig.tap("menu")
    rig.throw(6, 6, 5, 5, 3, look=False)
    assert rig.app.screen == "play" and s.need.kind == "declare"
    if by == "key":
        rig.key("1")  # meant for the menu's "1 Undo"
    else:
        rig.tap(rig.app.view().choices[0].id)
    assert s.need.kind == "declare"  # nothing declared
    rig.frames(round(ROLL_GUARD_S * FPS))
    rig.key("1")
    assert s.need.kind == "reroll"


def test_the_declare_screen_says_whose_category_it_is_in_its_prompt(rig):
    """The category buttons take the standings' place, and a message across the top hides the
    header's name (the store cannot save, a camera fault): the prompt itself names the player."""
    start(rig, "yacht", ["Ann", "Bo"])
    s = rig.app.session
    rig.throw(6, 6, 5, 5, 3)  # the order: the highest total starts
    rig.throw(1, 1, 2, 2, 3)
    rig.throw(6, 6, 5, 5, 3)
    assert s.need.kind == "declare"
    view = rig.app.view()
    assert not view.camera and s.need.player in view.prompt


def a_whole_game_of_yacht_by_keys_and_touch(rig) -> None:
    """Ann alone plays 12 rounds, declaring by keypad, stopping by touch; the last tap leaves the
    winner screen under its announcement."""
    start(rig, "yacht", ["Ann"])
    s = rig.app.session
    rolls = [(1, 1, 1, 2, 3), (2, 2, 2, 1, 1), (3, 3, 3, 4, 4), (4, 4, 4, 4, 1), (5, 5, 5, 2, 2), (6, 6, 6, 1, 2),
             (1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 3, 3, 5, 5), (5, 5, 5, 5, 2), (4, 4, 4, 4, 4), (6, 6, 5, 5, 3)]
    for i, dice in enumerate(rolls):
        rig.throw(*dice)
        assert s.need.kind == "declare", (i, s.need)
        rig.key("1")  # the first unused category, from the keypad
        if i % 2:
            rig.throw(*dice[::-1])  # a reroll that shows the same faces elsewhere on the tray
            assert s.need.kind == "reroll" and s.need.raw["rolls_left"] == 1
        rig.tap("stop")


def test_a_whole_game_of_yacht_by_keys_and_touch(rig):
    a_whole_game_of_yacht_by_keys_and_touch(rig)
    s = rig.app.session
    assert s.over and rig.app.screen == "over"
    assert s.game.totals["Ann"] == sum(e["score"]["points"] for _a, ev in s._in_effect for e in ev if "score" in e)
    assert any(a.endswith("wins!") for a in rig.announced)


def test_a_key_aimed_at_a_button_the_announcement_hides_takes_the_announcement_away_and_presses_nothing(rig):
    """The winner's announcement covers the winner screen's buttons and their digits: a digit
    pressed then was aimed at nothing anyone could see ("Play again" started a new game)."""
    a_whole_game_of_yacht_by_keys_and_touch(rig)
    game = rig.app.session
    enabled = [c.id for c in rig.app.choices() if c.style != "disabled"]
    hidden = [n for n, cid in enumerate(enabled, 1) if cid in rig.app.under_banner and n <= 9]
    assert rig.app.banner is not None and hidden, (enabled, rig.app.under_banner)
    while rig.app.banner is not None:
        shown = rig.app.banner
        rig.key(str(hidden[0]), read=False)
        assert rig.app.banner is not shown
        assert rig.app.session is game and rig.app.screen == "over"
    rig.frames(round(KEY_GUARD_S * FPS) + 1)
    rig.key(str(hidden[0]), read=False)  # in view now: pressed
    assert rig.app.session is not game or rig.app.screen != "over"


def test_a_handler_bug_becomes_a_message_not_a_crash(rig, monkeypatch):
    def boom(_arg):
        raise RuntimeError("kaputt")

    monkeypatch.setattr(rig.app.setup, "on_add", boom)
    rig.tap("add")
    assert rig.app.message.startswith("Something went wrong") and rig.app.screen == "setup"
    assert "kaputt" not in rig.app.message  # the error is the journal's


def test_a_misread_reroll_is_replaced_by_hand_not_counted_as_another_roll(rig):
    start(rig, "yacht", ["Ann"])
    s = rig.app.session
    rig.throw(2, 2, 3, 4, 6)
    rig.tap("declare:twos")
    rig.throw(2, 2, 2, 5, 6)  # the camera's reading of the reroll ...
    assert s.need.raw["rolls_left"] == 1
    rig.tap("fix")  # ... but one die shows 3: the table fixes it
    assert {"rehand", "hand", "undo_reread", "reread"} <= {c for _r, c in rig.kiosk.hits}
    rig.tap("rehand")
    assert rig.app.hand.dice == [2, 2, 2, 5, 6]
    rig.tap("die:3")  # 5 -> 6 ... the die shows 3: tap until it does
    for _ in range(3):
        rig.tap("die:3")
    assert rig.app.hand.dice == [2, 2, 2, 3, 6]
    rig.tap("handok")
    assert s.last_roll == [2, 2, 2, 3, 6] and s.need.raw["rolls_left"] == 1
    assert s.roll_sources == {"camera": 2, "hand": 1}


def test_the_camera_keeps_its_dice_count_while_no_roll_is_due_and_reads_nothing_again(rig):
    """A Yacht turn: the camera is told "5 dice" once. While the player declares (no roll due) the
    count stays, so the settle detector does not read the still dice again under another count (a
    reading that differs by noise could pass for a new roll)."""
    told = []
    expect = rig.app.hooks.expect
    rig.app.hooks.expect = lambda n: (told.append(n), expect(n))
    calls = []
    reader = rig.table.reader
    rig.pipeline.detector.reader = lambda *a, **kw: (calls.append(1), reader(*a, **kw))[1]
    start(rig, "yacht", ["Ann"])
    rig.throw(6, 6, 5, 2, 1)
    assert rig.app.session.need.kind == "declare"
    before = len(calls)
    rig.frames(30)
    assert len(calls) == before  # the dice lie still and were read: nothing to read again
    rig.tap("declare:sixes")
    rig.frames(30)
    assert len(calls) == before and told == [5]
    rig.throw(6, 6, 6, 2, 1)
    assert rig.app.session.need.raw["rolls_left"] == 1 and told == [5]


def test_a_roll_taken_clears_the_problem_said_about_the_throw_before(rig):
    start(rig, "biscuit", ["Ann", "Bo", "Cy"])
    rig.table.unreadable()
    rig.frames(40)
    assert "a die is unclear" in rig.app.message
    rig.throw(2, 4)  # thrown again: read and taken
    assert rig.app.session.game.actions == [{"roll": [2, 4]}] and rig.app.message == ""


def finger(rig: Rig, cid: str) -> tuple[float, float]:
    """Where a finger touches ``cid`` now, as FINGERDOWN's normalised (x, y)."""
    r = rig.rect(cid)
    w, h = rig.kiosk.screen.get_size()
    return r.centerx / w, r.centery / h


def touch(at: tuple[float, float]) -> None:
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=at[0], y=at[1], touch_id=1, finger_id=0,
                                         dx=0.0, dy=0.0, pressure=1.0))


@pytest.mark.parametrize("apart_frames", [0, 3])
def test_a_double_tap_on_an_announcement_does_not_press_what_comes_up_under_it(rig, apart_frames):
    """The announcer's "31" tapped twice (a bouncing panel, an impatient finger; in one frame or 0.1 s
    apart): the second touch lands on the receiver's "Reveal" that replaced it. It is dropped."""
    start(rig, "maexle", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    at = finger(rig, "announce:31")
    touch(at)
    rig.frames(apart_frames)
    touch(at)
    rig.frames(3)
    assert s.game.actions == [{"announce": 31}] and rig.app.message == ""
    assert "reveal" in {c for _r, c in rig.kiosk.hits}
    rig.frames(15)  # half a second later the receiver's own tap there counts
    touch(at)
    rig.frames(2)
    assert s.game.actions == [{"announce": 31}, {"reveal": True}]


def test_quick_taps_on_the_same_die_each_turn_it(rig):
    start(rig, "yacht", ["Ann"])
    rig.tap("fix")
    rig.tap("hand")
    at = finger(rig, "die:0")
    for _ in range(3):
        touch(at)
        rig.frames(2)
    assert rig.app.hand.dice[0] == 3  # blank, then 1, 2, 3


def test_a_new_roll_entered_by_hand_starts_blank_and_ok_waits_for_every_die(rig):
    """A stray OK on the hand entry must not enter five ones (a Yacht, in Yacht)."""
    start(rig, "yacht", ["Ann"])
    rig.tap("fix")
    rig.tap("hand")
    assert rig.app.hand.dice == [0] * 5
    assert [c.style for c in rig.app.view().choices if c.id == "handok"] == ["disabled"]
    rig.key("return")  # Enter: OK, which says what is missing
    assert rig.app.screen == "hand" and rig.app.session.game.actions == [] and "Set every die" in rig.app.message
    for key in "66553":
        rig.key(key)
    rig.tap("handok")
    assert rig.app.session.game.actions == [{"roll": [6, 6, 5, 5, 3]}]


def test_a_misread_roll_that_ended_the_game_is_corrected_on_the_winner_screen(mock_pins, tmp_path):
    """Bo reveals Ann's 54 and the camera misreads 5-4 as 3-1: Ann is out and Bo 'wins'. On the
    winner screen the table fixes the dice by hand; the game goes on from the true roll (Ann's 54
    held), and the evening counts the true outcome only."""
    from appliance.store import Store

    store = Store.open(tmp_path)
    r = Rig(mock_pins, store=store)
    try:
        r.app.rules = {"maexle": {"limit": 1}}
        start(r, "maexle", ["Ann", "Bo"])
        s = r.app.session
        r.tap("announce:54")
        r.tap("reveal")
        r.throw(3, 1)
        r.dismiss()
        assert s.over and r.app.screen == "over" and store.ended_games()[0].winner == ["Bo"]
        r.tap("fix")
        assert r.app.screen == "correct"
        r.tap("hand")
        r.key("5")
        r.key("4")
        r.tap("handok")
        assert s.game.actions[-3:] == [{"roll": [1, 3]}, {"undo": True}, {"roll": [5, 4]}]
        assert s.over and s.game.expects["winner"] == ["Ann"] and r.app.screen == "over"
        assert "54: Ann's 54 holds" in r.announced
        assert [g.winner for g in store.ended_games()] == [["Ann"]]
        assert store.evening() == {"Ann": {"drinks": 0, "penalties": 0}, "Bo": {"drinks": 0, "penalties": 1}}
    finally:
        r.close()


def test_a_game_left_from_the_menu_offers_no_fix_on_its_last_screen(rig):
    start(rig, "biscuit", ["Ann", "Bo", "Cy"])
    rig.throw(3, 4)
    rig.tap("menu")
    rig.tap("end"); rig.frames(int(FPS)); rig.tap("yes")  # the answer, not a double tap
    assert rig.app.screen == "over" and "fix" not in {c for _r, c in rig.kiosk.hits}
    rig.press(2.0)  # REVEAL held: the correction path is not open either
    assert rig.app.screen == "over"


def test_a_roll_entered_by_hand_that_decides_the_game_shows_the_winner_screen(rig):
    rig.app.rules = {"maexle": {"limit": 1}}
    start(rig, "maexle", ["Ann", "Bo"])
    s = rig.app.session
    rig.tap("announce:54")
    rig.tap("reveal")
    rig.tap("fix")
    rig.tap("hand")  # the camera cannot see the dice: typed
    rig.key("3")
    rig.key("1")
    rig.tap("handok")
    assert s.over and rig.app.screen == "over" and s.game.expects["winner"] == ["Bo"]


def test_a_tap_in_the_same_frame_as_a_key_meets_the_screen_the_key_left(rig):
    """Delete a seat by its key and touch the last seat in the same frame: the touch is resolved on
    the setup screen as it is after the deletion (the last seat is gone), never on the old layout."""
    rig.app.setup.seats = ["Ann", "Bo", "Cy", "Dace"]
    rig.frames()
    at = finger(rig, "seat:3")
    keys = {c.id: n for n, c in enumerate([c for c in rig.app.choices() if c.style != "disabled"], 1)}
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(str(keys["del:0"])), mod=0,
                                         unicode="", scancode=0))
    touch(at)
    rig.frames(2)
    assert rig.app.setup.seats == ["Bo", "Cy", "Dace"]
    assert "went wrong" not in rig.app.message
    assert rig.app.screen == "setup" or rig.app.names.editing in range(3)


def test_a_seat_that_is_no_longer_there_is_not_opened():
    from appliance.kiosk.app import App

    app = App(players=["Ann", "Bo"], clock=lambda: 0.0)
    app.choose("seat:5")
    assert app.screen == "setup"


def test_reveal_held_down_before_the_announcement_does_not_reveal_it(rig):
    """Cy slams REVEAL while Ann is still choosing and lets go after her "54" came up: the press began
    when there was nothing to doubt, so it doubts nothing (a reveal costs a penalty point). A press
    made after the announcement reveals it."""
    start(rig, "maexle", ["Ann", "Bo", "Cy"])
    s = rig.app.session
    pin = rig.pins.pin(REVEAL_PIN)
    pin.drive_low()
    rig.frames(3)
    rig.tap("announce:54")
    rig.frames(2)
    pin.drive_high()
    rig.frames(3)
    assert s.game.actions == [{"announce": 54}] and "again" in rig.app.message
    rig.press(0.2)
    assert s.game.actions == [{"announce": 54}, {"reveal": True}]


def test_a_new_name_on_a_russian_kiosk_starts_on_the_cyrillic_keys_and_a_latin_name_on_the_latin_keys():
    from appliance import i18n
    from appliance.kiosk.app import App

    i18n.set_language("ru")
    try:
        app = App(players=["Ann", "Боря"], clock=lambda: 0.0)
        app.choose("add")
        assert app.screen == "names" and app.names.layout == "cyrillic"
        app.back()
        app.choose("seat:0")
        assert app.names.layout == "latin"
        app.back()
        app.choose("seat:1")
        assert app.names.layout == "cyrillic"
        i18n.set_language("lv")
        app.back()
        app.choose("add")
        assert app.names.layout == "latin"
    finally:
        i18n.set_language("en")


def test_reveal_and_accept_pressed_together_take_one_answer_and_say_why_not_the_other(mock_pins):
    """After an announced Mäxle the receiver accepts or reveals; a REVEAL button and an extra ACCEPT
    button pressed at the same moment take one answer, and the other press says it is not due."""
    r = Rig(mock_pins)
    accept_pin = 27
    r.buttons.close()
    r.buttons = r.kiosk.buttons = GpioButtons(r.commands, REVEAL_PIN, extra={accept_pin: "accept"},
                                              clock=lambda: r.now)
    try:
        r.frames(2)
        start(r, "maexle", ["Ann", "Bo"])
        s = r.app.session
        r.tap("announce:21")
        r.dismiss()
        r.frames(2)
        assert {"reveal", "accept"} <= set(s.need.actions)
        for pin in (REVEAL_PIN, accept_pin):
            mock_pins.pin(pin).drive_low()
        r.frames(6)
        for pin in (REVEAL_PIN, accept_pin):
            mock_pins.pin(pin).drive_high()
        r.frames(3)
        answers = [a for a in s.game.actions if "reveal" in a or "accept" in a]
        assert len(answers) == 1 and r.app.message.startswith("Not now")
    finally:
        r.close()


def test_on_the_hand_entry_a_digit_that_is_no_die_value_does_nothing(rig):
    """Digits 1-6 type the dice; 7, 8, 9 and 0 are no face. They must not press the unnumbered OK
    (the 7th choice of a 5-dice entry) or Cancel."""
    start(rig, "yacht", ["Ann"])
    rig.tap("fix")
    rig.tap("hand")
    for key in ("7", "8", "9", "0"):
        rig.key(key)
    assert rig.app.screen == "hand" and rig.app.session.game.actions == [] and rig.app.hand.dice == [0] * 5
