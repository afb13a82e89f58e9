"""A table played from a keyboard or keypad: the focus (arrows, Enter) never lands on a choice
nobody looked at (when a press changes the choices on screen, the focus goes, and Enter does nothing
until an arrow picks one), a key pressed twice does not press what the first press brought up, and
the menu is a key away (M, or the keypad's *)."""

from __future__ import annotations

from appliance.inputs import Command
from appliance.kiosk.app import App


def key(app: App, name: str, arg=None) -> None:
    app.handle(Command(name, arg, "key"))


def test_believe_pressed_with_enter_then_enter_again_announces_nothing():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.act({"announce": 31})
    ids = [c.id for c in app.choices() if c.style != "disabled"]
    for _ in range(ids.index("believe") + 1):
        key(app, "move", 1)
    key(app, "activate")  # Believe: the announce picker opens
    assert app.play.sub == "believe" and app.focus == -1
    key(app, "activate")
    assert len(app.session.history) == 1  # no value announced that nobody chose


def test_a_press_that_leaves_the_choices_as_they_were_keeps_the_focus():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("menu")
    ids = [c.id for c in app.choices() if c.style != "disabled"]
    for _ in range(ids.index("cap") + 1):
        key(app, "move", 1)
    key(app, "activate")  # the drink cap's next value: the same buttons, one label changed
    assert app.screen == "menu" and app.focus == ids.index("cap")


def test_a_keypad_reaches_the_menu_and_comes_back():
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "yacht"
    assert app.start_game()
    key(app, "press", "menu")  # M, or the keypad's *
    assert app.screen == "menu"
    key(app, "back")
    assert app.screen == "play"


def test_a_digit_pressed_twice_undoes_and_does_not_press_the_games_first_button():
    from appliance.kiosk.app import KEY_GUARD_S

    now = [0.0]
    app = App(players=["Ann", "Bo", "Cy"], clock=lambda: now[0])
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.act({"announce": 54})
    app.act({"announce": 61})  # Bo believed and announced 61
    key(app, "press", "menu")
    key(app, "select", 1)  # Undo last action: back to the game, Bo's 61 taken back
    now[0] += 0.2
    key(app, "select", 1)  # the same key again: the game's first button now is Reveal
    assert app.screen == "play" and len(app.session.history) == 1
    now[0] += KEY_GUARD_S
    key(app, "select", 1)  # a considered press
    assert len(app.session.history) == 2


def test_choices_changed_by_the_camera_take_the_focus_along(guided_table):
    """The focus on the guided setup's "Previous step"; a throw settles and the choices become
    Right / Correct it / Not this throw / Leave the setup: Enter leaves nothing."""
    app, camera, _store = guided_table
    app.open_guided()
    for _step in ("tray", "exposure", "reference"):
        app.choose("skip")
    ids = [c.id for c in app.choices() if c.style != "disabled"]
    for _ in range(ids.index("previous") + 1):
        key(app, "move", 1)
    assert app.view().focus == ids.index("previous")
    app.on_reading(camera.throw((1, 2, 3, 4, 5), seed=0))
    assert "right" in [c.id for c in app.choices()]
    assert app.view().focus == -1
    key(app, "activate")
    assert app.screen == "guided" and app.guided.progress.step == "teach" and app.guided.pending is not None


def test_ctrl_q_quits_a_kiosk_started_by_hand_but_not_the_boot_service():
    """A guest's USB keyboard must not turn the table off: the unit restarts only a failed kiosk."""
    by_hand, service = App(clock=lambda: 0.0), App(clock=lambda: 0.0, key_quits=False)
    key(by_hand, "quit")
    key(service, "quit")
    assert by_hand.quit and not service.quit
    service.handle(Command("quit", None, "signal"))  # systemctl stop: SIGTERM
    assert service.quit


def test_the_boot_service_wires_its_kiosk_so_that_ctrl_q_does_not_quit(tmp_path):
    from appliance import config
    from appliance.commands.kiosk import Appliance
    from appliance.service import Service

    cfg_file = tmp_path / "config.toml"
    cfg_file.write_text(f'state_dir = "{tmp_path}"\n')
    under_systemd = Service(env={"NOTIFY_SOCKET": str(tmp_path / "notify")})
    assert not Appliance(config.load(cfg_file), under_systemd)._app(None, None, None).key_quits
    assert Appliance(config.load(cfg_file), Service(env={}))._app(None, None, None).key_quits
