"""Mäxle at the table: its event words, its play screen, its replay lines, the odds hint, the demo bot.

The engine is ``appliance.games.maexle``; RULES.md §1.
"""

from __future__ import annotations

import logging

from appliance.games import maexle_values as mv
from appliance.games.maexle import Maexle, said
from appliance.i18n import _, ngettext
from appliance.table.base import Announcement, Choice, Play, Row, Table, View, dice_text, english_dice

log = logging.getLogger(__name__)


def maexle_value(value: int | None) -> str:
    """A Mäxle value as announced: "54", "Mäxle" for 21, "—" for none."""
    if value is None:
        return "—"
    return _("Mäxle") if value == mv.MAEXLE else str(value)


class MaexleTable(Table):
    """Mäxle: announce, believe or reveal, with a cup the camera cannot see under."""

    engine = Maexle
    cup = True

    @classmethod
    def title(cls) -> str:
        return _("Mäxle")

    @classmethod
    def demo_bot(cls, evening) -> "MaexleBot":
        """The headless demo's players of this game, on ``evening`` (``appliance.demo``)."""
        return MaexleBot(evening)

    # -- events, translated ----------------------------------------------------------------------

    def announce_announcement(self, value: dict, walk) -> Announcement:
        """The holder announced a value and passed the cup: "Ann: 54!", for a Mäxle the choice."""
        said_value = value.get("value")
        if said_value == mv.MAEXLE:
            announces = _("{player} announces Mäxle to {to}").format(player=value["player"], to=value["to"])
            if _lifted_at_once(walk):  # RULES.md §1 maexle = immediate_reveal: no accepting
                return Announcement(_("Mäxle! Lift the cup"), "win", announces)
            return Announcement(_("Mäxle! Accept or reveal"), "win", announces)
        answer = _("{to}: believe and match or beat it, or reveal") if _may_match(walk, said_value) else \
            _("{to}: believe and beat it, or reveal")
        return Announcement(_("{player} announces {value}").format(player=value["player"],
                                                                   value=maexle_value(said_value)),
                            "info", answer.format(to=value["to"]))

    def announce_revealed(self, value: dict, walk) -> Announcement:
        """What was under the cup (the camera read it), and whether the announcement held."""
        shown, announced, by = maexle_value(value.get("value")), maexle_value(value.get("announced")), value.get("by")
        lift = value.get("lift")
        if lift == "self_reveal":
            shows = _("{player} shows {value}").format(player=value["player"], value=shown)
            if value.get("beats"):  # or matches it, under announce = higher_or_equal
                words = _("It matches {announced}: no penalty, a new round") if value.get("value") == value.get("announced") \
                    else _("It beats {announced}: no penalty, a new round")
                return Announcement(shows, "good", words.format(announced=announced))
            return Announcement(shows, "info")
        if lift == "maexle":
            if value.get("holds"):
                return Announcement(_("A real Mäxle!"), "win", dice_text(value.get("dice", ())))
            return Announcement(_("No Mäxle: {value}").format(value=shown), "info")
        if value.get("holds"):
            return Announcement(_("{value}: {player}'s {announced} holds").format(
                value=shown, player=by, announced=announced), "good")
        if value.get("blind"):  # the one who answers passed it on blind: no lie of theirs
            return Announcement(_("{value}: {announced} does not hold, {player} passed it on blind").format(
                value=shown, player=by, announced=announced), "penalty")
        return Announcement(_("{value}: {player} lied about {announced}").format(
            value=shown, player=by, announced=announced), "penalty")

    def announce_blind_pass(self, value: dict, walk) -> Announcement:
        """The cup passed on unrolled: the receiver now answers for the old announcement."""
        return Announcement(_("{player} passes the cup without rolling").format(player=value["player"]),
                            "info", _("{player} now answers for {value}").format(
                                player=value["player"], value=maexle_value(value.get("value"))))

    def why(self, value: dict, walk) -> str:
        """Our own words for the engine's penalty codes, else its ``why``."""
        known = {
            "maexle.accept": _("accepted the Mäxle without looking"),
            "maexle.self_reveal": _("showed their own dice"),
            "maexle.reveal_held": _("doubted an announcement that held"),
            "maexle.reveal_lie": _("caught lying"),
            "maexle.reveal_blind": _("passed a false announcement on blind"),
            "maexle.immediate_real": _("a real Mäxle: everyone else takes 1"),
            "maexle.immediate_false": _("announced Mäxle without one"),
        }
        code = str(value.get("code") or "")
        return known[code] if code in known else super().why(value, walk)

    def refusal(self, error: dict) -> str:
        """Mäxle's own refusals in words ("31 does not beat 54"), else the shared ones."""
        code = error.get("code")
        if code == "maexle.too_low":
            said = _("{value} does not beat {standing}") if error.get("strictly") else \
                _("{value} does not match or beat {standing}")
            return said.format(value=maexle_value(error.get("value")), standing=maexle_value(error.get("standing")))
        if code == "maexle.accept_maexle_only":
            return _("accept answers a Mäxle only; {value} stands").format(value=maexle_value(error.get("standing")))
        if code == "maexle.switched_off":
            switch = {"accept": _("Accept"), "self_reveal": _("Show my dice"), "blind_pass": _("Pass blind")}
            return _("{action} is off in these rules").format(action=switch.get(error.get("switch"), error.get("switch")))
        own = {
            "maexle.after_maexle": _("after a Mäxle: accept or reveal"),
            "maexle.under_cup": _("the dice stay under the cup until it is lifted"),
            "maexle.not_a_value": _("that is not a Mäxle value"),
        }
        return own.get(code) or super().refusal(error)

    # -- events, English (dicetable replay) ------------------------------------------------------

    def describe_announcement(self, p: dict) -> str:
        """An announcement and who receives the cup."""
        return f"{p['player']} announces {said(p['value'])} to {p['to']}"

    def describe_blind_pass(self, p: dict) -> str:
        """A blind pass."""
        return f"{p['player']} passes {said(p['value'])} on to {p['to']} without rolling"

    def describe_revealed(self, p: dict) -> str:
        """The lifted cup: the dice, their value, and whether the announcement holds."""
        if p["lift"] == "self_reveal":  # fresh dice: no verdict on the announcer
            shown = f"{p['player']} shows their own dice: {english_dice(p['dice'])} = {said(p['value'])}"
            if p.get("beats"):  # they beat (or may match) it: nobody's point (README "Rules decided beyond RULES.md")
                verb = "matching" if p["value"] == p["announced"] else "beating"
                return f"{shown}, {verb} {said(p['announced'])}: no penalty"
            if mv.at_least(p["value"], p["announced"]):  # self_reveal_beats = costs: shown all the same
                return shown
            return f"{shown} instead of beating {said(p['announced'])}"
        verdict = "it holds" if p["holds"] else "it does not hold"
        return (f"the cup is lifted: {english_dice(p['dice'])} = {said(p['value'])}; "
                f"{p['by']} answers for {said(p['announced'])}: {verdict}")

    def describe_turn(self, t: dict) -> str:
        who = t["player"] or "everyone"
        if t["expects"] == "announce":
            return f"{who}: announce any value"
        if t["expects"] == "decide":
            choices = [a for a in t["actions"] if a != "announce"]
            if "announce" in t["actions"]:
                choices.insert(0, f"announce {said(t['options'][0])} or higher")
            return f"{who}: {', '.join(choices)}"
        return super().describe_turn(t)

    def action_words(self, key, value):
        return _("announced {value}").format(value=maexle_value(value)) if key == "announce" else None

    # -- the play screen -------------------------------------------------------------------------

    def play(self, session, need, play: Play, view: View) -> None:
        game = session.game
        standing = game.announcement
        if standing:
            view.info = _("Standing: {value} from {player}").format(value=maexle_value(standing["value"]),
                                                                    player=standing["by"])
        if need.kind == "announce":
            view.prompt = _("Shake the cup, peek, announce")
            view.choices = [_value_choice(v) for v in need.options]
            view.columns = 7
        elif need.kind == "decide" and play.sub == "believe":
            view.prompt = _("Roll under the cup, peek, announce higher") if _strictly(session.rules) else \
                _("Roll under the cup, peek, announce the same or higher")
            view.choices = [_value_choice(v) for v in need.options] + [Choice("back", _("Back"), style="quiet")]
            view.columns = 7
        elif need.kind == "decide":
            self._decide(session, need, play, view, standing)
        elif need.kind == "lift":
            view.prompt = _("Lift the cup!") if need.step != "self_reveal" else _("Lift the cup and show your dice")
            view.big_prompt, view.icon = True, "cup"
        elif need.kind == "nothing":
            view.prompt = _("Game over")
        view.standings_title, view.standings = self._standings(session, need)

    def _decide(self, session, need, play: Play, view: View, standing) -> None:
        # After an announced Mäxle the receiver only accepts or reveals (RULES.md §1 "Mäxle announced").
        believe = "announce" in need.actions
        if not standing:
            view.prompt = _("Believe or reveal?")
        elif believe:
            view.prompt = _("{player} says {value}: believe or reveal?").format(
                player=standing["by"], value=maexle_value(standing["value"]))
        else:
            view.prompt = _("{player} says {value}: accept or reveal?").format(
                player=standing["by"], value=maexle_value(standing["value"]))
        cost = session.rules.get("maexle_accept_cost", 1)
        offered = {
            "announce": Choice("believe", _("Believe"), _("roll and announce higher") if _strictly(session.rules)
                               else _("roll and announce the same or higher")),
            "accept": Choice("accept", _("Accept"), _costs(cost, session.rules)),
            "self_reveal": Choice("self_reveal", _("Show my dice"), _self_reveal_costs(session.rules)),
            "blind_pass": Choice("blind_pass", _("Pass blind"), _("without rolling")),
        }
        view.choices = [Choice("reveal", _("Reveal"), _("lift the cup"), "primary")] + \
            [choice for action, choice in offered.items() if action in need.actions]
        view.columns = 2
        if play.maexle_odds and standing:
            view.hint = odds_hint(standing["value"], session.rules, believe)

    @staticmethod
    def _standings(session, need) -> tuple[str, list[Row]]:
        game = session.game
        limit = session.rules.get("limit")
        counts = game.penalties or {}
        out = set(game.out or [])
        unit = _("drinks") if session.rules.get("penalty") == "drinks" else _("points")
        title = _("Penalty {unit}").format(unit=unit) if limit is None else \
            _("Penalty {unit} (out at {limit})").format(unit=unit, limit=limit)
        return title, [Row(p, str(counts.get(p, 0)), _("out") if p in out else "", p == need.player, p in out,
                           "cup" if p == game.cup_holder else "", alert=bool(counts.get(p, 0)))
                       for p in session.players]


def _next_turn(walk) -> dict:
    """The engine's ``turn`` event that follows the visited event ({} if none does)."""
    return next((event["turn"] for event in walk.events[walk.i + 1:] if "turn" in event), {})


def _may_match(walk, announced) -> bool:
    """Whether the receiver of the visited announcement may announce the same value again (the
    ``turn`` event that follows offers it: RULES.md §1 ``announce = higher_or_equal``)."""
    return announced in (_next_turn(walk).get("options") or [])[:1]


def _lifted_at_once(walk) -> bool:
    """Whether the turn that follows the visited announcement is lifting the cup at once (the
    engine's ``turn`` event expects a roll, not a decision: ``maexle = immediate_reveal``)."""
    return _next_turn(walk).get("expects") == "roll"


def _strictly(rules) -> bool:
    """Whether an announcement must beat the standing one (RULES.md §1 switch ``announce``), not match it."""
    return rules.get("announce", "strictly_higher") == "strictly_higher"


def _costs(n: int, rules) -> str:
    """What a choice costs, in the game's penalty unit (RULES.md §1 ``penalty``): "take 2 points",
    or "take 2 drinks"."""
    if rules.get("penalty") == "drinks":
        return ngettext("take {n} drink", "take {n} drinks", n).format(n=n)
    return ngettext("take {n} point", "take {n} points", n).format(n=n)


def _self_reveal_costs(rules) -> str:
    """What a self-reveal costs: 1 (``_costs``), or under ``self_reveal_beats = free`` (README "Rules
    decided beyond RULES.md") 1 unless the dice shown may follow the announcement: "1 point unless
    higher" (``announce = strictly_higher``: an equal roll costs 1), "1 point if lower" (the seed's
    own word, where an equal one may follow)."""
    if rules.get("self_reveal_beats", "free") != "free":
        return _costs(1, rules)
    drinks = rules.get("penalty") == "drinks"
    if _strictly(rules):
        words = ngettext("{n} drink unless higher", "{n} drinks unless higher", 1) if drinks else \
            ngettext("{n} point unless higher", "{n} points unless higher", 1)
    else:
        words = ngettext("{n} drink if lower", "{n} drinks if lower", 1) if drinks else \
            ngettext("{n} point if lower", "{n} points if lower", 1)
    return words.format(n=1)


def _value_choice(v: int) -> Choice:
    return Choice(f"announce:{v}", maexle_value(v), style="primary" if v == mv.MAEXLE else "normal")


def odds_hint(value: int, rules: dict, believe: bool = True) -> str:
    """The coach's odds for the receiver. When believing is possible: how often a fresh roll beats the
    announcement and how often it holds. When only accept or reveal remain (an announced Mäxle):
    how often one roll really is that value, the chance the announcer has it without bluffing."""
    try:
        from appliance.coach import maexle_odds

        odds = maexle_odds(value)
        at_least = rules.get("truth", "at_least") == "at_least"
        holds = odds.p_at_least if at_least else odds.p_exact
        if not believe:
            return _("Odds: a roll is a real {value} {ways} times in 36 ({p}%)").format(
                value=maexle_value(value), ways=odds.at_least if at_least else odds.exact,
                p=round(100 * float(holds)))
        words = _("Odds: a fresh roll beats {value} {p}% of the time; it holds {q}%") if _strictly(rules) else \
            _("Odds: a fresh roll matches or beats {value} {p}% of the time; it holds {q}%")
        return words.format(value=maexle_value(value), p=round(100 * float(odds.to_top(rules.get("announce", "strictly_higher")))),
                            q=round(100 * float(holds)))
    except Exception:  # a hint is never worth a broken screen
        log.exception("Mäxle odds")
        return ""


# ------------------------------------------------------------------------------------ demo bot

class MaexleBot:
    """The headless demo's Mäxle players (``appliance.demo.ScriptedEvening`` is the table's hands):
    they peek honestly, mostly announce the truth, believe as often as an announcement holds, and
    accept a Mäxle half the time."""

    seats = ("Ann", "Bo", "Cy")
    rules = {"limit": 3}

    def __init__(self, evening) -> None:
        self.evening = evening
        self.hidden = None  # what the holder peeked under the cup

    def play(self) -> None:
        """Play the game to its end."""
        ev = self.evening
        table = ev.table_for(2, ev.seed)
        ev.start("maexle", list(self.seats), dict(self.rules))
        session = ev.app.session
        for _turn in range(200):
            need = session.need
            if need.kind == "nothing":
                break
            if need.kind == "announce":
                self._announce(need.player, need.options, self._peek(table, need.player))
            elif need.kind == "decide":
                self._decide(table, need)
            elif need.kind == "lift":
                ev.table_says(_("{player} lifts the cup").format(player=need.player))
                ev.roll(table, 2, lift=True, seen=self.hidden)
        ev.clear_banners()
        ev.frame(draw=True)

    def _peek(self, table, player: str) -> tuple[int, ...] | None:
        ev = self.evening
        seen = table.cover(ev.dice(2))
        self.hidden = seen
        ev.wait_still(table)
        if seen is None:
            ev.table_says(_("{player} shakes the cup (the photo table cannot peek: the announcement is a guess)")
                          .format(player=player))
        else:
            ev.table_says(_("{player} shakes the cup and peeks: {dice}").format(player=player, dice=dice_text(seen)))
        return seen

    def _choose(self, options, seen) -> int:
        rng = self.evening.rng
        options = list(options)
        truth = mv.value_of(list(seen)) if seen else None
        if truth in options and rng.random() > 0.2:
            return truth
        low = options[: max(1, min(3, len(options)))]
        return int(low[int(rng.integers(len(low)))])

    def _announce(self, player: str, options, seen) -> None:
        value = self._choose(options, seen)
        honest = seen is not None and mv.value_of(list(seen)) == value
        if seen is None:
            why = _("{player} announces {value}")
        else:
            why = _("{player} announces {value} (true)") if honest else _("{player} announces {value} (a bluff)")
        self.evening.tap(f"announce:{value}", why.format(player=player, value=maexle_value(value)))

    def _decide(self, table, need) -> None:
        ev = self.evening
        standing = ev.app.session.game.announcement["value"]
        from appliance.coach import maexle_odds

        holds = float(maexle_odds(standing).p_at_least)
        if standing == mv.MAEXLE and "accept" in need.actions and ev.rng.random() < 0.5:
            ev.tap("accept", _("{player} accepts the Mäxle without looking").format(player=need.player))
            return
        if "announce" in need.actions and ev.rng.random() < holds:
            ev.tap("believe", _("{player} believes {value}").format(player=need.player, value=maexle_value(standing)))
            seen = self._peek(table, need.player)
            self._announce(need.player, ev.app.session.need.options, seen)
            return
        ev.table_says(_("{player} doubts {value} and presses REVEAL").format(player=need.player,
                                                                           value=maexle_value(standing)))
        ev.press_reveal()
