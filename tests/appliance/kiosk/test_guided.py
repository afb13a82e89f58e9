"""The guided setup on the kiosk: its steps in order, each kept in the store as it is confirmed, each
skippable (what was in force stays), the teach step's throws confirmed, corrected or refused, a
restart that comes back at the step it was on, and bad frames or a camera gone mid-setup said
clearly, changing nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from appliance import guided
from appliance.kiosk import guided_view
from appliance.kiosk.app import App
from appliance.store import Store
from vision.sources import ExposureUnsupported


def ids(app) -> list[str]:
    return [c.id for c in app.view().choices if c.style != "disabled"]


def settle_light(app) -> None:
    """The light step after Lock: the camera's auto settles, then the lock comes back."""
    from appliance.kiosk.screens.guided import SETTLE_S

    app.tick()
    app.now[0] += SETTLE_S + 0.1
    app.tick()
    app.tick()


def learn(app) -> None:
    """Frames go on while the table learns in its own thread, until it has (or 30 s have passed)."""
    import time

    deadline = time.monotonic() + 30
    app.tick()
    while app.guided.fitting and time.monotonic() < deadline:
        time.sleep(0.01)
        app.tick()


def teach(app, camera, values, seed=0) -> None:
    app.on_reading(camera.throw(values, seed=seed))


def teach_right(app, camera, throws=guided.TEACH_THROWS, first_seed=0) -> None:
    """``throws`` throws of five dice, each read right and confirmed so."""
    for k in range(throws):
        teach(app, camera, (1, 2, 3, 4, 5), seed=first_seed + k)
        app.choose("right")


def test_a_first_start_is_due_a_setup_and_a_finished_one_is_not(guided_table):
    app, _camera, store = guided_table
    assert guided.due(store) and not guided.due(None)
    app.open_guided(resume=True)
    assert app.screen == "guided" and app.guided.progress.step == "tray"
    app.choose("later")
    assert app.screen == "setup" and not guided.due(store)
    assert guided.progress(store).results == dict.fromkeys(guided.STEPS, "skipped")


def test_the_steps_come_in_order_and_each_is_kept_as_it_is_confirmed(guided_table, empty_tray):
    app, camera, store = guided_table
    _frame, truth = empty_tray
    app.open_guided()
    assert app.view().tray is not None and "confirm" in ids(app)  # found at once, drawn on the frame
    app.choose("confirm")
    area = json.loads(store.setting(guided.TRAY))["area"]
    assert camera.calibrated[-1] == (tuple(area), None) and app.guided.progress.step == "exposure"
    assert abs(area[0] - truth[0]) < 12 and abs(area[2] - truth[2]) < 24
    app.choose("lock")
    settle_light(app)
    assert camera.asked == ["auto", "lock"] and "8.0 ms" in app.view().prompt
    assert json.loads(store.setting(guided.EXPOSURE))["values"]["ExposureTime"] == 8000
    app.choose("next")
    app.choose("picture")
    assert np.array_equal(store.image(guided.REFERENCE), camera.frame) and camera.calibrated[-1][1] is not None
    app.choose("next")
    assert app.guided.progress.step == "teach" and app.camera_dice == 5  # the camera reads five dice now
    for k in range(guided.TEACH_THROWS):
        teach(app, camera, (1, 2, 3, 4, 5), seed=k)
        assert app.view().dice == [5, 4, 3, 2, 1] and "5 4 3 2 1" in app.view().prompt  # the faces as said
        app.choose("right")
    assert app.guided.fitting  # six throws: the table learns, saying so first
    learn(app)
    assert store.count_examples()[0] == guided.TEACH_THROWS and "Checked on your throws" in app.view().prompt
    app.choose("done")
    saved = guided.progress(store)
    assert saved.done and saved.results == {"tray": "confirmed", "exposure": "locked", "reference": "taken",
                                            "teach": "taught"}
    assert app.screen == "setup"


def test_a_skipped_step_keeps_what_was_in_force(guided_table):
    app, camera, store = guided_table
    app.open_guided()
    for _step in guided.STEPS:
        app.choose("skip")
    assert app.screen == "setup" and camera.calibrated == [] and camera.asked == []
    assert store.setting(guided.TRAY) is None and store.setting(guided.EXPOSURE) is None
    assert store.image(guided.REFERENCE) is None and store.count_examples() == (0, 0, 0)
    assert guided.progress(store).results == dict.fromkeys(guided.STEPS, "skipped")


def to_teach(app) -> None:
    app.open_guided()
    for _step in ("tray", "exposure", "reference"):
        app.choose("skip")


def test_a_throw_read_wrong_is_corrected_on_the_hand_entry_and_kept_with_the_values_entered(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    app.guided.dice = 2
    teach(app, camera, (6, 3))
    app.choose("fixthrow")
    assert app.screen == "hand" and app.hand.dice == [3, 6]  # it starts from what was read
    app.choose("back")
    assert app.screen == "guided" and app.guided.pending is not None  # Cancel: the throw is still asked about
    app.choose("fixthrow")
    app.select(6), app.select(4)  # digits set the dice: "6 4"
    app.choose("handok")
    assert app.screen == "guided" and app.guided.pending is None and app.guided.taught() == 1
    _crops, labels, _throws, _scores = store.examples()
    assert sorted(v for v in labels if v) == [4, 6]


@pytest.mark.parametrize("kind, said", [("cocked", "A die is cocked: throw again"),
                                         ("off_tray", "A die is off the tray: throw again")])
def test_a_teach_throw_with_a_die_cocked_or_off_the_tray_is_only_thrown_again(guided_table, kind, said):
    # Entered by hand it was kept: a leaning die's crop taught as a top face, a die on the bar as one.
    from dataclasses import replace

    app, camera, store = guided_table
    to_teach(app)
    app.guided.dice = 5
    reading = replace(camera.throw((1, 2, 3, 4, 5)), status="unreadable", kind=kind, reason=kind)
    camera.last_settled = (camera.last_settled[0], reading)
    app.on_reading(reading)
    view = app.view()
    assert view.prompt == said and [c.id for c in view.choices] == ["again", "later"]
    app.choose("fixthrow")  # a stale button's digit: nothing
    assert app.screen == "guided" and store.count_examples() == (0, 0, 0)
    app.choose("again")
    assert app.guided.pending is None and store.count_examples() == (0, 0, 0)


def test_a_press_as_a_teach_throw_settles_was_aimed_before_it_and_confirms_nothing(guided_table):
    from appliance.kiosk.app import ROLL_GUARD_S

    app, camera, store = guided_table
    to_teach(app)
    teach(app, camera, (1, 2, 3, 4, 5))
    app.press("right")  # the same frame: the player had not seen the throw asked about
    assert app.guided.pending is not None and store.count_examples() == (0, 0, 0)
    app.now[0] += ROLL_GUARD_S + 0.1
    app.press("right")
    assert app.guided.pending is None and app.guided.taught() == 1


def test_dice_forgotten_during_the_teach_step_count_it_again_from_none(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    teach_right(app, camera, 3)  # an earlier setup's dice
    app.choose("later")
    to_teach(app)
    teach_right(app, camera, 1, first_seed=3)
    assert app.guided.taught() == 1
    store.forget_examples()  # `dicetable teach --forget` from another shell
    assert app.guided.taught() == 0
    teach_right(app, camera, 2, first_seed=10)
    assert app.guided.taught() == 2 and guided.progress(store).first_throw == 0


def test_a_throw_refused_is_not_kept_and_the_next_one_is_asked_for(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    teach(app, camera, (1, 2, 3, 4, 5))
    app.choose("again")
    assert app.guided.pending is None and store.count_examples() == (0, 0, 0) and "dicecount" in ids(app)


def test_a_throw_whose_dice_are_counted_otherwise_is_not_kept_and_said(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    teach(app, camera, (1, 2, 3, 4, 5))
    app.choose("fixthrow")
    app.hand.dice = [1, 2, 3, 4]  # four values for the five dice on the tray
    app.choose("handok")
    assert store.count_examples() == (0, 0, 0) and "another number of dice" in app.guided.notice


def test_finish_before_the_throws_learning_needs_says_so_and_changes_nothing(guided_table):
    from vision.adapt import MIN_THROWS

    app, camera, store = guided_table
    to_teach(app)
    before = ids(app)
    assert before[0] == "finish"  # pressable from the first: the digits of the buttons never move
    teach(app, camera, (1, 2, 3, 4, 5))
    app.choose("right")
    app.choose("finish")
    assert not app.guided.fitting and not app.guided.decision and app.guided.progress.step == "teach"
    assert f"{MIN_THROWS} throws at least: 1 taught so far" in app.view().hint
    teach_right(app, camera, MIN_THROWS - 1, first_seed=1)
    assert ids(app) == before  # enough now: the same buttons under the same digits
    app.choose("finish")
    learn(app)
    assert "Checked on your throws" in app.view().prompt and ids(app)[:2] == ["done", "more"]


def test_the_number_of_dice_button_shows_the_number_thrown(guided_table):
    app, _camera, _store = guided_table
    to_teach(app)
    count = next(c for c in app.view().choices if c.id == "dicecount")
    assert count.label == "Number of dice: 5" and ids(app).index("dicecount") > 0  # not under "Right"'s digit
    app.choose("dicecount")
    assert next(c.label for c in app.view().choices if c.id == "dicecount") == "Number of dice: 6"


def test_teach_more_after_learning_asks_for_as_many_throws_again_and_learns_again(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    teach_right(app, camera)
    learn(app)
    app.choose("more")
    assert not app.guided.decision and app.camera_dice == 5
    app.choose("finish")  # nothing new yet: said, and the same fit is not made again
    assert not app.guided.fitting and "Nothing new to learn from yet" in app.view().hint
    assert f"{guided.TEACH_THROWS} of {2 * guided.TEACH_THROWS} throws taught" in app.view().info
    for k in range(guided.TEACH_THROWS):
        assert not app.guided.fitting
        teach(app, camera, (1, 2, 3, 4, 5), seed=10 + k)
        app.choose("right")
    learn(app)
    assert store.count_examples()[2] == 2 * guided.TEACH_THROWS and "Checked on your throws" in app.view().prompt


def test_a_table_without_a_store_says_up_front_that_it_cannot_learn_its_dice(make_camera):
    app = App(store=None, camera=make_camera())
    to_teach(app)
    assert app.view().title_key == "teach-no-store" and ids(app)[0] == "skip"
    assert "cannot learn your dice" in app.view().prompt and "right" not in ids(app)
    assert app.guided.expected() is None  # no throw is asked about
    app.choose("skip")
    assert app.screen == "setup"


def test_a_restart_mid_setup_comes_back_at_the_step_it_was_on(tmp_path, make_camera):
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        app.choose("confirm")
        app.choose("skip")  # the light
        assert app.guided.progress.step == "reference"
        # the plug is pulled here
    with Store.open(tmp_path) as store:
        assert guided.due(store)
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        assert app.screen == "guided" and app.guided.progress.step == "reference"
        assert app.guided.progress.results == {"tray": "confirmed", "exposure": "skipped"}
        assert guided.tray_area(store, None, (0, 0)) is not None  # as the setup was configured
        app.choose("picture")
        app.choose("next")
        app.choose("later")
        assert not guided.due(store) and store.image(guided.REFERENCE) is not None


def test_a_restart_in_the_teach_step_keeps_the_number_of_dice_the_players_chose(tmp_path, make_camera):
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        to_teach(app)
        assert app.guided.dice == 5
        app.choose("dicecount")  # the table plays with six
        # the plug is pulled here
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        assert app.guided.progress.step == "teach" and app.guided.dice == 6
    with Store.open(tmp_path) as store:  # a setup begun again from the menu asks for the game's dice
        app = App(store=store, camera=make_camera())
        app.open_guided()
        assert app.guided.dice == 5


def test_a_restart_after_a_lock_or_a_picture_shows_it_kept_not_asked_again(tmp_path, make_camera):
    with Store.open(tmp_path) as store:
        now = [0.0]
        app = App(store=store, camera=make_camera(), clock=lambda: now[0])
        app.now = now
        app.open_guided(resume=True)
        app.choose("confirm")
        app.choose("lock")
        settle_light(app)
        assert app.guided.light == "locked"
        # the plug is pulled before "Next"
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        assert app.guided.progress.step == "exposure" and app.guided.light == "locked"
        assert app.view().title_key == "exposure-locked" and "8.0 ms" in app.view().prompt
        assert ids(app)[0] == "next"  # as just after the lock: on, or lock again
        app.choose("next")
        app.choose("picture")
        assert app.guided.taken
        # the plug is pulled again before "Next"
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        assert app.guided.progress.step == "reference" and app.guided.taken
        assert "next" in ids(app) and "picture" in ids(app)  # a new picture is still offered
        app.choose("next")
        assert app.guided.progress.results == {"tray": "confirmed", "exposure": "locked", "reference": "taken"}


def test_the_menu_opens_the_setup_from_the_start_and_it_returns_to_the_game(guided_table):
    app, _camera, _store = guided_table
    app.players = ["Ann", "Bo"]
    app.setup.seats = ["Ann", "Bo"]
    app.setup.game_kind = "yacht"
    assert app.start_game()
    app.choose("menu")
    app.choose("guided")
    assert app.screen == "guided" and app.guided.progress.step == "tray" and app.guided.dice == 5
    app.choose("later")
    assert app.screen == "menu"


def test_the_setup_opened_in_a_maexle_round_asks_for_the_games_two_dice(guided_table):
    # At the announcement the game waits for no roll and none was thrown yet: it asked for 5.
    app, _camera, _store = guided_table
    app.setup.game_kind = "maexle"
    assert app.start_game() and app.session.need.dice is None
    app.choose("menu")
    app.choose("guided")
    assert app.guided.dice == 2


def test_taught_values_that_contradict_sure_readings_are_named_as_the_cause():
    from vision.adapt import Fitted

    said = guided_view.decision(Fitted(None, "", (0, 0, 0), (0, 0, 0), 6, contradicted=(30, 30)), 6)
    assert said.startswith("The values taught disagree with 30 of 30 dice") and "forget these dice" in said
    assert "0 of 6" not in said  # held-aside figures scored against those very values say nothing


def test_taught_values_that_contradict_can_be_forgotten_from_the_setup_after_a_question_and_taught_anew(guided_table):
    app, _camera, store = guided_table
    to_teach(app)
    store.add_throws([(np.zeros((2, 32, 32, 3), np.uint8), [4, 5])] * 3, "teach")
    app.guided.decision, app.guided.contradicted = "The values taught disagree ...", True
    assert ids(app) == ["done", "more", "forget"]
    app.choose("forget")
    assert app.screen == "confirm" and app.taught_throws() == 3
    app.now[0] += 2.0
    app.press("yes")
    assert app.screen == "guided" and app.taught_throws() == 0
    # The verdict on the dice forgotten no longer stands: the step asks for throws again, from none.
    view = app.view()
    assert view.prompt.startswith("Throw your") and "disagree" not in view.prompt and app.guided.taught() == 0


def test_a_frame_without_a_tray_says_why_and_offers_no_confirmation(guided_table):
    app, camera, store = guided_table
    camera.frame = np.full((480, 640, 3), 128, np.uint8)  # a plain wall: no tray edge in view
    app.open_guided()
    assert app.view().prompt == "No tray found: the plain area fills the whole picture"
    assert "confirm" not in ids(app)
    app.choose("confirm")  # a stale tap changes nothing
    assert store.setting(guided.TRAY) is None and camera.calibrated == []


def test_the_camera_gone_mid_setup_is_said_and_changes_nothing(guided_table):
    app, camera, store = guided_table
    app.open_guided()
    camera.gone("No camera found")
    app.choose("look")
    assert app.guided.notice == "No picture from the camera yet: try again once it shows one"
    assert "confirm" not in ids(app) and app.view().camera  # why: the camera panel's own status line
    app.choose("skip")
    app.choose("lock")
    settle_light(app)
    assert app.view().prompt == "No answer from the camera: the light stays as it was"
    app.choose("skip")
    app.choose("picture")
    assert app.guided.notice.startswith("No picture from the camera")
    assert store.setting(guided.TRAY) is None and store.setting(guided.EXPOSURE) is None
    assert store.image(guided.REFERENCE) is None and camera.calibrated == []


def test_a_camera_that_cannot_lock_its_light_says_so_and_the_step_is_skipped(guided_table):
    app, camera, store = guided_table
    camera.lock = ExposureUnsupported("TrialSource has no exposure to lock")
    app.open_guided()
    app.choose("skip")
    app.choose("lock")
    settle_light(app)
    assert app.view().prompt == "This camera cannot fix its light: it keeps adjusting by itself"
    assert ids(app)[:2] == ["lock", "skip"] and "use" not in camera.asked  # no lock kept to go back to
    app.choose("skip")
    assert app.guided.progress.step == "reference" and store.setting(guided.EXPOSURE) is None


def lock_light(app, camera) -> dict:
    """The setup opened, its light step locked: the values kept."""
    app.open_guided()
    app.choose("skip")
    app.choose("lock")
    settle_light(app)
    return dict(camera.lock)


def test_a_failed_lock_again_puts_the_camera_back_on_the_lock_kept_before(guided_table):
    from vision.sources import CameraTimeout

    app, camera, store = guided_table
    kept = lock_light(app, camera)
    assert app.guided.light == "locked" and store.setting(guided.EXPOSURE) is not None
    camera.lock = CameraTimeout("no frame came")  # the camera stops answering: auto, then nothing
    app.choose("lock")  # "Lock again"
    settle_light(app)
    assert app.guided.light == "failed" and camera.asked[-2:] == ["auto", "use"] and camera.used == [kept]
    assert guided.exposure(store, app.guided.camera_stamp) == kept  # the kept lock stays kept


@pytest.mark.parametrize("choice", ["skip", "later", "previous"])
def test_leaving_the_light_step_while_it_settles_puts_the_camera_back_on_the_lock_kept(guided_table, choice):
    app, camera, store = guided_table
    kept = lock_light(app, camera)
    app.choose("previous")
    app.choose("skip")
    app.choose("lock")  # "Lock again", and left before it locks
    app.tick()
    assert app.guided.light in ("auto", "settling") and camera.asked[-1] == "auto"
    app.choose(choice)
    assert camera.asked[-1] == "use" and camera.used[-1] == kept and app.guided.light != "settling"
    assert guided.exposure(store, app.guided.camera_stamp) == kept


def test_a_table_without_a_store_takes_the_empty_tray_for_this_run(guided_table):
    app, camera, _store = guided_table
    app.store = None
    app.open_guided()
    app.choose("skip")
    app.choose("skip")
    app.choose("picture")
    assert app.guided.taken and np.array_equal(app.guided.reference, camera.frame) and camera.calibrated


def test_a_lock_that_never_answers_gives_up(guided_table):
    from concurrent.futures import Future

    from appliance.kiosk.screens.guided import ANSWER_S

    app, camera, _store = guided_table
    camera.exposure = lambda action: Future()  # never done
    app.open_guided()
    app.choose("skip")
    app.choose("lock")
    app.now[0] += ANSWER_S + 1
    app.tick()
    assert app.guided.light == "failed"


def test_the_empty_tray_is_refused_while_something_moves_or_dice_lie_there(guided_table):
    app, camera, store = guided_table
    app.open_guided()
    app.choose("skip"), app.choose("skip")
    camera.state = "moving"
    app.choose("picture")
    assert app.guided.notice == "Something moves on the tray: wait until it is still"
    camera.state, camera.dice = "still", (object(),)
    app.choose("picture")
    assert app.guided.notice == "Dice on the tray: take them off first"
    assert store.image(guided.REFERENCE) is None and not app.guided.taken


def test_a_store_that_cannot_write_changes_nothing_and_says_so(guided_table, monkeypatch):
    app, camera, store = guided_table
    app.open_guided()

    def full(*_a, **_k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(store, "save_settings", full)
    app.choose("confirm")
    assert app.guided.notice == "The setup could not be saved: nothing changed"
    assert app.guided.progress.step == "tray" and camera.calibrated == [] and "tray" not in app.guided.progress.results


def test_without_a_camera_every_step_says_so_and_can_be_skipped(tmp_path):
    with Store.open(tmp_path) as store:
        app = App(store=store)
        app.open_guided(resume=True)
        for _step in guided.STEPS:
            assert app.view().prompt == "No camera: this step needs one" and ids(app) == ["skip", "later"]
            app.choose("skip")
        assert app.screen == "setup"


def test_a_setup_without_a_store_walks_through_but_keeps_nothing(make_camera):
    camera = make_camera()
    app = App(camera=camera)
    app.open_guided()
    app.choose("confirm")
    assert camera.calibrated and app.guided.progress.step == "exposure"
    app.choose("skip"), app.choose("skip")
    teach(app, camera, (1, 2, 3, 4, 5))
    assert app.guided.pending is None and ids(app)[0] == "skip"  # the teach step said so before any throw


@pytest.mark.parametrize("config_then, config_now, size_now, wins", [
    (None, None, (640, 480), "setup"), ((10, 10, 600, 400), (10, 10, 600, 400), (640, 480), "setup"),
    (None, (20, 20, 500, 400), (640, 480), "config"), ((10, 10, 600, 400), None, (640, 480), "config"),
    (None, None, (1280, 720), "config")])  # another frame size: the setup's px are another frame's
def test_the_setups_tray_wins_over_the_config_unless_the_config_was_edited_after(tmp_path, config_then, config_now,
                                                                                   size_now, wins):
    with Store.open(tmp_path) as store:
        store.save_settings({guided.TRAY: guided.tray_text((30, 26, 580, 424), guided.tray_stamp(config_then,
                                                                                                  (640, 480)))})
        area = guided.tray_area(store, config_now, size_now)
        assert area == ((30, 26, 580, 424) if wins == "setup" else config_now)
        if wins == "config":  # the setup's is forgotten: the config wins from now on, even if put back
            assert guided.tray_area(store, config_then, (640, 480)) == config_then


def test_the_light_lock_is_used_only_with_the_camera_it_was_locked_on(tmp_path):
    stamp = guided.camera_stamp("picamera", (640, 480), "auto")
    with Store.open(tmp_path) as store:
        store.save_settings({guided.EXPOSURE: guided.exposure_text({"ExposureTime": 8000}, stamp)})
        assert guided.exposure(store, stamp) == {"ExposureTime": 8000}
        assert guided.exposure(store, guided.camera_stamp("picamera", (640, 480), 9000)) is None  # edited config
        assert guided.exposure(store, stamp) is None  # and forgotten


def test_saved_progress_that_does_not_parse_starts_the_setup_afresh(tmp_path):
    with Store.open(tmp_path) as store:
        for bad in ("{", '{"step": "somewhere"}', "[]", '{"results": {}}'):
            store.save_settings({guided.PROGRESS: bad})
            assert guided.progress(store) is None and guided.due(store)


def test_at_a_first_start_the_tray_is_looked_for_once_the_camera_gives_a_picture(guided_table):
    app, camera, _store = guided_table
    frame, camera.frame = camera.frame, None  # the camera is still starting
    app.open_guided(resume=True)
    assert app.guided.found is None and app.guided.notice == ""  # nothing to say yet
    camera.frame = frame
    app.tick()
    assert app.guided.found.area is not None and "confirm" in ids(app)


def test_previous_step_goes_back_with_what_the_step_kept_shown_kept(guided_table):
    app, _camera, store = guided_table
    app.open_guided()
    assert "previous" not in ids(app)  # the first step has none before it
    app.choose("confirm")
    app.choose("lock")
    assert "previous" not in ids(app)  # the light is being locked: going back would cut it short
    settle_light(app)
    app.choose("next")
    assert app.guided.progress.step == "reference"
    app.choose("previous")
    assert app.guided.progress.step == "exposure" and app.guided.light == "locked"
    assert guided.progress(store).step == "exposure"  # kept: a pulled plug comes back here
    app.choose("previous")
    assert app.guided.progress.step == "tray" and "confirm" in ids(app)
    assert app.guided.progress.results["exposure"] == "locked"  # the later steps keep theirs
    app.choose("confirm")
    app.choose("next")
    app.choose("skip")  # the empty tray
    assert app.guided.progress.step == "teach" and "previous" in ids(app)
    app.choose("previous")
    assert app.guided.progress.step == "reference" and "picture" in ids(app)


def _locked_then_unplugged(tmp_path, make_camera, stamp: str):
    """A light locked in the setup under the camera config ``stamp``; the plug pulled before Next."""
    with Store.open(tmp_path) as store:
        now = [0.0]
        app = App(store=store, camera=make_camera(), clock=lambda: now[0])
        app.now = now
        app.guided.configure(tray_area=None, reference=None, tray_stamp=guided.tray_stamp(None, (640, 480)),
                             camera_stamp=stamp)
        app.open_guided(resume=True)
        app.choose("confirm")
        app.choose("lock")
        settle_light(app)
        assert app.guided.light == "locked"


def test_a_restart_without_a_camera_keeps_the_light_lock_for_when_it_is_back(tmp_path, make_camera):
    stamp = guided.camera_stamp("picamera", (640, 480), None)
    _locked_then_unplugged(tmp_path, make_camera, stamp)
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=None)  # the camera did not open (the kiosk configures nothing then)
        app.open_guided(resume=True)
        assert app.view().prompt == "No camera: this step needs one"
        assert guided.exposure(store, stamp) is not None


def test_a_kept_empty_tray_of_another_frame_size_is_asked_again_after_a_restart(tmp_path, make_camera):
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        for choice in ("confirm", "skip", "picture"):
            app.choose(choice)
        assert app.guided.taken
    with Store.open(tmp_path) as store:
        camera = make_camera()
        camera.frame = np.zeros((720, 1280, 3), np.uint8)  # the camera now gives 1280x720
        app = App(store=store, camera=camera)
        app.open_guided(resume=True)
        assert app.guided.progress.step == "reference" and not app.guided.taken
        assert "picture" in ids(app)


def test_skipping_a_step_gone_back_to_keeps_what_it_kept(guided_table):
    app, _camera, store = guided_table
    app.open_guided()
    app.choose("confirm")
    app.choose("previous")
    app.choose("skip")  # the tray confirmed before stays in force: it is not recorded "skipped"
    assert app.guided.progress.results["tray"] == "confirmed"
    assert json.loads(store.setting(guided.TRAY))["area"]


def test_the_setup_opened_again_says_what_an_earlier_one_kept(guided_table):
    app, _camera, _store = guided_table
    app.open_guided()
    app.choose("confirm")
    assert app.view().info == "Now: the camera adjusts itself"
    app.choose("lock")
    settle_light(app)
    app.choose("next")
    assert app.view().info == "Now: no empty tray"
    app.choose("picture")
    app.choose("next")
    app.choose("later")
    app.open_guided()  # from the menu: from its first step again
    app.choose("confirm")
    assert app.guided.light == "" and app.view().info == "Now: locked by an earlier setup"
    app.choose("skip")
    assert not app.guided.taken and app.view().info == "Now: an empty tray kept earlier"


@pytest.mark.parametrize("lang, ms", [("en", "8.0 ms"), ("de", "8,0 ms"), ("lv", "8,0 ms"), ("ru", "8,0 мс")])
def test_the_light_locked_is_said_with_the_languages_decimal_mark(lang, ms):
    from appliance import i18n

    i18n.set_language(lang)
    try:
        said = guided_view.light_words({"ExposureTime": 8000, "AnalogueGain": 1.5})
    finally:
        i18n.set_language("en")
    assert ms in said and ("1.5" if lang == "en" else "1,5") in said


def test_a_webcams_exposure_is_said_in_its_own_units_not_as_a_bare_number():
    said = guided_view.light_words({"exposure": 156.0, "wb_temperature": 4600.0})
    assert said == "exposure 156 (the camera's own units), white balance 4600 K"


def test_the_setups_tray_is_forgotten_when_the_cameras_source_changes(tmp_path):
    with Store.open(tmp_path) as store:
        store.save_settings({guided.TRAY: guided.tray_text((30, 26, 580, 424),
                                                           guided.tray_stamp(None, (640, 480), "picamera"))})
        assert guided.tray_area(store, None, (640, 480), "picamera") == (30, 26, 580, 424)
        assert guided.tray_area(store, None, (640, 480), "/dev/video0") is None  # another camera: the config's
        assert guided.tray_area(store, None, (640, 480), "picamera") is None  # and forgotten, as an edited config


def test_a_tray_confirmed_before_the_source_was_stamped_is_still_used(tmp_path):
    with Store.open(tmp_path) as store:
        store.save_settings({guided.TRAY: json.dumps({"area": [30, 26, 580, 424], "config": [None, [640, 480]]})})
        assert guided.tray_area(store, None, (640, 480), "picamera") == (30, 26, 580, 424)


def test_teach_more_keeps_its_goal_over_a_pulled_plug_and_a_step_back(tmp_path, make_camera):
    with Store.open(tmp_path) as store:
        camera = make_camera()
        app = App(store=store, camera=camera)
        to_teach(app)
        teach_right(app, camera)
        learn(app)
        app.choose("more")
        teach_right(app, camera, 2, first_seed=10)
        app.choose("previous")
        app.choose("next")
        assert not app.guided.fitting and "8 of 12 throws taught" in app.view().info
        # the plug is pulled here
    with Store.open(tmp_path) as store:
        app = App(store=store, camera=make_camera())
        app.open_guided(resume=True)
        assert app.guided.progress.step == "teach" and not app.guided.fitting
        assert "8 of 12 throws taught" in app.view().info


def test_esc_while_the_table_learns_waits_for_it_to_learn(guided_table):
    app, camera, store = guided_table
    to_teach(app)
    teach_right(app, camera)
    app.back()  # the frame after the sixth "Right", before the fit
    assert app.screen == "guided" and app.guided.fitting
    learn(app)
    assert "Checked on your throws" in app.view().prompt and guided.progress(store).results["teach"] == "taught"


@pytest.mark.parametrize("answer, digit", [("right", 1), ("fixthrow", 2), ("again", 3)])
def test_the_key_that_answered_a_throw_pressed_again_soon_after_reaches_no_button_of_the_step(guided_table, answer,
                                                                                               digit):
    from appliance.kiosk.app import ANSWER_PAUSE_S, ROLL_GUARD_S

    app, camera, store = guided_table
    to_teach(app)
    for k in range(4):  # the fourth answered: "1" again would be Finish, "2" the number of dice, "3" Skip
        app.now[0] += 2.0  # a throw takes its time
        teach(app, camera, (1, 2, 3, 4, 5), seed=k)
        app.now[0] += ROLL_GUARD_S + 0.1
        if k < 3 or answer == "right":
            app.select(1)
        elif answer == "fixthrow":
            app.select(2)
            app.now[0] += 1.0
            app.choose("handok")  # as read
        else:
            app.select(3)
    app.now[0] += ANSWER_PAUSE_S - 0.1
    app.select(digit)
    assert app.guided.progress.step == "teach" and app.guided.dice == 5 and not app.guided.fitting
    app.now[0] += 0.2
    app.select(2)  # a press meant for the step's own buttons
    assert app.guided.dice == 6


def test_a_store_that_cannot_save_mid_setup_is_said_as_the_setup_going_on_unsaved_not_as_nothing_changed(
        guided_table, monkeypatch):
    import sqlite3

    app, _camera, store = guided_table
    to_teach(app)

    def full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(store, "save_settings", full)
    app.choose("dicecount")
    assert app.guided.dice == 6 and app.message == "The setup cannot be saved now: it goes on without saving"
    assert "nothing changed" not in app.view().hint
    app.choose("previous")
    assert app.guided.progress.step == "reference" and "goes on without saving" in app.message


def test_the_empty_tray_with_the_tray_area_outside_the_picture_says_so_not_that_something_moves(guided_table):
    app, camera, store = guided_table
    app.open_guided()
    app.choose("skip"), app.choose("skip")
    camera.state, camera.ok, camera.status = "no_tray", False, "The tray area lies outside the picture: set up the tray again"
    app.choose("picture")
    assert app.guided.notice == camera.status and store.image(guided.REFERENCE) is None


def test_the_empty_tray_of_another_camera_is_not_used(guided_table):
    app, _camera, store = guided_table
    picam, webcam = guided.camera_stamp("picamera", (640, 480), None), guided.camera_stamp("/dev/video0", (640, 480), None)
    app.guided.configure(tray_area=None, reference=None, tray_stamp=guided.tray_stamp(None, (640, 480), "picamera"),
                         camera_stamp=picam)
    app.open_guided()
    app.choose("skip"), app.choose("skip")
    app.choose("picture")
    assert guided.reference(store, picam) is not None and guided.reference(store, webcam) is None
    store.save_settings({guided.REFERENCE_CAMERA: ""})  # taken before the camera was kept with it: used
    assert guided.reference(store, webcam) is not None


@pytest.mark.parametrize("frame", [np.zeros((12, 12, 3), np.uint8), np.zeros((480, 640), np.uint8),
                                   np.zeros((480, 640, 3), np.float32)], ids=["12x12", "grey", "float"])
def test_a_frame_no_tray_can_be_found_in_is_said_on_the_tray_step_never_raised(guided_table, frame):
    app, camera, _store = guided_table
    camera.frame = frame
    app.open_guided()
    app.choose("look")
    assert app.screen == "guided" and "confirm" not in ids(app) and app.view().prompt.startswith("No tray found: ")


@pytest.mark.parametrize("frame, why", [(np.zeros((480, 640, 3), np.uint8), "almost black"),
                                        (np.full((12, 12, 3), 120, np.uint8), "too small")])
def test_a_covered_lens_or_a_tiny_frame_is_not_taken_as_the_empty_tray(guided_table, frame, why):
    app, camera, store = guided_table
    app.open_guided()
    app.choose("skip"), app.choose("skip")
    camera.frame = frame
    app.choose("picture")
    assert why in app.guided.notice and store.image(guided.REFERENCE) is None and not app.guided.taken


@pytest.fixture
def slow_fit(monkeypatch):
    """The table's fit waits, in its thread, until the returned event is set."""
    import threading

    from appliance import teaching

    fit_kept, release = teaching.fit_kept, threading.Event()

    def slow(what, models=None):
        assert release.wait(30)
        return fit_kept(what, models)

    monkeypatch.setattr(teaching, "fit_kept", slow)
    return release


def learning(guided_table) -> list:
    """The teach step's throws taught and its fit begun (waiting, with ``slow_fit``); returns the
    list of adaptations the reader is given."""
    app, camera, _store = guided_table
    used = []
    app.hooks.adapted = used.append
    to_teach(app)
    teach_right(app, camera)
    app.tick()
    return used


def test_the_screen_keeps_drawing_while_the_table_learns_a_slow_fit(guided_table, slow_fit):
    # A full store's fit takes seconds (more on a Pi): frames, and the service's watchdog, go on.
    app, camera, store = guided_table
    release = slow_fit
    to_teach(app)
    teach_right(app, camera)
    for _ in range(5):
        app.tick()  # returns at once: the fit waits
    assert app.guided.fitting and "learns your dice" in app.view().prompt
    assert "teach" not in guided.progress(store).results
    release.set()
    learn(app)
    assert "Checked on your throws" in app.view().prompt and guided.progress(store).results["teach"] == "taught"


def test_a_fit_that_never_returns_is_given_up_and_the_step_goes_on(guided_table, slow_fit):
    # A fit stuck in its thread (a hung BLAS call): after FIT_TIMEOUT_S the step says it could not
    # learn and offers its choices again; the late fit, if it ever ends, is neither saved nor used.
    from appliance.kiosk.screens.guided import FIT_TIMEOUT_S

    app, _camera, store = guided_table
    release, used = slow_fit, learning(guided_table)
    app.now[0] += FIT_TIMEOUT_S - 1
    app.tick()
    assert app.guided.fitting == "learning"
    app.now[0] += 2
    app.tick()
    assert not app.guided.fitting and app.view().prompt == guided_view.not_learned()
    release.set()
    learn(app)
    assert used == [] and store.setting("adaptation") is None


def test_dice_forgotten_while_the_table_learns_are_not_read_with_after(guided_table, slow_fit):
    # The menu's "forget these dice" while the fit runs in its thread: its heads are of dice gone.
    app, _camera, store = guided_table
    release, used = slow_fit, learning(guided_table)
    app.forget_dice()
    release.set()
    learn(app)
    assert used == [] and store.setting("adaptation") is None and not app.guided.decision
    assert store.count_examples() == (0, 0, 0) and "teach" not in guided.progress(store).results


def test_a_fault_after_the_fit_is_said_and_the_step_goes_on(guided_table):
    app, camera, store = guided_table

    def broken(_adaptation):
        raise RuntimeError("the reader refused it")

    app.hooks.adapted = broken
    to_teach(app)
    teach_right(app, camera)
    learn(app)
    app.tick()
    assert not app.guided.fitting and app.guided.decision and ids(app)[:2] == ["done", "more"]
