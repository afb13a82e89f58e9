"""What every game at the table shares above the engine: the view-model types, the shared words,
and :class:`Table`, the base of each game's home (``appliance.table.maexle`` and the others).

Pure (no pygame): the kiosk draws these, the headless demo prints the announcements, the voice
speaks them. Every text goes through ``_`` / ``ngettext`` of ``appliance.i18n`` at call time, so
switching the language switches every screen.

A :class:`Table` subclass holds one game's words for its events (``announce_<event>``, translated,
and ``describe_<event>``, English for ``dicetable replay``), its play screen's content
(:meth:`Table.play`), its English turn line (:meth:`Table.describe_turn`) and its demo bot.
Names, player ranges and switches are read from the engine's game class (``engine``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from appliance.games.engine import Game
from appliance.i18n import _, ngettext

# A game without a player limit of its own (Biscuit) still seats at most this many: the setup
# screen lists every seat.
MAX_SEATS = 20


# ------------------------------------------------------------------------------ view-model types

@dataclass(frozen=True)
class Announcement:
    """One big line for the whole table. tone: "drink" | "penalty" | "win" | "info" | "good" |
    "error" (the banner's colour); detail: a smaller second line (the rule that applied), or ""."""

    text: str
    tone: str = "info"
    detail: str = ""


@dataclass(frozen=True)
class Choice:
    """One touch button. id: what pressing it does ("verb" or "verb:argument", see
    ``appliance.kiosk.screens``); label: big text; sub: small second line; style: "normal" |
    "primary" | "danger" | "selected" | "quiet" | "disabled"."""

    id: str
    label: str
    sub: str = ""
    style: str = "normal"


@dataclass(frozen=True)
class Row:
    """One player in the standings: name, the main figure, a note, whose turn, out of the game."""

    name: str
    value: str
    note: str = ""
    current: bool = False
    dim: bool = False
    mark: str = ""  # a badge: "biscuit", "cup", "winner"
    alert: bool = False  # the value counts drinks or penalties taken: drawn in the drink colour


@dataclass(frozen=True)
class Sheet:
    """The Yacht score sheet: players across, the 12 categories down, totals.

    cells[row][col]: the text of a category row for each player ("" when not yet written).
    current: the column of the player on turn (or None); declared: the row declared this turn.
    """

    players: tuple[str, ...]
    categories: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    totals: tuple[str, ...]
    current: int | None = None
    declared: int | None = None


@dataclass
class View:
    """Everything one screen shows. ``screen`` names the layout (see appliance.kiosk.draw)."""

    screen: str
    title: str = ""
    player: str = ""
    prompt: str = ""
    info: str = ""
    hint: str = ""
    choices: list[Choice] = field(default_factory=list)
    columns: int = 0
    bar: list[Choice] = field(default_factory=list)
    banner: Announcement | None = None
    message: str = ""
    # The play screen's live view and standings beside the choices; False: the choices take the
    # whole width (a choice among many, e.g. Yacht's 12 categories, each with its score).
    camera: bool = False
    big_prompt: bool = False
    # The big prompt's drawing: "cup" (lift it) or "throw" (``throw_dice`` dice to throw; drawn
    # without pips, so that it never reads as a roll).
    icon: str = ""
    throw_dice: int = 0
    standings: list[Row] = field(default_factory=list)
    standings_title: str = ""
    sheet: Sheet | None = None
    dice: list[int] = field(default_factory=list)
    dice_focus: int = -1
    text_field: str | None = None
    key_rows: list[int] = field(default_factory=list)  # the on-screen keyboard: keys per row
    summary: Any = None  # the evening's chart (``appliance.evening.Summary``) on the "summary" screen
    tray: tuple[int, int, int, int] | None = None  # the guided setup: the tray area drawn on the camera view
    focus: int = -1

    @property
    def key(self) -> str:
        """A short name of this screen and state, e.g. "play-maexle-decide" (screenshot names)."""
        return self.screen if not self.title_key else f"{self.screen}-{self.title_key}"

    title_key: str = ""


@dataclass(frozen=True)
class Play:
    """What the play screen needs beyond the session: the play screen's own state and the config.

    sub: the sub-picker open ("" | "believe" | "breaker"); picked: a multi-pick in progress; page:
    the page of a list of players too long for one (counted round, see ``appliance.kiosk.view``);
    evening: gives the evening's counts (``{player: {"drinks", "penalties"}}``), asked only by a
    game that shows them (it may read the store); yacht_hint, maexle_odds: show the coach's hint line.
    """

    sub: str = ""
    picked: tuple[str, ...] = ()
    page: int = 0
    evening: Callable[[], dict] = dict
    yacht_hint: bool = False
    maexle_odds: bool = False


# ------------------------------------------------------------------------------- shared words

def drinks(player: str, count: int, drink_word: str = "sip") -> str:
    """"Bo drinks 2" in the configured unit (config ``drink_word``: sip, drink, point, or any word).

    Each known unit has its own counted message so every language can inflect it (Russian and
    Latvian have three plural forms); another word is shown as "Bo: 2 × word".
    """
    if drink_word not in _DRINKS:
        return _("{player}: {count} × {unit}").format(player=player, count=count, unit=drink_word)
    return _DRINKS[drink_word](count).format(player=player, count=count)


def everyone_drinks(count: int, drink_word: str = "sip") -> str:
    """"Everyone drinks 1" in the configured unit."""
    if drink_word not in _EVERYONE:
        return _("Everyone: {count} × {unit}").format(count=count, unit=drink_word)
    return _EVERYONE[drink_word](count).format(count=count)


# Each unit's counted message, looked up at call time (the active language's plural forms).
_DRINKS = {
    "sip": lambda n: ngettext("{player} takes {count} sip", "{player} takes {count} sips", n),
    "drink": lambda n: ngettext("{player} drinks {count}", "{player} drinks {count}", n),
    "point": lambda n: ngettext("{player} gets {count} point", "{player} gets {count} points", n),
}
_EVERYONE = {
    "sip": lambda n: ngettext("Everyone takes {count} sip", "Everyone takes {count} sips", n),
    "drink": lambda n: ngettext("Everyone drinks {count}", "Everyone drinks {count}", n),
    "point": lambda n: ngettext("Everyone gets {count} point", "Everyone gets {count} points", n),
}


def penalty(player: str, points: int) -> str:
    """"Bo takes 1 penalty point"."""
    return ngettext("{player} takes {count} penalty point", "{player} takes {count} penalty points",
                    points).format(player=player, count=points)


def waiting_words(expects: str, player: str | None) -> str:
    """What the table must do first (the engine's ``expects``: "announce", "decide", ...) and who,
    in words: "Ann announces first"."""
    return {
        "announce": _("{player} announces first"),
        "decide": _("{player} believes or reveals first"),
        "pick": _("{player} picks first"),
        "thumbs": _("the thumbs race first"),
        "declare": _("{player} declares a category first"),
    }.get(expects, _("{player} must act first")).format(player=player or "")


def dice_text(values) -> str:
    """Dice as the table says them: "6 5", highest first."""
    return " ".join(str(v) for v in sorted(values, reverse=True))


def names(players) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return _("{first} and {last}").format(first=", ".join(players[:-1]), last=players[-1])


def english_names(players) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy" in English (``dicetable replay``)."""
    players = list(players)
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


def english_dice(dice) -> str:
    """Dice in the order the log has them, for ``dicetable replay``."""
    return " ".join(str(d) for d in dice)


# ------------------------------------------------------------------------------------ the table

class Table:
    """One game's home above the engine. Subclasses set ``engine`` (the game class) and ``title``
    and define the words of their own events; this base class words the events every game has
    (drink, penalty, out, winner, undone, error) and the turns every game has (roll, nothing).

    Like python-chess's variants (``chess/variant.py``): small subclasses with class attributes,
    one list (``appliance.table.TABLES``) and a lookup by name (``appliance.table.find_table``).
    """

    engine: ClassVar[type[Game]]
    # The number of dice a throw of this game has (the demo window's Space, the throw icon).
    dice: ClassVar[int] = 2
    # The dice are rolled under a cup that the camera cannot see under (Mäxle).
    cup: ClassVar[bool] = False
    # The play screen's bar has a score sheet button (Yacht).
    has_sheet: ClassVar[bool] = False

    @classmethod
    def kind(cls) -> str:
        """The game's name in the log and the config: "maexle", "biscuit", "yacht"."""
        return cls.engine.name

    @classmethod
    def title(cls) -> str:
        """The game's own name in the active language."""
        raise NotImplementedError

    @classmethod
    def min_players(cls) -> int:
        """The fewest players the engine starts the game with."""
        return cls.engine.min_players

    @classmethod
    def seat_limit(cls) -> int:
        """The most seats the setup screen gives this game: the engine's limit, else MAX_SEATS."""
        return cls.engine.max_players or MAX_SEATS

    @classmethod
    def players_range(cls) -> str:
        """How many players the game is for, in words ("2-20 players", "3+ players")."""
        low, high = cls.engine.min_players, cls.engine.max_players
        if high is None:
            return _("{low}+ players").format(low=low)
        return _("{low}-{high} players").format(low=low, high=high)

    @classmethod
    def demo_bot(cls, evening):
        """The headless demo's players of this game: an object whose ``play()`` plays it on
        ``evening`` (``appliance.demo.ScriptedEvening``, the table's hands)."""
        raise NotImplementedError

    # -- the play screen (appliance.kiosk.view draws what these fill in) --------------------------

    def play(self, session, need, play: Play, view: View) -> None:
        """Fill in the play screen's prompt, choices, standings and hint for ``need``."""
        raise NotImplementedError

    def won_roll_off(self, session, winner) -> bool:
        """True when a roll-off decided the game (the over screen says so)."""
        return False

    def sheet(self, session) -> Sheet | None:
        """The score sheet, for a game that has one."""
        return None

    def action_words(self, key: str, value: Any) -> str | None:
        """A game's own action in a few words (the undo button), or None for the shared words."""
        return None

    # -- the events every game has: translated (kiosk, voice) ------------------------------------

    def announce_drink(self, value: dict, walk) -> Announcement | None:
        """A drink; the same drink for the same reason to every player is one "Everyone" line."""
        group = walk.run_of("drink", lambda d: (d.get("count"), d.get("why"), d.get("water")))
        players = walk.players
        # Past the drink cap (``Session.with_water``): announced as water, or the rest of it.
        count, water = int(value["count"]), int(value.get("water") or 0)
        if water and water < count:
            return Announcement(drinks(value["player"], count - water, walk.drink_word), "drink",
                                _("then {count} × water: past the drink cap").format(count=water))
        unit = _("water") if water else walk.drink_word
        detail = _("past the drink cap") if water else ""
        if len(players) > 1 and sorted(e["player"] for e in group) == sorted(players):
            walk.skip(len(group) - 1)
            return Announcement(everyone_drinks(count, unit), "drink", detail or self.everyone_why(value))
        return Announcement(drinks(value["player"], count, unit), "drink", detail or self.why(value, walk))

    def everyone_why(self, value: dict) -> str:
        """The detail line of a drink that goes to everyone."""
        return self.why(value, None)

    def why(self, value: dict, walk) -> str:
        """The rule behind a drink or penalty: the engine's ``why`` (English, through the catalog);
        each game words its own ``code``s."""
        why = value.get("why") or ""
        return _(why) if why else ""

    def announce_penalty(self, value: dict, walk) -> Announcement:
        """Penalty points: "Bo takes 1 penalty point", with the rule that gave them."""
        return Announcement(penalty(value["player"], value["points"]), "penalty", self.why(value, walk))

    def announce_out(self, value: str, walk) -> Announcement:
        """A player reached the limit: "Bo is out"."""
        return Announcement(_("{player} is out").format(player=value), "penalty")

    def announce_winner(self, value: list, walk) -> Announcement:
        """The winners, and whether a roll-off decided it."""
        roll_off = any(e.get("rolled", {}).get("step") == "roll_off" for e in walk.events if isinstance(e, dict))
        return Announcement(ngettext("{players} wins!", "{players} win!", len(value)).format(
            players=names(value)), "win", _("won the roll-off") if roll_off else "")

    def announce_undone(self, value: dict, walk) -> Announcement:
        """An action taken back."""
        return Announcement(_("Taken back"), "info")

    def announce_error(self, value: dict, walk) -> Announcement:
        """An action the rules do not allow now, with the reason in words (``refusal``)."""
        return Announcement(_("Not allowed now"), "error", self.refusal(value))

    def refusal(self, error: dict) -> str:
        """An engine refusal (an ``error`` event's payload: its ``code`` and facts, see
        ``appliance.games.engine.Illegal``) as a short reason in the active language, never the
        engine's English: "31 does not beat 54". This base words the codes every game shares; each
        game words its own ("<game>.<what>") and hands the rest to this one. An unknown code gets a
        general reason."""
        code, player = error.get("code"), str(error.get("player") or "")
        if code == "not_now":
            return waiting_words(str(error.get("expects") or ""), player)
        if code == "roll.dice":
            n = int(error.get("dice") or 0)
            return ngettext("{player} rolls {count} die, 1-6", "{player} rolls {count} dice, each 1-6", n).format(
                player=player, count=n)
        if code == "player.unknown":
            return _("{player} is not at this table").format(player=player)
        return {
            "action.form": _("that is not a move of this game"),
            "action.unknown": _("that is not a move of this game"),
            "game.over": _("the game is over"),
            "undo.nothing": _("nothing to undo"),
        }.get(code) or _("the rules do not allow it now")

    def setup_refusal(self, error: dict) -> str:
        """The engine's refusal of a setup (``appliance.games.engine.SetupError``: its ``code`` and
        ``facts`` in one dict) as a short reason in the active language, never the engine's English:
        "Mäxle is for 2-20 players", "Ann is seated twice: change one name". Rules the config set
        and a setup the kiosk cannot have built are for the staff; an unknown code gets their words."""
        code = error.get("code")
        if code == "setup.player_count":
            return _("{game} is for {players}").format(game=self.title(), players=self.players_range())
        if code == "setup.seated_twice":
            # TRANSLATORS: why a game cannot start: two seats have the same name.
            return _("{player} is seated twice: change one name").format(player=str(error.get("player") or ""))
        if code in ("setup.rules", "setup.switch", "setup.switch_value"):
            # TRANSLATORS: why a game cannot start: a house rule in the config file
            # has a wrong value.
            return _("a house rule in the settings is wrong. Call the staff.")
        # TRANSLATORS: why a game cannot start: the kiosk built a setup the rules
        # engine refuses (a bug).
        return _("the table cannot set this game up. Call the staff.")

    # -- the events every game has: English (dicetable replay) -----------------------------------

    def describe_turn(self, t: dict) -> str:
        """A ``turn`` event's expects as a line of English."""
        who = t["player"] or "everyone"
        if t["expects"] == "nothing":
            return f"game over: {english_names(t['winner'])} {'wins' if len(t['winner']) == 1 else 'share the win'}"
        if t["expects"] == "roll":
            return f"{who}: roll {t['dice']} dice ({t['step']})"
        return f"{who}: {t['expects']}"

    def describe_error(self, p: dict) -> str:
        """A refused action and the engine's reason."""
        return f"refused: {p['reason']}"

    def describe_undone(self, p: dict) -> str:
        """The action taken back, as its JSON."""
        return f"undone: {json.dumps(p, ensure_ascii=False)}"

    def describe_penalty(self, p: dict) -> str:
        """Penalty points and the engine's ``why``."""
        return f"{p['player']} takes {p['points']} penalty point{'s' * (p['points'] != 1)}: {p['why']}"

    def describe_drink(self, p: dict) -> str:
        """A drink and the engine's ``why``."""
        return f"{p['player']} drinks {p['count']}: {p['why']}"

    def describe_out(self, p: str) -> str:
        """A player out of the game."""
        return f"{p} is out"

    def describe_rolled(self, p: dict) -> str:
        """A roll: Biscuit's carry their row and effect, Yacht's say what they were for."""
        row = f" ({p['row']})" if "row" in p else ""
        effect = f": {p['effect']}" if "effect" in p else ""
        for_what = {"order": " for the order", "roll_off": " in the roll-off"}.get(p.get("step"), "")
        return f"{p['player']} rolls {english_dice(p['dice'])}{row}{for_what}, total {p['total']}{effect}"

    def describe_winner(self, p: list) -> str:
        """The winner, or the players who share the win."""
        return f"{p[0]} wins" if len(p) == 1 else f"{english_names(p)} share the win"
