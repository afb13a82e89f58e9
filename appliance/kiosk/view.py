"""The view model: what each screen shows, built from the app's state. Pure (no pygame).

``build(app) -> View`` says, in the active language: the title, whose turn and what is expected, the
choices (touch buttons, numbered for the keyboard, in order), the standings, the Yacht sheet, the
announcement on screen and the message line. ``appliance.kiosk.draw`` lays it out and draws it.
Every choice the table may press is here; nothing the engine would refuse is offered (the engine's
``expects`` lists the actions and options allowed now).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from appliance import i18n
from appliance.games.yacht_scoring import CATEGORIES, score
from appliance.i18n import _, ngettext
from appliance.kiosk.words import Announcement, category_name, game_name, maexle_value, names

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Choice:
    """One touch button. id: what pressing it does (see appliance.kiosk.app); label: big text;
    sub: small second line; style: "normal" | "primary" | "danger" | "selected" | "quiet" | "disabled"."""

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
    focus: int = -1

    @property
    def key(self) -> str:
        """A short name of this screen and state, e.g. "play-maexle-decide" (screenshot names)."""
        return self.screen if not self.title_key else f"{self.screen}-{self.title_key}"

    title_key: str = ""


def build(app) -> View:
    """The view of ``app`` (an ``appliance.kiosk.app.App``) as it is now."""
    builder = {
        "setup": _setup, "names": _names, "play": _play, "correct": _correct, "hand": _hand,
        "sheet": _sheet_screen, "menu": _menu, "over": _over,
    }.get(app.screen, _setup)
    view = builder(app)
    view.banner = app.banner.announcement if app.banner is not None else None
    view.message = app.message
    enabled = [c for c in view.choices if c.style != "disabled"]
    view.focus = app.focus if 0 <= app.focus < len(enabled) else -1
    return view


# ----------------------------------------------------------------------------------------- setup

def _setup(app) -> View:
    choices = [Choice(f"game:{k}", game_name(k), players_range(k), "selected" if k == app.game_kind else "normal")
               for k in ("maexle", "biscuit", "yacht")]
    for i, name in enumerate(app.seats):
        choices.append(Choice(f"seat:{i}", name, _("seat {n}").format(n=i + 1)))
        choices.append(Choice(f"up:{i}", "▲", style="quiet" if i else "disabled"))
        choices.append(Choice(f"del:{i}", "✕", style="quiet" if len(app.seats) > 1 else "disabled"))
    choices.append(Choice("add", _("+ Player")))
    choices.append(Choice("lang", _language_name(), _("language"), style="quiet"))
    choices.append(Choice("start", _("Start ▶"), game_name(app.game_kind), "primary"))
    return View("setup", title=_("Dice Table"), prompt=_("Choose a game and seat the players, clockwise"),
                choices=choices, title_key="")


def _language_name() -> str:
    """The active language in itself ("Latviešu"): the switch reads the same in every language."""
    return getattr(i18n, "LANGUAGE_NAMES", {}).get(i18n.language(), i18n.language())


def players_range(kind: str) -> str:
    """How many players ``kind`` is for, in words ("2-20 players"): the setup screen's and its refusal's."""
    return {"maexle": _("2-20 players"), "biscuit": _("3+ players"), "yacht": _("1-8 players")}[kind]


LATIN = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM", "ĀČĒĢĪĶĻŅŠŪŽÄÖÜ")
CYRILLIC = ("ЙЦУКЕНГШЩЗХ", "ФЫВАПРОЛДЖЭ", "ЯЧСМИТЬБЮЁ")


def _names(app) -> View:
    rows = LATIN if app.layout == "latin" else CYRILLIC
    shift = not app.typed.strip()  # a name starts with a capital, then small letters
    choices = [Choice(f"key:{ch if shift else ch.lower()}", ch if shift else ch.lower())
               for row in rows for ch in row]
    choices += [
        Choice("layout", "АБВ" if app.layout == "latin" else "ABC", style="quiet"),
        Choice("space", _("space"), style="quiet"),
        Choice("erase", "⌫", style="quiet"),
        Choice("back", _("Cancel"), style="quiet"),
        Choice("named", _("OK"), style="primary"),
    ]
    title = _("New player") if app.editing is None else _("Rename seat {n}").format(n=app.editing + 1)
    return View("names", title=title, prompt=_("Type the name"), choices=choices, text_field=app.typed,
                key_rows=[len(row) for row in rows])


# ------------------------------------------------------------------------------------------ play

def _play(app) -> View:
    s = app.session
    need = s.need
    kind = s.kind
    view = View("play", title=game_name(kind), player=need.player or "", camera=True, title_key=f"{kind}-{need.kind}")
    view.bar = [Choice("fix", _("Fix dice"), style="quiet"), Choice("menu", _("Menu"), style="quiet")]
    if kind == "yacht":
        view.bar.insert(1, Choice("sheet", _("Sheet"), style="quiet"))
    {"maexle": _maexle, "biscuit": _biscuit, "yacht": _yacht}[kind](app, s, need, view)
    if app.sub:
        view.title_key += f"-{app.sub}"
    return view


def _maexle(app, s, need, view: View) -> None:
    game = s.game
    standing = getattr(game, "announcement", None)
    if standing:
        view.info = _("Standing: {value} from {player}").format(value=maexle_value(standing["value"]),
                                                                player=standing["by"])
    if need.kind == "announce":
        view.prompt = _("Shake the cup, peek, announce")
        view.choices = [_value_choice(v) for v in need.options]
        view.columns = 7
    elif need.kind == "decide" and app.sub == "believe":
        view.prompt = _("Roll under the cup, peek, announce higher")
        view.choices = [_value_choice(v) for v in need.options] + [Choice("back", _("Back"), style="quiet")]
        view.columns = 7
    elif need.kind == "decide":
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
        choices = [Choice("reveal", _("Reveal"), _("lift the cup"), "primary")]
        if "announce" in need.actions:
            choices.append(Choice("believe", _("Believe"), _("roll and announce higher")))
        if "accept" in need.actions:
            choices.append(Choice("accept", _("Accept"), ngettext("take {n} point", "take {n} points",
                                  s.rules.get("maexle_accept_cost", 1)).format(n=s.rules.get("maexle_accept_cost", 1))))
        if "self_reveal" in need.actions:
            choices.append(Choice("self_reveal", _("Show my dice"), _("take 1 point")))
        if "blind_pass" in need.actions:
            choices.append(Choice("blind_pass", _("Pass blind"), _("without rolling")))
        view.choices = choices
        view.columns = 2
        if app.maexle_odds and standing:
            view.hint = _maexle_odds_hint(standing["value"], s.rules, believe)
    elif need.kind == "lift":
        view.prompt = _("Lift the cup!") if need.step != "self_reveal" else _("Lift the cup and show your dice")
        view.big_prompt, view.icon = True, "cup"
    elif need.kind == "nothing":
        view.prompt = _("Game over")
    limit = s.rules.get("limit")
    counts = getattr(game, "penalties", {}) or {}
    out = set(getattr(game, "out", []) or [])
    holder = getattr(game, "cup_holder", None)
    unit = _("drinks") if s.rules.get("penalty") == "drinks" else _("points")
    view.standings_title = _("Penalty {unit}").format(unit=unit) if limit is None else \
        _("Penalty {unit} (out at {limit})").format(unit=unit, limit=limit)
    view.standings = [Row(p, str(counts.get(p, 0)), _("out") if p in out else "", p == need.player, p in out,
                          "cup" if p == holder else "", alert=bool(counts.get(p, 0))) for p in s.players]


def _value_choice(v: int) -> Choice:
    return Choice(f"announce:{v}", maexle_value(v), style="primary" if v == 21 else "normal")


def _maexle_odds_hint(value: int, rules: dict, believe: bool = True) -> str:
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
        return _("Odds: a fresh roll beats {value} {p}% of the time; it holds {q}%").format(
            value=maexle_value(value), p=round(100 * float(odds.to_top(rules.get("announce", "strictly_higher")))),
            q=round(100 * float(holds)))
    except Exception:  # a hint is never worth a broken screen
        log.exception("Mäxle odds")
        return ""


def _biscuit(app, s, need, view: View) -> None:
    game = s.game
    biscuit = getattr(game, "biscuit", None)
    rule = getattr(game, "rule", None)
    view.info = _("Biscuit: {player}").format(player=biscuit) if biscuit else _("No Biscuit yet")
    if rule:
        view.info += "  ·  " + _("Rule by {player}").format(player=rule["by"])
    if app.sub == "breaker" and "rule_broken" in need.actions:
        view.prompt = _("Who broke the rule?")
        view.choices = [Choice(f"broke:{p}", p) for p in s.players] + [Choice("back", _("Back"), style="quiet")]
        view.columns = 3
    elif need.kind == "roll":
        view.prompt = {
            "find": _("Roll the dice: a 7 makes the Biscuit"),
            "reign": _("Roll the dice") if need.player == biscuit else _("Roll for the Biscuit"),
            "duel": _("Duel: roll the dice"),
        }.get(need.step, _("Roll the dice"))
        view.big_prompt, view.icon, view.throw_dice = True, "throw", need.dice or 2
    elif need.kind == "pick":
        count = int(need.raw.get("count", 1))
        repeats = bool(need.raw.get("repeats"))
        if need.step == "duel":
            view.prompt = _("Pick a challenger for the duel")
        elif repeats:
            view.prompt = ngettext("Hand out {n} drink", "Hand out {n} drinks", count).format(n=count)
        else:
            view.prompt = ngettext("Pick {n} player to drink", "Pick {n} players to drink", count).format(n=count)
        view.choices = [Choice(f"pick:{p}", p, _("×{n}").format(n=app.picked.count(p)) if app.picked.count(p) else "",
                               "selected" if p in app.picked else "normal") for p in need.options]
        if count > 1:
            view.choices.append(Choice("unpick", _("Undo pick"), style="quiet" if app.picked else "disabled"))
            if repeats:
                view.choices.append(Choice("picked", _("Done ({n}/{m})").format(n=len(app.picked), m=count),
                                           style="primary" if len(app.picked) == count else "disabled"))
        view.columns = 3
    elif need.kind == "thumbs":
        view.player = _("Everyone")  # the whole table races; the header would repeat the prompt otherwise
        view.prompt = _("Thumbs on foreheads! Who was last?")
        view.choices = [Choice(f"thumbs:{p}", p) for p in need.options]
        view.columns = 3
    if "rule_broken" in need.actions and app.sub != "breaker":
        view.bar.insert(0, Choice("breaker", _("Rule broken"), style="danger"))
    drinks = getattr(game, "drinks", {}) or {}
    evening = app.evening()
    view.standings_title = _("Drinks this game")
    rows = []
    for p in s.players:
        tonight = evening.get(p, {}).get("drinks", 0)
        note = _("{n} tonight").format(n=tonight) if tonight > drinks.get(p, 0) else ""
        rows.append(Row(p, str(drinks.get(p, 0)), note, p == need.player, False, "biscuit" if p == biscuit else "",
                        alert=bool(drinks.get(p, 0))))
    view.standings = rows


def _yacht(app, s, need, view: View) -> None:
    game = s.game
    rnd = getattr(game, "round", 0)
    declared = getattr(game, "declared", None)
    showing = getattr(game, "dice", None)
    rolling = list(need.raw.get("rolling") or ())
    totals = getattr(game, "totals", {}) or {}
    if need.step == "roll_off":  # (gap) final_tie = roll_off: the round stays 12; say who is tied instead
        view.info = _("Tied at {total}: {players}").format(total=totals.get(rolling[0], 0) if rolling else 0,
                                                           players=names(rolling))
    elif need.step == "order" and rolling and len(rolling) < len(s.players):
        view.info = _("Rolling again: {players}").format(players=names(rolling))  # an order_tie
    elif rnd:
        view.info = _("Round {n} of 12").format(n=rnd)
    if declared:
        view.info += "  ·  " + _("Declared: {category}").format(category=category_name(declared))
    if need.kind == "roll":
        view.prompt = {
            "order": _("Roll all five: the highest total starts"),
            "roll_off": _("Roll-off: the highest total wins"),
        }.get(need.step, _("Roll all five dice"))
        view.big_prompt, view.icon, view.throw_dice = True, "throw", need.dice or 5
    elif need.kind == "declare":
        view.prompt = _("Declare a category")
        options = set(need.options)
        rules = s.rules
        for c in CATEGORIES:
            if c in options:
                now = score(c, showing, scoring=rules.get("scoring", "seed"),
                            yacht_counts_as_full_house=bool(rules.get("yacht_counts_as_full_house"))) if showing else 0
                view.choices.append(Choice(f"declare:{c}", category_name(c), _("now {points}").format(points=now)))
        view.columns = 3
    elif need.kind == "reroll":
        left = int(need.raw.get("rolls_left", 0))
        view.prompt = ngettext("Reroll any dice ({n} roll left), or stop", "Reroll any dice ({n} rolls left), or stop",
                               left).format(n=left)
        view.choices = [Choice("stop", _("Stop"), _("score {category} now").format(category=category_name(declared or "")),
                               "primary")]
        view.columns = 1
    if showing and need.kind in ("declare", "reroll"):
        view.dice = list(showing)
    if app.yacht_hint and showing and need.kind in ("declare", "reroll"):
        view.hint = _yacht_hint(s, showing, declared, int(need.raw.get("rolls_left", 2)))
    view.sheet = _sheet(s)
    view.standings_title = _("Total")
    view.standings = [Row(p, str(totals.get(p, 0)), "", p == need.player) for p in s.players]


def _yacht_hint(s, dice, declared, rolls_left) -> str:
    try:
        from appliance.coach import yacht_hint

        sheet = getattr(s.game, "sheet", {}) or {}
        used = [c for c, v in sheet.get(s.need.player, {}).items() if v is not None]
        hint = yacht_hint(dice, used, declared, rolls_left, rules=s.rules)
    except Exception:  # a hint is never worth a broken screen
        log.exception("Yacht hint")
        return ""
    if hint is None:
        return ""
    if hint.action == "declare":
        return _("Coach: declare {category} ({points:.1f} expected)").format(
            category=category_name(hint.category), points=hint.expected)
    if hint.action == "stop":
        return _("Coach: stop, {points:.0f} points").format(points=hint.expected)
    return _("Coach: keep {keep}, roll {reroll} again ({points:.1f} expected)").format(
        keep=" ".join(map(str, hint.keep)) or "—", reroll=" ".join(map(str, hint.reroll)), points=hint.expected)


def _sheet(s) -> Sheet | None:
    game = s.game
    sheet = getattr(game, "sheet", None)
    if sheet is None:
        return None
    players = tuple(s.players)
    totals = getattr(game, "totals", {}) or {}
    need = s.need
    declared = getattr(game, "declared", None)
    cells = tuple(tuple("" if sheet[p].get(c) is None else str(sheet[p][c]) for p in players) for c in CATEGORIES)
    return Sheet(players, tuple(category_name(c) for c in CATEGORIES), cells,
                 tuple(str(totals.get(p, 0)) for p in players),
                 players.index(need.player) if need.player in players else None,
                 CATEGORIES.index(declared) if declared in CATEGORIES else None)


# --------------------------------------------------------------------------- correction and hand

def _correct(app) -> View:
    """The correction path. A misread last roll is taken back and read again or entered by hand; a
    roll due now (the camera cannot read it) is read again or entered by hand; a mistaken choice
    is undone."""
    s = app.session
    need = s.need
    last = s.last_action or {}
    misread = "roll" in last
    choices = []
    if misread:
        both = bool(need.dice)  # a roll is due as well: the ids say which roll is meant
        choices.append(Choice("undo_reread" if both else "reread", _("Undo roll, read again"),
                              _("the last roll was misread"), "primary"))
        choices.append(Choice("rehand" if both else "hand", _("Undo roll, enter by hand"),
                              _("type the dice as they lie")))
    if need.dice:
        choices.append(Choice("reread", _("Read again"), _("the camera looks again"), "normal" if misread else "primary"))
        choices.append(Choice("hand", _("Enter by hand"), ngettext("{n} die", "{n} dice", need.dice).format(n=need.dice)))
    if last and not misread:
        choices.append(Choice("undo", _("Undo last action"), _describe(last)))
    choices.append(Choice("back", _("Back"), style="quiet"))
    return View("correct", title=_("Fix the dice"), prompt=_("Was the reading wrong?"), choices=choices, columns=2,
                camera=True, dice=list(s.last_roll or app.last_seen or []))


def _describe(action: dict) -> str:
    """An action in a few words, for the undo button."""
    (key, value), = action.items()
    if key == "roll":
        return _("roll {dice}").format(dice=" ".join(map(str, value)))
    if key == "announce":
        return _("announced {value}").format(value=maexle_value(value))
    if key == "pick":
        return _("picked {players}").format(players=names(value))
    if key == "declare":
        return _("declared {category}").format(category=category_name(value))
    return {"reveal": _("reveal"), "accept": _("accept"), "self_reveal": _("showed own dice"), "stop": _("stop"),
            "thumbs_last": _("thumbs"), "rule_broken": _("rule broken"), "blind_pass": _("blind pass")}.get(key, key)


def _hand(app) -> View:
    choices = [Choice(f"die:{i}", str(v)) for i, v in enumerate(app.hand)]
    choices += [Choice("back", _("Cancel"), style="quiet"), Choice("handok", _("OK"), style="primary")]
    return View("hand", title=_("Enter the dice"), prompt=_("Tap a die to turn it (or type 1-6)"),
                choices=choices, dice=list(app.hand), dice_focus=app.hand_focus)


# ------------------------------------------------------------------------------------ sheet, menu

def _sheet_screen(app) -> View:
    s = app.session
    return View("sheet", title=_("Score sheet"), prompt=game_name(s.kind), sheet=_sheet(s),
                choices=[Choice("back", _("Back"), style="quiet")])


def _menu(app) -> View:
    s = app.session
    choices = []
    if s is not None and s.last_action and not s.over:
        choices.append(Choice("undo", _("Undo last action"), _describe(s.last_action)))
    if s is not None and s.kind == "yacht":
        choices.append(Choice("sheet", _("Score sheet")))
    choices.append(Choice("end", _("End this game"), _("counts stay for the evening"), "danger"))
    choices.append(Choice("lang", _language_name(), _("language")))
    choices.append(Choice("back", _("Back to the game"), style="primary"))
    return View("menu", title=_("Menu"), prompt=game_name(s.kind) if s else "", choices=choices, columns=2)


def _won_roll_off(s, winner) -> bool:
    """True when a Yacht game's one winner shares the highest total: a roll-off decided it
    (final_tie = roll_off), and the sheet alone does not say why that player won."""
    totals = getattr(s.game, "totals", None) or {}
    if s.kind != "yacht" or len(winner) != 1 or not totals:
        return False
    return sum(t == totals.get(winner[0]) for t in totals.values()) > 1


def _over(app) -> View:
    s = app.session
    winner = s.game.expects.get("winner") if s is not None else None
    if winner and _won_roll_off(s, winner):
        prompt = _("{player} wins the roll-off!").format(player=winner[0])
    elif winner:
        prompt = ngettext("{players} wins!", "{players} win!", len(winner)).format(players=names(winner))
    else:
        prompt = _("Game ended")
    evening = app.evening()
    drinks = any(c.get("drinks", 0) for c in evening.values())
    points = any(c.get("penalties", 0) for c in evening.values())
    if drinks and points:
        title = _("The evening: drinks / penalty points")
        value = lambda c: f"{c.get('drinks', 0)} / {c.get('penalties', 0)}"  # noqa: E731
    elif points:
        title = _("The evening: penalty points")
        value = lambda c: str(c.get("penalties", 0))  # noqa: E731
    else:
        title = _("The evening: drinks")
        value = lambda c: str(c.get("drinks", 0))  # noqa: E731
    rows = [Row(p, value(c), mark="winner" if winner and p in winner else "",
                alert=bool(c.get("drinks", 0) or c.get("penalties", 0))) for p, c in evening.items()]
    choices = [Choice("again", _("Play again"), _("same game, same seats"), "primary"),
               Choice("new", _("New game"), _("choose game and players"))]
    if winner and s.last_action:  # a misread last roll may have decided it: the correction path
        choices.append(Choice("fix", _("Fix dice"), style="quiet"))
    view = View("over", title=game_name(s.kind) if s else _("Dice Table"), prompt=prompt,
                choices=choices, standings=rows, standings_title=title, columns=len(choices),
                title_key=s.kind if s else "")
    if s is not None and s.kind == "yacht":
        view.sheet = _sheet(s)
    return view
