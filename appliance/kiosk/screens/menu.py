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
    """Undo, the score sheet, end the game (asked first), the language, the drink cap, forget the
    taught dice, the guided setup."""

    name = "menu"

    @property
    def handlers(self):
        app = self.app
        # Ending a game that is still on is asked first: it cannot go on afterwards.
        on = app.session is not None and not app.session.over and not app.session.ended
        return {"undo": lambda _arg: app.undo(), "sheet": lambda _arg: setattr(app, "screen", "sheet"),
                "end": lambda _arg: app.confirm.ask("end") if on else app.end_game(),
                "lang": lambda _arg: app.next_language(),
                "cap": lambda _arg: app.next_drink_cap(), "forget": lambda _arg: app.confirm.ask("forget"),
                "evening": lambda _arg: app.confirm.ask("evening") if on else app.end_evening(),
                "guided": lambda _arg: app.open_guided()}

    def view(self):
        return view.menu(self.app.session, self.app.drink_cap, self.app.taught_throws())


class ConfirmScreen(Screen):
    """"Are you sure?" before what cannot be taken back: ending a game that is still on (the menu's
    "End this game" and "End the evening"), a new evening (the evening's counts start again) and
    forgetting the dice taught at this table (the menu's "Forget these dice", or the guided
    setup's when the values taught contradict the table's sure readings). Back (Esc, or the first
    choice) returns to the screen it was asked from."""

    name = "confirm"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.verb = ""
        self.asked_from = "menu"
        self.asked_at = float("-inf")  # clock s (``App.press`` drops a "yes" too soon after it)

    def ask(self, verb: str) -> None:
        """Ask before ``verb`` ("end", "evening", "new_evening", "forget";
        ``appliance.kiosk.view.confirm``)."""
        self.verb, self.asked_from, self.app.screen = verb, self.app.screen, self.name
        self.asked_at = self.app.clock()

    @property
    def handlers(self):
        return {"yes": lambda _arg: self._yes()}

    def _yes(self) -> None:
        app = self.app
        if self.verb == "forget":
            app.screen = self.asked_from
            app.forget_dice()
            return
        {"end": app.end_game, "evening": app.end_evening, "new_evening": app.new_evening}[self.verb]()

    def view(self):
        return view.confirm(self.verb, self.app.session,
                            taught=self.app.taught_throws() if self.verb == "forget" else 0)

    def back(self) -> None:
        self.app.screen = self.asked_from


class SummaryScreen(Dialog):
    """The evening's chart ("End the evening"): a new evening (asked first), or back to the game
    over screen."""

    name = "summary"

    @property
    def handlers(self):
        return {"new_evening": lambda _arg: self.app.confirm.ask("new_evening")}

    def view(self):
        if self.app.evening_summary is None:  # shown without "End the evening" (a test, a restore)
            self.app.evening_summary = self.app.summary()
        return view.summary(self.app.evening_summary)

    def back(self) -> None:
        # The game was ended to show the evening (a Biscuit game too, which never ends by itself).
        self.app.screen = "over" if self.app.session is not None else "setup"
        self.app.keep_evening_chart(False)


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
