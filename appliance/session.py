"""The game session: settled readings and the table's choices in, the engine's events out.

A session wraps one engine game (``appliance.games``) and adds what the table around it needs:

- it turns a settled camera reading into a ``roll`` action, but only when the engine expects a roll
  with that many dice; an unreadable reading, a wrong count, or dice at the wrong moment change
  nothing and come back as a :class:`Problem`, a code the kiosk words (as vision says
  ``unreadable(kind=...)``): the session speaks in events and codes, never in sentences;
- it keeps the game log durable: with a store (``appliance.store.Store``), every accepted action is
  recorded *before* its announcement is returned, and ``announced(seq)`` marks it seen afterwards,
  so a pulled plug loses nothing announced and announces nothing twice;
- it says what the table must do next (:class:`Need`), in table terms: Mäxle's "roll" after a
  reveal is "lift" (the cup comes off and the camera reads what was under it).

There is no game logic here: whether an action is allowed, and what it does, is the engine's.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from appliance.games import RestoreError, new_game, replay
from vision.reading import DiceReading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Need:
    """What the table must do next (from the engine's ``expects``).

    kind: "roll" | "lift" (Mäxle: lift the cup, the camera reads the dice) | "announce" | "decide" |
        "pick" | "thumbs" | "declare" | "reroll" | "nothing" (the game is over).
    player: who acts (None when anyone may, or the game is over).
    dice: how many dice a roll must have now, or None when no roll is accepted.
    actions: the action keys the engine accepts now (RULES.md §4 names, ``undo`` aside).
    options: what may be chosen now (legal announcements, pickable players, unused categories...).
    step: the engine's finer reason (e.g. "reveal", "self_reveal", "duel", "order").
    raw: the engine's whole ``expects`` payload (count of picks, standing announcement, winner...).
    """

    kind: str
    player: str | None
    dice: int | None
    actions: tuple[str, ...]
    options: tuple
    step: str
    raw: dict

    @classmethod
    def from_expects(cls, game_kind: str, expects: dict) -> "Need":
        kind = expects.get("expects", "nothing")
        if game_kind == "maexle" and kind == "roll":
            kind = "lift"
        return cls(kind=kind, player=expects.get("player"), dice=expects.get("dice"),
                   actions=tuple(expects.get("actions") or ()), options=tuple(expects.get("options") or ()),
                   step=str(expects.get("step") or ""), raw=dict(expects))


# Problem codes (Problem.code), each with the fields it fills in.
PROBLEMS = (
    "ended",       # the game has ended (the table left it)
    "refused",     # the engine refused the action: reason (the engine's English), refusal (its code and facts)
    "unsaved",     # the store could not record it: reason (the error's English, for the journal)
    "over",        # dice while the game is over
    "not_now",     # dice (or an extra button) while something else is due: need
    "unreadable",  # the reading is unreadable: reading (its ``kind`` says why)
    "count",       # another number of dice than the roll needs: found, needed
)


@dataclass(frozen=True)
class Problem:
    """Why an input changed nothing, as a code (one of PROBLEMS) and its facts; the kiosk says it
    in the table's language (``appliance.kiosk.words.problem_text``). ``refusal``: the engine's
    error payload of a refused action (its ``code``, e.g. "maexle.too_low", and facts)."""

    code: str
    reason: str = ""
    refusal: dict = field(default_factory=dict)
    need: "Need | None" = None
    reading: DiceReading | None = None
    found: int = 0
    needed: int = 0


@dataclass
class Outcome:
    """What one input did.

    accepted: True when the engine took an action (it is in the log, durable if there is a store).
    action: the action taken or refused ({"roll": [...]}, {"announce": 54}, ...), None if none.
    events: the engine's events (RULES.md §4), empty when nothing was taken; the kiosk announces
        them (``appliance.table.events``).
    problem: why nothing was taken, when there is something to say (None otherwise).
    seq: the action's place in the store's log (call ``Session.announced(seq)`` once shown), or None.
    """

    accepted: bool
    action: dict | None = None
    events: list[dict] = field(default_factory=list)
    problem: Problem | None = None
    seq: int | None = None

    @property
    def undid(self) -> bool:
        """Whether this action took back the one before it (an ``undo``)."""
        return bool(self.action and "undo" in self.action)


class Session:
    """One game at the table. Create with :meth:`start` (a new game) or :meth:`resume` (the store's
    unfinished game); never raises for anything the table does."""

    def __init__(self, game, *, store=None, game_id: int | None = None,
                 history: list[tuple[dict, list[dict]]] | None = None) -> None:
        self.game = game
        self.store = store
        self.game_id = game_id
        self.ended = False
        # Where the accepted rolls came from ("camera", "hand"): the demo and the log say it.
        self.roll_sources: dict[str, int] = {}
        # The drink cap per player for the evening (0: none), and the evening's drinks before this
        # game, which count towards it (set by the kiosk; see ``tally`` and ``with_water``).
        self.drink_cap = 0
        self.drinks_before: dict[str, int] = {}
        # (action, events) of every action in effect, oldest first: the tally and the last roll.
        self._in_effect: list[tuple[dict, list[dict]]] = list(history or [])
        self._mark_failed = False  # the store's last announced-mark failed (logged once until one works)
        self._save_failed = False  # the store's last record failed (its traceback logged once until one works)

    # -- creating ---------------------------------------------------------------------------------

    @classmethod
    def start(cls, setup: dict, *, store=None) -> "Session":
        """A new game from its setup line ({"game", "players", "rules"}); saved at once if there is a
        store. Raises ``SetupError`` (a ValueError naming the bad key) for a bad setup."""
        game = new_game(setup)
        game_id = store.start_game(game.setup) if store is not None else None
        log.info("new game %s: %s", game_id, game.setup)
        return cls(game, store=store, game_id=game_id)

    @classmethod
    def resume(cls, store, saved=None) -> tuple["Session", list[Outcome]] | None:
        """The store's unfinished game (or ``saved``, a ``SavedGame`` of the store, e.g. the ended
        game of the winner screen), rebuilt from its log, and the outcomes still to announce
        (actions recorded but not marked announced before the power went); None if there is none.
        A game its engine decided whose ending was not saved (the plug pulled between the two
        commits) is ended here, where the store can save it.

        Raises ``RestoreError``/``SetupError`` (ValueErrors) when the saved log does not replay: a bad
        setup, or an action the engine refuses (a hand-edited file, a log another engine version took).
        """
        saved = saved if saved is not None else store.unfinished()
        if saved is None:
            return None
        game, replayed = replay(saved.setup, saved.actions)
        for n, (action, events) in enumerate(zip(saved.actions, replayed), 1):
            if events and "error" in events[0]:  # the engine would skip it: another game than the saved one
                raise RestoreError(f"saved action {n} {json.dumps(action, ensure_ascii=False)} is not accepted: "
                                   f"{events[0]['error'].get('reason', '')}")
        session = cls(game, store=store, game_id=saved.id, history=in_effect(saved.actions, saved.events))
        # A game that ended just before the power went comes back only for its last announcements.
        session.ended = bool(getattr(saved, "ended", False))
        if session.over and not session.ended:  # its deciding action saved, its ending not yet
            try:
                store.end_game(saved.id, session.tally(), game.expects.get("winner"))
                session.ended = True
            except Exception as exc:  # a read-only store: it goes on as saved, its counts kept in memory
                log.warning("the end of game %s cannot be saved yet: %s", saved.id, exc)
        pending = [Outcome(True, action, events, seq=seq)
                   for seq, action, events in saved.pending]
        log.info("resumed game %s after %d actions (%d to announce)", saved.id, len(saved.actions), len(pending))
        return session, pending

    @classmethod
    def resume_accepted(cls, store) -> tuple[tuple["Session", list[Outcome]], int] | None:
        """The store's unfinished game whose log the engine refuses from some action on (``resume``
        raised RestoreError), played on from the actions before it: those saved as a new game in
        its place (``Store.continue_as_new``; the whole old log kept). Returns (``resume``'s answer,
        how many actions were dropped), or None when there is no such game or its setup itself
        does not replay. From a store opened read-only (``Store.open_read_only``) nothing is saved:
        the game goes on in memory. Raises what the store raises when it cannot write."""
        saved = store.unfinished()
        if saved is None or saved.ended:
            return None
        try:
            game = new_game(saved.setup)
        except ValueError:
            return None
        kept = []
        for action in saved.actions:
            events = game.apply(action)
            if events and "error" in events[0]:
                break
            kept.append((action, events))
        if len(kept) == len(saved.actions):  # nothing refused: the game as it is
            return cls.resume(store), 0
        dropped = len(saved.actions) - len(kept)
        log.warning("saved game %s: %d of its actions replay, the %d after them are refused; it goes on "
                    "from there%s", saved.id, len(kept), dropped, "" if store.read_only else " as a new game (its log kept)")
        if store.read_only:  # nowhere to save it: played on in memory, its unshown actions shown
            session = cls(game, history=in_effect([a for a, _e in kept], [e for _a, e in kept]))
            pending = [Outcome(True, a, e, seq=seq) for seq, (a, e) in enumerate(kept, 1) if seq > saved.announced]
            return (session, pending), dropped
        store.continue_as_new(saved.id, kept)
        return cls.resume(store), dropped

    # -- reading the state ------------------------------------------------------------------------

    @property
    def history(self) -> list[tuple[dict, list[dict]]]:
        """The (action, events) pairs in effect, oldest first (undone ones left out): a copy."""
        return list(self._in_effect)

    @property
    def kind(self) -> str:
        """"maexle" | "biscuit" | "yacht"."""
        return self.game.setup["game"]

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (clockwise)."""
        return tuple(self.game.players)

    @property
    def rules(self) -> dict:
        """The house rules in force, every default filled in."""
        return self.game.setup["rules"]

    @property
    def need(self) -> Need:
        """What the table must do next."""
        return Need.from_expects(self.kind, self.game.expects)

    @property
    def over(self) -> bool:
        """True once the engine has a winner."""
        return self.need.kind == "nothing"

    @property
    def last_roll(self) -> list[int] | None:
        """The dice of the latest roll still in effect (for the correction screen), or None."""
        for action, _events in reversed(self._in_effect):
            if "roll" in action:
                return list(action["roll"])
        return None

    @property
    def last_action(self) -> dict | None:
        """The latest action in effect (what ``undo`` would take back), or None."""
        return self._in_effect[-1][0] if self._in_effect else None

    def tally(self) -> dict[str, dict[str, int]]:
        """This game's counts so far: ``{player: {"drinks": n, "penalties": n}}`` in seat order,
        summed from the drink and penalty events of the actions in effect (undone ones excluded),
        with ``"water": n`` for a player some of whose drinks were past the drink cap (``drink_cap``)
        and announced as water; ``drinks`` counts them too."""
        out = {p: {"drinks": 0, "penalties": 0, "water": 0} for p in self.players}
        water = self._water()
        for _action, events in self._in_effect:
            for event in events:
                if "drink" in event and event["drink"].get("player") in out:
                    mine = out[event["drink"]["player"]]
                    mine["drinks"] += int(event["drink"].get("count", 0))
                    mine["water"] += water.get(id(event), 0)
                elif "penalty" in event and event["penalty"].get("player") in out:
                    out[event["penalty"]["player"]]["penalties"] += int(event["penalty"].get("points", 0))
        for counts in out.values():
            if not counts["water"]:
                del counts["water"]
        return out

    def _water(self) -> dict[int, int]:
        """id(drink event) -> how much of it is past the drink cap, over the actions in effect: the
        evening's drinks before this game (``drinks_before``) count towards the cap."""
        cap = self.drink_cap
        if not cap:
            return {}
        running = {p: int(self.drinks_before.get(p, 0)) for p in self.players}
        out = {}
        for _action, events in self._in_effect:
            for event in events:
                drink = event.get("drink") if isinstance(event, dict) else None
                if not drink or drink.get("player") not in running:
                    continue
                count, before = int(drink.get("count", 0)), running[drink["player"]]
                running[drink["player"]] = before + count
                past = max(0, min(count, before + count - cap))
                if past:
                    out[id(event)] = past
        return out

    def with_water(self, events: list[dict]) -> list[dict]:
        """``events`` (the latest ones in effect) for the table to hear: a drink past the drink cap
        gets ``"water": n``, how much of its count is past the cap (all of it, or the rest once the
        cap falls inside it)."""
        water = self._water()
        return [{"drink": {**event["drink"], "water": water[id(event)]}} if id(event) in water else event
                for event in events]

    # -- the table acts ---------------------------------------------------------------------------

    def act(self, action: dict, *, source: str = "table", settings: dict[str, str] | None = None) -> Outcome:
        """Give the engine one action the table chose (announce, reveal, accept, pick, declare, stop,
        thumbs_last, rule_broken, self_reveal, undo, or a roll entered by hand). A refused action
        changes nothing and returns the engine's reason as ``problem``. ``settings``: kept in the
        store in the same commit as the action, if it is taken (``Store.record``)."""
        # A game its engine decided may still take back the deciding action (a misread last roll);
        # a game the table left (Biscuit, "End this game") is closed.
        reopen = self.ended and self.over and action.get("undo") is True
        if self.ended and not reopen:
            return Outcome(False, action, problem=Problem("ended"))
        before = list(self.game.actions)  # the log so far: an unsaved action is taken back by replaying it
        events = self.game.apply(action)
        if events and "error" in events[0]:
            reason = events[0]["error"].get("reason", "")
            log.info("refused %s from %s: %s", action, source, reason)
            return Outcome(False, action, events, problem=Problem("refused", reason=reason, refusal=events[0]["error"]))
        seq = None
        if self.store is not None:
            try:
                seq = self.store.record(self.game_id, action, events, reopen=reopen, settings=settings)
            except Exception as exc:  # the disk is gone: take it back rather than announce unsaved
                # Replayed, not undone: an unsaved ``undo`` taken back by another undo would lose one more.
                self.game, _events = replay(self.game.setup, before)
                if self._save_failed:  # a full card refused every throw since: a line each, not a traceback
                    log.error("could not save %s either: %s", action, exc)
                else:
                    log.exception("could not save %s", action)
                self._save_failed = True
                return Outcome(False, action, problem=Problem("unsaved", reason=str(exc)))
            self._save_failed = False
        _track(self._in_effect, action, events)
        if reopen:
            self.ended = False
        if "roll" in action:
            self.roll_sources[source] = self.roll_sources.get(source, 0) + 1
        log.info("%s from %s -> %s", action, source, [e for e in events if "turn" not in e])
        if self.over and not self.ended:
            self._end(self.game.expects.get("winner"))
        return Outcome(True, action, events, seq=seq)

    def dice(self, reading: DiceReading, *, source: str = "camera", settings: dict[str, str] | None = None) -> Outcome:
        """A settled reading from the camera: the roll the engine expects now, if it is one.

        Nothing changes (and ``problem`` says why) when the reading is unreadable, has the wrong
        number of dice, or no roll is expected now (e.g. the dice are still under the Mäxle cup); an
        unreadable reading while no roll is expected (the cup, a hand) changes nothing silently.
        ``settings``: kept with the roll in one commit, if it is taken (``act``).
        """
        need = self.need
        if need.dice is None:
            if not reading.ok:
                return Outcome(False)  # a cup, a hand, a blur while no roll is due: nothing to say
            if need.kind == "nothing":
                return Outcome(False, problem=Problem("over"))
            return Outcome(False, problem=Problem("not_now", need=need))
        if not reading.ok and reading.kind != "count":
            return Outcome(False, problem=Problem("unreadable", need=need, reading=reading))
        if len(reading.dice) != need.dice or reading.kind == "count":
            return Outcome(False, problem=Problem("count", need=need, found=len(reading.dice), needed=need.dice))
        return self.act({"roll": list(reading.values)}, source=source, settings=settings)

    def by_hand(self, values, *, source: str = "hand") -> Outcome:
        """A roll entered by hand on the kiosk (the camera misread or cannot see): same as a reading."""
        return self.act({"roll": [int(v) for v in values]}, source=source)

    def undo(self, *, source: str = "table") -> Outcome:
        """Take back the last action in effect (the engine's ``undo``). Also after the engine decided
        the game (its winner): the game is unfinished again, in the store too."""
        return self.act({"undo": True}, source=source)

    def announced(self, seq: int | None) -> None:
        """The outcome with ``seq`` has been shown: mark it in the store (no-op without one). A mark
        the store cannot write (it became read-only, the disk is gone) is logged once, not raised:
        the action itself is saved, and at worst its announcement shows again after a restart."""
        if self.store is not None and seq is not None:
            try:
                self.store.mark_announced(self.game_id, seq)
            except Exception as exc:
                if not self._mark_failed:
                    log.error("could not mark action %s of game %s announced: %s", seq, self.game_id, exc)
                self._mark_failed = True
            else:
                self._mark_failed = False

    def end(self) -> None:
        """The table leaves this game (Biscuit has no end; or a new game is chosen): keep its counts."""
        if not self.ended:
            self._end(self.game.expects.get("winner"))

    # -- internals --------------------------------------------------------------------------------

    def _end(self, winner) -> None:
        self.ended = True
        if self.store is not None:
            self.store.end_game(self.game_id, self.tally(), winner)


def in_effect(actions: list[dict], events: list[list[dict]]) -> list[tuple[dict, list[dict]]]:
    """The (action, events) pairs of a game log still in effect, oldest first: each ``undo`` takes
    the last one back (RULES.md §4). ``events[i]`` are the events ``actions[i]`` gave."""
    history: list[tuple[dict, list[dict]]] = []
    for action, evs in zip(actions, events):
        _track(history, action, evs)
    return history


def _track(history: list[tuple[dict, list[dict]]], action: dict, events: list[dict]) -> None:
    """Keep the list of actions in effect: an undo takes the last one back."""
    if action.get("undo") is True:
        if history:
            history.pop()
    else:
        history.append((action, events))


def counts_total(*tallies: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Several ``{player: {"drinks", "penalties"}}`` tallies added up (the evening's counts); a
    ``water`` count (drinks past the drink cap, counted in ``drinks`` too) is kept where there is one."""
    out: dict[str, dict[str, int]] = {}
    for tally in tallies:
        for player, counts in tally.items():
            mine = out.setdefault(player, {"drinks": 0, "penalties": 0})
            for key in ("drinks", "penalties", "water"):
                if counts.get(key) or key != "water":
                    mine[key] = mine.get(key, 0) + int(counts.get(key, 0))
    return out


__all__ = ["PROBLEMS", "Need", "Outcome", "Problem", "Session", "counts_total", "in_effect"]
