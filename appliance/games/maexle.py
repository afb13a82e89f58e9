"""Mäxle: announce, believe or reveal, with a cup the camera cannot see under.

Source: seeds/001_384ec687ee7ec7e5.txt, stated in RULES.md §1; the actions as RULES.md §4 "How the
actions fit each game" puts them:

- The holder announces a value (``announce``) and passes the cup to the receiver (``direction``).
  Believing is implicit: the receiver's own ``announce`` (they rolled and peeked under the cup).
- The receiver may instead ``reveal``; then the cup is lifted and the next action is the ``roll``
  the camera reads under it. With ``self_reveal`` the receiver rolls, shows their own dice and takes
  1; dice that beat the standing announcement (as an announcement would have to) cost nobody a
  point, and the receiver opens a new round (``"beats": true`` in the ``revealed`` event), unless
  ``self_reveal_beats = costs``: then every self-reveal takes 1. With
  ``blind_pass`` the receiver passes the cup on unrolled and answers for the old announcement
  (``"blind": true`` in the ``revealed`` event that follows; a false one is charged as
  ``maexle.reveal_blind``, not as a lie).
- After a Mäxle (RULES.md §1 "Mäxle announced") the receiver only ``accept``s without looking or
  ``reveal``s (``maexle = accept_or_reveal``; under ``announce = higher_or_equal`` too), or the cup
  is lifted at once (``immediate_reveal``).
- Penalties are points or drinks; at ``limit`` a player is out; the last one left wins.
"""

from __future__ import annotations

from typing import Any

from appliance.games import maexle_values as mv
from appliance.games.engine import Game, Illegal, Switch, brief, check_dice, choice

_WORDS = " ".join(str(v) for v in mv.ORDER)


def said(value: int) -> str:
    """A value as the table says it: "Mäxle" for 21, else its two digits ("54")."""
    return "Mäxle" if value == mv.MAEXLE else str(value)


class Maexle(Game):
    """A game of Mäxle (2-20 players; RULES.md §1).

    Read-only views: ``penalties`` (player -> points, or drinks with ``penalty = drinks``), ``out``,
    ``active``, ``announcement`` ({"value", "by"} or None) and ``cup_holder``.
    """

    name = "maexle"
    min_players, max_players = 2, 20
    switches = {
        # RULES.md §1 "Switches with defaults"; (gap) marks our resolution where the seed is silent.
        "truth": choice("at_least", "exact"),  # (gap) "stimmt" read as at-least
        "announce": choice("strictly_higher", "higher_or_equal"),  # seed: "muss höher sein"
        "maexle": choice("accept_or_reveal", "immediate_reveal"),
        "maexle_accept_cost": Switch(1, "count"),
        "maexle_reveal_cost": Switch(2, "count"),
        "self_reveal": Switch(True, "bool"),
        # (gap) the seed shows a *lower* roll: dice that beat the announcement cost nobody (free),
        # or a self-reveal costs 1 whatever it shows (costs)
        "self_reveal_beats": choice("free", "costs"),
        "blind_pass": Switch(False, "bool"),
        "direction": choice("right", "left"),  # seed: "dem Spieler rechts von ihm"
        "penalty": choice("points", "drinks"),
        "limit": Switch(6, "limit"),
    }
    action_keys = ("announce", "reveal", "accept", "self_reveal", "blind_pass", "roll")
    refusals = Game.refusals + ("maexle.accept_maexle_only", "maexle.switched_off", "maexle.after_maexle",
                                "maexle.under_cup", "maexle.not_a_value", "maexle.too_low")

    # -- views -----------------------------------------------------------------------------------

    @property
    def penalties(self) -> dict[str, int]:
        """Player -> penalty points taken (drinks when ``rules["penalty"] == "drinks"``), seat order."""
        return dict(self._state["counts"])

    @property
    def out(self) -> list[str]:
        """Players who reached ``limit``, in the order they went out."""
        return list(self._state["out"])

    @property
    def active(self) -> list[str]:
        """Players still in, seat order."""
        return [p for p in self._players if p not in self._state["out"]]

    @property
    def announcement(self) -> dict | None:
        """The value standing in this round, ``{"value": 54, "by": "Ann"}`` (``by`` answers for it:
        the announcer, or the last blind passer), or None at the start of a round."""
        s = self._state
        return None if s["announced"] is None else {"value": s["announced"], "by": s["by"]}

    @property
    def cup_holder(self) -> str | None:
        """Who holds the cup now (None once the game is over)."""
        return None if self.over else self._state["player"]

    # -- the rules -------------------------------------------------------------------------------

    def _start(self) -> dict:
        return {
            "phase": "open",  # open | decide | lift | over
            "player": self._players[0],  # who holds the cup and acts
            "announced": None,  # the value standing in this round
            "by": None,  # who answers for it
            "blind": False,  # whether ``by`` passed the cup on blind, answering for another's announcement
            "lift": None,  # why the cup is up: reveal | self_reveal | maexle
            "counts": {p: 0 for p in self._players},
            "out": [],
            "winner": None,
        }

    def _receiver(self, player: str) -> str:
        """The next player still in, in the cup's direction (RULES.md §1 ``direction``)."""
        step = -1 if self._rules["direction"] == "right" else 1  # right = previous seat clockwise
        i, n = self._players.index(player), len(self._players)
        for k in range(1, n + 1):
            q = self._players[(i + step * k) % n]
            if q not in self._state["out"]:
                return q
        raise AssertionError("nobody left to pass the cup to")

    def _may_follow(self, value: int, standing: int) -> bool:
        """RULES.md §1: an announcement must beat the standing one (``announce`` switch)."""
        if self._rules["announce"] == "strictly_higher":
            return mv.beats(value, standing)
        return mv.at_least(value, standing)

    def _step(self, key: str, value: Any) -> list[dict]:
        if value is not True and key != "announce" and key != "roll":
            raise Illegal(f"{key} is {{\"{key}\": true}}", "action.form")
        exp = self._expects()
        if key not in exp["actions"]:
            raise self._not_now(key, exp)
        return getattr(self, f"_{key}")(value)

    def _not_now(self, key: str, exp: dict) -> Illegal:
        s = self._state
        if key == "accept" and s["announced"] is not None and s["announced"] != mv.MAEXLE:
            return Illegal(f"accept answers an announced Mäxle; {s['announced']} stands", "maexle.accept_maexle_only",
                           standing=s["announced"])
        if key == "accept" and s["phase"] == "decide" and self._rules["maexle"] == "immediate_reveal":
            return Illegal("accept is off: maexle = immediate_reveal", "maexle.switched_off", switch="accept")
        if key == "self_reveal" and s["phase"] == "decide" and not self._rules["self_reveal"]:
            return Illegal("self_reveal is off in these rules", "maexle.switched_off", switch="self_reveal")
        if key == "blind_pass" and s["phase"] == "decide" and not self._rules["blind_pass"]:
            return Illegal("blind_pass is off in these rules", "maexle.switched_off", switch="blind_pass")
        if key in ("announce", "self_reveal", "blind_pass") and s["phase"] == "decide" and s["announced"] == mv.MAEXLE:
            return Illegal(f"after a Mäxle: accept or reveal, not {key} (RULES.md §1 \"Mäxle announced\")",
                           "maexle.after_maexle")
        if key == "roll" and s["phase"] != "lift":
            return Illegal("the dice stay under the cup until it is lifted (reveal or self_reveal)", "maexle.under_cup")
        return self._wrong_time(key)

    def _announce(self, value: Any) -> list[dict]:
        s = self._state
        if not mv.is_value(value):
            raise Illegal(f"{brief(value)} is not a Mäxle value; the values are {_WORDS}", "maexle.not_a_value")
        standing = s["announced"]
        if standing is not None and not self._may_follow(value, standing):
            word = "beat" if self._rules["announce"] == "strictly_higher" else "match or beat"
            raise Illegal(f"{value} does not {word} {standing}", "maexle.too_low", value=value, standing=standing,
                          strictly=self._rules["announce"] == "strictly_higher")
        announcer = s["player"]
        to = self._receiver(announcer)
        events = [{"announcement": {"player": announcer, "value": value, "to": to}}]
        s.update(announced=value, by=announcer, player=to, blind=False)
        if value == mv.MAEXLE and self._rules["maexle"] == "immediate_reveal":
            # RULES.md §1 maexle = immediate_reveal: the cup is lifted at once (by the receiver).
            s.update(phase="lift", lift="maexle")
        else:
            s["phase"] = "decide"
        return events

    def _reveal(self, _: Any) -> list[dict]:
        self._state.update(phase="lift", lift="reveal")
        return []

    def _self_reveal(self, _: Any) -> list[dict]:
        self._state.update(phase="lift", lift="self_reveal")
        return []

    def _blind_pass(self, _: Any) -> list[dict]:
        # RULES.md §1 blind_pass: the passer answers for the old announcement.
        s = self._state
        passer = s["player"]
        to = self._receiver(passer)
        s.update(by=passer, player=to, blind=True)
        return [{"blind_pass": {"player": passer, "value": s["announced"], "to": to}}]

    def _accept(self, _: Any) -> list[dict]:
        # seed: "der Nächste kann weiterwürfeln (neu anfangen) und bekommt einen Strafpunkt".
        s = self._state
        accepter, announcer = s["player"], s["by"]
        cost = self._rules["maexle_accept_cost"]
        events = self._charge(accepter, cost, f"{accepter} accepts {announcer}'s Mäxle without looking",
                              "maexle.accept")
        return events + self._next_round(accepter, announcer)

    def _roll(self, value: Any) -> list[dict]:
        s = self._state
        lifter, announced, by, lift = s["player"], s["announced"], s["by"], s["lift"]
        dice = check_dice(value, 2, lifter)
        shown = mv.value_of(dice)
        if lift == "maexle":
            holds = shown == mv.MAEXLE
        elif self._rules["truth"] == "exact":
            holds = shown == announced
        else:
            holds = mv.at_least(shown, announced)
        events = [{"revealed": {"player": lifter, "dice": dice, "value": shown, "announced": announced,
                                "by": by, "holds": holds, "lift": lift}}]
        if s["blind"]:  # ``by`` passed it on unrolled: they answer for it, they did not announce it
            events[0]["revealed"]["blind"] = True
        if lift == "maexle":
            return events + self._immediate_maexle(by, holds)
        if lift == "self_reveal":
            beats = self._may_follow(shown, announced)
            if beats and self._rules["self_reveal_beats"] == "free":
                # Decision (README "Rules decided beyond RULES.md"): the seed's self-reveal shows a
                # lower roll; dice that beat the announcement cost nobody a point, the holder opens.
                events[0]["revealed"]["beats"] = True
                return events + self._open(lifter)
            why = (f"{lifter} shows their own {said(shown)} instead of announcing it" if beats else
                   f"{lifter} shows their own {said(shown)} instead of beating {said(announced)}")
            return events + self._charge(lifter, 1, why, "maexle.self_reveal") + self._next_round(lifter, by)
        # A reveal (seed: "Deckt er auf und der angegebene Wert stimmt, bekommt er einen Strafpunkt").
        maexle_stake = announced == mv.MAEXLE and self._rules["maexle"] == "accept_or_reveal"
        cost = self._rules["maexle_reveal_cost"] if maexle_stake else 1
        stake = f" (a Mäxle: {cost} at stake)" if maexle_stake else ""
        if holds:
            loser, other = lifter, by
            why = f"{by}'s {said(announced)} holds (the dice show {said(shown)}): {lifter} doubted it{stake}"
            code = "maexle.reveal_held"
        else:
            loser, other = by, lifter
            if s["blind"]:  # the passer answers for an announcement they did not make (RULES.md §1)
                why = f"{by} passed {said(announced)} on blind but the dice show {said(shown)}{stake}"
                code = "maexle.reveal_blind"
            else:
                why = f"{by} announced {said(announced)} but the dice show {said(shown)}{stake}"
                code = "maexle.reveal_lie"
        return events + self._charge(loser, cost, why, code) + self._next_round(loser, other)

    def _immediate_maexle(self, announcer: str, holds: bool) -> list[dict]:
        # RULES.md §1 maexle = immediate_reveal: a real Mäxle costs every other player 1, a false
        # one costs the announcer 1. (gap) After a real one the receiver opens (the next player
        # still in after the announcer): everyone but the announcer took the penalty.
        events: list[dict] = []
        if holds:
            for p in [p for p in self._players if p not in self._state["out"] and p != announcer]:
                events += self._charge(p, 1, f"{announcer}'s Mäxle is real: everyone else takes 1",
                                       "maexle.immediate_real", settle=False)
            return events + self._settle() + self._open_after(announcer)
        events += self._charge(announcer, 1, f"{announcer} announced Mäxle but the dice show no Mäxle",
                               "maexle.immediate_false")
        return events + self._next_round(announcer, self._receiver(announcer))

    def _charge(self, player: str, n: int, why: str, code: str, settle: bool = True) -> list[dict]:
        """RULES.md §1 "Penalties": ``n`` points (or drinks) to ``player``; out at ``limit``."""
        s = self._state
        s["counts"][player] += n
        if self._rules["penalty"] == "drinks":
            events = [{"drink": {"player": player, "count": n, "why": why, "code": code}}]
        else:
            events = [{"penalty": {"player": player, "points": n, "why": why, "code": code}}]
        limit = self._rules["limit"]
        if limit is not None and s["counts"][player] >= limit and player not in s["out"]:
            s["out"].append(player)
            events.append({"out": player})
        return events + (self._settle() if settle else [])

    def _settle(self) -> list[dict]:
        """The last player left wins (RULES.md §1 "Penalties")."""
        active = self.active
        if len(active) == 1:
            self._state.update(phase="over", winner=active, player=None, announced=None, by=None, lift=None)
            return [{"winner": active}]
        return []

    def _next_round(self, penalised: str, other: str) -> list[dict]:
        """RULES.md §1 "Next round": the penalised player opens it; if out, the other one involved."""
        if self.over:
            return []
        return self._open(penalised if penalised not in self._state["out"] else other)

    def _open_after(self, player: str) -> list[dict]:
        if self.over:
            return []
        return self._open(self._receiver(player))

    def _open(self, opener: str) -> list[dict]:
        self._state.update(phase="open", player=opener, announced=None, by=None, blind=False, lift=None)
        return []

    # -- what the table does next ----------------------------------------------------------------

    def _expects(self) -> dict:
        s = self._state
        if s["phase"] == "over":
            return self._finished(s["winner"])
        standing = None if s["announced"] is None else {"value": s["announced"], "by": s["by"]}
        if s["phase"] == "open":
            return self._turn(s["player"], "announce", "open", ["announce"], options=list(mv.ORDER),
                              announced=None)
        if s["phase"] == "lift":
            return self._turn(s["player"], "roll", s["lift"], ["roll"], dice=2, announced=standing)
        if s["announced"] == mv.MAEXLE:
            # RULES.md §1 "Mäxle announced": the receiver either accepts unseen or reveals (seed: "der
            # Nächste kann weiterwürfeln (neu anfangen) und bekommt einen Strafpunkt oder er deckt
            # auf"): no announcing over it (not even an equal Mäxle under higher_or_equal), no
            # self-reveal, no blind pass. Only accept_or_reveal gets here: immediate_reveal lifts the cup.
            return self._turn(s["player"], "decide", "answer", ["reveal", "accept"], options=[], announced=standing)
        # The receiver decides (RULES.md §1 "The receiver either").
        higher = [v for v in mv.ORDER if self._may_follow(v, s["announced"])]
        actions = ["announce", "reveal"]  # every value but Mäxle has something at least as high
        if self._rules["self_reveal"]:
            actions.append("self_reveal")
        if self._rules["blind_pass"]:
            actions.append("blind_pass")
        return self._turn(s["player"], "decide", "answer", actions, options=higher, announced=standing)
