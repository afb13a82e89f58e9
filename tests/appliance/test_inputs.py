"""Controls become commands: a debounced REVEAL button (mock pins, fake clock), one tap per touch,
keys for development and keypads."""

from __future__ import annotations

import pygame
import pytest

from appliance.inputs import Command, CommandQueue, GpioButtons, PointerInput, PressClassifier, key_command


class FakeClock:
    """Seconds that only move when the test says so."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def buttons(mock_pins, clock):
    q = CommandQueue()
    b = GpioButtons(q, reveal_pin=17, extra={27: "accept"}, clock=clock, bounce_s=0.05, long_press_s=1.5)
    yield q, b, mock_pins.pin(17), mock_pins.pin(27)
    b.close()


def names(q: CommandQueue) -> list[str]:
    return [c.name if c.name != "press" else f"press:{c.arg}" for c in q.drain()]


def bounce(pin, clock, level_low: bool, n: int = 4, gap: float = 0.002) -> None:
    """A mechanical contact bouncing n times before settling at the wanted level."""
    for i in range(n):
        (pin.drive_low if (i % 2 == 0) == level_low else pin.drive_high)()
        clock.advance(gap)
    (pin.drive_low if level_low else pin.drive_high)()


def test_a_short_press_is_one_reveal(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    clock.advance(0.2)
    b.poll()
    pin.drive_high()
    clock.advance(0.1)
    b.poll()
    assert names(q) == ["reveal"]


def test_a_bouncing_press_and_release_is_still_one_reveal(buttons, clock):
    q, b, pin, _ = buttons
    bounce(pin, clock, level_low=True)
    clock.advance(0.3)
    b.poll()
    bounce(pin, clock, level_low=False)
    b.poll()  # the release is still inside its bounce window: nothing yet
    assert names(q) == []
    clock.advance(0.1)
    b.poll()
    b.poll()
    assert names(q) == ["reveal"]


def test_a_spike_shorter_than_the_debounce_time_is_no_press(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    clock.advance(0.01)
    pin.drive_high()
    clock.advance(1.0)
    b.poll()
    assert names(q) == []


def test_a_long_press_is_correct_once_and_fires_while_still_held(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    for _ in range(20):  # held 2 s, polled every 0.1 s
        clock.advance(0.1)
        b.poll()
    assert names(q) == ["correct"]
    assert b.reveal_held
    pin.drive_high()
    clock.advance(0.1)
    b.poll()
    assert names(q) == []  # the release of a long press says nothing more
    assert not b.reveal_held


def test_a_press_released_just_before_the_long_time_is_short_though_its_release_is_still_bouncing(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    clock.advance(0.1)
    b.poll()
    clock.advance(1.38)
    pin.drive_high()  # released at 1.48 s; the poll at 1.513 s sees the release only 33 ms old
    clock.advance(0.033)
    b.poll()
    clock.advance(0.033)
    b.poll()
    assert names(q) == ["reveal"]


def test_a_release_begun_before_the_long_time_is_short_however_long_it_chatters(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    clock.advance(0.1)
    b.poll()
    clock.advance(1.38)  # 1.48 s
    for level_low in (False, True, False, True, False):  # released, chattering for 23 ms
        (pin.drive_low if level_low else pin.drive_high)()
        clock.advance(0.005 if level_low else 0.006)
        b.poll()
    clock.advance(0.1)
    b.poll()
    assert names(q) == ["reveal"]


def test_a_press_counts_from_when_its_contact_first_closed_though_it_chattered(buttons, clock):
    q, b, pin, _ = buttons
    bounce(pin, clock, level_low=True, n=8, gap=0.005)  # 40 ms of chatter before it holds
    clock.advance(1.48)  # held 1.52 s from the first contact
    pin.drive_high()
    clock.advance(0.1)
    b.poll()
    assert names(q) == ["correct"]


def test_both_presses_carry_when_they_went_down(buttons, clock):
    q, b, pin, _ = buttons
    down = clock.t
    pin.drive_low()
    clock.advance(0.2)
    b.poll()
    pin.drive_high()
    clock.advance(0.1)
    b.poll()
    down_long = clock.t
    pin.drive_low()
    clock.advance(1.6)
    b.poll()
    assert [(c.name, c.arg) for c in q.drain()] == [("reveal", down), ("correct", down_long)]


def test_a_press_while_the_ui_loop_stalled_is_still_classified(buttons, clock):
    q, b, pin, _ = buttons
    pin.drive_low()
    clock.advance(0.3)
    pin.drive_high()
    clock.advance(0.3)
    pin.drive_low()
    clock.advance(2.0)
    pin.drive_high()
    clock.advance(0.1)
    b.poll()  # one poll sees all four edges
    assert names(q) == ["reveal", "correct"]


def test_two_quick_presses_are_two_reveals(buttons, clock):
    q, b, pin, _ = buttons
    for _ in range(2):
        pin.drive_low()
        clock.advance(0.12)
        b.poll()
        pin.drive_high()
        clock.advance(0.12)
        b.poll()
    assert names(q) == ["reveal", "reveal"]


def test_an_extra_buttons_press_carries_when_it_went_down(buttons, clock):
    q, b, _, extra = buttons
    down = clock.t
    extra.drive_low()
    clock.advance(0.2)
    extra.drive_high()
    clock.advance(1.5)  # the loop stalled
    b.poll()
    assert q.drain() == [Command("press", "accept", "button", at=down)]


def test_an_extra_button_enqueues_its_bound_command(buttons, clock):
    q, b, _, extra = buttons
    extra.drive_low()
    clock.advance(0.2)
    b.poll()
    extra.drive_high()
    clock.advance(0.2)
    b.poll()
    assert names(q) == ["press:accept"]


def test_classifier_rejects_a_long_time_shorter_than_the_bounce_time():
    with pytest.raises(ValueError):
        PressClassifier(lambda kind: None, bounce_s=0.5, long_s=0.2)


def test_the_queue_refuses_an_unknown_command():
    with pytest.raises(ValueError):
        CommandQueue().put(Command("explode"))


# ------------------------------------------------------------------------------ touch and mouse


@pytest.fixture
def pg():
    pygame.init()
    yield pygame
    pygame.quit()


def test_a_touch_that_sdl_also_reports_as_a_mouse_click_is_one_tap(pg, clock):
    pointer = PointerInput((800, 480), clock=clock)
    finger = pg.event.Event(pg.FINGERDOWN, x=0.5, y=0.25, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1)
    mouse = pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(400, 120), button=1, touch=True)
    taps = [pointer.tap(e) for e in (finger, mouse)]
    assert taps == [Command("tap", (400, 120), "touch"), None]


def test_an_unmarked_mouse_copy_of_a_touch_is_dropped_by_time_and_place(pg, clock):
    pointer = PointerInput((800, 480), clock=clock)
    finger = pg.event.Event(pg.FINGERDOWN, x=0.5, y=0.25, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1)
    mouse = pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(402, 118), button=1, touch=False)
    first = pointer.tap(mouse)
    clock.advance(0.02)
    assert first is not None and pointer.tap(finger) is None


def test_two_mouse_clicks_are_two_taps_and_other_buttons_are_none(pg, clock):
    pointer = PointerInput((800, 480), clock=clock)
    click = pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(10, 10), button=1, touch=False)
    right = pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(10, 10), button=3, touch=False)
    assert pointer.tap(click) and pointer.tap(click)
    assert pointer.tap(right) is None


def test_posted_pygame_events_go_through_the_real_event_queue(pg, clock):
    pg.display.set_mode((800, 480))
    pointer = PointerInput((800, 480), clock=clock)
    pg.event.post(pg.event.Event(pg.FINGERDOWN, x=0.25, y=0.5, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1))
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(200, 240), button=1, touch=True))
    taps = [t for t in (pointer.tap(e) for e in pg.event.get()) if t]
    assert taps == [Command("tap", (200, 240), "touch")]


# ---------------------------------------------------------------------------------------- keys


def key(pg, k, mod=0):
    return pg.event.Event(pg.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def test_keys_map_to_the_few_commands(pg):
    assert key_command(key(pg, pg.K_3)) == Command("select", 3, "key")
    assert key_command(key(pg, pg.K_KP2)) == Command("select", 2, "key")
    assert key_command(key(pg, pg.K_r)) == Command("reveal", None, "key")
    assert key_command(key(pg, pg.K_BACKSPACE)) == Command("correct", None, "key")
    assert key_command(key(pg, pg.K_RETURN)) == Command("activate", None, "key")
    assert key_command(key(pg, pg.K_SPACE)) == Command("throw", None, "key")
    assert key_command(key(pg, pg.K_m)) == key_command(key(pg, pg.K_KP_MULTIPLY)) == Command("press", "menu", "key")
    assert key_command(key(pg, pg.K_q, pg.KMOD_LCTRL)) == Command("quit", None, "key")
    assert key_command(key(pg, pg.K_F5)) is None


def test_while_typing_letters_are_text_and_backspace_erases(pg):
    text = pg.event.Event(pg.TEXTINPUT, text="Ā")
    assert key_command(text, typing=True) == Command("text", "Ā", "key")
    assert key_command(text, typing=False) is None
    assert key_command(key(pg, pg.K_BACKSPACE), typing=True) == Command("erase", None, "key")
    assert key_command(key(pg, pg.K_r), typing=True) is None
    assert key_command(key(pg, pg.K_RETURN), typing=True) == Command("activate", None, "key")


def test_the_reveal_led_follows_what_the_table_may_do(mock_pins, clock):
    b = GpioButtons(CommandQueue(), reveal_pin=17, led_pin=22, clock=clock)
    led = mock_pins.pin(22)
    b.light("on")
    assert led.state
    b.light("off")
    assert not led.state
    b.light("blink")
    b.close()


def test_the_reveal_button_and_the_button_board_are_parts_of_their_own(mock_pins, clock):
    from appliance.inputs import ButtonBoard, RevealButton

    q = CommandQueue()
    reveal = RevealButton(q, 17, led_pin=22, clock=clock)
    board = ButtonBoard(q, {27: "accept", 5: "undo"}, clock=clock)
    try:
        for pin in (17, 27, 5):
            mock_pins.pin(pin).drive_low()
        clock.advance(0.2)
        assert reveal.held is False  # not yet polled: nothing is committed
        reveal.poll()
        board.poll()
        assert reveal.held
        for pin in (17, 27, 5):
            mock_pins.pin(pin).drive_high()
        clock.advance(0.1)
        reveal.poll()
        board.poll()
        assert names(q) == ["reveal", "press:accept", "press:undo"]
        reveal.light("on")
        assert mock_pins.pin(22).state
    finally:
        reveal.close()
        board.close()
