"""What every game shares: setup checking, the apply/undo machinery, serialisation, seats.

A game's state is a plain JSON-able dict that is a pure function of the setup and the accepted
actions (RULES.md §4: "replaying the same actions gives the same events"). ``Game.apply`` runs one
action against the state; an action the rules do not allow raises ``Illegal`` inside the game, and
the state is rolled back from a JSON snapshot taken before the action, so a rejected action changes
nothing. The snapshots of the actions in effect are kept, which makes ``undo`` O(1) however long
the game (a 12-round, 8-player Yacht has ~400 actions).
"""

from __future__ import annotations

import json
import reprlib
from dataclasses import dataclass
from typing import Any, ClassVar


# The codes of the setup refusals (``SetupError.code``), the same for every game: the setup is not an
# object, names no game, has a key, a player list or rules of another form, seats a name twice, seats
# too few or too many, names a switch the game lacks, or gives a switch a value it does not take.
SETUP_REFUSALS = ("setup.form", "setup.game", "setup.key", "setup.players", "setup.seated_twice",
                  "setup.player_count", "setup.rules", "setup.switch", "setup.switch_value")


class SetupError(ValueError):
    """A setup line (RULES.md §4) that cannot start a game. The message names the bad key/value in
    English (the log, the config's errors, ``dicetable replay``); ``code`` names the refusal (one of
    ``SETUP_REFUSALS``, e.g. "setup.seated_twice") and ``facts`` are its values, so that the table
    above the engine can say it in its language, as for ``Illegal``."""

    def __init__(self, reason: str, code: str, **facts: Any) -> None:
        super().__init__(reason)
        self.code, self.facts = code, facts


class Illegal(Exception):
    """Raised inside a game for an action the rules do not allow now. The message is the reason, in
    English (the log, ``dicetable replay``); ``code`` names the refusal ("<game>.<what>" for a
    game's own, e.g. "maexle.too_low", else one every game shares, e.g. "not_now") and ``facts``
    are its values (JSON-able), so that the table above the engine can say it in its language."""

    def __init__(self, reason: str, code: str, **facts: Any) -> None:
        super().__init__(reason)
        self.code, self.facts = code, facts


# Reasons quote the bad value, but a log line or a caller may hand over anything JSON-like: a
# string of megabytes, lists nested thousands deep (the builtin repr raises RecursionError), an int
# past Python's digit limit (repr raises ValueError). The kiosk shows a reason on a line or two.
_BRIEF = reprlib.Repr()
_BRIEF.maxlevel, _BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlong = 3, 40, 40, 40
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxset = _BRIEF.maxfrozenset = 6
_BRIEF.maxdict = 4


def brief(value: Any) -> str:
    """``value`` for a message as the game log writes it, JSON (``null``, ``[true, 5]``, not
    Python's ``None``, ``[True, 5]``), at most ~200 chars ("..." where cut); a lone text in quotes
    ('Ann'), and a value JSON cannot write by a short repr. Never raises."""
    try:
        if isinstance(value, str):
            raise TypeError("a name or word reads best in quotes: 'Ann'")
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        try:
            text = _BRIEF.repr(value)
        except Exception:  # a value whose own repr fails
            return f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:197] + "..."


# ---------------------------------------------------------------------------------------------
# House-rule switches (RULES.md: each "Switches:" line).


@dataclass(frozen=True)
class Switch:
    """One house-rule switch: its default and the values it takes.

    ``choices`` lists the allowed strings; ``kind`` is "choice", "bool" (true/false, also "on"/"off"
    as RULES.md writes them), "count" (an int >= ``minimum``) or "limit" (null or an int >= 1).
    """

    default: Any
    kind: str = "choice"
    choices: tuple[str, ...] = ()
    minimum: int = 1

    def check(self, key: str, value: Any) -> Any:
        """The canonical form of ``value`` for switch ``key``; raises SetupError naming both."""
        if self.kind == "choice":
            if value in self.choices and isinstance(value, str):
                return value
            raise SetupError(f"rules.{key} = {brief(value)}: must be one of {', '.join(self.choices)}",
                             "setup.switch_value", switch=key)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if value in ("on", "off"):
                return value == "on"
            raise SetupError(f"rules.{key} = {brief(value)}: must be on/off (true/false)", "setup.switch_value",
                             switch=key)
        if self.kind == "count":
            if _is_int(value) and value >= self.minimum:
                return value
            raise SetupError(f"rules.{key} = {brief(value)}: must be a whole number >= {self.minimum}",
                             "setup.switch_value", switch=key)
        if self.kind == "limit":
            if value is None or value == "none" or (_is_int(value) and value >= 1):
                return None if value == "none" else value
            raise SetupError(f"rules.{key} = {brief(value)}: must be null (no limit) or a whole number >= 1",
                             "setup.switch_value", switch=key)
        raise AssertionError(self.kind)


def choice(default: str, *others: str) -> Switch:
    """A switch taking one of a few words; ``default`` first."""
    return Switch(default, "choice", (default, *others))


def is_dice(value: Any, n: int) -> bool:
    """True if ``value`` is a list of exactly ``n`` ints 1-6 (bools are not dice)."""
    return isinstance(value, list) and len(value) == n and all(_is_int(d) and 1 <= d <= 6 for d in value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_dice(value: Any, n: int, who: str) -> list[int]:
    """``value`` as a roll of ``n`` dice; raises Illegal with a reason naming ``who`` otherwise."""
    if not is_dice(value, n):
        raise Illegal(f"{who} rolls {n} dice, each 1-6; got {brief(value)}", "roll.dice", player=who, dice=n)
    return list(value)


# ---------------------------------------------------------------------------------------------
# Seats (RULES.md, top: seats are listed clockwise; left = next seat clockwise, right = previous).


def left_of(players: tuple[str, ...], player: str) -> str:
    """The next seat clockwise from ``player`` (their left neighbour, RULES.md top)."""
    return players[(players.index(player) + 1) % len(players)]


def right_of(players: tuple[str, ...], player: str) -> str:
    """The previous seat clockwise from ``player`` (their right neighbour, RULES.md top)."""
    return players[(players.index(player) - 1) % len(players)]


# ---------------------------------------------------------------------------------------------


class Game:
    """One game in progress: the setup, the accepted actions and the state they lead to.

    Subclasses set the class attributes and implement ``_start``, ``_step`` and ``_expects``; they
    never do I/O, read a clock or draw random numbers. Create games with
    ``appliance.games.new_game(setup)`` rather than directly.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int | None]
    switches: ClassVar[dict[str, Switch]]
    action_keys: ClassVar[tuple[str, ...]]
    # The codes of the refusals this game gives (``Illegal.code``): these, every game's, and its own.
    refusals: ClassVar[tuple[str, ...]] = ("action.form", "action.unknown", "game.over", "undo.nothing", "not_now",
                                           "roll.dice", "player.unknown")

    def __init__(self, setup: dict):
        """``setup``: the full setup from ``check_setup`` (every default filled in)."""
        self._setup = setup
        self._players: tuple[str, ...] = tuple(setup["players"])
        self._rules: dict = setup["rules"]
        self._state: dict = self._start()
        self._actions: list[dict] = []  # every accepted line, undo included: the log
        self._undo: list[tuple[str, dict]] = []  # (state JSON before, action) per action in effect

    # -- the setup line --------------------------------------------------------------------------

    @classmethod
    def check_setup(cls, setup: Any) -> dict:
        """The full setup (RULES.md §4 first line) with every default filled in.

        Raises SetupError naming the bad key or value: unknown keys, a player list that is not
        distinct non-empty names or is the wrong size for the game, an unknown switch or value.
        """
        if not isinstance(setup, dict):
            raise SetupError(f"the setup must be a JSON object, got {brief(setup)}", "setup.form")
        unknown = sorted(set(setup) - {"game", "players", "rules"}, key=str)
        if unknown:
            raise SetupError(f"unknown setup key {brief(unknown[0])}; the keys are game, players, rules", "setup.key")
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SetupError(f"players = {brief(players)}: must be a list of names", "setup.players")
        if not all(p.strip() for p in players):
            raise SetupError(f"players = {brief(players)}: a name is empty", "setup.players")
        if len(set(players)) != len(players):
            dup = next(p for p in players if players.count(p) > 1)
            raise SetupError(f"players: {brief(dup)} is seated twice; names must be distinct", "setup.seated_twice",
                             player=dup)
        top = cls.max_players
        if len(players) < cls.min_players or (top is not None and len(players) > top):
            size = f"{cls.min_players}-{top}" if top else f"{cls.min_players} or more"
            raise SetupError(f"players: {cls.name} is for {size} players, got {len(players)}", "setup.player_count",
                             game=cls.name, got=len(players))
        rules = setup.get("rules", {})
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            raise SetupError(f"rules = {brief(rules)}: must be an object of switch: value", "setup.rules")
        for key in rules:
            if key not in cls.switches:
                raise SetupError(f"rules.{key}: no such switch in {cls.name}; the switches are "
                                 + ", ".join(cls.switches), "setup.switch", switch=key)
        full = {key: sw.check(key, rules[key]) if key in rules else sw.default
                for key, sw in cls.switches.items()}
        return {"game": cls.name, "players": list(players), "rules": full}

    # -- public, read-only -----------------------------------------------------------------------

    @property
    def setup(self) -> dict:
        """The full setup line: game, players, rules with every default filled in (a copy)."""
        return json.loads(json.dumps(self._setup))

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (clockwise)."""
        return self._players

    @property
    def rules(self) -> dict:
        """The house-rule switches in force (a copy)."""
        return dict(self._rules)

    @property
    def actions(self) -> list[dict]:
        """Every accepted action so far, ``undo`` lines included: the log after the setup line.

        ``replay(game.setup, game.actions)`` rebuilds this game exactly.
        """
        return json.loads(json.dumps(self._actions))

    @property
    def in_effect(self) -> list[dict]:
        """The accepted actions still in effect (each ``undo`` removes the one it took back)."""
        return [action for _, action in self._undo]

    @property
    def expects(self) -> dict:
        """What the table must do next; the payload of the latest ``turn`` event.

        Keys: ``player`` (name, or None when anyone may act), ``expects`` (a word: roll, announce,
        decide, pick, thumbs, declare, reroll, nothing), ``step`` (why, per game), ``actions`` (the
        action keys accepted now, ``undo`` aside), ``dice`` (how many dice a roll must have, None
        when no roll is accepted), ``options`` (what may be chosen now), plus per-game keys. When
        the game is over: ``expects`` is "nothing" and ``winner`` lists the winners.
        """
        return self._expects()

    @property
    def over(self) -> bool:
        """True once the game has a winner (Biscuit never ends: everybody wins, RULES.md §2)."""
        return self._state.get("winner") is not None

    @property
    def winner(self) -> list[str] | None:
        """The winners (several on a shared win), or None while the game goes on."""
        winner = self._state.get("winner")
        return list(winner) if winner is not None else None

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, action: Any) -> list[dict]:
        """Play one action (RULES.md §4); returns its events, the last one a ``turn`` event.

        An action the rules do not allow now gives ``[{"error": {"action": action, "reason": ...,
        "code": ..., **facts}}]`` (``Illegal``) and changes nothing. Never raises for JSON-like input. ``{"undo": true}`` takes back the
        last action in effect and answers ``[{"undone": action}, {"turn": ...}]``.
        """
        if not isinstance(action, dict) or len(action) != 1:
            return _error(action, "an action is a JSON object with exactly one key, e.g. {\"roll\": [3, 5]}",
                          "action.form")
        (key, value), = action.items()
        if key == "undo":
            return self._undo_last(action, value)
        if key not in self.action_keys:
            return _error(action, f"{brief(key)} is not a {self.name} action; the actions are "
                                  + ", ".join((*self.action_keys, "undo")), "action.unknown")
        if self.over:
            return _error(action, f"the game is over: {', '.join(self._state['winner'])} won", "game.over",
                          winner=list(self._state["winner"]))
        before = json.dumps(self._state)
        try:
            events = self._step(key, value)
        except Illegal as exc:
            self._state = json.loads(before)
            return _error(action, str(exc), exc.code, **exc.facts)
        logged = json.loads(json.dumps(action))
        self._undo.append((before, logged))
        self._actions.append(logged)
        events.append({"turn": self._expects()})
        return events

    def _undo_last(self, action: dict, value: Any) -> list[dict]:
        if value is not True:
            return _error(action, "undo is {\"undo\": true}", "action.form")
        if not self._undo:
            return _error(action, "nothing to undo", "undo.nothing")
        before, taken_back = self._undo.pop()
        self._state = json.loads(before)
        self._actions.append({"undo": True})
        return [{"undone": json.loads(json.dumps(taken_back))}, {"turn": self._expects()}]

    # -- serialisation ---------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The whole game as JSON-able data: ``{"setup", "actions", "state"}``; see ``restore``."""
        return {"setup": self.setup, "actions": self.actions, "state": json.loads(json.dumps(self._state))}

    def state_json(self) -> str:
        """The state alone as canonical JSON text (for comparing states in tests and restore)."""
        return json.dumps(self._state, sort_keys=True)

    # -- for subclasses --------------------------------------------------------------------------

    def _start(self) -> dict:
        """The state before the first action."""
        raise NotImplementedError

    def _step(self, key: str, value: Any) -> list[dict]:
        """Apply action ``{key: value}`` to ``self._state`` in place; returns its events (the
        ``turn`` event is added by ``apply``). Raises Illegal, after which the state is rolled back."""
        raise NotImplementedError

    def _expects(self) -> dict:
        """The ``expects`` payload for the current state."""
        raise NotImplementedError

    def _wrong_time(self, key: str) -> Illegal:
        """The Illegal for an action of a known kind that is not among those expected now."""
        exp = self._expects()
        who = f"{exp['player']} " if exp.get("player") else ""
        want = " or ".join(exp["actions"]) or "nothing"
        return Illegal(f"not now: {who}{_VERB.get(exp['expects'], 'must ' + exp['expects'])} "
                       f"(accepted now: {want}), not {key}", "not_now", player=exp.get("player"),
                       expects=exp["expects"])

    @staticmethod
    def _turn(player: str | None, expects: str, step: str, actions: list[str], dice: int | None = None,
              options: list | None = None, **extra: Any) -> dict:
        """An ``expects`` payload, its keys always in the same order (see ``Game.expects``)."""
        return {"player": player, "expects": expects, "step": step, "actions": actions, "dice": dice,
                "options": options if options is not None else [], **extra}

    def _finished(self, winner: list[str]) -> dict:
        """The ``expects`` payload of a game that is over."""
        return self._turn(None, "nothing", "over", [], winner=list(winner))


_VERB = {
    "roll": "must roll",
    "announce": "must announce",
    "decide": "must decide",
    "pick": "must pick",
    "thumbs": "the thumbs race must name its last player",
    "declare": "must declare a category",
    "reroll": "may roll again or stop",
    "nothing": "nothing more: the game is over",
}


def _error(action: Any, reason: str, code: str, **facts: Any) -> list[dict]:
    return [{"error": {"action": action, "reason": reason, "code": code, **facts}}]
