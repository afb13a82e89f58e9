"""A folder of photos as the kiosk's camera (``[camera] source = "/path/to/folder"``): a table that
waits for the game, as the trial mode's does (``appliance.trial``).

The folder's images are shown one at a time, in name order and round again
(``vision.sources.ImageFolderSource`` in its ``wait`` mode), and the next one only when the game (or
the guided setup's teach step) waits for a throw: the setup screen, a menu or a decision leave the
last one lying, so the folder does not play out before a game begins. Each photo stays in view until
the game took it, however long the reader takes to settle it on a slow Pi; one the game did not take
(unreadable, another number of dice than the roll needs) gives way to the next ``RETRY_S`` after it
settled, and one that never settles (no dice in it) after ``STUCK_S``. The same photo shown again
counts again: the camera is told to read afresh (``CameraPipeline.reread``).

:class:`FolderTable` watches the kiosk's ``App`` from the UI thread once a frame (:meth:`tick`) and
gives the source its orders through ``CameraPipeline.call``; the demo window's Space (:meth:`now`)
shows the next photo at once.
"""

from __future__ import annotations

import time
from typing import Callable

RETRY_S = 3.0    # s a settled photo the game did not take stays before the next is shown
STUCK_S = 20.0   # s a photo that never settles (no dice in it) stays before the next is shown


class FolderTable:
    """The folder's player side: shows the next photo whenever the kiosk waits for a throw.

    app: the kiosk core (``appliance.kiosk.app.App``). pipeline: its ``CameraPipeline``, whose
    source is an ``ImageFolderSource`` with ``wait=True``. clock: monotonic seconds.
    """

    def __init__(self, app, pipeline, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.pipeline = pipeline
        self.clock = clock
        self._key: tuple | None = None  # the wait the photo in view was shown for (None: not waiting)
        self._shown_at = 0.0            # clock s when it was shown
        self._settled = None            # the latest settled reading seen since
        self._settled_at: float | None = None

    def tick(self) -> None:
        """Once a frame from the UI thread: the next photo when a new wait for a throw begins, or
        when the photo in view did not give the game its throw."""
        key = self._waiting()
        if key is None:
            self._key = None
            return
        now = self.clock()
        if key != self._key:
            self._key = key
            self._next(now)
            return
        settled = self.pipeline.last_settled[1]
        if settled is not self._settled:  # it settled, and the game did not take it (the wait is the same)
            self._settled, self._settled_at = settled, now
        if (self._settled_at is not None and now - self._settled_at >= RETRY_S) or now - self._shown_at >= STUCK_S:
            self._next(now)

    def now(self) -> None:
        """Show the next photo at once (the demo window's Space)."""
        self._next(self.clock())

    def _waiting(self) -> tuple | None:
        """What the kiosk waits for a throw for now (it changes with every action taken), or None."""
        app, session = self.app, self.app.session
        if app.screen == "guided" or (app.screen == "hand" and app.hand.done is not None):
            g = app.guided
            waiting = app.screen == "guided" and g.expected() is not None and g.pending is None
            return ("guided", g.progress.step, g.taught()) if waiting else None
        playing = session is not None and app.screen == "play" and not session.over
        return (id(session), app.acted_at) if playing and session.need.dice is not None else None

    def _next(self, now: float) -> None:
        self.pipeline.call(lambda source: source.advance())
        self.pipeline.reread()  # the same photo again is a new throw
        self._shown_at, self._settled, self._settled_at = now, self.pipeline.last_settled[1], None
