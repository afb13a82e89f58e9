"""The camera-less trial mode (``[camera] source = "synthetic"``): a simulated table that plays the
dice for the players, for as long as the kiosk runs.

The table waits for the game: it throws only when the game waits for a throw, and then the number of
dice the game expects (2 for Mäxle and Biscuit, 5 for Yacht: a reroll keeps the dice a player would
keep for the declared category, ``keep_for``, and throws the rest). With the Mäxle cup
it puts the cup down with fresh dice when a round opens, shakes afresh when a receiver believes and
announces, and lifts the cup when the table waits for it (REVEAL, a self-reveal); the dice under the
cup are told on screen as a peek, once the announcements and messages before it are gone (a
receiver's shake only once they choose to believe). Nothing happens on the setup screen, in the menu or
on a dialog. In the guided setup the table is cleared for the tray, the light and the empty tray,
and throws the dice the teach step asks for whenever it waits for a throw.
A throw the camera does not take (misread, unreadable) is thrown again after a while. It never ends.
Now and then (``TrialTable(mishaps=...)``) a throw goes wrong as real ones do: a die jumps the tray's
wall or lands cocked against it, and the table must say so and have it thrown again.

Two halves, one per thread: :class:`TrialSource` is the camera pipeline's frame source (it acts on
its orders in the pipeline's stepping thread, on the synthetic table's virtual time, after a short
pause so that the players see what is coming); :class:`TrialTable` watches the kiosk from the UI
thread once a frame (:meth:`TrialTable.tick`) and gives the source its orders through
``CameraPipeline.call``. The demo window uses it too, Space doing the next thing at once.
"""

from __future__ import annotations

import json
import logging
import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

from appliance.games.yacht_scoring import UPPER
from appliance.i18n import _
from appliance.table import find_table
from appliance.table.base import dice_text

log = logging.getLogger(__name__)

CUP_KEY = "trial_cup"  # the store's setting: the Mäxle dice under the trial table's cup, for a restart
PAUSE_S = 1.2   # virtual seconds between the game's wait and the table's throw
PEEK_S = 5.0    # seconds the Mäxle peek shows, counted from when no announcement is on screen
RETRY_S = 6.0   # virtual seconds a still throw may lie untaken before it is thrown again
MISHAPS = 0.1   # the share of the trial table's throws that go wrong (a die off the tray or cocked)
TRAY_FRAC = (0.7, 0.78)  # the tray's share of the view: the table beside it has room for a die


@dataclass(frozen=True)
class Order:
    """What the simulated table is to do: "throw" (``values`` in the open), "cover" (the Mäxle cup
    down over ``values``), "lift" (the cup off; without a cup, ``values`` are thrown), "clear" (the
    dice and the cup taken off the tray) or "wait".
    mishap: how a throw goes wrong: "" (it does not), "off_tray" (the first die lands beside the
    tray) or "cocked" (the first die leans on the tray wall); a throw again goes right."""

    kind: str
    values: tuple[int, ...] = ()
    mishap: str = ""


class TrialSource:
    """A frame source (``read``, ``close``) over a ``vision.synth.SyntheticTable`` that never ends
    and acts on :meth:`order` when the scene is still and ``pause_s`` virtual seconds have passed."""

    def __init__(self, table, *, pause_s: float = PAUSE_S, retry_s: float = RETRY_S) -> None:
        self.table = table
        self.pause_s, self.retry_s = pause_s, retry_s
        self.current = Order("wait")
        self._due = 0.0         # virtual s from which the order may be carried out
        self._done = True       # the current order was carried out
        self._retry_at = float("inf")
        self.actions: list[Order] = []  # what the table did, oldest first (for tests and the log)

    @property
    def truth(self):
        """What the latest frame showed (``vision.synth.Truth``)."""
        return self.table.truth

    @property
    def tray_area(self) -> tuple[int, int, int, int]:
        """The simulated tray in the frame, (x, y, w, h) px: the trial mode's ``[tray] area``."""
        return self.table.tray_area

    def order(self, order: Order, *, now: bool = False) -> None:
        """A new order, carried out after the pause (``now``: at the next still frame)."""
        self.current = order
        self._done = order.kind == "wait"
        self._due = self.table.t + (0.0 if now else self.pause_s)
        self._retry_at = float("inf")

    def hurry(self) -> None:
        """Carry out the current order at the next still frame (the demo window's Space)."""
        self._due = min(self._due, self.table.t)
        if self._done and self.current.kind == "throw":
            self._done = False

    def read(self):
        """The next frame, after acting on the order if it is due."""
        self._act()
        return self.table.read()

    def _act(self) -> None:
        table, order = self.table, self.current
        if table.frames_until_still() > 0:
            return
        if not self._done and table.t >= self._due:
            self._done = True  # first: an order the table cannot carry out fails once, not every frame
            self._carry_out(order)
            self._retry_at = table.still_at + self.retry_s if order.kind == "throw" else float("inf")
        elif self._done and table.t >= self._retry_at:  # the camera did not take it: throw again
            self._carry_out(replace(order, mishap=""))
            self._retry_at = table.still_at + self.retry_s

    def _carry_out(self, order: Order) -> None:
        table = self.table
        if order.kind == "cover":
            table.cover(list(order.values))
        elif order.kind == "lift" and table.cup_down:
            # The dice the lift shows are the order's: the believer's shake (a REVEAL pressed before
            # the table put them under the cup) or a self-revealer's own, not the last holder's.
            if order.values:
                table.cover(list(order.values))
            table.lift()
        elif order.kind in ("throw", "lift"):
            where = {order.mishap: 0} if order.mishap in ("off_tray", "cocked") else {}
            table.throw(list(order.values), **where)
        elif order.kind == "clear":
            table.clear()
        self.actions.append(order)

    def close(self) -> None:
        """Stops the source; later reads raise SourceClosed."""
        self.table.close()


class TrialTable:
    """The simulated table's player side: watches the kiosk's ``App`` and orders the source.

    app: the kiosk core. post: how an order reaches the source (``CameraPipeline.call`` wrapped, or
    a direct call in tests): ``post(fn)`` runs ``fn(source)`` in the stepping thread. seed: the dice
    thrown (None: a fresh random table). mishaps: the share 0-1 of open throws that go wrong (a die off
    the tray and a cocked die in turn, the first off the tray; ``Order.mishap``).
    """

    def __init__(self, app, post: Callable[[Callable], None], *, seed: int | None = None,
                 mishaps: float = 0.0) -> None:
        if not 0.0 <= mishaps <= 1.0:
            raise ValueError(f"mishaps is a share of the throws, 0-1, not {mishaps}")
        self.app = app
        self.post = post
        self.rng = random.Random(seed)
        self.mishaps = mishaps
        self._mishaps_made = 0
        self._key: tuple | None = None       # the wait last seen (None: not playing)
        self._handled: tuple | None = None   # the last (game, action time) ordered for
        self._last_kind = ""
        # The Mäxle dice under the cup, and what the receiver would shake if they believe.
        self._under_cup: tuple[int, ...] = ()
        self._believer: tuple[int, ...] = ()
        self._covered = False  # this table put its cup down (after a restart, over the dice kept)
        self._kept = self._kept_cup()  # as kept before a restart, until the first order takes them up
        self._resumed = False  # the first order after a restart keeps them (``_resume_cup``)
        self._peek = ""  # the peek to show once nothing else is on screen (the players read that first)
        self._believing = False  # the receiver's shake was shown as they chose to believe
        self._shown = ""  # the peek on the message line now, if it is still there

    def _dice(self, n: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(n))

    def tick(self) -> None:
        """Once a frame from the UI thread: a new order when the game's (or the guided setup's) wait
        changed; the Mäxle peek once the play screen shows no announcement and no message."""
        self._follow()
        app = self.app
        free = app.screen == "play" and app.banner is None and not app.banners and not app.message
        if self._peek and free:
            self._say(self._peek)
            self._peek = ""
        elif free and self._believer and app.play.sub == "believe" and not self._believing:
            # "Believe" opened the announce picker (and cleared the line): the dice shaken.
            self._believing = True
            self._say(self._believer_peek())

    def _say(self, peek: str) -> None:
        self.app.say(peek, seconds=PEEK_S)
        self._shown = peek

    def _follow(self) -> None:
        app, s = self.app, self.app.session
        if app.screen == "guided" or (app.screen == "hand" and app.hand.done is not None):
            self._guided()
            return
        playing = s is not None and app.screen == "play" and not s.over
        key = (id(s), app.acted_at) if playing else None
        if key == self._key:
            return
        self._key = key
        if not playing:
            order = Order("wait")
        else:
            fresh = key != self._handled  # not merely back from the menu or a dialog
            self._handled = key
            if fresh:  # a peek of a wait that is over goes, shown or not: the turn has passed
                self._peek, self._believing = "", False
                if app.message and app.message == self._shown:
                    app.hush()
            order = self._order(s, fresh)
        if order is not None:
            self.post(lambda src, o=order: src.order(o))

    def _guided(self) -> None:
        """The guided setup: an empty tray for its first steps; the dice it asks for when its teach
        step waits for a throw (again after each throw confirmed, corrected or refused)."""
        g = self.app.guided
        waiting = self.app.screen == "guided" and g.expected() is not None and g.pending is None
        key = ("guided", g.progress.step, waiting, g.dice, g.taught())
        if key == self._key:
            return
        self._key = key
        order = Order("throw", self._dice(g.dice)) if waiting else Order("wait" if g.expected() else "clear")
        # The empty tray at once: the setup's first steps look at it; a throw after the usual pause.
        self.post(lambda src, o=order: src.order(o, now=o.kind == "clear"))

    def now(self) -> None:
        """Do the next thing at once (the demo window's Space)."""
        self.post(lambda src: src.hurry())

    def _order(self, s, fresh: bool) -> Order | None:
        """The order for the game's wait now; None keeps the table as it is (the Mäxle cup stays down
        while the receiver decides, and after a return from the menu). ``fresh``: the game took an
        action since the last order."""
        need, last, self._last_kind = s.need, self._last_kind, s.need.kind
        if not find_table(s.kind).cup:
            if need.kind == "reroll" and need.dice and need.raw.get("showing") and need.raw.get("declared"):
                kept = keep_for(tuple(need.raw["showing"]), need.raw["declared"])[:need.dice]
                return Order("throw", kept + self._dice(need.dice - len(kept)), self._mishap())
            if need.kind in ("roll", "reroll") and need.dice:
                return Order("throw", self._dice(need.dice), self._mishap())
            return Order("wait")
        if self._kept is not None:
            self._resume_cup(s)
        if need.kind == "lift":  # after a restart too: the dice peeked before it (``_resume_cup``)
            values = self._believer if need.step == "self_reveal" else self._under_cup
            self._resumed = False  # the next round shakes afresh
            return Order("lift", values or self._dice(2))
        if not fresh:
            return None
        if need.kind == "announce":
            return self._shake()
        if need.kind != "decide":
            return None
        order = None
        if last == "decide" and self._believer:  # the last receiver believed, shook and announced
            self._under_cup = self._believer
            order = Order("cover", self._under_cup)
        elif not self._covered:  # a game resumed while a receiver decides: the dice peeked before it
            self._under_cup = self._under_cup or self._dice(2)
            order = Order("cover", self._under_cup)
        # Drawn now, shown only once they believe: a receiver who saw their shake first would decide
        # on what no real receiver knows. (After a restart, the one they may have seen before it.)
        if not (self._resumed and self._believer):
            self._believer = self._dice(2)
        self._resumed = False
        self._covered = self._covered or order is not None
        self._keep_cup()
        return order

    def _believer_peek(self) -> str:
        return _("You shook: {dice} (only you peek)").format(dice=dice_text(self._believer))

    def _mishap(self) -> str:
        # Without mishaps the dice drawn stay those of the seed (no draw spent on the chance).
        if not self.mishaps or self.rng.random() >= self.mishaps:
            return ""
        # Turn about, so that a short trial shows both (and a test knows which comes first).
        self._mishaps_made += 1
        return ("off_tray", "cocked")[(self._mishaps_made - 1) % 2]

    def _shake(self) -> Order:
        """A round opens: the holder shakes the cup and peeks (after a restart, at what they peeked
        before it)."""
        if not (self._resumed and self._under_cup):
            self._under_cup = self._dice(2)
        self._resumed = False
        self._believer = ()
        self._covered = True
        self._keep_cup()
        self._peek = _("Under the cup: {dice} (only you peek)").format(dice=dice_text(self._under_cup))
        return Order("cover", self._under_cup)

    def _keep_cup(self) -> None:
        """The dice under the cup and the receiver's shake, kept in the store (``CUP_KEY``): a plug
        pulled while the cup is down must lift the dice the players peeked, not new ones."""
        store = self.app.store
        if store is None:
            return
        s = self.app.session
        at, need = (len(s.history), s.need.kind) if s is not None else (0, "")
        try:
            store.save_settings({CUP_KEY: json.dumps({"under": self._under_cup, "believer": self._believer,
                                                      "at": at, "need": need})})
        except Exception as exc:  # the game is saved apart; only a restart's lift is at stake
            log.warning("the trial table's cup could not be kept: %s", exc)

    def _kept_cup(self) -> tuple[tuple[int, ...], tuple[int, ...], int, str] | None:
        """(under the cup, the receiver's shake, the game's actions then, what it waited for then)
        as ``_keep_cup`` kept them, or None (none kept, no store, or damaged: new dice are drawn then)."""
        store = self.app.store or getattr(self.app, "read_only", None)
        try:
            text = store.setting(CUP_KEY) if store is not None else None
            if not text:
                return None
            kept = json.loads(text)
            under, believer = (tuple(kept.get(k) or ()) for k in ("under", "believer"))
            if not all(len(d) in (0, 2) and all(type(v) is int and 1 <= v <= 6 for v in d) for d in (under, believer)):
                raise ValueError(f"not two dice: {kept}")
            return under, believer, int(kept.get("at", -1)), str(kept.get("need", ""))
        except Exception as exc:
            log.warning("the trial table's kept cup cannot be used: %s", exc)
            return None

    def _resume_cup(self, s) -> None:
        """The first order after a restart takes up the kept cup, followed through the actions
        taken since it was kept (a plug can be pulled before the table keeps the next): an
        announcement keeps the dice under the cup, or, made by a receiver who believed, puts their
        shake there; a reveal lifts the cup over the same dice. Anything else ended the round: new
        dice then, as for any round."""
        (under, believer, at, need), self._kept = self._kept, None
        if not 0 <= at <= len(s.history):
            return
        for action, _events in s.history[at:]:
            if "announce" in action and need in ("announce", "decide"):
                if need == "decide":  # a receiver believed, shook and announced
                    if not believer:
                        return
                    under, believer = believer, ()
                need = "decide"
            elif ("reveal" in action or "self_reveal" in action) and need == "decide":
                need = "lift"
            else:
                return
        self._under_cup, self._believer = under, believer
        self._resumed = True


def keep_for(dice: tuple[int, ...], category: str) -> tuple[int, ...]:
    """The dice a Yacht player keeps of ``dice`` (the values showing) before a reroll for the
    declared ``category`` (``appliance.games.yacht_scoring.CATEGORIES``): a player's rule of thumb,
    not the solver's best (the trial table plays, the coach advises). The rest are thrown again."""
    if category in UPPER:  # ones to sixes: the dice of that face
        return tuple(d for d in dice if d == UPPER[category])
    if category in ("small_straight", "large_straight"):
        return tuple(sorted(set(dice)))
    if category == "choice":
        return tuple(d for d in dice if d >= 4)
    ranked = sorted(Counter(dice).items(), key=lambda vc: (-vc[1], -vc[0]))
    if category == "full_house":
        (a, na), *rest = ranked
        keep = (a,) * min(na, 3)
        return keep + ((rest[0][0],) * min(rest[0][1], 2) if rest else ())
    return (ranked[0][0],) * ranked[0][1]  # four of a kind, yacht: the most common value


def trial_source(size: tuple[int, int], fps: float, seed: int | None = None, **kw) -> TrialSource:
    """The trial mode's frame source: a synthetic table of ``size`` at ``fps``, waiting for orders; its
    tray (``TrialSource.tray_area``) leaves room on the table beside it for a die thrown off it."""
    from vision.synth import SyntheticTable, TableLook

    look = TableLook(size=size, tray_frac=TRAY_FRAC)
    return TrialSource(SyntheticTable(5, seed=seed or 0, fps=fps, look=look, throw_s=0.8), **kw)
