"""The screens around the game: the score sheet, the menu, the game over screen and the evening's
summary."""

from __future__ import annotations

from appliance.kiosk import view
from appliance.kiosk.screens import Dialog, Screen


class SheetScreen(Dialog):
    """The Yacht score sheet, full screen."""

    name = "sheet"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.page = 0

    @property
    def handlers(self):
        return {"page": lambda _arg: setattr(self, "page", self.page + 1)}

    def view(self):
        return view.sheet(self.app.session, self.page)

    def back(self) -> None:
        self.page = 0  # the sheet opens on the page of the player on turn
        super().back()


class MenuScreen(Dialog):
    """Undo, the score sheet, end the game, the language, the drink cap, forget the taught dice, the
    guided setup."""

    name = "menu"

    @property
    def handlers(self):
        app = self.app
        return {"undo": lambda _arg: app.undo(), "sheet": lambda _arg: setattr(app, "screen", "sheet"),
                "end": lambda _arg: app.end_game(), "lang": lambda _arg: app.next_language(),
                "cap": lambda _arg: app.next_drink_cap(), "forget": lambda _arg: app.forget_dice(),
                "evening": lambda _arg: app.end_evening(), "guided": lambda _arg: app.open_guided()}

    def view(self):
        return view.menu(self.app.session, self.app.drink_cap, self.app.taught_throws())


class SummaryScreen(Dialog):
    """The evening's chart ("End the evening"): a new evening, or back to the game over screen."""

    name = "summary"

    @property
    def handlers(self):
        return {"new_evening": lambda _arg: self.app.new_evening()}

    def view(self):
        if self.app.evening_summary is None:  # shown without "End the evening" (a test, a restore)
            self.app.evening_summary = self.app.summary()
        return view.summary(self.app.evening_summary)

    def back(self) -> None:
        # The game was ended to show the evening (a Biscuit game too, which never ends by itself).
        self.app.screen = "over" if self.app.session is not None else "setup"


class OverScreen(Screen):
    """The winner and the evening's counts: play again, a new game, fix a misread last roll, or end
    the evening (its chart)."""

    name = "over"

    @property
    def handlers(self):
        app = self.app
        return {"again": lambda _arg: app.start_game(), "new": lambda _arg: app.new_game(),
                "fix": lambda _arg: app.open_correction(), "sheet": lambda _arg: setattr(app, "screen", "sheet"),
                "evening": lambda _arg: app.end_evening()}

    def view(self):
        return view.over(self.app.session, self.app.evening())
