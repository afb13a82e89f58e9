"""The correction path: the correction screen (read again, enter by hand, undo) and the hand entry."""

from __future__ import annotations

from appliance.i18n import _
from appliance.kiosk import view
from appliance.kiosk.screens import Dialog


class CorrectScreen(Dialog):
    """Was the reading wrong? A misread last roll is taken back and read again or entered by hand;
    a roll due now is read again or entered by hand; a mistaken choice is undone."""

    name = "correct"

    @property
    def handlers(self):
        app = self.app
        return {"reread": self.on_reread, "undo_reread": self.on_undo_reread, "hand": self.on_hand,
                "rehand": self.on_rehand, "undo": lambda _arg: app.undo()}

    def view(self):
        return view.correct(self.app.session, self.app.last_seen, self.app.camera_reads())

    def on_reread(self, _arg: str) -> None:
        """Read again: the camera reads the dice lying now and reports them even if it saw them
        before. With no roll expected now, the last roll is taken back first (it was misread)."""
        if self.app.session is None:
            return
        if not self.app.session.need.dice and not self.app.undo_last_roll():
            return
        self._reread()

    def on_undo_reread(self, _arg: str) -> None:
        """Take the last roll back (it was misread) and let the camera read the dice again."""
        if self.app.undo_last_roll():
            self._reread()

    def _reread(self) -> None:
        app = self.app
        app.screen = "play"
        app.say(_("Reading the dice again…"))
        if app.hooks.reread:
            app.hooks.reread()

    def on_hand(self, _arg: str) -> None:
        """Enter the dice by hand: for the roll expected now, or (none expected) in place of the
        last roll."""
        app = self.app
        if app.session is None:
            return
        need = app.session.need
        last = app.session.last_action
        if need.dice:
            start = list(app.last_seen) if len(app.last_seen) == need.dice else None
            app.hand.open(need.dice, start, replace=False)
        elif last and "roll" in last:
            app.hand.open(len(last["roll"]), list(last["roll"]), replace=True)
        else:
            app.say(_("No roll to enter now"))

    def on_rehand(self, _arg: str) -> None:
        """Enter by hand in place of the last roll (it was misread), although another roll is due."""
        last = self.app.session.last_action if self.app.session is not None else None
        if last and "roll" in last:
            self.app.hand.open(len(last["roll"]), list(last["roll"]), replace=True)


class HandScreen(Dialog):
    """Enter the dice by hand. dice: as entered so far; focus: the die the next digit sets;
    replace: the entry replaces the last roll (it is taken back first); done, back_to: who else
    asked for the dice (the guided setup's correction of a taught throw): what OK gives them to,
    and the screen Cancel goes back to."""

    name = "hand"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.dice: list[int] = []
        self.focus = 0
        self.replace = False
        self.misread: tuple[int, ...] | None = None
        self.done = None
        self.back_to = ""

    def open(self, n: int, start: list[int] | None, *, replace: bool, done=None, back_to: str = "") -> None:
        """Show the entry for ``n`` dice, starting from ``start`` (else blank: OK waits until every
        die has a face, so a stray OK enters no roll of ones, a Yacht in Yacht). ``done``: a
        callable OK gives the dice to (a list of ints 1-6) instead of the game, ``back_to`` the
        screen Cancel then returns to."""
        self.done, self.back_to = done, back_to
        self.replace = replace
        # the misread roll this entry corrects (it replaces the last roll), for the table's taught dice
        self.misread = tuple(start) if replace and start else None
        self.dice = list(start) if start else [0] * n  # 0: a blank die, not yet set
        self.focus = 0
        self.app.screen = self.name

    @property
    def handlers(self):
        return {"die": self.on_die, "handok": self.on_ok}

    def view(self):
        return view.hand(self.dice, self.focus)

    def select(self, n: int) -> None:
        """Digits are faces here; 7-9 and 0 are none (and OK has no number)."""
        if self.dice and 1 <= n <= 6:
            self.dice[self.focus] = n
            self.focus = (self.focus + 1) % len(self.dice)

    def on_die(self, arg: str) -> None:
        """Turn die ``arg`` to its next face."""
        i = int(arg)
        if 0 <= i < len(self.dice):
            self.dice[i] = self.dice[i] % 6 + 1
            self.focus = i

    def back(self) -> None:
        if self.done is not None:
            self.app.screen = self.back_to
        else:
            super().back()

    def on_ok(self, _arg: str) -> None:
        """OK: the dice entered are the roll (in place of the last one, when it replaces it), or
        what the one who asked for them (``done``) takes."""
        app = self.app
        if 0 in self.dice:  # OK is greyed out then; a key or a tap that races the view is told why
            app.say(_("Set every die first: tap it, or type 1-6"))
            return
        if self.done is not None:
            self.done(list(self.dice))
            return
        if app.session is None:
            return
        if self.replace:
            outcome = app.session.undo(source="kiosk")
            if not outcome.accepted:
                app.refused(outcome)
                return
            app.took(outcome, quiet=True)
        outcome = app.session.by_hand(self.dice)
        if outcome.accepted:
            if app.hooks.corrected is not None:  # a throw corrected by hand: the table keeps its dice
                app.hooks.corrected(list(self.dice), self.misread)
            app.screen = "play"  # before took: a roll that decides the game goes on to "over"
            app.took(outcome)
        else:
            app.refused(outcome)
