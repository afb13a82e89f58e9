"""Declared Yacht at the table: its event words, its play screen and score sheet, its replay lines,
the coach's hint, the demo bot.

The engine is ``appliance.games.yacht``; RULES.md §3.
"""

from __future__ import annotations

import logging

from appliance.games.yacht import Yacht
from appliance.games.yacht_scoring import CATEGORIES, score
from appliance.i18n import _, decimal, ngettext
from appliance.table.base import Announcement, Choice, Play, Row, Sheet, Table, View, dice_text, english_names, names

log = logging.getLogger(__name__)


def category_name(category: str) -> str:
    """A Yacht category's name (RULES.md §3 / §4 names) in the active language."""
    return {
        "ones": _("Ones"), "twos": _("Twos"), "threes": _("Threes"), "fours": _("Fours"),
        "fives": _("Fives"), "sixes": _("Sixes"), "small_straight": _("Small straight"),
        "large_straight": _("Large straight"), "full_house": _("Full house"),
        "four_of_a_kind": _("Four of a kind"), "choice": _("Choice"), "yacht": _("Yacht"),
    }.get(category, category)


class YachtTable(Table):
    """Declared Yacht: roll five dice, declare a category, reroll up to twice, score it or a 0."""

    engine = Yacht
    dice = 5
    has_sheet = True

    @classmethod
    def title(cls) -> str:
        return _("Yacht")

    @classmethod
    def demo_bot(cls, evening) -> "YachtBot":
        """The headless demo's players of this game, on ``evening`` (``appliance.demo``)."""
        return YachtBot(evening)

    # -- events, translated ----------------------------------------------------------------------

    def announce_rolled(self, value: dict, walk) -> Announcement | None:
        """Rolling for who starts, or off a final tie."""
        if value.get("step") in ("order", "roll_off"):
            return Announcement(_("{player} rolls {total}").format(player=value.get("player"), total=value.get("total")),
                                "info", dice_text(value.get("dice", ())))
        return None

    def announce_order_tie(self, value: dict, walk) -> Announcement:
        """A tie for the start: the tied players roll again."""
        return Announcement(_("Tie at {total}: {players} roll again").format(
            total=value.get("total"), players=names(value.get("players", ()))), "info")

    def announce_order_seat(self, value: dict, walk) -> Announcement:
        """order_tie = seat: the "order" event that follows names the starter."""
        return Announcement(_("Tie at {total}: {players}").format(
            total=value.get("total"), players=names(value.get("players", ()))), "info",
            _("The tied player seated first starts"))

    def announce_final_tie(self, value: dict, walk) -> Announcement:
        """final_tie = roll_off (again, when the roll-off ties too)."""
        return Announcement(_("Tie at {total}: {players} roll off").format(
            total=value.get("total"), players=names(value.get("players", ()))), "info",
            _("One throw each, the highest total wins; it scores nothing"))

    def announce_order(self, value: list, walk) -> Announcement:
        """The seat order: who starts, then the rest."""
        return Announcement(_("{player} starts").format(player=value[0]), "good", " → ".join(value))

    def announce_declared(self, value: dict, walk) -> Announcement:
        """The category declared for this turn."""
        return Announcement(_("{player} declares {category}").format(
            player=value.get("player"), category=category_name(value.get("category", ""))), "info")

    def announce_score(self, value: dict, walk) -> Announcement:
        """What the turn scored in its category (a 0 included)."""
        return Announcement(
            _("{category}: {points}").format(category=category_name(value["category"]), points=value["points"]),
            "good" if value["points"] else "info", value["player"])

    # -- events, English (dicetable replay) ------------------------------------------------------

    def describe_order(self, p: list) -> str:
        """The seat order."""
        return f"order: {', '.join(p)}"

    def describe_order_tie(self, p: dict) -> str:
        """A tie for the start, rolled again."""
        return f"{english_names(p['players'])} tie at {p['total']}: they roll again"

    def describe_order_seat(self, p: dict) -> str:
        """A tie for the start, settled by the seats."""
        return f"{english_names(p['players'])} tie at {p['total']}: {p['starts']}, seated first, starts"

    def describe_final_tie(self, p: dict) -> str:
        """A tie for the win, rolled off."""
        return f"{english_names(p['players'])} tie at {p['total']}: they roll off, the highest total wins"

    def describe_declared(self, p: dict) -> str:
        """The category declared."""
        return f"{p['player']} declares {p['category']}"

    def describe_score(self, p: dict) -> str:
        """The score written and the total."""
        return (f"{p['player']} scores {p['points']} in {p['category']} ({' '.join(map(str, p['dice']))}); "
                f"total {p['total']}")

    def describe_turn(self, t: dict) -> str:
        who = t["player"] or "everyone"
        if t["expects"] == "roll" and t["step"] == "roll_off":
            return f"{who}: roll {t['dice']} dice (roll-off: {english_names(t['rolling'])}; it scores nothing)"
        if t["expects"] == "declare":
            return f"{who}: declare one of {' '.join(t['options'])}"
        if t["expects"] == "reroll":
            return f"{who}: roll again ({t['rolls_left']} left) or stop"
        return super().describe_turn(t)

    def action_words(self, key, value):
        return _("declared {category}").format(category=category_name(value)) if key == "declare" else None

    def refusal(self, error: dict) -> str:
        """Yacht's own refusals in words ("Ann has used Fives already"), else the shared ones."""
        code, player = error.get("code"), str(error.get("player") or "")
        if code == "yacht.declare_first":
            return _("{player} declares a category before rolling again").format(player=player)
        if code == "yacht.used":
            return _("{player} has used {category} already").format(
                player=player, category=category_name(str(error.get("category") or "")))
        if code == "yacht.not_a_category":
            return _("that is not a category of this game")
        return super().refusal(error)

    # -- the play screen -------------------------------------------------------------------------

    def play(self, session, need, play: Play, view: View) -> None:
        game = session.game
        declared, showing = game.declared, game.dice
        view.info = self._info(session, need)
        if declared:
            view.info += "  ·  " + _("Declared: {category}").format(category=category_name(declared))
        if need.kind == "roll":
            view.prompt = {
                "order": _("Roll all five: the highest total starts"),
                "roll_off": _("Roll-off: the highest total wins"),
            }.get(need.step, _("Roll all five dice"))
            view.big_prompt, view.icon, view.throw_dice = True, "throw", need.dice or self.dice
        elif need.kind == "declare":
            # The categories take the standings' place (up to 12 names with their scores, at 20 px:
            # the whole width, in 4 columns), and a message across the top hides the header's name:
            # the prompt says whose category it is.
            view.prompt = _("{player}: declare a category").format(player=need.player)
            view.choices = self._declarations(session.rules, need.options, showing)
            view.camera, view.columns = False, 4
        elif need.kind == "reroll":
            left = int(need.raw.get("rolls_left", 0))
            view.prompt = ngettext("Reroll any dice ({n} roll left), or stop",
                                   "Reroll any dice ({n} rolls left), or stop", left).format(n=left)
            view.choices = [Choice("stop", _("Stop"), _("score {category} now").format(
                category=category_name(declared or "")), "primary")]
            view.columns = 1
        if showing and need.kind in ("declare", "reroll"):
            view.dice = list(showing)
        if play.yacht_hint and showing and need.kind in ("declare", "reroll"):
            view.hint = coach_hint(session, showing, declared, int(need.raw.get("rolls_left", 2)))
        view.sheet = self.sheet(session)
        view.standings_title = _("Total")
        totals = game.totals or {}
        view.standings = [Row(p, str(totals.get(p, 0)), "", p == need.player) for p in session.players]

    @staticmethod
    def _info(session, need) -> str:
        game = session.game
        rolling = list(need.raw.get("rolling") or ())
        if need.step == "roll_off":  # (gap) final_tie = roll_off: the round stays 12; say who is tied instead
            totals = game.totals or {}
            return _("Tied at {total}: {players}").format(total=totals.get(rolling[0], 0) if rolling else 0,
                                                          players=names(rolling))
        if need.step == "order" and rolling and len(rolling) < len(session.players):
            return _("Rolling again: {players}").format(players=names(rolling))  # an order_tie
        if game.round:
            return _("Round {n} of 12").format(n=game.round)
        return ""

    @staticmethod
    def _declarations(rules: dict, options, showing) -> list[Choice]:
        """The unused categories with what the dice showing would score in each."""
        options = set(options)
        choices = []
        for c in CATEGORIES:
            if c in options:
                now = score(c, showing, scoring=rules.get("scoring", "seed"),
                            yacht_counts_as_full_house=bool(rules.get("yacht_counts_as_full_house"))) if showing else 0
                choices.append(Choice(f"declare:{c}", category_name(c), _("now {points}").format(points=now)))
        return choices

    def sheet(self, session) -> Sheet | None:
        game = session.game
        sheet = game.sheet
        players = tuple(session.players)
        totals = game.totals or {}
        need = session.need
        declared = game.declared
        cells = tuple(tuple("" if sheet[p].get(c) is None else str(sheet[p][c]) for p in players) for c in CATEGORIES)
        return Sheet(players, tuple(category_name(c) for c in CATEGORIES), cells,
                     tuple(str(totals.get(p, 0)) for p in players),
                     players.index(need.player) if need.player in players else None,
                     CATEGORIES.index(declared) if declared in CATEGORIES else None)

    def won_roll_off(self, session, winner) -> bool:
        """True when the one winner shares the highest total: a roll-off decided it (final_tie =
        roll_off), and the sheet alone does not say why that player won."""
        totals = session.game.totals or {}
        if len(winner) != 1 or not totals:
            return False
        return sum(t == totals.get(winner[0]) for t in totals.values()) > 1


def coach_hint(session, dice, declared, rolls_left) -> str:
    """The coach's hint line for the player on turn, in words ("" when there is none)."""
    try:
        from appliance.coach import yacht_hint

        hint = yacht_hint(dice, used_categories(session.game, session.need.player), declared, rolls_left,
                          rules=session.rules)
    except Exception:  # a hint is never worth a broken screen
        log.exception("Yacht hint")
        return ""
    if hint is None:
        return ""
    if hint.action == "declare":
        return _("Coach: declare {category} ({points} expected)").format(
            category=category_name(hint.category), points=decimal(hint.expected))
    if hint.action == "stop":
        return _("Coach: stop, {points} points").format(points=decimal(hint.expected, 0))
    return _("Coach: keep {keep}, roll {reroll} again ({points} expected)").format(
        keep=" ".join(map(str, hint.keep)) or "—", reroll=" ".join(map(str, hint.reroll)), points=decimal(hint.expected))


def used_categories(game, player: str) -> list[str]:
    """The categories ``player`` has written on the sheet (a 0 included)."""
    sheet = game.sheet or {}
    return [c for c, v in sheet.get(player, {}).items() if v is not None]


# ------------------------------------------------------------------------------------ demo bot

class YachtBot:
    """The headless demo's Yacht players: they follow the coach but reroll at most once a turn (the
    transcript says so: second rerolls made the evening half as long again); the table looks at the
    score sheet once and shows the correction screen once."""

    seats = ("Ann", "Bo")

    def __init__(self, evening) -> None:
        self.evening = evening

    def play(self) -> None:
        """Play the game to its end."""
        ev = self.evening
        table = ev.table_for(5, ev.seed + 2)
        ev.start("yacht", list(self.seats), {})
        session = ev.app.session
        ev.table_says(_("the players follow the coach, but reroll at most once a turn to keep the demo short "
                        "(the rules allow two rerolls)"))
        shown_sheet = shown_fix = False
        for _turn in range(200):
            need = session.need
            if need.kind == "nothing":
                break
            if need.kind == "roll":
                ev.roll(table, 5)
            elif need.kind == "declare":
                self._declare(session, need)
            elif need.kind == "reroll":
                self._reroll(session, need, table)
            if not shown_sheet and session.game.round == 2:
                shown_sheet = True
                ev.tap("sheet", _("looks at the score sheet"))
                ev.tap("back")
            if not shown_fix and need.kind == "roll" and session.need.kind == "declare":
                shown_fix = True
                ev.show_correction(table)
        ev.clear_banners()
        ev.frame(draw=True)

    def _declare(self, session, need) -> None:
        from appliance.coach import yacht_hint

        hint = yacht_hint(session.game.dice, used_categories(session.game, need.player), rules=session.rules)
        category = hint.category if hint else need.options[0]
        self.evening.tap(f"declare:{category}", _("{player} declares {category} (the coach's pick)").format(
            player=need.player, category=category_name(category)))

    def _reroll(self, session, need, table) -> None:
        from appliance.coach import yacht_hint

        ev = self.evening
        left = int(need.raw.get("rolls_left", 0))
        hint = yacht_hint(session.game.dice, used_categories(session.game, need.player), session.game.declared, left,
                          rules=session.rules)
        if hint is None or hint.action == "stop" or left < 2:
            ev.tap("stop", _("{player} stops and scores").format(player=need.player))
            return
        new = tuple(hint.keep) + ev.dice(len(hint.reroll))
        ev.table_says(ngettext("{player} keeps {keep} and rolls {n} die again",
                               "{player} keeps {keep} and rolls {n} dice again", len(hint.reroll))
                      .format(player=need.player, keep=dice_text(hint.keep) or "—", n=len(hint.reroll)))
        ev.roll(table, 5, new, keep=hint.keep)
