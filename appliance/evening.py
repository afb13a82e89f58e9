"""The evening's summary: each player's drinks and penalty points game by game, the Yacht scores and
the evening's rarest throw, from what the store keeps (or, without a store, the kiosk's ended games).

Pure: game logs in, a :class:`Summary` out. The kiosk's "End the evening" screen and ``dicetable
summary`` draw it with ``appliance.kiosk.chart``.

The rarest throw is the least likely one of the evening: the chance of throwing exactly those faces
with that many dice (the multinomial count of the faces' orders over 6^n: a 5-die Yacht of sixes is
1 in 7776, a pair 1 in 36, two different faces 1 in 18). A tie goes to the higher total, then the
earlier throw. Only throws still in effect count (an undone misread does not), and a Mäxle throw is
the holder's who shook it, not the revealer's who lifted the cup. A Yacht reroll (RULES.md §3: the
kept dice stay) is a throw of the dice whose faces changed, the fewest that were thrown again: four
sixes kept and the fifth rerolled into a six is a 1 in 6, not a Yacht of 1 in 7776.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from appliance.session import in_effect


@dataclass(frozen=True)
class Played:
    """One ended game as the summary reads it: the setup line (RULES.md §4), its (action, events)
    pairs in effect, oldest first, its tally ``{player: {"drinks": n, "penalties": n}}`` and the
    winner the store saved when it ended (None: none, or not known)."""

    setup: dict
    actions: list[tuple[dict, list[dict]]]
    tally: dict[str, dict[str, int]]
    winner: list[str] | None = None

    @property
    def cut_short(self) -> bool:
        """Whether its log lost its end: a winner was saved, but no action in effect names one (a
        damaged store's salvage keeps each log up to its first damaged action; the tally is kept
        whole beside it)."""
        return bool(self.winner) and not any("winner" in e for _a, events in self.actions for e in events)


@dataclass(frozen=True)
class Throw:
    """One throw of the evening: who threw it, the dice (sorted), the game's number (1-based) and
    kind ("maexle", "biscuit", "yacht")."""

    player: str
    dice: tuple[int, ...]
    game: int
    kind: str

    @property
    def odds(self) -> int:
        """The chance of these faces as "1 in N": N = 6^n / (orders of the faces), rounded."""
        orders = math.factorial(len(self.dice))
        for count in Counter(self.dice).values():
            orders //= math.factorial(count)
        return round(6 ** len(self.dice) / orders)


@dataclass(frozen=True)
class Summary:
    """The evening in figures.

    games: each ended game's kind, oldest first. players: everyone who played, in the order first
    seated. drinks, penalties: per player the running total, 0 before the first game and then after
    each game (``len(games) + 1`` values). yacht: per Yacht game its number (1-based) and each
    player's total points (not for a game whose log was cut short, ``Played.cut_short``). rarest:
    the rarest throw (see the module docstring), or None. water: per player how many of the
    evening's drinks were water past the drink cap (counted in ``drinks`` too; players with none
    left out).
    """

    games: tuple[str, ...]
    players: tuple[str, ...]
    drinks: dict[str, tuple[int, ...]]
    penalties: dict[str, tuple[int, ...]]
    yacht: tuple[tuple[int, dict[str, int]], ...]
    rarest: Throw | None
    water: dict[str, int] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """No game ended this evening: nothing to chart."""
        return not self.games


def summarize(played: list[Played]) -> Summary:
    """The summary of the evening's ended games ``played``, oldest first (see :class:`Summary`)."""
    players: list[str] = []
    for game in played:
        players += [p for p in dict.fromkeys([*game.setup.get("players", []), *game.tally]) if p not in players]
    drinks = {p: [0] for p in players}
    penalties = {p: [0] for p in players}
    yacht, throws, water = [], [], Counter()
    for number, game in enumerate(played, 1):
        for p in players:
            counts = game.tally.get(p, {})
            water[p] += int(counts.get("water", 0))
            drinks[p].append(drinks[p][-1] + int(counts.get("drinks", 0)))
            penalties[p].append(penalties[p][-1] + int(counts.get("penalties", 0)))
        kind = str(game.setup.get("game", ""))
        if kind == "yacht" and not game.cut_short:  # a score sheet with rounds lost would read as played
            yacht.append((number, yacht_totals(game)))
        throws += thrown(game, number)
    rarest = max(throws, key=lambda t: (t.odds, sum(t.dice), -t.game), default=None) if throws else None
    return Summary(tuple(str(g.setup.get("game", "")) for g in played), tuple(players),
                   {p: tuple(v) for p, v in drinks.items()}, {p: tuple(v) for p, v in penalties.items()},
                   tuple(yacht), rarest, {p: n for p, n in water.items() if n})


def yacht_totals(game: Played) -> dict[str, int]:
    """A Yacht game's total points per player (seat order): its ``score`` events in effect added up."""
    totals = {p: 0 for p in game.setup.get("players", [])}
    for _action, events in game.actions:
        for event in events:
            if "score" in event and event["score"].get("player") in totals:
                totals[event["score"]["player"]] += int(event["score"].get("points", 0))
    return totals


def thrown(game: Played, number: int) -> list[Throw]:
    """The throws of one game in effect, from its ``rolled`` and ``revealed`` events. A Mäxle reveal
    shows the dice of the last announcement's maker, who shook them (not ``by``, a blind passer
    answering for them: RULES.md §1 ``blind_pass``); a self-reveal the lifter's own. A Yacht reroll
    counts the dice whose faces changed from the turn's roll before (the log keeps all five as they
    lie, not which were thrown)."""
    kind = str(game.setup.get("game", ""))
    out, shaker, before = [], None, Counter()
    for _action, events in game.actions:
        for event in events:
            announced = event.get("announcement")
            if isinstance(announced, dict):
                shaker = announced.get("player")
            roll = event.get("rolled") or event.get("revealed")
            if not isinstance(roll, dict) or not isinstance(roll.get("dice"), list):
                continue
            who = shaker if "revealed" in event and roll.get("lift") != "self_reveal" else roll.get("player")
            if who is None:  # a reveal of an announcement nobody made
                who = roll.get("by") or roll.get("player")
            dice = Counter(int(d) for d in roll["dice"])
            if roll.get("step") == "turn":  # Yacht: a reroll throws only the dice not kept
                dice, before = (dice - before if roll.get("roll", 1) > 1 else dice), dice
            if dice:
                out.append(Throw(str(who), tuple(sorted(dice.elements())), number, kind))
    return out


def from_store(store) -> Summary:
    """The summary of the store's current evening (``appliance.store.Store``): its ended games."""
    return summarize(played_in(store))


def from_sessions(sessions, store=None) -> Summary:
    """The summary of ended ``appliance.session.Session`` objects kept in memory (a kiosk without a
    store: the demo, the tests), oldest first, after the ended games of ``store`` (a kiosk whose
    store became read-only: the evening before it did)."""
    earlier = played_in(store) if store is not None else []
    return summarize(earlier + [Played(s.game.setup, s.history, s.tally()) for s in sessions])


def played_in(store) -> list[Played]:
    """The ended games of the store's current evening, oldest first."""
    played = []
    for ended in store.ended_games():
        saved = store.game(ended.id)
        actions = in_effect(saved.actions, saved.events) if saved is not None else []
        played.append(Played(ended.setup, actions, ended.tally, ended.winner))
    return played
