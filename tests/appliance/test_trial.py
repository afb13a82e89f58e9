"""The camera-less trial mode ([camera] source = "synthetic"): a simulated table that throws the dice
the game expects, only when the table waits for a throw, and never runs out. The real settle
detector and dice reader read its frames; time is the synthetic table's virtual time."""

from __future__ import annotations

import time

import pytest

from appliance.inputs import Command, CommandQueue
from appliance.kiosk.app import App, Hooks
from appliance.kiosk.camera import CameraPipeline
from appliance.trial import PEEK_S, Order, TrialSource, TrialTable, keep_for, trial_source
from vision.reader import read_dice
from vision.reading import DiceReading, no_dice, unreadable
from vision.settle import SettleDetector

FPS = 15.0


class Seen:
    """A reader that reads what the trial table shows (its truth), as a perfect camera would: the
    flat dice where they lie, and "cocked" for a die leaning on the wall (the face model's call)."""

    def __init__(self, source: TrialSource) -> None:
        self.source = source

    def __call__(self, image, expected=None, reference=None):
        truth = self.source.truth
        if truth.moving or truth.hand or not (truth.dice or truth.cocked):
            return no_dice()
        if truth.cocked:
            return unreadable("cocked", truth.dice + truth.cocked, "cocked")
        return DiceReading("ok", truth.dice)


class Trial:
    """The kiosk core on the trial table, stepped in one thread: ``frames(n)`` steps the camera and
    the app n frames (the table ticks once a frame, as the kiosk's frame hook does)."""

    def __init__(self, kind: str, players: list[str], rules: dict | None = None, *, reader=read_dice,
                 mishaps: float = 0.0, size: tuple[int, int] = (640, 480), store=None, seed: int = 5) -> None:
        self.commands = CommandQueue()
        self.source: TrialSource = trial_source(size, FPS, seed=3)
        detector = SettleDetector(reader(self.source) if reader is Seen else reader, tray=self.source.tray_area)
        self.pipeline = CameraPipeline(self.source, detector,
                                       lambda r: self.commands.put(Command("settled", r, source="camera")))
        self.app = App(rules={kind: rules or {}}, store=store,
                       hooks=Hooks(expect=self.pipeline.expect, reread=self.pipeline.reread))
        self.table = TrialTable(self.app, self.pipeline.call, seed=seed, mishaps=mishaps)
        self.messages: list[str] = []
        self.app.setup.game_kind, self.app.setup.seats = kind, list(players)
        assert self.app.resume() or self.app.start_game()  # a store's unfinished game goes on

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.table.tick()
            self.pipeline.step()
            for cmd in self.commands.drain():
                self.app.handle(cmd)
            if self.app.message and self.app.message not in self.messages[-1:]:
                self.messages.append(self.app.message)

    def until(self, done, seconds: float = 20.0) -> None:
        for _ in range(int(seconds * FPS)):
            if done():
                return
            self.frames(1)
        raise AssertionError(f"not within {seconds} s: need {self.app.session.need}")

    def rolls(self) -> list[list[int]]:
        return [a["roll"] for a, _e in self.app.session._in_effect if "roll" in a]


def test_the_trial_table_throws_five_dice_for_yacht_and_waits_for_the_declaration():
    t = Trial("yacht", ["Ann", "Bo"])
    t.until(lambda: t.app.session.need.kind == "declare", seconds=60)
    rolls = t.rolls()
    assert rolls and all(len(r) == 5 for r in rolls)
    thrown = len(t.source.actions)
    t.frames(int(10 * FPS))  # nobody declares: the table throws nothing
    assert len(t.source.actions) == thrown
    assert t.app.session.need.kind == "declare"


def test_keep_for_keeps_what_a_player_would_for_the_declared_category():
    assert keep_for((1, 1, 4, 4, 4), "full_house") == (4, 4, 4, 1, 1)
    assert keep_for((6, 2, 6, 3, 1), "sixes") == (6, 6)
    assert keep_for((6, 2, 6, 3, 1), "yacht") == (6, 6)
    assert keep_for((2, 3, 3, 5, 6), "large_straight") == (2, 3, 5, 6)
    assert keep_for((1, 4, 5, 2, 6), "choice") == (4, 5, 6)
    assert keep_for((1, 2, 3, 4, 6), "fives") == ()


def test_a_yacht_reroll_on_the_trial_table_keeps_the_dice_for_the_declared_category():
    t = Trial("yacht", ["Ann", "Bo"], reader=Seen)
    t.until(lambda: t.app.session.need.kind == "declare", seconds=60)
    showing = tuple(t.app.session.need.raw["showing"])
    category = "full_house"
    before = len(t.source.actions)
    t.app.act({"declare": category})
    t.until(lambda: len(t.source.actions) > before, seconds=20)
    kept = keep_for(showing, category)
    reroll = t.source.actions[-1]
    assert reroll.kind == "throw" and len(reroll.values) == 5 and reroll.values[:len(kept)] == kept


def test_the_trial_table_never_runs_out_of_throws():
    t = Trial("biscuit", ["Ann", "Bo", "Cy"])
    t.until(lambda: len(t.rolls()) >= 12, seconds=120)
    assert not t.pipeline.ended


def test_the_trial_table_keeps_the_maexle_cup_down_until_the_reveal():
    t = Trial("maexle", ["Ann", "Bo"])
    t.frames(int(4 * FPS))
    assert [o.kind for o in t.source.actions] == ["cover"]
    assert t.source.table.cup_down and t.rolls() == []
    under = t.source.actions[0].values
    t.app.act({"announce": 21})
    t.frames(int(6 * FPS))  # Bo decides: the cup stays down, nothing is thrown
    assert [o.kind for o in t.source.actions] == ["cover"] and t.source.table.cup_down
    t.app.act({"reveal": True})
    t.until(lambda: t.rolls())
    assert sorted(t.rolls()[0]) == sorted(under)


def test_the_trial_table_puts_the_maexle_cup_down_at_every_camera_size_a_config_may_give():
    # A cup sized by the frame's width did not fit a 16:9 tray, and the kiosk's camera then failed
    # on every frame ("Camera problem, retrying" for ever).
    for size in [(800, 480), (1280, 720), (1920, 1080), (320, 240)]:
        t = Trial("maexle", ["Ann", "Bo"], reader=Seen, size=size)
        t.frames(int(4 * FPS))
        assert [o.kind for o in t.source.actions] == ["cover"] and t.source.table.cup_down, size
        assert not t.pipeline.ended, size


def test_an_order_the_trial_table_cannot_carry_out_fails_once_not_on_every_frame():
    source = trial_source((640, 480), FPS, seed=3)
    calls = []

    def refuse(order):
        calls.append(order)
        raise ValueError("no room")

    source._carry_out = refuse
    source.order(Order("cover", (6, 3)))
    failures = 0
    for _ in range(int(3 * FPS)):
        try:
            source.read()
        except ValueError:
            failures += 1
    assert failures == 1 and len(calls) == 1


def test_the_trial_table_shakes_afresh_for_a_receiver_who_believes():
    t = Trial("maexle", ["Ann", "Bo", "Cy"])
    t.frames(int(3 * FPS))
    t.app.act({"announce": 31})
    t.frames(2)
    peeked = t.table._believer
    t.app.act({"announce": 32})  # Bo believed, shook and announced
    t.frames(int(3 * FPS))
    assert t.source.actions[-1].kind == "cover" and t.source.actions[-1].values == peeked
    t.app.act({"reveal": True})
    t.until(lambda: t.rolls())
    assert sorted(t.rolls()[0]) == sorted(peeked)


def test_a_reveal_pressed_before_the_believers_shake_is_under_the_cup_lifts_the_believers_dice():
    t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen)
    t.frames(int(3 * FPS))
    t.app.act({"announce": 31})
    t.frames(2)
    peeked = t.table._believer
    t.app.act({"announce": 32})  # Bo believed, shook and announced ...
    t.frames(2)
    t.app.act({"reveal": True})  # ... and Cy calls at once, before the table's pause is over
    t.until(lambda: t.rolls())
    assert sorted(t.rolls()[0]) == sorted(peeked)


def test_a_self_reveal_on_the_trial_table_shows_the_receivers_own_shake():
    t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen)
    t.frames(int(3 * FPS))
    t.app.act({"announce": 31})
    t.frames(int(2 * FPS))
    own = t.table._believer
    t.app.act({"self_reveal": True})
    t.until(lambda: t.rolls())
    assert sorted(t.rolls()[0]) == sorted(own)


@pytest.mark.parametrize("at", ["decide", "lift"])
def test_after_a_pulled_plug_the_trial_table_lifts_the_dice_peeked_before_it(tmp_path, at):
    # Once new dice at random: the announcer's peek, and so the reveal's outcome, meant nothing.
    from appliance.store import Store

    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store)
        t.frames(int(3 * FPS))
        under = t.source.actions[-1].values
        assert t.source.actions[-1].kind == "cover"
        t.app.act({"announce": 31})
        if at == "lift":
            t.app.act({"reveal": True})
        t.frames(2)
    with Store.open(tmp_path) as store:  # the plug pulled: a new kiosk on the same store, new dice drawn
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store, seed=6)
        assert t.app.session.need.kind == at
        if at == "decide":
            t.frames(int(2 * FPS))
            assert t.source.actions[-1] == Order("cover", under)
            t.app.act({"reveal": True})
        t.until(lambda: t.rolls())
        assert sorted(t.rolls()[0]) == sorted(under)
        t.until(lambda: t.app.session.need.kind == "announce" and t.source.actions[-1].kind == "cover")
        assert t.table._under_cup == t.source.actions[-1].values != under  # the next round shakes afresh


def test_after_a_pulled_plug_the_opener_and_the_receiver_see_the_dice_they_saw_before_it(tmp_path):
    from appliance.store import Store
    from appliance.table.base import dice_text

    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store)
        t.frames(int(3 * FPS))
        under = t.source.actions[-1].values  # Ann peeked; the plug is pulled before she announces
    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store, seed=6)
        t.frames(int(3 * FPS))
        assert t.source.actions[-1] == Order("cover", under)
        t.app.act({"announce": 31})
        t.frames(2)
        shake = t.table._believer  # Bo's, seen as he chose to believe; the plug is pulled
    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store, seed=7)
        t.frames(int(2 * FPS))
        t.app.banner, t.app.banners = None, type(t.app.banners)()
        t.app.choose("believe")
        t.frames(1)
        assert t.app.message == f"You shook: {dice_text(shake)} (only you peek)"


def test_a_believers_announcement_the_table_had_no_frame_to_keep_still_lifts_their_shake(tmp_path):
    from appliance.store import Store

    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store)
        t.frames(int(3 * FPS))
        t.app.act({"announce": 31})
        t.frames(2)
        shake = t.table._believer
        t.app.act({"announce": 32})  # Bo believed, shook and announced: the plug goes at once
    with Store.open(tmp_path) as store:
        t = Trial("maexle", ["Ann", "Bo", "Cy"], reader=Seen, store=store, seed=6)
        t.frames(2)
        t.app.act({"reveal": True})  # Cy calls Bo's bluff: the cup holds Bo's shake
        t.until(lambda: t.rolls())
        assert sorted(t.rolls()[0]) == sorted(shake)


def test_the_trial_table_throws_nothing_while_the_menu_is_open():
    t = Trial("biscuit", ["Ann", "Bo", "Cy"])
    t.app.screen = "menu"
    t.frames(int(6 * FPS))
    assert t.source.actions == [] and t.rolls() == []
    t.app.screen = "play"
    t.until(lambda: t.rolls())


def test_the_kiosk_plays_the_trial_table_when_the_config_says_synthetic(tmp_path):
    from appliance import config
    from appliance.commands.kiosk import Appliance
    from appliance.service import Service

    cfg_file = tmp_path / "config.toml"
    cfg_file.write_text(f'state_dir = "{tmp_path}"\n[camera]\nsource = "synthetic"\nsize = [320, 240]\n')
    appliance = Appliance(config.load(cfg_file), Service())
    app = App()
    pipeline, worker = appliance._camera(CommandQueue(), app)
    try:
        assert isinstance(pipeline.source, TrialSource)
        assert isinstance(Appliance._trial(app, pipeline), TrialTable)
    finally:
        worker.stop()


def test_an_announcement_before_the_cup_is_down_still_ends_in_dice_at_the_reveal():
    """The demo window got stuck at "Lift the cup!" with no dice when the holder announced before
    shaking: the lift now shows the dice the table shook, cup or no cup."""
    t = Trial("maexle", ["Ann", "Bo"])
    t.app.act({"announce": 43})  # before a single frame: the cup is not down yet
    t.app.act({"reveal": True})
    t.until(lambda: t.rolls())
    assert len(t.rolls()[0]) == 2


def test_the_demo_window_plays_on_the_trial_table():
    from appliance.demo import play_window

    seen = []
    assert play_window((800, 480), seed=1, max_frames=2, steps=lambda k: seen.append(k.pipeline.source)) == 0
    assert all(isinstance(s, TrialSource) for s in seen) and seen



def clean_throws(t: Trial) -> list[list[int]]:
    return [sorted(a.values) for a in t.source.actions if a.kind == "throw" and not a.mishap]


def test_dice_thrown_off_the_tray_or_cocked_are_announced_and_thrown_again_never_taken_as_a_roll():
    t = Trial("biscuit", ["Ann", "Bo", "Cy"], reader=Seen, mishaps=1.0)
    t.until(lambda: len(t.rolls()) >= 3, seconds=120)
    assert "A die is off the tray: throw again" in t.messages
    assert "A die is cocked: throw again" in t.messages
    assert [a.mishap for a in t.source.actions][:2] == ["off_tray", ""]
    assert [sorted(r) for r in t.rolls()] == clean_throws(t)[:len(t.rolls())]


def test_the_real_reader_sees_a_die_off_the_trial_tray_and_the_kiosk_says_throw_again():
    t = Trial("biscuit", ["Ann", "Bo", "Cy"], mishaps=1.0)
    t.until(lambda: t.messages, seconds=30)
    assert t.messages[0] == "A die is off the tray: throw again" and t.rolls() == []
    t.until(lambda: t.rolls(), seconds=30)
    assert sorted(t.rolls()[0]) == clean_throws(t)[0]


def test_the_trial_table_clears_its_tray_for_the_guided_setup_and_throws_the_dice_its_teach_step_asks_for(tmp_path):
    """A newcomer walks the guided setup on the camera-less trial table: the table takes its dice off
    the tray, the tray is found, the light says it cannot be locked, the empty tray is taken, and
    the teach step's throws come by themselves until the table has learned."""
    from appliance import guided
    from appliance.store import Store
    from appliance.teaching import TableReader
    from appliance.trial import Order

    commands = CommandQueue()
    source = trial_source((640, 480), FPS, seed=3)
    reader = TableReader()
    pipeline = CameraPipeline(source, SettleDetector(reader, tray=source.tray_area),
                              lambda r: commands.put(Command("settled", r, source="camera")))
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=pipeline, hooks=Hooks(expect=pipeline.expect, adapted=reader.use))
        app.guided.configure(tray_area=source.tray_area, reference=None, tray_stamp=guided.tray_stamp(None, (640, 480)),
                             camera_stamp="")
        table = TrialTable(app, pipeline.call, seed=5)

        def frames(n: int) -> None:
            for _ in range(n):
                table.tick()
                pipeline.step()
                for cmd in commands.drain():
                    app.handle(cmd)
                app.tick()

        source.order(Order("throw", (3, 4)), now=True)  # dice left lying from before
        frames(30)
        app.open_guided()
        frames(10)
        assert source.truth.dice == () and source.actions[-1].kind == "clear"
        app.choose("look")
        x, y, w, h = app.guided.found.area
        tx, ty, tw, th = source.tray_area
        assert abs(x - tx) <= 8 and abs(y - ty) <= 8 and abs(w - tw) <= 16 and abs(h - th) <= 16
        app.choose("confirm")
        app.choose("lock")
        frames(3)
        assert app.view().prompt == "This camera cannot fix its light: it keeps adjusting by itself"
        app.choose("skip")
        frames(10)
        app.choose("picture")
        assert app.guided.taken and store.image(guided.REFERENCE).shape == (480, 640, 3)
        app.choose("next")
        for _throw in range(guided.TEACH_THROWS):
            for _ in range(int(20 * FPS)):
                if app.guided.pending is not None:
                    break
                frames(1)
            assert app.guided.pending is not None and app.guided.pending[1].ok
            app.choose("right")
        deadline = time.monotonic() + 30
        while not app.guided.decision and time.monotonic() < deadline:  # it learns in its own thread
            frames(1)
        assert app.guided.decision and store.count_examples()[0] == guided.TEACH_THROWS
        throws = [a for a in source.actions if a.kind == "throw"][1:]
        assert len(throws) >= guided.TEACH_THROWS and all(len(a.values) == 5 for a in throws)
        app.choose("done")
        frames(5)
        assert app.screen == "setup" and source.current.kind == "wait"


def test_the_maexle_peek_waits_until_the_announcements_are_gone():
    # With 5 s from when it was said, it expired under the last round's outcome banners before the
    # next opener looked.
    from appliance.kiosk.app import Banner
    from appliance.table.base import Announcement, dice_text

    t = Trial("maexle", ["Ann", "Bo"])
    t.app.banner = Banner(Announcement("Bo drinks", tone="drink"))
    t.frames(int(3 * FPS))
    under = t.source.actions[-1].values
    assert t.source.actions[-1].kind == "cover" and t.messages == []
    t.app.banner = None
    t.frames(1)
    assert t.app.message == f"Under the cup: {dice_text(under)} (only you peek)"
    assert t.app.message_until - t.app.clock() > PEEK_S - 1


def test_the_maexle_peek_waits_for_the_message_line_too():
    t = Trial("maexle", ["Ann", "Bo"])
    t.app.say("The games cannot be saved: call the staff", seconds=30)
    t.frames(int(3 * FPS))
    assert t.app.message == "The games cannot be saved: call the staff"  # not overwritten
    t.app.hush()
    t.frames(1)
    assert t.app.message.startswith("Under the cup: ")


def test_the_receivers_shake_shows_only_once_they_choose_to_believe():
    # Shown while they still decide, it told them what a real receiver learns only after believing.
    from appliance.table.base import dice_text

    t = Trial("maexle", ["Ann", "Bo", "Cy"])
    t.frames(int(3 * FPS))
    assert t.app.message.startswith("Under the cup: ")
    t.app.act({"announce": 31})
    t.frames(1)
    assert t.app.message == ""  # the opener's peek went with their turn
    t.app.banner, t.app.banners = None, type(t.app.banners)()  # the announcement read
    said = len(t.messages)
    t.frames(int(PEEK_S * FPS))
    assert t.app.message == "" and t.messages[said:] == []  # Bo decides on the announcement alone
    t.app.choose("believe")  # the announce picker opens
    t.frames(1)
    assert t.app.play.sub == "believe"
    assert t.app.message == f"You shook: {dice_text(t.table._believer)} (only you peek)"
