"""The table's controls, all turned into a few commands on one queue.

Every control only *enqueues* a :class:`Command`; the kiosk's UI loop drains the queue and decides
what a command means now (the game may not expect it). Controls:

- the REVEAL push button on a GPIO pin (:class:`RevealButton`, a gpiozero ``Button`` with internal
  pull-up, wired to ground, and the LED in it), and optional extra GPIO buttons
  (:class:`ButtonBoard`), each with our own time-based debounce (:class:`PressClassifier`);
  gpiozero's mock pins do not debounce, and the clock is injectable so tests are deterministic;
- the touch screen and a mouse (:class:`PointerInput`): a tap is one tap, although SDL sends a finger
  event *and* a synthetic mouse event for each touch;
- a keyboard or USB keypad (:func:`key_command`), for development and for tables without touch.

REVEAL button: a short press is ``reveal`` (lift the cup); a press held for ``long_press_s`` (default
1.5 s) is ``correct`` (the reading was wrong: undo the last roll and re-read, or enter the dice by
hand). The long press fires as soon as the hold time is reached, so the player feels it while still
holding, and its release then emits nothing: one press is one command.

Commands (``Command.name``):
    reveal          the REVEAL button (short press; arg: when it went down, s on the clock the
                    buttons and the app share, so that a press begun before the announcement it
                    would doubt counts for nothing) or the R key (arg None)
    correct         REVEAL held long (arg: when it went down; while a reveal is due the kiosk takes
                    it as one), Backspace (arg None): open the correction path
    tap             arg (x, y) in window px: the kiosk resolves the widget under it
    select          arg n >= 1: the n-th choice on screen (digit keys, keypads)
    move            arg -1 | +1: move the keyboard focus
    activate        Enter: press the focused choice
    back            Esc: leave a picker or dialog
    text / erase    typing a player's name (only while the kiosk has a text field)
    throw           Space in the demo window: throw the virtual dice
    quit            the window was closed (Ctrl+Q)
    settled         arg a settled ``DiceReading`` from the camera pipeline
    press           arg a command name bound to an extra GPIO button (e.g. "accept", "undo"; ``at``:
                    when it went down); M and the keypad's * are "menu"
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

COMMAND_NAMES = frozenset(
    {"reveal", "correct", "tap", "select", "move", "activate", "back", "text", "erase", "throw",
     "quit", "settled", "press"}
)


@dataclass(frozen=True)
class Command:
    """One thing the table did. ``name`` is one of COMMAND_NAMES; ``arg`` depends on it (see the
    module docstring); ``source`` says where it came from ("button", "touch", "mouse", "key",
    "camera", "demo") for the log line."""

    name: str
    arg: Any = None
    source: str = ""
    at: float | None = None  # a GPIO button's press: when it went down (s on the clock); else None


class CommandQueue:
    """The one queue every control puts its commands on; thread-safe, never blocks the producer."""

    def __init__(self) -> None:
        self._q: queue.SimpleQueue[Command] = queue.SimpleQueue()

    def put(self, command: Command) -> None:
        """Enqueue a command. Raises ValueError for an unknown command name (a programming error)."""
        if command.name not in COMMAND_NAMES:
            raise ValueError(f"unknown command {command.name!r}; one of {', '.join(sorted(COMMAND_NAMES))}")
        self._q.put(command)

    def drain(self) -> list[Command]:
        """Every command queued so far, oldest first; returns at once (possibly an empty list)."""
        out = []
        while True:
            try:
                out.append(self._q.get_nowait())
            except queue.Empty:
                return out


# --------------------------------------------------------------------------------------- buttons


class PressClassifier:
    """Debounces one push button's raw edges and classifies each press as short or long.

    ``edge(pressed)`` records a raw level change with the clock's time (safe to call from gpiozero's
    callback thread; it only appends). ``poll()`` (from the UI loop, every frame) walks the recorded
    edges: a level counts only once it has been stable for ``bounce_s`` s, so contact bounce and
    spikes shorter than that are ignored; a level reached through bounce counts from the burst's
    first edge (when the contact first moved). A committed press that is released before ``long_s``
    s emits ``"short"``; one held ``long_s`` s emits ``"long"`` at once (on the poll that sees it)
    and nothing on release. ``emit`` receives "short" or "long".

    clock: seconds, monotonic (``time.monotonic`` by default; tests pass a fake).
    """

    def __init__(self, emit: Callable[[str], None], *, clock: Callable[[], float] = time.monotonic,
                 bounce_s: float = 0.05, long_s: float = 1.5) -> None:
        if bounce_s < 0 or long_s <= bounce_s:
            raise ValueError(f"need 0 <= bounce_s < long_s, got bounce_s={bounce_s} long_s={long_s}")
        self._emit = emit
        self._clock = clock
        self.bounce_s = bounce_s
        self.long_s = long_s
        self._edges: deque[tuple[float, bool]] = deque()
        self._lock = threading.Lock()
        self._pressed = False      # the debounced level
        self._down_at = 0.0        # when the debounced press began (s)
        self._long_sent = False
        self._burst_at: float | None = None  # the first edge of a bounce not yet settled (s)

    @property
    def pressed(self) -> bool:
        """The debounced level: True while a press is committed."""
        return self._pressed

    @property
    def down_at(self) -> float:
        """When the current (or last) committed press began, on the clock (s)."""
        return self._down_at

    def edge(self, pressed: bool) -> None:
        """Record a raw level change (True = pressed) at the clock's current time."""
        with self._lock:
            self._edges.append((self._clock(), bool(pressed)))

    def poll(self) -> None:
        """Commit the edges that have been stable for ``bounce_s`` and emit what they mean."""
        now = self._clock()
        with self._lock:
            edges = list(self._edges)
            self._edges.clear()
            pending: list[tuple[float, bool]] = []
            for i, (t, level) in enumerate(edges):
                until = edges[i + 1][0] if i + 1 < len(edges) else now
                if until - t >= self.bounce_s:
                    self._commit(level, t if self._burst_at is None else self._burst_at)
                    self._burst_at = None
                    continue
                if self._burst_at is None:
                    self._burst_at = t  # the contact began to move here
                if i + 1 == len(edges):
                    pending.append((t, level))  # not stable long enough yet: decide on a later poll
            self._edges.extend(pending)
            # Not while an edge waits to be committed: a release just before long_s, still inside
            # its bounce window, makes a short press.
            if self._pressed and not self._long_sent and not pending and now - self._down_at >= self.long_s:
                self._long_sent = True
                self._emit("long")

    def _commit(self, level: bool, t: float) -> None:
        if level == self._pressed:
            return
        self._pressed = level
        if level:
            self._down_at = t
            self._long_sent = False
        elif not self._long_sent:
            self._long_sent = True
            self._emit("long" if t - self._down_at >= self.long_s else "short")


class _Pins:
    """Push buttons on GPIO pins (gpiozero ``Button``, internal pull-up, wired to ground), each
    debounced and classified by its own :class:`PressClassifier`."""

    def __init__(self, *, clock: Callable[[], float], bounce_s: float, long_press_s: float, pin_factory) -> None:
        self._clock, self._bounce_s, self._long_s = clock, bounce_s, long_press_s
        self._pin_factory = pin_factory
        self._devices: list = []
        self._classifiers: list[PressClassifier] = []

    def _add(self, pin: int, emit: Callable[[str], None]) -> PressClassifier:
        from gpiozero import Button  # imported here: --help and the pure core never need it

        classifier = PressClassifier(emit, clock=self._clock, bounce_s=self._bounce_s, long_s=self._long_s)
        # bounce_time=None: gpiozero's own debounce would drop edges we need to see.
        button = Button(pin, pull_up=True, bounce_time=None, pin_factory=self._pin_factory)
        button.when_pressed = lambda c=classifier: c.edge(True)
        button.when_released = lambda c=classifier: c.edge(False)
        self._devices.append(button)
        self._classifiers.append(classifier)
        return classifier

    def poll(self) -> None:
        """Debounce and classify what the pins did since the last poll (UI thread, every frame)."""
        for classifier in self._classifiers:
            classifier.poll()

    def close(self) -> None:
        """Release every pin (safe to call twice)."""
        for device in self._devices:
            device.close()
        self._devices.clear()


class RevealButton(_Pins):
    """The REVEAL push button, and the LED in it, as gpiozero names a ``Button``.

    pin: BCM pin number of REVEAL (button between the pin and ground; internal pull-up). A short
    press enqueues ``reveal``, one held ``long_press_s`` ``correct``, each with when it went down.
    led_pin: BCM pin of the LED in the button, or None (see :meth:`light`).
    clock, bounce_s, long_press_s: see :class:`PressClassifier`. pin_factory: a gpiozero pin
    factory (None: gpiozero's default, e.g. lgpio on the Pi, the mock factory in tests).
    Raises gpiozero's errors (e.g. ``BadPinFactory``) when no GPIO is available.
    """

    def __init__(self, commands: CommandQueue, pin: int, *, led_pin: int | None = None,
                 clock: Callable[[], float] = time.monotonic, bounce_s: float = 0.05,
                 long_press_s: float = 1.5, pin_factory=None) -> None:
        super().__init__(clock=clock, bounce_s=bounce_s, long_press_s=long_press_s, pin_factory=pin_factory)
        self._led = None
        self._light = "off"

        def emit(kind: str) -> None:
            # Both count for the moment the press went down (a held REVEAL is a reveal while one is due).
            name = "reveal" if kind == "short" else "correct"
            commands.put(Command(name, self._press.down_at, source="button"))

        try:
            self._press = self._add(pin, emit)
            if led_pin is not None:
                from gpiozero import LED

                self._led = LED(led_pin, pin_factory=pin_factory)
                self._devices.append(self._led)
        except Exception:
            self.close()
            raise

    @property
    def held(self) -> bool:
        """True while REVEAL is (debounced) held down: the kiosk can show the long-press progress."""
        return self._press.pressed

    def light(self, state: str) -> None:
        """The LED (``led_pin``): "on" (a reveal is taken now), "blink" (lift the cup), "off". Does
        nothing without an LED or when the state is unchanged."""
        if self._led is None or state == self._light:
            return
        self._light = state
        if state == "on":
            self._led.on()
        elif state == "blink":
            self._led.blink(on_time=0.3, off_time=0.3)
        else:
            self._led.off()

    def close(self) -> None:
        super().close()
        self._led = None


class ButtonBoard(_Pins):
    """The extra push buttons (config ``[gpio.buttons]``), as gpiozero names a ``ButtonBoard``.

    buttons: {BCM pin: command}; a short press of one enqueues ``Command("press", command)`` (e.g.
    "accept", "undo", "menu"); extra buttons have no long press. clock, bounce_s, long_press_s,
    pin_factory: as for :class:`RevealButton`.
    """

    def __init__(self, commands: CommandQueue, buttons: dict[int, str], *,
                 clock: Callable[[], float] = time.monotonic, bounce_s: float = 0.05,
                 long_press_s: float = 1.5, pin_factory=None) -> None:
        super().__init__(clock=clock, bounce_s=bounce_s, long_press_s=long_press_s, pin_factory=pin_factory)

        def emit_for(pin: int, name: str) -> Callable[[str], None]:
            def emit(kind: str) -> None:
                if kind == "short":  # when it went down: a loop that stalls must not part a double press
                    commands.put(Command("press", name, source="button", at=presses[pin].down_at))
            return emit

        presses: dict[int, PressClassifier] = {}
        try:
            for pin, name in buttons.items():
                presses[pin] = self._add(pin, emit_for(pin, name))
        except Exception:
            self.close()
            raise


class GpioButtons:
    """Everything a maker wires: the :class:`RevealButton` (``reveal``) and the extra buttons'
    :class:`ButtonBoard` (``board``), polled and released together by the kiosk.

    reveal_pin, led_pin: the REVEAL button's pins; extra: {BCM pin: command} for the board.
    clock, bounce_s, long_press_s, pin_factory: see :class:`RevealButton`.
    Call :meth:`poll` every UI frame; :meth:`close` releases the pins. Raises gpiozero's errors
    (e.g. ``BadPinFactory``) when no GPIO is available; the kiosk then runs without buttons.
    """

    def __init__(self, commands: CommandQueue, reveal_pin: int, *, extra: dict[int, str] | None = None,
                 clock: Callable[[], float] = time.monotonic, bounce_s: float = 0.05,
                 long_press_s: float = 1.5, led_pin: int | None = None, pin_factory=None) -> None:
        timing = {"clock": clock, "bounce_s": bounce_s, "long_press_s": long_press_s, "pin_factory": pin_factory}
        self.reveal = RevealButton(commands, reveal_pin, led_pin=led_pin, **timing)
        try:
            self.board = ButtonBoard(commands, extra or {}, **timing)
        except Exception:
            self.reveal.close()
            raise

    def poll(self) -> None:
        """Debounce and classify what the pins did since the last poll (UI thread, every frame)."""
        self.reveal.poll()
        self.board.poll()

    @property
    def reveal_held(self) -> bool:
        """True while REVEAL is (debounced) held down."""
        return self.reveal.held

    def light(self, state: str) -> None:
        """The LED in the REVEAL button (see :meth:`RevealButton.light`)."""
        self.reveal.light(state)

    def close(self) -> None:
        """Release every pin (safe to call twice)."""
        self.reveal.close()
        self.board.close()


# --------------------------------------------------------------------------------------- pointer


class PointerInput:
    """Touch and mouse events from pygame, as one ``tap`` command per tap.

    SDL reports a touch both as FINGERDOWN (x, y normalised 0-1) and as a synthetic
    MOUSEBUTTONDOWN (pygame marks it ``touch=True``). We take the finger event and drop the mouse
    copy; and because some touch panels on the Pi arrive as an unmarked mouse, a finger tap and a
    mouse tap within ``same_s`` s and ``same_px`` px of each other also count as one.

    size: the window size in px (finger events are scaled to it); update ``size`` when it changes.
    """

    def __init__(self, size: tuple[int, int], *, clock: Callable[[], float] = time.monotonic,
                 same_s: float = 0.35, same_px: float = 40.0) -> None:
        self.size = size
        self._clock = clock
        self.same_s = same_s
        self.same_px = same_px
        self._last: tuple[str, float, float, float] | None = None  # (kind, t, x, y)

    def tap(self, event) -> Command | None:
        """The ``tap`` command for a pygame FINGERDOWN or left MOUSEBUTTONDOWN event, or None (not a
        tap, or a duplicate of the tap just seen)."""
        import pygame

        if event.type == pygame.FINGERDOWN:
            kind, x, y = "touch", event.x * self.size[0], event.y * self.size[1]
        elif event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            if getattr(event, "touch", False):
                return None  # SDL's mouse copy of a finger event
            kind, (x, y) = "mouse", event.pos
        else:
            return None
        now = self._clock()
        last = self._last
        self._last = (kind, now, x, y)
        if last and last[0] != kind and now - last[1] <= self.same_s and \
                abs(last[2] - x) <= self.same_px and abs(last[3] - y) <= self.same_px:
            return None
        return Command("tap", (int(x), int(y)), source=kind)


# -------------------------------------------------------------------------------------- keyboard

# pygame key name (pygame.key.name) -> (command, arg). Digits select the n-th choice; keypads work too.
_KEYS: dict[str, tuple[str, Any]] = {
    **{str(n): ("select", n) for n in range(1, 10)},
    **{f"[{n}]": ("select", n) for n in range(1, 10)},
    "0": ("select", 10), "[0]": ("select", 10),
    "left": ("move", -1), "up": ("move", -1), "right": ("move", 1), "down": ("move", 1),
    "tab": ("move", 1), "[-]": ("move", -1), "[+]": ("move", 1),
    "return": ("activate", None), "enter": ("activate", None),
    "escape": ("back", None),
    "r": ("reveal", None),
    "backspace": ("correct", None), "delete": ("correct", None),
    "space": ("throw", None),
    "m": ("press", "menu"), "[*]": ("press", "menu"),  # a keypad's way to the menu (its buttons are not numbered)
}


def key_command(event, *, typing: bool = False) -> Command | None:
    """The command for a pygame KEYDOWN or TEXTINPUT event, or None.

    typing: True while the kiosk shows a text field (a player's name): then TEXTINPUT gives ``text``
    and Backspace ``erase``, and only Enter, Esc and the arrows keep their meaning. Ctrl+Q is ``quit``.
    """
    import pygame

    if event.type == pygame.TEXTINPUT:
        return Command("text", event.text, source="key") if typing and event.text.isprintable() else None
    if event.type != pygame.KEYDOWN:
        return None
    if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
        return Command("quit", source="key")
    name = pygame.key.name(event.key)
    if typing:
        if name == "backspace":
            return Command("erase", source="key")
        if name not in ("return", "enter", "escape", "left", "right", "up", "down", "tab"):
            return None
    found = _KEYS.get(name)
    return Command(found[0], found[1], source="key") if found else None
