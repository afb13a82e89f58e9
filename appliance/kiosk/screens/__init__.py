"""The kiosk's screens: each owns its state, its handlers and the data its view draws.

A screen has a ``name`` (``App.screen``), ``handlers`` (choice verb -> method taking the choice's
argument; choice ids are "verb" or "verb:argument", e.g. "announce:54", "pick:Bo"), ``view()``
(``appliance.kiosk.view`` given the data it draws) and ``back()`` (Esc). Screens reach what they
share through the app (``appliance.kiosk.app.App``): the session, the message line, the other
screens. The screens:

- ``setup``: the game and its seats (:class:`~appliance.kiosk.screens.setup.SetupScreen`), and
  ``names``: typing a seat's name (:class:`~appliance.kiosk.screens.setup.NamesScreen`);
- ``play``: the game (:class:`~appliance.kiosk.screens.play.PlayScreen`);
- ``correct`` and ``hand``: the correction path (``appliance.kiosk.screens.fix``);
- ``sheet``, ``menu`` and ``over`` (``appliance.kiosk.screens.menu``);
- ``guided``: the guided setup of the table (``appliance.kiosk.screens.guided``).
"""

from __future__ import annotations

from typing import Callable, ClassVar

from appliance.table.base import View


class Screen:
    """One kiosk screen. Subclasses set ``name`` and define ``handlers`` and ``view``."""

    name: ClassVar[str]
    # clock s a question of this screen was last answered (``App.press`` drops any press sooner than
    # ANSWER_PAUSE_S after it: the answering key twice lands on the next question's buttons).
    answered_at: float = float("-inf")

    def __init__(self, app) -> None:
        self.app = app

    @property
    def handlers(self) -> dict[str, Callable[[str], None]]:
        """Choice verb -> what pressing it does here."""
        return {}

    def view(self) -> View:
        """What this screen shows now (without the banner, the message and the focus)."""
        raise NotImplementedError

    def back(self) -> None:
        """Esc / Back: nothing on a screen that has no way back."""

    def select(self, n: int) -> None:
        """The n-th enabled choice (1-based), as a digit key picks it."""
        enabled = [c for c in self.view().choices if c.style != "disabled"]
        if 1 <= n <= len(enabled):
            self.app.press(enabled[n - 1].id)


class Dialog(Screen):
    """A screen over the game (correction, hand entry, sheet, menu): Back returns to the game, or
    to the game over screen, or (no game) to the setup."""

    def back(self) -> None:
        app = self.app
        app.screen = "play" if app.session and not app.session.over else ("over" if app.session else "setup")
