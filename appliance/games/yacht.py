"""Declared Yacht: find the order, then 12 rounds of roll, declare, up to two rerolls, score.

Source: seeds/002_eb2fdbc33035b68e.txt, stated in RULES.md §3; the actions as RULES.md §4 puts
them. A ``roll`` after the declaration gives all five dice as they lie after the reroll (the camera
sees all five; which ones were kept does not matter to the rules). ``stop`` scores at once.

Two gap switches settle ties (RULES.md §3, "(gap)" resolutions that stay switchable):

- ``order_tie``: tied highest order-finding throws roll again among themselves (``reroll``, the
  ``order_tie`` event), or the tied player seated first starts (``seat``, the ``order_seat`` event).
- ``final_tie``: a tied highest total after 12 rounds shares the win (``share``), or the tied
  players roll off (``roll_off``, the ``final_tie`` event): each throws the five dice once, in seat
  order, as ``roll`` actions (``expects`` step "roll_off"; the throws score nothing); the highest
  total wins, and players still tied roll off again among themselves.
"""

from __future__ import annotations

from typing import Any

from appliance.games.engine import Game, Illegal, Switch, brief, check_dice, choice
from appliance.games.yacht_scoring import CATEGORIES, score

ROUNDS = 12  # seed: "в конце игры у каждого игрока был зафиксирован результат 12 ходов"
ROLLS = 3  # the first roll and "ещё два хода"


class Yacht(Game):
    """A game of declared Yacht (2-8 players, 1 for practice; RULES.md §3).

    Read-only views: ``sheet`` (player -> category -> points or None), ``totals``, ``order`` (the
    playing order once found, else None), ``round`` (1-12), ``dice`` (the dice on the table this
    turn) and ``declared`` (this turn's category or None).

    ``expects`` adds ``round``, ``showing`` (the dice on the table) and ``declared``; while finding
    the order (step "order") or rolling off a final tie (step "roll_off") also ``rolling``, the
    players who throw in this round, in throwing order.
    """

    name = "yacht"
    min_players, max_players = 1, 8
    switches = {
        "yacht_counts_as_full_house": Switch(False, "bool"),  # seed: full house is "exactly two faces"
        "scoring": choice("seed", "sackson"),
        "order_tie": choice("reroll", "seat"),  # (gap) ties roll again among themselves
        "final_tie": choice("share", "roll_off"),  # (gap) a tie shares the win
    }
    action_keys = ("roll", "declare", "stop")
    refusals = Game.refusals + ("yacht.declare_first", "yacht.not_a_category", "yacht.used")

    # -- views -----------------------------------------------------------------------------------

    @property
    def sheet(self) -> dict[str, dict[str, int | None]]:
        """Player -> category (in CATEGORIES order) -> points, None while not yet written."""
        return {p: dict(cats) for p, cats in self._state["sheet"].items()}

    @property
    def totals(self) -> dict[str, int]:
        """Player -> the sum of their written scores."""
        return {p: sum(v for v in cats.values() if v is not None) for p, cats in self._state["sheet"].items()}

    @property
    def order(self) -> list[str] | None:
        """The playing order (the starter, then to the left), or None while it is being rolled for."""
        order = self._state["order"]
        return None if order is None else list(order)

    @property
    def round(self) -> int:
        """The round being played, 1-12 (12 in a final roll-off and once the game is over; 0 while
        finding the order)."""
        return self._state["round"]

    @property
    def dice(self) -> list[int] | None:
        """The five dice of this turn as last rolled, or None before the turn's first roll."""
        dice = self._state["dice"]
        return None if dice is None else list(dice)

    @property
    def declared(self) -> str | None:
        """The category declared this turn, or None."""
        return self._state["declared"]

    # -- the rules -------------------------------------------------------------------------------

    def _start(self) -> dict:
        state = {
            "phase": "order",  # order | roll | declare | reroll | roll_off | over
            "player": self._players[0],
            "rolling": list(self._players),  # who throws in this order-finding or roll-off round
            "throws": {},  # player -> total thrown in this round so far
            "order": None,
            "round": 0,
            "dice": None,
            "declared": None,
            "rolls": 0,
            "sheet": {p: {c: None for c in CATEGORIES} for p in self._players},
            "winner": None,
        }
        if len(self._players) == 1:  # practice alone: nobody to roll for the order against
            state.update(phase="roll", order=list(self._players), round=1, rolling=[])
        return state

    def _step(self, key: str, value: Any) -> list[dict]:
        s = self._state
        exp = self._expects()
        if key not in exp["actions"]:
            if key == "roll" and s["phase"] == "declare":
                raise Illegal(f"{s['player']} declares a category before rolling again", "yacht.declare_first",
                              player=s["player"])
            raise self._wrong_time(key)
        if key == "declare":
            return self._declare(value)
        if key == "stop":
            if value is not True:
                raise Illegal("stop is {\"stop\": true}", "action.form")
            return self._score()
        dice = check_dice(value, 5, s["player"])
        if s["phase"] == "order":
            return self._order_roll(dice)
        if s["phase"] == "roll_off":
            return self._roll_off(dice)
        return self._turn_roll(dice)

    def _throw(self, dice: list[int], step: str) -> tuple[list[dict], int, list[str] | None]:
        """One throw of an order-finding or roll-off round: ``(events, top, highest)``, where
        ``highest`` lists the players with the ``top`` total in seat order once everyone in
        ``rolling`` has thrown, else None (the next player in ``rolling`` throws)."""
        s = self._state
        player = s["player"]
        s["throws"][player] = sum(dice)
        events: list[dict] = [{"rolled": {"player": player, "dice": dice, "total": sum(dice), "step": step}}]
        waiting = [p for p in s["rolling"] if p not in s["throws"]]
        if waiting:
            s["player"] = waiting[0]
            return events, 0, None
        top = max(s["throws"].values())
        return events, top, [p for p in s["rolling"] if s["throws"][p] == top]

    # Order (seed: "первым игроком будет набравший наибольшее количество очков"; play passes to the
    # left). (gap) A tie for the highest: order_tie = reroll, the tied roll again among themselves;
    # seat, the tied player seated first starts.
    def _order_roll(self, dice: list[int]) -> list[dict]:
        s = self._state
        events, top, tied = self._throw(dice, "order")
        if tied is None:
            return events
        if len(tied) > 1 and self._rules["order_tie"] == "reroll":
            s.update(rolling=tied, throws={}, player=tied[0])
            return events + [{"order_tie": {"players": tied, "total": top}}]
        starter = tied[0]  # rolling, and so tied, is in seat order
        if len(tied) > 1:
            events.append({"order_seat": {"players": tied, "total": top, "starts": starter}})
        i = self._players.index(starter)
        order = list(self._players[i:] + self._players[:i])  # the starter, then clockwise (left)
        s.update(phase="roll", order=order, round=1, rolling=[], throws={}, player=order[0])
        return events + [{"order": order}]

    # (gap) final_tie = roll_off: the players tied after 12 rounds each throw the five dice once
    # more, in seat order; the highest total wins; those still tied roll off again. Scores nothing.
    def _roll_off(self, dice: list[int]) -> list[dict]:
        s = self._state
        events, top, tied = self._throw(dice, "roll_off")
        if tied is None:
            return events
        if len(tied) > 1:
            s.update(rolling=tied, throws={}, player=tied[0])
            return events + [{"final_tie": {"players": tied, "total": top}}]
        s.update(phase="over", player=None, rolling=[], throws={}, winner=tied)
        return events + [{"winner": tied}]

    def _turn_roll(self, dice: list[int]) -> list[dict]:
        s = self._state
        s["rolls"] += 1
        s["dice"] = dice
        events: list[dict] = [{"rolled": {"player": s["player"], "dice": dice, "total": sum(dice),
                                          "step": "turn", "roll": s["rolls"]}}]
        if s["phase"] == "roll":  # the first roll; the declaration comes next (seed: "а затем объявляет")
            s["phase"] = "declare"
            return events
        if s["rolls"] == ROLLS:
            return events + self._score()
        return events

    def _declare(self, value: Any) -> list[dict]:
        s = self._state
        player = s["player"]
        if value not in CATEGORIES:
            raise Illegal(f"{brief(value)} is not a category; the categories are {' '.join(CATEGORIES)}",
                          "yacht.not_a_category")
        if s["sheet"][player][value] is not None:
            raise Illegal(f"{player} has used {value} already (each category once, seed: "
                          "\"Игрок может выбрать комбинацию только один раз\")", "yacht.used", player=player,
                          category=value)
        s.update(declared=value, phase="reroll")
        return [{"declared": {"player": player, "category": value}}]

    def _score(self) -> list[dict]:
        """RULES.md §3 "Turn": the final dice score the declared category, 0 when they miss it
        (seed: "не получает ничего"); a Yacht declared as four of a kind scores four of a kind."""
        s = self._state
        player, category, dice = s["player"], s["declared"], s["dice"]
        points = score(category, dice, scoring=self._rules["scoring"],
                       yacht_counts_as_full_house=self._rules["yacht_counts_as_full_house"])
        s["sheet"][player][category] = points
        events: list[dict] = [{"score": {"player": player, "category": category, "points": points,
                                         "dice": dice, "total": self.totals[player]}}]
        order = s["order"]
        i = order.index(player) + 1
        if i == len(order):
            if s["round"] == ROUNDS:
                totals = self.totals
                best = max(totals.values())
                winner = [p for p in order if totals[p] == best]
                s.update(dice=None, declared=None, rolls=0)
                if len(winner) > 1 and self._rules["final_tie"] == "roll_off":
                    rolling = [p for p in self._players if p in winner]  # seat order
                    s.update(phase="roll_off", player=rolling[0], rolling=rolling, throws={})
                    return events + [{"final_tie": {"players": rolling, "total": best}}]
                s.update(phase="over", player=None, winner=winner)  # final_tie = share: all of them win
                return events + [{"winner": winner}]
            s["round"] += 1
            i = 0
        s.update(phase="roll", player=order[i], dice=None, declared=None, rolls=0)
        return events

    # -- what the table does next ----------------------------------------------------------------

    def _expects(self) -> dict:
        s = self._state
        if s["phase"] == "over":
            return self._finished(s["winner"])
        extra = {"round": s["round"], "showing": s["dice"], "declared": s["declared"]}
        if s["phase"] == "order":
            return self._turn(s["player"], "roll", "order", ["roll"], dice=5, rolling=list(s["rolling"]), **extra)
        if s["phase"] == "roll_off":
            return self._turn(s["player"], "roll", "roll_off", ["roll"], dice=5, rolling=list(s["rolling"]), **extra)
        if s["phase"] == "roll":
            return self._turn(s["player"], "roll", "turn", ["roll"], dice=5, **extra)
        if s["phase"] == "declare":
            unused = [c for c in CATEGORIES if s["sheet"][s["player"]][c] is None]
            return self._turn(s["player"], "declare", "turn", ["declare"], options=unused, **extra)
        return self._turn(s["player"], "reroll", "turn", ["roll", "stop"], dice=5,
                          rolls_left=ROLLS - s["rolls"], **extra)
