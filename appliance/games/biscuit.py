"""Biscuit (Biskvīts): find the Biscuit by rolling 7, then the Biscuit's rolls decide who drinks.

Source: seeds/000_5087ce7697fc0d6a.txt, stated in RULES.md §2 with its gap resolutions. Every roll is
an open throw of the player the engine expects (RULES.md §4); ``pick`` answers a doubles roll or a
1-2, ``thumbs_last`` names the loser of the thumbs race, ``rule_broken`` is the manual control for
the 6-6 rule.

``combined`` (gap, RULES.md §2 "Rolls that match two rows"): ``both`` gives a roll that matches the
"any 3" row and another row (3-3, 3-4, 3-6) both effects, in the order RULES.md lists;
``three_only`` reads the seed's 3-row ("Ja tiek mests 3 ... šis spēlētājs vairs nav Biskvīts. Ir
jāizraugās jauns Biskvīts") as overriding: any roll with a 3 triggers the 3 row alone (3-3: drink 2),
and the hunt for 7 follows.

``roller = rotate`` (gap in detail): each player rolls in turn, starting with the Biscuit and going
left; the roller takes the Biscuit's part in every row of that roll (drinks, neighbours, picks, the
duel, the rule). The title itself changes only by a 3 (the Biscuit stops being the Biscuit) and by
the thumbs race, and after a 3 the hunt for 7 starts left of the old Biscuit.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from appliance.games.engine import Game, Illegal, Switch, brief, check_dice, choice, left_of, right_of

_NOTHING = {(1, 4), (1, 5), (2, 4), (2, 6)}
_THREE_ALONE = {(1, 3), (2, 3), (3, 5)}  # rolls with a 3 that match no other row


class Biscuit(Game):
    """A game of Biscuit (3 or more players; RULES.md §2). Everybody wins: it never ends.

    Read-only views: ``drinks`` (player -> drinks this game), ``biscuit`` (a name or None) and
    ``rule`` (``{"by": name, "count": rules made}`` or None).
    """

    name = "biscuit"
    min_players, max_players = 3, None
    switches = {
        "roller": choice("biscuit", "rotate"),  # seed: the Biscuit rolls
        "doubles": choice("pick_players", "hand_out"),  # (gap) distinct players
        "duel_tie": choice("reroll", "no_drinks"),  # (gap) a tie is rolled again
        "thumbs_loser_drinks": Switch(False, "bool"),
        "combined": choice("both", "three_only"),  # (gap) 3-3, 3-4, 3-6: both rows' effects
    }
    action_keys = ("roll", "pick", "thumbs_last", "rule_broken")
    refusals = Game.refusals + ("biscuit.pick_count", "biscuit.pick_twice", "biscuit.self_duel", "biscuit.no_rule")

    # -- views -----------------------------------------------------------------------------------

    @property
    def drinks(self) -> dict[str, int]:
        """Player -> drinks taken this game, seat order."""
        return dict(self._state["drinks"])

    @property
    def biscuit(self) -> str | None:
        """The Biscuit, or None while the table rolls for 7."""
        return self._state["biscuit"]

    @property
    def rule(self) -> dict | None:
        """The Biscuit's rule in force (6-6), ``{"by": name, "count": n}``, or None."""
        rule = self._state["rule"]
        return None if rule is None else {"by": rule["by"], "count": rule["count"]}

    # -- the rules -------------------------------------------------------------------------------

    def _start(self) -> dict:
        return {
            "phase": "find",  # find | reign | pick | duel | thumbs
            "player": self._players[0],  # who rolls or picks now (None in the thumbs race)
            "biscuit": None,
            "rule": None,  # {"by", "count", "reign_of": the Biscuit when it was made}
            "drinks": {p: 0 for p in self._players},
            "roller": None,  # whose reign roll is being resolved (stands in for the Biscuit)
            "pick": None,  # {"for": "doubles" | "duel", "count", "repeats", "then_stop"}
            "duel": None,  # {"challenger", "challenger_total"}
        }

    def _step(self, key: str, value: Any) -> list[dict]:
        if key == "rule_broken":
            return self._rule_broken(value)
        exp = self._expects()
        if key not in exp["actions"]:
            raise self._wrong_time(key)
        if key == "pick":
            return self._pick(value)
        if key == "thumbs_last":
            return self._thumbs_last(value)
        s = self._state
        dice = check_dice(value, 2, s["player"])
        if s["phase"] == "find":
            return self._find(dice)
        if s["phase"] == "duel":
            return self._duel_roll(dice)
        return self._reign(dice)

    def _drink(self, player: str, count: int, why: str, code: str) -> list[dict]:
        self._state["drinks"][player] += count
        return [{"drink": {"player": player, "count": count, "why": why, "code": code}}]

    def _rolled(self, dice: list[int], step: str, effect: str, row: str | None = None) -> dict:
        payload = {"player": self._state["player"], "dice": dice, "total": sum(dice), "step": step,
                   "effect": effect}
        if row is not None:
            payload["row"] = row
        return {"rolled": payload}

    # Finding the Biscuit (RULES.md §2, seed "Pirmais spēlētājs, kuram izdodas mest 7").
    def _find(self, dice: list[int]) -> list[dict]:
        s = self._state
        finder = s["player"]
        if sum(dice) != 7:
            event = self._rolled(dice, "find", f"{sum(dice)}: not 7, the next player rolls")
            s["player"] = left_of(self._players, finder)
            return [event]
        return [self._rolled(dice, "find", f"7: {finder} is the Biscuit")] + self._crown(finder)

    def _crown(self, player: str) -> list[dict]:
        """``player`` becomes the Biscuit and rolls next; a rule ends when a new player takes over
        (seed: "tiklīdz par Biskvītu kļūst jauns spēlētājs")."""
        s = self._state
        s.update(biscuit=player, phase="reign", player=player, roller=None, pick=None, duel=None)
        events: list[dict] = [{"biscuit": player}]
        if s["rule"] is not None and s["rule"]["reign_of"] != player:
            s["rule"] = None
            events.append({"rule": None})
        return events

    def _dethrone(self, roller: str, count: int, why: str, code: str) -> list[dict]:
        """RULES.md §2 "any 3": the Biscuit (the roller) drinks and the Biscuit stops being the
        Biscuit; the hunt for 7 starts with the old Biscuit's left neighbour."""
        s = self._state
        old = s["biscuit"]
        events = self._drink(roller, count, why, code)
        s.update(biscuit=None, phase="find", player=left_of(self._players, old), roller=None,
                 pick=None, duel=None)
        return events + [{"biscuit": None}]

    def _next_roll(self) -> list[dict]:
        """After a reign roll is resolved: the Biscuit rolls again (``roller = biscuit``), or the
        next player to the roller's left (``roller = rotate``)."""
        s = self._state
        nxt = s["biscuit"] if self._rules["roller"] == "biscuit" else left_of(self._players, s["roller"])
        s.update(phase="reign", player=nxt, roller=None, pick=None, duel=None)
        return []

    # The reign: one row of the table of RULES.md §2 per roll.
    def _reign(self, dice: list[int]) -> list[dict]:
        s = self._state
        roller = s["player"]
        s["roller"] = roller
        lo, hi = sorted(dice)
        row = f"{lo}-{hi}"
        me = "the Biscuit" if roller == s["biscuit"] else f"{roller} (rolling for the Biscuit)"

        if lo == hi == 1:
            events = [self._rolled(dice, "reign", "everyone drinks 1", row)]
            for p in self._players:
                events += self._drink(p, 1, "1-1: everyone drinks", "biscuit.1-1")
            return events + self._next_roll()
        if lo == hi == 6:
            rule = s["rule"]
            count = rule["count"] + 1 if rule is not None else 1
            s["rule"] = {"by": roller, "count": count, "reign_of": s["biscuit"]}
            events = [self._rolled(dice, "reign", f"{roller} makes a rule", row),
                      {"rule": {"by": roller, "count": count}}]
            return events + self._next_roll()
        if 3 in (lo, hi) and ((lo, hi) in _THREE_ALONE or self._rules["combined"] == "three_only"):
            # The "any 3" row alone: 1-3, 2-3, 3-5 always; 3-3, 3-4, 3-6 under combined = three_only.
            count = 2 if lo == hi else 1  # seed: "Ja tiek mests 3-3, Biskvītam ir jāizdzer divi dzērieni"
            code, what = ("biscuit.3-3", "a double 3") if lo == hi else ("biscuit.3", "a 3")
            events = [self._rolled(dice, "reign", f"{what}: {roller} drinks {count}, the Biscuit steps down", row)]
            return events + self._dethrone(roller, count, f"{row}: {what}, {self._steps_down(roller, count)}", code)
        if lo == hi:  # 2-2 .. 5-5; under combined = both 3-3 also ends the reign
            return self._reign_doubles(dice, row, roller, lo)
        if (lo, hi) == (1, 2):
            s.update(phase="pick", pick={"for": "duel", "count": 1, "repeats": False})
            return [self._rolled(dice, "reign", f"duel: {roller} picks a challenger", row)]
        if lo + hi == 7:
            return self._reign_thumbs(dice, row, roller, lo)
        if lo + hi == 9 or (lo, hi) in ((4, 6), (5, 6)):
            return self._reign_drinks(dice, row, roller, me, lo, hi)
        assert (lo, hi) in _NOTHING, row
        return [self._rolled(dice, "reign", "nothing: roll again", row)] + self._next_roll()

    def _steps_down(self, roller: str, count: int) -> str:
        """The log's words for a 3 (RULES.md §2, "any 3"): the roller drinks ``count`` and the
        Biscuit stops being the Biscuit; under the reign's switch ``roller = rotate`` (RULES.md §2)
        they are two players, and the log names both."""
        biscuit = self._state["biscuit"]
        if roller == biscuit:
            return f"the Biscuit drinks {count} and stops being the Biscuit"
        return f"{roller} (rolling for the Biscuit) drinks {count} and {biscuit} stops being the Biscuit"

    def _reign_doubles(self, dice: list[int], row: str, roller: str, lo: int) -> list[dict]:
        """2-2 .. 5-5 (and 3-3 under combined = both): the roller picks that many players."""
        s = self._state
        then = (", then drinks 2 and the Biscuit steps down" if roller != s["biscuit"]
                else ", then drinks 2 and stops being the Biscuit") if lo == 3 else ""
        hand_out = self._rules["doubles"] == "hand_out"
        seated = len(self._players)
        if not hand_out and seated <= lo:
            # (gap) fewer players than the number: every player drinks 1; with exactly as many,
            # picking all of them is the only choice, so no pick is asked for either.
            why = (f"{row}: {lo} players to pick and {seated} at the table, everyone drinks" if seated == lo
                   else f"{row}: fewer players than {lo}, everyone drinks")
            events = [self._rolled(dice, "reign", f"everyone drinks 1 (no pick: {seated} players){then}", row)]
            for p in self._players:
                events += self._drink(p, 1, why, f"biscuit.{row}")
            return events + self._after_doubles(lo)
        meaning = f"{roller} hands out {lo} drinks" if hand_out else f"{roller} picks {lo} players to drink 1"
        events = [self._rolled(dice, "reign", meaning + then, row)]
        s.update(phase="pick", pick={"for": "doubles", "count": lo, "repeats": hand_out})
        return events

    def _reign_thumbs(self, dice: list[int], row: str, roller: str, lo: int) -> list[dict]:
        """1-6, 2-5, 3-4: thumbs on foreheads. under combined = both 3-4 is also a 3: drink 1, stop,
        and the thumbs race names the new Biscuit at once."""
        events = [self._rolled(dice, "reign", "thumbs on foreheads: the last one is the new Biscuit", row)]
        if lo == 3:
            events += self._dethrone(roller, 1, f"3-4: a 3, {self._steps_down(roller, 1)}", "biscuit.3")
        self._state.update(phase="thumbs", player=None, roller=None)
        return events + [{"thumbs": True}]

    def _reign_drinks(self, dice: list[int], row: str, roller: str, me: str, lo: int, hi: int) -> list[dict]:
        """3-6, 4-5: the right neighbour drinks (3-6 is also a 3 under combined = both); 4-6: the
        roller drinks; 5-6: the left neighbour drinks."""
        if lo + hi == 9:
            right = right_of(self._players, roller)
            also = f", then {roller} drinks 1 and the Biscuit steps down" if lo == 3 else ""  # 3-6 is also a 3
            events = [self._rolled(dice, "reign", f"{right} (right of {roller}) drinks 1{also}", row)]
            events += self._drink(right, 1, f"{row}: the player to the right of {me} drinks", f"biscuit.{row}")
            if lo == 3:
                return events + self._dethrone(roller, 1, f"3-6: a 3, {self._steps_down(roller, 1)}", "biscuit.3")
            return events + self._next_roll()
        if (lo, hi) == (4, 6):
            events = [self._rolled(dice, "reign", f"{roller} drinks 1", row)]
            return events + self._drink(roller, 1, f"4-6: {me} drinks", "biscuit.4-6") + self._next_roll()
        left = left_of(self._players, roller)
        events = [self._rolled(dice, "reign", f"{left} (left of {roller}) drinks 1", row)]
        return events + self._drink(left, 1, f"5-6: the player to the left of {me} drinks",
                                    "biscuit.5-6") + self._next_roll()

    def _after_doubles(self, n: int) -> list[dict]:
        """After the picked players drank: 3-3 also costs the roller 2 and ends the reign."""
        if n == 3:
            roller = self._state["roller"]
            return self._dethrone(roller, 2, f"3-3: a double 3, {self._steps_down(roller, 2)}", "biscuit.3-3")
        return self._next_roll()

    def _pick(self, value: Any) -> list[dict]:
        s = self._state
        pick = s["pick"]
        n, roller = pick["count"], s["roller"]
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise Illegal(f"a pick is a list of player names, got {brief(value)}", "action.form")
        unknown = [p for p in value if p not in self._players]
        if unknown:
            raise self._stranger(unknown[0])
        if len(value) != n:
            raise Illegal(f"{roller} picks {n} player{'s' if n > 1 else ''}, got {len(value)}", "biscuit.pick_count",
                          player=roller, count=n, got=len(value))
        if not pick["repeats"] and len(set(value)) != len(value):
            raise Illegal(f"{roller} picks {n} different players", "biscuit.pick_twice", player=roller, count=n)
        if pick["for"] == "duel":
            challenger = value[0]
            if challenger == roller:
                raise Illegal(f"{roller} cannot challenge themselves", "biscuit.self_duel", player=roller)
            # Seed: "Izvēlētais spēlētājs met kauliņu. Pēc tam met kauliņu Biskvīts."
            s.update(phase="duel", player=challenger, pick=None,
                     duel={"challenger": challenger, "challenger_total": None})
            return [{"duel": {"challenger": challenger, "against": roller}}]
        events: list[dict] = []
        row = f"{n}-{n}"
        for p, count in Counter(value).items():
            events += self._drink(p, count, f"{row}: {roller} picks {p}", f"biscuit.{row}")
        return events + self._after_doubles(n)

    def _duel_roll(self, dice: list[int]) -> list[dict]:
        s = self._state
        duel, roller, total = s["duel"], s["roller"], sum(dice)
        challenger = duel["challenger"]
        if duel["challenger_total"] is None:
            event = self._rolled(dice, "duel", f"{challenger} rolls {total}; now {roller}")
            duel["challenger_total"] = total
            s["player"] = roller
            return [event]
        theirs = duel["challenger_total"]
        events = [self._rolled(dice, "duel", f"{roller} rolls {total} against {theirs}")]
        if total == theirs:
            if self._rules["duel_tie"] == "reroll":
                duel["challenger_total"] = None
                s["player"] = challenger
                return events + [{"duel_tie": {"total": total, "reroll": True}}]
            return events + [{"duel_tie": {"total": total, "reroll": False}}] + self._next_roll()
        loser, diff = (roller, theirs - total) if theirs > total else (challenger, total - theirs)
        why = f"duel: {challenger} {theirs}, {roller} {total}: {loser} drinks the difference"
        return events + self._drink(loser, diff, why, "biscuit.1-2") + self._next_roll()

    def _stranger(self, value: Any) -> Illegal:
        """The refusal of ``value``, named where a player of this table is due."""
        return Illegal(f"{brief(value)} is not at this table; the players are {', '.join(self._players)}",
                       "player.unknown", player=value if isinstance(value, str) else brief(value))

    def _thumbs_last(self, value: Any) -> list[dict]:
        if value not in self._players:
            raise self._stranger(value)
        events: list[dict] = []
        if self._rules["thumbs_loser_drinks"]:
            events += self._drink(value, 1, f"thumbs: {value} was last", "biscuit.thumbs")
        return events + self._crown(value)

    def _rule_broken(self, value: Any) -> list[dict]:
        s = self._state
        if s["rule"] is None:
            raise Illegal("no rule is in force (a 6-6 makes one)", "biscuit.no_rule")
        if value not in self._players:
            raise self._stranger(value)
        return self._drink(value, 1, f"{value} broke {s['rule']['by']}'s rule", "biscuit.rule")

    # -- what the table does next ----------------------------------------------------------------

    def _expects(self) -> dict:
        s = self._state
        extra_actions = ["rule_broken"] if s["rule"] is not None else []
        extra = {"biscuit": s["biscuit"]}
        if s["phase"] == "pick":
            pick = s["pick"]
            options = [p for p in self._players if not (pick["for"] == "duel" and p == s["roller"])]
            return self._turn(s["player"], "pick", pick["for"], ["pick"] + extra_actions, options=options,
                              count=pick["count"], repeats=pick["repeats"], **extra)
        if s["phase"] == "thumbs":
            return self._turn(None, "thumbs", "thumbs", ["thumbs_last"] + extra_actions,
                              options=list(self._players), **extra)
        return self._turn(s["player"], "roll", s["phase"], ["roll"] + extra_actions, dice=2, **extra)
