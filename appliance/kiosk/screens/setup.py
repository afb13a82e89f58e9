"""The setup screen (the game and its seats, clockwise) and the name entry."""

from __future__ import annotations

from appliance import i18n
from appliance.i18n import _
from appliance.kiosk import seat_names, view
from appliance.kiosk.screens import Screen
from appliance.kiosk.theme import drawable
from appliance.table import find_table, kinds

MAX_NAME = 14  # characters: a name must fit a score sheet column


class SetupScreen(Screen):
    """Choose a game and seat the players. game_kind: the game chosen; seats: the names in seat
    order (clockwise); page: the page of seats shown when they do not all fit (``view.seats_page``)."""

    name = "setup"

    def __init__(self, app, seats: list[str]) -> None:
        super().__init__(app)
        self.game_kind = "maexle"
        self.seats = seats
        self.page = 0

    @property
    def handlers(self):
        return {"game": self.on_game, "start": lambda _arg: self.app.start_game(), "seat": self.on_seat,
                "add": self.on_add, "up": self.on_up, "del": self.on_del, "lang": lambda _arg: self.app.next_language(),
                "page": lambda _arg: setattr(self, "page", self.page + 1),
                "guided": lambda _arg: self.app.open_guided(), "evening": lambda _arg: self.app.end_evening()}

    def view(self):
        return view.setup(self.game_kind, self.seats, self.page, self.app.evening_played())

    def show_seat(self, i: int) -> None:
        """Turn to the page with seat ``i`` on it (a seat just added)."""
        for page in range(len(self.seats)):
            if i in view.seats_page(len(self.seats), page)[0]:
                self.page = page
                return

    def on_game(self, kind: str) -> None:
        """Choose the game ``kind``."""
        if kind in kinds():
            self.game_kind = kind

    def on_seat(self, arg: str) -> None:
        """Rename seat ``arg``."""
        i = int(arg)
        if 0 <= i < len(self.seats):
            self.app.names.edit(i, self.seats[i])

    def on_add(self, _arg: str) -> None:
        """Add a seat (up to the game's limit)."""
        if len(self.seats) >= find_table(self.game_kind).seat_limit():
            self.app.say(_("No more seats at this game"))
            return
        self.app.names.edit(None, "")

    def on_up(self, arg: str) -> None:
        """Move seat ``arg`` one place up."""
        i = int(arg)
        if 0 < i < len(self.seats):
            self.seats[i - 1], self.seats[i] = self.seats[i], self.seats[i - 1]

    def on_del(self, arg: str) -> None:
        """Remove seat ``arg`` (one seat always stays)."""
        i = int(arg)
        if 0 <= i < len(self.seats) and len(self.seats) > 1:
            del self.seats[i]


class NamesScreen(Screen):
    """Type a seat's name. editing: the seat (None: a new seat); typed: the name so far; layout:
    the on-screen keyboard, "latin" | "cyrillic"; shift: the ⇧ key is down for the next letter
    (``view.capital_next``)."""

    name = "names"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.editing: int | None = None
        self.typed = ""
        self.layout = "latin"
        self.shift = False

    def edit(self, seat: int | None, name: str) -> None:
        """Open the name entry for ``seat`` (None: a new one), starting from ``name``; a default name
        ("Player 1") is no one's: the field starts empty, a capital offered."""
        if seat_names.default_number(name) is not None:
            name = ""
        self.editing, self.typed, self.shift = seat, name, False
        self.layout = _keyboard_for(name)
        self.app.screen = self.name

    @property
    def handlers(self):
        return {"key": self.type, "space": lambda _arg: self.type(" "), "erase": lambda _arg: self.erase(),
                "layout": self.on_layout, "named": self.on_named, "shift": self.on_shift}

    def view(self):
        return view.names_view(self.editing, self.typed, self.layout, self.shift)

    def on_shift(self, _arg: str) -> None:
        """⇧: the next letter the other way round (small where a capital would come, and back)."""
        self.shift = not self.shift

    def back(self) -> None:
        self.app.screen = "setup"

    def type(self, ch: str) -> None:
        """Type ``ch`` (a name has at most MAX_NAME characters); ⇧ is let go. A character the
        kiosk's font cannot draw (an emoji from a keyboard) is refused with a message."""
        if not drawable(ch):
            self.app.say(_("The screen cannot show that character"))
        elif len(self.typed) + len(ch) <= MAX_NAME:
            self.typed += ch
        self.shift = False

    def erase(self) -> None:
        """Take back the last character."""
        self.typed = self.typed[:-1]

    def on_layout(self, _arg: str) -> None:
        """Switch the on-screen keyboard between Latin and Cyrillic."""
        self.layout = "cyrillic" if self.layout == "latin" else "latin"

    def on_named(self, _arg: str) -> None:
        """OK: the name typed takes its seat, unless it is empty or seated already (in any case:
        "ann" typed for a second Ann would be one guest twice to the table)."""
        name = " ".join(self.typed.split())
        seats = self.app.setup.seats
        if not name:
            self.app.say(_("Type a name first"))
            return
        others = [seat_names.shown_name(s).casefold() for i, s in enumerate(seats) if i != self.editing]
        if seat_names.shown_name(name).casefold() in others:
            self.app.say(_("{name} is already seated").format(name=name))
            return
        if self.editing is None:
            seats.append(name)
            self.app.setup.show_seat(len(seats) - 1)
        else:
            seats[self.editing] = name
        self.app.screen = "setup"


def _keyboard_for(name: str) -> str:
    """The on-screen keyboard a name is typed on: its own script's, or for a new name the kiosk's
    language's (a Russian table types Cyrillic names)."""
    if name:
        return "cyrillic" if any("\u0400" <= ch <= "\u04ff" for ch in name) else "latin"
    return "cyrillic" if i18n.language() == "ru" else "latin"
