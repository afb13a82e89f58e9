"""The UI loop: pygame events and GPIO presses become commands, the app handles them, the screen is
drawn, and a per-frame hook runs (the service feeds the systemd watchdog from it).

The loop never blocks: the camera pipeline runs in its own thread (or is stepped by the caller), the
controls only enqueue, and each frame drains the queue. Any exception while handling a command or
drawing becomes a message on screen, in the table's language, and a log line with the error; neither
a traceback nor the error's English reaches the screen. A tap is resolved against the screen as it
is when the tap is handled, and the same finger's second tap on a screen that changed under it is
dropped (``TAP_GUARD_S``). A tap on the message line only hides it; one on where a message covering
choices was, just after it ran out, is dropped (``MESSAGE_GRACE_S``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable

import pygame

from appliance.i18n import _
from appliance.inputs import Command, CommandQueue, PointerInput, key_command
from appliance.kiosk import theme as th
from appliance.kiosk import widgets as w
from appliance.kiosk.app import App
from appliance.kiosk.draw import CameraFeed, Hits, draw, hit
from appliance.table.base import View

log = logging.getLogger(__name__)

# A second tap this soon (s) and this close (px) to a tap that did something is the same finger: a
# touch panel's bounce, an impatient double tap. When the screen under it changed in between, it was
# aimed at the old screen and is dropped: the announcer's double tap on "54" must not press the
# receiver's "Reveal" that came up in the same place.
TAP_GUARD_S = 0.3
TAP_GUARD_PX = 40
# A message line that covered choices and ran out of time: a tap on where it was, this soon (s),
# was aimed at it (to hide it), not at the choice that came out from under it.
MESSAGE_GRACE_S = 0.6


class Kiosk:
    """The window around an :class:`App`.

    app: the kiosk core. commands: the one queue (GPIO buttons and the camera put on it too).
    size: window size (w, h) px, or None for the screen's own (full screen). On a size narrower than
    landscape 3:2 the screens are drawn in a 3:2 band across it (``theme.layout_area``).
    fullscreen: a borderless full-screen window, no mouse pointer (the appliance).
    pipeline: a ``CameraPipeline`` whose ``feed()`` the live view shows (None: no camera panel data).
    buttons: ``appliance.inputs.GpioButtons`` to poll each frame, or None.
    frame_hook: called once per frame after drawing (the watchdog ping), or None.
    on_throw: what the ``throw`` command does (the demo's virtual dice), or None (ignored).
    fps: frames per second of the loop.
    """

    def __init__(self, app: App, commands: CommandQueue, *, size: tuple[int, int] | None = (800, 480),
                 fullscreen: bool = False, pipeline=None, buttons=None, frame_hook: Callable[[], None] | None = None,
                 on_throw: Callable[[], None] | None = None, fps: float = 30.0, caption: str = "Dice Table") -> None:
        self.app, self.commands, self.fps = app, commands, fps
        # The parts around the window: the camera's live view, the GPIO buttons, the watchdog, the demo.
        self.pipeline, self.buttons, self.frame_hook, self.on_throw = pipeline, buttons, frame_hook, on_throw
        self.hits: Hits = []
        self.view: View | None = None
        self.frames = 0
        self._last_tap: tuple[float, tuple[int, int], str] | None = None  # (app clock s, pos, choice id)
        self._hits_stale = False  # a command was handled since the last drawing: the hits may be old
        # The message line that covers choices now ((its rect, None)), or the one that timed out
        # ((its rect, app clock s then)); None: none (see MESSAGE_GRACE_S).
        self._covering: tuple[pygame.Rect, float | None] | None = None
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        if size is None:
            info = pygame.display.Info()
            size = (info.current_w or 800, info.current_h or 480)
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption(caption)
        if fullscreen:
            pygame.mouse.set_visible(False)
        # Screens narrower than 3:2 are drawn in a band of it (theme.layout_area); hits are kept in
        # the window's coordinates, where taps arrive.
        self.area = pygame.Rect(th.layout_area(*self.screen.get_size()))
        self.canvas = self.screen.subsurface(self.area)
        self.theme = th.Theme(*self.area.size)
        self.pointer = PointerInput(self.screen.get_size())
        self._clock = pygame.time.Clock()

    # -- one frame ------------------------------------------------------------------------------

    def step(self, draw: bool = True) -> None:
        """One frame: events to commands, buttons polled, the queue drained, the screen drawn
        (``draw=False`` skips the drawing: the headless demo draws only the frames it keeps)."""
        for event in pygame.event.get():
            self._event(event)
        if self.buttons is not None:
            try:
                self.buttons.poll()
            except Exception:
                log.exception("polling the buttons")
        for cmd in self.commands.drain():
            self.dispatch(cmd)
        self._guard(self.app.tick)
        if self.buttons is not None and hasattr(self.buttons, "light"):
            self._guard(lambda: self.buttons.light(self.app.reveal_light()))
        if draw:
            self.redraw()
            pygame.display.flip()
        self.frames += 1
        if self.frame_hook is not None:
            self.frame_hook()

    def run(self) -> None:
        """Frames until the app quits (window closed, Ctrl+Q)."""
        while not self.app.quit:
            self.step()
            self._clock.tick(self.fps)

    def dispatch(self, cmd: Command) -> None:
        """Handle one command; a tap goes to the choice under it (or dismisses the announcement)."""
        if cmd.name == "tap":
            if self._hits_stale:  # a tap after another command in one frame meets the screen as it is now
                self.redraw()
            cid = hit(self.hits, cmd.arg)
            if self._aimed_at_the_message_gone(cmd.arg):
                log.info("tap on %s dropped: it was aimed at the message line that had just gone", cid)
                return
            if self._same_finger_on_a_changed_screen(cmd.arg, cid):
                log.info("tap on %s dropped: the same finger as the tap before, on a changed screen", cid)
                return
            self._hits_stale = True
            if cid == "dismiss":
                self._guard(self.app.dismiss_banner)
            elif cid == "hush":
                self._guard(self.app.hush)
            elif cid is not None:
                self._guard(self.app.press, cid)
            return
        if cmd.name == "throw":
            if self.on_throw is not None:
                self._guard(self.on_throw)
            return
        self._hits_stale = True
        self._guard(self.app.handle, cmd)

    def _same_finger_on_a_changed_screen(self, pos: tuple[int, int], cid: str | None) -> bool:
        """True for a tap to drop (see TAP_GUARD_S); remembers a tap that hit a choice."""
        now = self.app.clock()
        last = self._last_tap
        if (last is not None and cid != last[2] and now - last[0] <= TAP_GUARD_S
                and abs(pos[0] - last[1][0]) <= TAP_GUARD_PX and abs(pos[1] - last[1][1]) <= TAP_GUARD_PX):
            return True
        if cid is not None:
            self._last_tap = (now, pos, cid)
        return False

    def _aimed_at_the_message_gone(self, pos: tuple[int, int]) -> bool:
        """True for a tap on where a message line covering choices was until MESSAGE_GRACE_S ago."""
        if self._covering is None or self._covering[1] is None:
            return False
        rect, gone = self._covering
        return self.app.clock() - gone <= MESSAGE_GRACE_S and rect.collidepoint(pos)

    def _note_message(self) -> None:
        """Keep where the message line covers choices, and when it timed out (a tap or a key that
        took it away leaves no grace: the table has moved on)."""
        shown = [r for r, cid in self.hits if cid == "hush"]
        if shown:
            covers = any(r.colliderect(shown[0]) for r, cid in self.hits if cid not in ("hush", "dismiss"))
            self._covering = (shown[0], None) if covers else None
        elif self._covering is not None and self._covering[1] is None:
            timed_out = self.app.clock() >= getattr(self.app, "message_until", 0.0)
            self._covering = (self._covering[0], self.app.clock()) if timed_out else None

    def redraw(self) -> None:
        """Draw the app's current view (never raises: a drawing bug shows a plain notice)."""
        self._hits_stale = False
        try:
            self.view = self.app.view()
            feed = CameraFeed(*self.pipeline.feed()) if self.pipeline is not None else CameraFeed(status=_("No camera"))
            if self.area.size != self.screen.get_size():
                self.screen.fill((0, 0, 0))
            hits = draw(self.canvas, self.view, self.theme, feed)
            self.hits = [(rect.move(self.area.topleft), cid) for rect, cid in hits]
            self._note_message()
            banner = next((r for r, cid in self.hits if cid == "dismiss"), None)
            self.app.under_banner = frozenset() if banner is None else frozenset(
                cid for r, cid in self.hits if cid != "dismiss" and r.colliderect(banner))
        except Exception:
            log.exception("drawing the %s screen", self.app.screen)
            self.screen.fill(th.BACKGROUND)
            r = self.screen.get_rect().inflate(-self.theme.px(40), -self.theme.px(40))
            # The error's English is in the journal (above), not on the screen.
            # TRANSLATORS: a bug kept a screen from being drawn; Esc or a tap goes back.
            w.text(self.screen, self.theme, _("Something went wrong on this screen. Press Esc or tap to go on."),
                   r, size=24, lines=4)
            self.hits = [(self.screen.get_rect(), "back")]

    def screenshot(self, path: str | os.PathLike) -> Path:
        """Save what the window shows as a PNG; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(path))
        return path

    def close(self) -> None:
        """Release the buttons and the window (the caller stops the camera worker)."""
        if self.buttons is not None:
            self.buttons.close()
        pygame.display.quit()

    # -- internals ------------------------------------------------------------------------------

    def _event(self, event) -> None:
        if event.type == pygame.QUIT:
            self.commands.put(Command("quit", source="window"))
            return
        if event.type in (pygame.FINGERDOWN, pygame.MOUSEBUTTONDOWN):
            tap = self.pointer.tap(event)
            if tap is not None:
                self.commands.put(tap)
            return
        if event.type in (pygame.KEYDOWN, pygame.TEXTINPUT):
            cmd = key_command(event, typing=self.app.screen == "names")
            if cmd is not None:
                self.commands.put(cmd)

    def _guard(self, fn, *args) -> None:
        """Run a handler; a bug becomes a message and a log line, never a traceback on screen."""
        try:
            fn(*args)
        except Exception:
            log.exception("handling %s%r", getattr(fn, "__name__", fn), args)  # the error's English: journal only
            # TRANSLATORS: a bug in the kiosk while it handled a tap or a button;
            # the table plays on.
            self.app.say(_("Something went wrong. Try again; if it happens again, call the staff."))
