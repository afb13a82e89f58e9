"""Biscuit (Biskvīts) at the table: its event words, its play screen, its replay lines, the demo bot.

The engine is ``appliance.games.biscuit``; RULES.md §2.
"""

from __future__ import annotations

from appliance.games.biscuit import Biscuit
from appliance.i18n import _, ngettext
from appliance.table.base import Announcement, Choice, Play, Row, Table, View, dice_text

# The rows that change nothing: the Biscuit rolls again (RULES.md §2).
NOTHING_ROWS = ("1-4", "1-5", "2-4", "2-6")


def _rotate(walk) -> bool:
    """Whether each player rolls in turn (switch ``roller = rotate``, RULES.md §2)."""
    return walk is not None and walk.rules.get("roller") == "rotate"


class BiscuitTable(Table):
    """Biscuit: find the Biscuit with a 7, then every roll of the Biscuit says who drinks."""

    engine = Biscuit

    @classmethod
    def title(cls) -> str:
        return _("Biscuit")

    @classmethod
    def demo_bot(cls, evening) -> "BiscuitBot":
        """The headless demo's players of this game, on ``evening`` (``appliance.demo``)."""
        return BiscuitBot(evening)

    # -- events, translated ----------------------------------------------------------------------

    def announce_rolled(self, value: dict, walk) -> Announcement | None:
        """A roll said only when no drink, pick or title follows from it (no 7 yet, a "nothing" row,
        a duel throw)."""
        step, row, total = value.get("step"), value.get("row"), value.get("total")
        if step == "find" and total != 7:
            return Announcement(_("{player} rolls {total}: no Biscuit yet").format(player=value.get("player"), total=total),
                                "info", dice_text(value.get("dice", ())))
        if step == "duel":
            return Announcement(_("{player} rolls {total}").format(player=value.get("player"), total=total), "info")
        if step == "reign" and row in NOTHING_ROWS:
            return Announcement(_("{player} rolls {row}: nothing happens").format(player=value.get("player"), row=row),
                                "info", _("The next player rolls") if _rotate(walk) else _("The Biscuit rolls again"))
        return None

    def announce_duel_tie(self, value: dict, walk) -> Announcement:
        """A tied duel: rolled again, or nobody drinks (``duel_tie``)."""
        return Announcement(
            (_("Tie at {total}: roll again") if value.get("reroll") else _("Tie at {total}: nobody drinks"))
            .format(total=value.get("total")), "info")

    def announce_biscuit(self, value, walk) -> Announcement | None:
        """A new Biscuit, or none (then the hunt for a 7 starts, unless the thumbs race names one)."""
        if value:
            return Announcement(_("{player} is the Biscuit").format(player=value), "good")
        if not walk.later("thumbs"):
            # (3-4 under combined = both, the thumbs race names the new Biscuit at once: no hunt for 7)
            return Announcement(_("No Biscuit: roll for a 7"), "info")
        return None

    def announce_rule(self, value, walk) -> Announcement:
        """A 6-6 rule made, or the rule ending with its reign."""
        if value:
            return Announcement(_("{player} makes a rule!").format(player=value.get("by", "")), "info",
                                _("Whoever breaks it drinks"))
        return Announcement(_("The rule ends"), "info")

    def announce_duel(self, value: dict, walk) -> Announcement:
        """A duel begins: the challenger rolls first."""
        return Announcement(_("Duel: {challenger} against {player}").format(
            challenger=value.get("challenger", ""), player=value.get("against", "")),
            "info", _("The challenger rolls first"))

    def announce_thumbs(self, value, walk) -> Announcement:
        """The thumbs race: the last one is the new Biscuit."""
        return Announcement(_("Thumbs on foreheads!"), "info", _("The last one is the new Biscuit"))

    def everyone_why(self, value: dict) -> str:
        """Everyone drinks by a row: the row itself ("1-1") says it."""
        code = str(value.get("code") or "")
        return code.split(".", 1)[1] if code.startswith("biscuit.") else super().everyone_why(value)

    def why(self, value: dict, walk) -> str:
        """The row behind a drink, in our words. A 3-3 drink is the Biscuit's own 2 when the Biscuit
        steps down right after it (the engine's ``{"biscuit": null}`` follows); before it come the
        picked players' drinks, which carry the same code (RULES.md §2: 3-3 picks 3 players, then
        the Biscuit drinks 2 and steps down)."""
        code = str(value.get("code") or "")
        row = code.split(".", 1)[1] if code.startswith("biscuit.") else ""
        steps_down = walk.next_is("biscuit", None) if walk is not None else True
        if _rotate(walk):
            # roller = rotate (RULES.md §2): "left/right/drinks" are counted from the roller, who
            # also picks; only a 3 is the Biscuit's own.
            rotated = {
                "4-6": _("4-6: the roller drinks"), "5-6": _("5-6: the player left of the roller"),
                "4-5": _("4-5: the player right of the roller"), "3-6": _("3-6: the player right of the roller"),
                "3": _("a 3: the roller drinks, the Biscuit steps down"),
                "3-3": _("3-3: the roller drinks 2, the Biscuit steps down"),
            }
            if row in ("2-2", "4-4", "5-5") or (row == "3-3" and not steps_down):
                return _("{row}: picked by the roller").format(row=row)
            if row in rotated:
                return rotated[row]
        if row == "3-3" and not steps_down:
            return _("3-3: picked by the Biscuit")
        rows = {
            "1-1": _("1-1: everyone drinks"), "4-6": _("4-6: the Biscuit drinks"),
            "5-6": _("5-6: the player left of the Biscuit"), "4-5": _("4-5: the player right of the Biscuit"),
            "3-6": _("3-6: the player right of the Biscuit"), "3": _("a 3: the Biscuit steps down"),
            "3-3": _("3-3: the Biscuit drinks 2 and steps down"), "1-2": _("lost the duel"),
            "rule": _("broke the rule"), "thumbs": _("last with the thumb"),
            "2-2": _("2-2: picked by the Biscuit"), "4-4": _("4-4: picked by the Biscuit"),
            "5-5": _("5-5: picked by the Biscuit"),
        }
        return rows[row] if row in rows else super().why(value, walk)

    # -- events, English (dicetable replay) ------------------------------------------------------

    def describe_biscuit(self, p) -> str:
        """The Biscuit now, or nobody."""
        return f"{p} is the Biscuit" if p else "nobody is the Biscuit"

    def describe_rule(self, p) -> str:
        """A rule made (numbered in the reign), or ended."""
        return f"{p['by']} makes a rule (rule {p['count']})" if p else "the Biscuit's rule ends"

    def describe_duel(self, p: dict) -> str:
        """Who duels whom."""
        return f"duel: {p['challenger']} challenges {p['against']}"

    def describe_duel_tie(self, p: dict) -> str:
        """A tied duel and what follows."""
        return f"duel tie at {p['total']}: " + ("roll again" if p["reroll"] else "nobody drinks")

    def describe_thumbs(self, p) -> str:
        """The thumbs race."""
        return "thumbs on foreheads!"

    def describe_turn(self, t: dict) -> str:
        who = t["player"] or "everyone"
        if t["expects"] == "pick":
            return f"{who}: pick {t['count']} ({t['step']}) from {', '.join(t['options'])}"
        if t["expects"] == "thumbs":
            return "thumbs race: who was last?"
        return super().describe_turn(t)

    def refusal(self, error: dict) -> str:
        """Biscuit's own refusals in words ("Ann picks 2 players, not 1"), else the shared ones."""
        code, player, count = error.get("code"), str(error.get("player") or ""), int(error.get("count") or 0)
        if code == "biscuit.pick_count":
            return ngettext("{player} picks {count} player, not {got}", "{player} picks {count} players, not {got}",
                            count).format(player=player, count=count, got=error.get("got"))
        if code == "biscuit.pick_twice":
            return ngettext("{player} picks {count} different player", "{player} picks {count} different players",
                            count).format(player=player, count=count)
        if code == "biscuit.self_duel":
            return _("{player} cannot challenge themselves").format(player=player)
        if code == "biscuit.no_rule":
            return _("no rule is in force (a 6-6 makes one)")
        return super().refusal(error)

    # -- the play screen -------------------------------------------------------------------------

    def play(self, session, need, play: Play, view: View) -> None:
        game = session.game
        biscuit, rule = game.biscuit, game.rule
        view.info = _("Biscuit: {player}").format(player=biscuit) if biscuit else _("No Biscuit yet")
        if rule:
            view.info += "  ·  " + _("Rule by {player}").format(player=rule["by"])
        if play.sub == "breaker" and "rule_broken" in need.actions:
            view.prompt = _("Who broke the rule?")
            view.choices = [Choice(f"broke:{p}", p) for p in session.players] + \
                [Choice("back", _("Back"), style="quiet")]
            view.columns = 2  # a name of 14 letters at 20 px and more
        elif need.kind == "roll":
            view.prompt = {
                "find": _("Roll the dice: a 7 makes the Biscuit"),
                "reign": _("Roll the dice") if need.player == biscuit else _("Roll for the Biscuit"),
                "duel": _("Duel: roll the dice"),
            }.get(need.step, _("Roll the dice"))
            view.big_prompt, view.icon, view.throw_dice = True, "throw", need.dice or self.dice
        elif need.kind == "pick":
            self._pick(need, play, view)
        elif need.kind == "thumbs":
            view.player = _("Everyone")  # the whole table races; the header would repeat the prompt otherwise
            view.prompt = _("Thumbs on foreheads! Who was last?")
            view.choices = [Choice(f"thumbs:{p}", p) for p in need.options]
            view.columns = 2
        if "rule_broken" in need.actions and play.sub != "breaker":
            view.bar.insert(0, Choice("breaker", _("Rule broken"), style="danger"))
        view.standings_title = _("Drinks this game")
        view.standings = self._standings(session, need, play.evening())

    @staticmethod
    def _pick(need, play: Play, view: View) -> None:
        count = int(need.raw.get("count", 1))
        repeats = bool(need.raw.get("repeats"))
        picked = list(play.picked)
        if need.step == "duel":
            view.prompt = _("Pick a challenger for the duel")
        elif repeats:
            view.prompt = ngettext("Hand out {n} drink", "Hand out {n} drinks", count).format(n=count)
        else:
            view.prompt = ngettext("Pick {n} player to drink", "Pick {n} players to drink", count).format(n=count)
        view.choices = [Choice(f"pick:{p}", p, _("×{n}").format(n=picked.count(p)) if picked.count(p) else "",
                               "selected" if p in picked else "normal") for p in need.options]
        if count > 1:
            view.choices.append(Choice("unpick", _("Undo pick"), style="quiet" if picked else "disabled"))
            if repeats:
                view.choices.append(Choice("picked", _("Done ({n}/{m})").format(n=len(picked), m=count),
                                           style="primary" if len(picked) == count else "disabled"))
        view.columns = 2

    @staticmethod
    def _standings(session, need, evening: dict) -> list[Row]:
        game = session.game
        drinks = game.drinks or {}
        rows = []
        for p in session.players:
            tonight = evening.get(p, {}).get("drinks", 0)
            note = _("{n} tonight").format(n=tonight) if tonight > drinks.get(p, 0) else ""
            rows.append(Row(p, str(drinks.get(p, 0)), note, p == need.player, False,
                            "biscuit" if p == game.biscuit else "", alert=bool(drinks.get(p, 0))))
        return rows


# ------------------------------------------------------------------------------------ demo bot

class BiscuitBot:
    """The headless demo's Biscuit evening: scripted throws that show every kind of row (RULES.md
    §2), the seed's duel (challenger 9, Biscuit 6), a rule and its breaking, thumbs, and a 3 that
    ends a reign; picks and thumbs chosen at random."""

    seats = ("Ann", "Bo", "Cy", "Dace")
    THROWS = [(2, 3), (6, 1), (1, 1), (2, 2), (1, 2), (4, 5), (2, 4), (6, 6), (4, 6), (5, 6), (4, 5),
              (1, 4), (3, 4), (3, 3), (3, 5), (2, 5), (5, 5), (1, 3)]

    def __init__(self, evening) -> None:
        self.evening = evening

    def play(self) -> None:
        """Play the throws, then end the game from the menu (Biscuit has no end of its own)."""
        ev = self.evening
        table = ev.table_for(2, ev.seed + 1)
        ev.start("biscuit", list(self.seats), {})
        session = ev.app.session
        throws = list(self.THROWS)
        broke = False
        for _turn in range(60):
            need = session.need
            if need.kind == "roll":
                if not throws:
                    break
                ev.roll(table, 2, throws.pop(0))
                if session.game.rule and not broke:
                    broke = True
                    self._break_the_rule(session)
            elif need.kind == "pick":
                self._pick(need)
            elif need.kind == "thumbs":
                last = session.players[int(ev.rng.integers(len(session.players)))]
                ev.tap(f"thumbs:{last}", _("{player} was the last with the thumb").format(player=last))
            else:
                break
        ev.clear_banners()
        ev.tap("menu", _("opens the menu"))
        ev.tap("end", _("ends Biscuit (it has no end of its own)"))
        ev.clear_banners()
        ev.frame(draw=True)

    def _break_the_rule(self, session) -> None:
        ev = self.evening
        who = session.players[int(ev.rng.integers(len(session.players)))]
        ev.tap("breaker", _("someone forgets the rule"))
        ev.tap(f"broke:{who}", _("{player} broke the rule").format(player=who))

    def _pick(self, need) -> None:
        ev = self.evening
        count = int(need.raw.get("count", 1))
        options = list(need.options)
        picks = [options[int(i)] for i in ev.rng.permutation(len(options))[:count]]
        for p in picks:
            ev.tap(f"pick:{p}", _("{player} picks {picked}").format(player=need.player, picked=p))
        if need.raw.get("repeats"):
            ev.tap("picked")
