"""The view model: what each screen shows, from the data it is given. Pure (no pygame).

One function per screen (``setup``, ``names``, ``play``, ``correct``, ``hand``, ``sheet``, ``menu``,
``over``) says, in the active language: the title, whose turn and what is expected, the choices
(touch buttons, numbered for the keyboard, in order), the standings, the Yacht sheet. Each screen of
``appliance.kiosk.screens`` hands its function the data it draws (its own state, the session);
:func:`finish` adds the announcement on screen, the message line and the keyboard focus.
``appliance.kiosk.draw`` lays the view out and draws it. Every choice the table may press is here;
nothing the engine would refuse is offered (the engine's ``expects`` lists the actions and options
allowed now). A game's own play screen is its table module's (``appliance.table``).
"""

from __future__ import annotations

from appliance import i18n
from appliance.i18n import _, ngettext
from appliance.kiosk.words import totals, with_water
from appliance.table import find_table, game_name, kinds
from appliance.table.base import Choice, Play, Row, Sheet, View, names

__all__ = ["Choice", "Play", "Row", "Sheet", "View", "correct", "finish", "hand", "menu", "names_view", "over", "play", "summary",
           "setup", "sheet"]


def finish(view: View, banner, message: str, focus: int) -> View:
    """``view`` with what every screen shows: the announcement (or None), the message line, and the
    keyboard focus (an index into the enabled choices; -1 for none or one that is gone)."""
    view.banner = banner
    view.message = message
    enabled = [c for c in view.choices if c.style != "disabled"]
    view.focus = focus if 0 <= focus < len(enabled) else -1
    return view


# ----------------------------------------------------------------------------------------- setup

# The seats the setup screen shows at 20 px (2 columns of 3 at 800x480); more are shown a page at a
# time, the last cell turning the page.
SEATS_PAGE = 6


def seats_page(seats: int, page: int) -> tuple[range, int]:
    """The seats (indices) on page ``page`` (counted round) of ``seats`` seats, and the number of
    pages (1: all fit, no page to turn)."""
    if seats <= SEATS_PAGE:
        return range(seats), 1
    per = SEATS_PAGE - 1
    pages = -(-seats // per)
    k = page % pages
    return range(k * per, min(seats, (k + 1) * per)), pages


def setup(game_kind: str, seats: list[str], page: int = 0, evening: bool = False) -> View:
    """The setup screen: the games, the seats in order (page ``page`` of them, ``seats_page``), the
    language, Start, the guided setup of the table; with ``evening`` (a game has ended this
    evening), End the evening too."""
    choices = [Choice(f"game:{k}", game_name(k), find_table(k).players_range(),
                      "selected" if k == game_kind else "normal") for k in kinds()]
    shown, pages = seats_page(len(seats), page)
    for i in shown:
        choices.append(Choice(f"seat:{i}", seats[i], _("seat {n}").format(n=i + 1)))
        choices.append(Choice(f"up:{i}", "▲", style="quiet" if i else "disabled"))
        choices.append(Choice(f"del:{i}", "✕", style="quiet" if len(seats) > 1 else "disabled"))
    if pages > 1:
        choices.append(Choice("page", _("More seats"), _("page {n} of {count}").format(
            n=page % pages + 1, count=pages), "quiet"))
    choices.append(Choice("add", _("+ Player")))
    choices.append(Choice("lang", _language_name(), _("language"), style="quiet"))
    choices.append(Choice("start", _("Start ▶"), game_name(game_kind), "primary"))
    choices.append(Choice("guided", _("Set up the table"), style="quiet"))
    if evening:
        choices.append(Choice("evening", _("End the evening"), style="quiet"))
    return View("setup", title=_("Dice Table"), prompt=_("Choose a game and seat the players, clockwise"),
                choices=choices, title_key="")


def _language_name() -> str:
    """The active language in itself ("Latviešu"): the switch reads the same in every language."""
    return getattr(i18n, "LANGUAGE_NAMES", {}).get(i18n.language(), i18n.language())


# The on-screen keyboards: a row each, "⇧" the shift key. A hyphen and an apostrophe for
# "Anne-Marie" and "O'Brien"; ß (German) and Ъ (Russian) where the language writes them.
SHIFT = "⇧"
LATIN = ("QWERTYUIOPß", "ASDFGHJKL", SHIFT + "ZXCVBNM-'", "ĀČĒĢĪĶĻŅŠŪŽÄÖÜ")
CYRILLIC = ("ЙЦУКЕНГШЩЗХЪ", "ФЫВАПРОЛДЖЭ", SHIFT + "ЯЧСМИТЬБЮЁ-")
WORD_START = " -'"  # a letter after one of these (or first) starts a word of the name


def capital_next(typed: str, shift: bool) -> bool:
    """Whether the next letter typed is a capital: at the start of each word of a name ("Anne-Marie
    Ō'Neill"), small after it; ``shift`` (the ⇧ key, for one letter) turns that round ("McKay",
    "van Dijk")."""
    start = not typed or typed[-1] in WORD_START
    return start != shift


def _key_face(ch: str, capital: bool) -> str:
    """A key's letter as it types now (ß has no capital in a name)."""
    if ch == "ß" or not ch.isalpha():
        return ch
    return ch.upper() if capital else ch.lower()


def names_view(editing: int | None, typed: str, layout: str, shift: bool = False) -> View:
    """The name entry: an on-screen keyboard (``layout`` "latin" | "cyrillic") and the name typed
    so far, for seat ``editing`` (None: a new seat); ``shift``: the ⇧ key is down for the next letter."""
    rows = LATIN if layout == "latin" else CYRILLIC
    capital = capital_next(typed, shift)
    choices = []
    for row in rows:
        for ch in row:
            if ch == SHIFT:
                choices.append(Choice("shift", SHIFT, style="selected" if shift else "quiet"))
            else:
                face = _key_face(ch, capital)
                choices.append(Choice(f"key:{face}", face))
    choices += [
        Choice("layout", "АБВ" if layout == "latin" else "ABC", style="quiet"),
        Choice("space", _("space"), style="quiet"),
        Choice("erase", "⌫", style="quiet"),
        Choice("back", _("Cancel"), style="quiet"),
        Choice("named", _("OK"), style="primary"),
    ]
    title = _("New player") if editing is None else _("Rename seat {n}").format(n=editing + 1)
    return View("names", title=title, prompt=_("Type the name"), choices=choices, text_field=typed,
                key_rows=[len(row) for row in rows])


# ------------------------------------------------------------------------------------------ play

def play(s, state: Play) -> View:
    """The play screen of session ``s``: the bar, then the game's own content (its table module)."""
    need = s.need
    kind = s.kind
    table = find_table(kind)()
    view = View("play", title=game_name(kind), player=need.player or "", camera=True, title_key=f"{kind}-{need.kind}")
    view.bar = [Choice("fix", _("Fix dice"), style="quiet"), Choice("menu", _("Menu"), style="quiet")]
    if table.has_sheet:
        view.bar.insert(1, Choice("sheet", _("Sheet"), style="quiet"))
    table.play(s, need, state, view)
    players_page(view, state.page)
    if state.sub:
        view.title_key += f"-{state.sub}"
    return view


# The buttons the play screen's right column holds at 20 px with a name of 14 letters (2 columns of 4
# rows at 800x480), and the choices that name a player (Biscuit's picks, thumbs, rule breakers).
PAGE_CELLS = 8
PLAYER_VERBS = ("pick", "broke", "thumbs")


def players_page(view: View, page: int) -> None:
    """A list of players longer than the play screen holds (a table of 20) shown one page at a
    time: page ``page`` (counted round) of the players, the other choices (Undo pick, Done, Back)
    on every page, and "More players" to turn the page."""
    players = [c for c in view.choices if c.id.partition(":")[0] in PLAYER_VERBS]
    others = [c for c in view.choices if c.id.partition(":")[0] not in PLAYER_VERBS]
    if len(view.choices) <= PAGE_CELLS or not players:
        return
    per = max(1, PAGE_CELLS - len(others) - 1)
    pages = -(-len(players) // per)
    k = page % pages
    view.choices = players[k * per:(k + 1) * per] + others + [
        Choice("page", _("More players"), _("page {n} of {count}").format(n=k + 1, count=pages), "quiet")]


# --------------------------------------------------------------------------- correction and hand

def correct(s, last_seen, camera: bool = True) -> View:
    """The correction path of session ``s`` (``last_seen``: the latest dice the session took). A
    misread last roll is taken back and read again or entered by hand; a roll due now (the camera
    cannot read it) is read again or entered by hand; a mistaken choice is undone. Without a
    ``camera`` that gives pictures, entering by hand comes first (reading again cannot help)."""
    need = s.need
    last = s.last_action or {}
    misread = "roll" in last
    choices = []
    if misread:
        both = bool(need.dice)  # a roll is due as well: the ids say which roll is meant
        again = Choice("undo_reread" if both else "reread", _("Undo roll, read again"), _("the last roll was misread"))
        by_hand = Choice("rehand" if both else "hand", _("Undo roll, enter by hand"), _("type the dice as they lie"))
        choices += _first_primary([again, by_hand] if camera else [by_hand, again])
    if need.dice:
        again = Choice("reread", _("Read again"), _("the camera looks again"))
        by_hand = Choice("hand", _("Enter by hand"), ngettext("{n} die", "{n} dice", need.dice).format(n=need.dice))
        pair = [again, by_hand] if camera else [by_hand, again]
        choices += pair if misread else _first_primary(pair)
    if last and not misread:
        choices.append(Choice("undo", _("Undo last action"), _describe(last, s.kind)))
    choices.append(Choice("back", _("Back"), style="quiet"))
    return View("correct", title=_("Fix the dice"), prompt=_("Was the reading wrong?"), choices=choices, columns=2,
                camera=True, dice=list(s.last_roll or last_seen or []))


def _first_primary(choices: list[Choice]) -> list[Choice]:
    """``choices`` with the first one the primary (the one the table is led to)."""
    return [Choice(c.id, c.label, c.sub, "primary" if i == 0 else c.style) for i, c in enumerate(choices)]


def _describe(action: dict, kind: str) -> str:
    """An action in a few words, for the undo button."""
    (key, value), = action.items()
    own = find_table(kind)().action_words(key, value)
    if own is not None:
        return own
    if key == "roll":
        return _("roll {dice}").format(dice=" ".join(map(str, value)))
    if key == "pick":
        return _("picked {players}").format(players=names(value))
    return {"reveal": _("reveal"), "accept": _("accept"), "self_reveal": _("showed own dice"), "stop": _("stop"),
            "thumbs_last": _("thumbs"), "rule_broken": _("rule broken"), "blind_pass": _("blind pass")}.get(key, key)


def hand(dice: list[int], focus: int) -> View:
    """The hand entry: the dice as entered so far (0: blank, not set yet), ``focus`` the die a digit
    sets next. OK is greyed out until every die has a face."""
    choices = [Choice(f"die:{i}", str(v) if v else "") for i, v in enumerate(dice)]
    choices += [Choice("back", _("Cancel"), style="quiet"),
                Choice("handok", _("OK"), style="disabled" if 0 in dice else "primary")]
    return View("hand", title=_("Enter the dice"), prompt=_("Tap a die to turn it (or type 1-6)"),
                choices=choices, dice=list(dice), dice_focus=focus)


# ------------------------------------------------------------------------------------ sheet, menu

SHEET_ROWS, SHEET_PLAYERS = 6, 3  # a page of the score sheet: categories down, players across


def sheet(s, page: int = 0) -> View:
    """The score sheet of session ``s``, full screen, one page of it (``sheet_page``): the whole
    sheet at once would be under 20 px at 800x480."""
    part, pages = sheet_page(find_table(s.kind)().sheet(s), page)
    choices = [Choice("back", _("Back"), style="quiet")]
    if pages > 1:
        choices.insert(0, Choice("page", _("Next page")))
    prompt = game_name(s.kind) if pages == 1 else "{game}  ·  {page}".format(
        game=game_name(s.kind), page=_("page {n} of {count}").format(n=page % pages + 1, count=pages))
    return View("sheet", title=_("Score sheet"), prompt=prompt, sheet=part, choices=choices)


def sheet_page(full: Sheet, page: int) -> tuple[Sheet, int]:
    """Page ``page`` (counted round) of the sheet ``full`` and the number of pages: SHEET_ROWS
    categories (the upper section, then the lower) of SHEET_PLAYERS players (the player on turn's
    group first), each page with the players' grand totals."""
    groups = [list(range(i, min(i + SHEET_PLAYERS, len(full.players)))) for i in range(0, len(full.players), SHEET_PLAYERS)]
    if full.current is not None:
        groups.sort(key=lambda g: full.current not in g)
    rows = [list(range(i, min(i + SHEET_ROWS, len(full.categories)))) for i in range(0, len(full.categories), SHEET_ROWS)]
    pages = [(g, r) for g in groups for r in rows] or [([], [])]
    cols, cats = pages[page % len(pages)]
    part = Sheet(tuple(full.players[j] for j in cols), tuple(full.categories[i] for i in cats),
                 tuple(tuple(full.cells[i][j] for j in cols) for i in cats), tuple(full.totals[j] for j in cols),
                 cols.index(full.current) if full.current in cols else None,
                 cats.index(full.declared) if full.declared in cats else None)
    return part, len(pages)


def menu(s, drink_cap: int = 0, taught: int = 0) -> View:
    """The menu of session ``s`` (None: no game); ``drink_cap`` the drink cap now (0: none);
    ``taught`` the throws taught at this table (0: no "forget these dice")."""
    choices = []
    if s is not None and s.last_action and not s.over:
        choices.append(Choice("undo", _("Undo last action"), _describe(s.last_action, s.kind)))
    if s is not None and find_table(s.kind).has_sheet:
        choices.append(Choice("sheet", _("Score sheet")))
    choices.append(Choice("end", _("End this game"), _("counts stay for the evening"), "danger"))
    choices.append(Choice("evening", _("End the evening"), _("the evening's chart")))
    choices.append(Choice("lang", _language_name(), _("language")))
    cap = _("Drink cap: {count}").format(count=drink_cap) if drink_cap else _("Drink cap: off")
    choices.append(Choice("cap", cap, _("past it: water")))
    choices.append(Choice("guided", _("Set up the table")))
    if taught:
        choices.append(Choice("forget", _("Forget these dice"),
                              ngettext("{count} taught throw", "{count} taught throws", taught).format(count=taught),
                              "danger"))
    choices.append(Choice("back", _("Back to the game"), style="primary"))
    # Seven buttons in two columns would put the last row under the message line at 800x480.
    return View("menu", title=_("Menu"), prompt=game_name(s.kind) if s else "", choices=choices,
                columns=2 if len(choices) <= 6 else 3)


def confirm(verb: str, s, taught: int = 0) -> View:
    """The question before what cannot be taken back: ``verb`` "end" (this game), "evening" (the
    evening, with session ``s`` still on), "new_evening" (the counts start again) or "forget" (the
    ``taught`` throws taught at this table). "Back" is the first choice: the digit 1 pressed twice,
    or a second tap where the menu's first button was, keeps the game."""
    if verb == "forget":
        title, prompt, label = (_("Forget these dice?"),
                                ngettext("The {count} taught throw goes; the table reads as shipped.",
                                         "The {count} taught throws go; the table reads as shipped.",
                                         taught).format(count=taught),
                                _("Forget these dice"))
    elif verb == "end":
        title, prompt, label = (_("End this game?"), _("It cannot go on afterwards; its counts stay for the evening."),
                                _("End this game"))
    elif verb == "evening":
        title, prompt, label = (_("End the evening?"), _("This game ends too, and the evening's chart shows."),
                                _("End the evening"))
    else:
        title, prompt, label = (_("Start a new evening?"),
                                _("Every drink and point counted this evening starts again from zero."),
                                _("New evening"))
    back = _("Keep playing") if s is not None and not s.over and verb in ("end", "evening") else _("Back")
    return View("confirm", title=title, prompt=prompt,
                choices=[Choice("back", back, style="primary"), Choice("yes", label, style="danger")], columns=2)


def summary(evening) -> View:
    """The closing summary: the chart of ``evening`` (``appliance.evening.Summary``), a new evening
    (the counts start again) or back."""
    return View("summary", title=_("The evening"), summary=evening,
                choices=[Choice("new_evening", _("New evening"), style="primary"),
                         Choice("back", _("Back"), style="quiet")], columns=2)


def over(s, evening: dict) -> View:
    """The game over screen of session ``s`` (None: no game) with the ``evening``'s counts."""
    winner = s.game.expects.get("winner") if s is not None else None
    if winner and find_table(s.kind)().won_roll_off(s, winner):
        prompt = _("{player} wins the roll-off!").format(player=winner[0])
    elif winner:
        prompt = ngettext("{players} wins!", "{players} win!", len(winner)).format(players=names(winner))
    else:
        prompt = _("Game ended")
    drinks = any(c.get("drinks", 0) for c in evening.values())
    points = any(c.get("penalties", 0) for c in evening.values())
    if drinks and points:  # in words: "8 / 3" says nothing from across the table
        title = _("The evening")
        value = lambda c: totals(c.get("drinks", 0), c.get("penalties", 0), c.get("water", 0))  # noqa: E731
    elif points:
        title = _("The evening: penalty points")
        value = lambda c: str(c.get("penalties", 0))  # noqa: E731
    else:
        title = _("The evening: drinks")
        value = lambda c: with_water(str(c.get("drinks", 0)), c.get("water", 0))  # noqa: E731
    rows = [Row(p, value(c), mark="winner" if winner and p in winner else "",
                alert=bool(c.get("drinks", 0) or c.get("penalties", 0))) for p, c in evening.items()]
    choices = [Choice("again", _("Play again"), _("same game, same seats"), "primary"),
               Choice("new", _("New game"), _("choose game and players"))]
    if winner and s.last_action:  # a misread last roll may have decided it: the correction path
        choices.append(Choice("fix", _("Fix dice"), style="quiet"))
    if s is not None and find_table(s.kind).has_sheet:  # the whole sheet is too small here: its own screen
        choices.append(Choice("sheet", _("Score sheet"), style="quiet"))
    choices.append(Choice("evening", _("End the evening"), style="quiet"))  # the last game of the night
    view = View("over", title=game_name(s.kind) if s else _("Dice Table"), prompt=prompt,
                choices=choices, standings=rows, standings_title=title, columns=len(choices),
                title_key=s.kind if s else "")
    if s is not None:
        view.sheet = find_table(s.kind)().sheet(s)
    return view
