"""One home per game above the engine: what the table reads, sees and replays of each game.

``appliance.games`` is the pure rules engine; this package is each game's layer above it, and below
the kiosk (which draws it), the demo (whose bots play it) and ``dicetable replay`` (which prints it):

- ``base``: what every game shares: the view-model types (``Announcement``, ``Choice``, ``Row``,
  ``Sheet``, ``View``), the shared words (drinks, penalties, names) and :class:`~base.Table`, which
  words the events every game has (drink, penalty, out, winner, undone, error);
- ``events``: one walk over an action's events and its two exporters, translated (kiosk, voice)
  and English (replay);
- ``maexle``, ``biscuit``, ``yacht``: one module per game: its event words, play screen, replay
  lines, coach hint and demo bot.

Registered as python-chess registers its variants (``chess/variant.py``): one list, a lookup:

>>> [table.kind() for table in TABLES]
['maexle', 'biscuit', 'yacht']
>>> find_table("yacht").engine.max_players
8
>>> find_table("biscuit").players_range()
'3+ players'

Adding a game (see README.md beside this file): an engine module in ``appliance/games/`` (listed
in ``appliance.games.GAMES``), a table module here (listed in ``TABLES``), and its texts in the
catalogs (``appliance/locale``, README there).
"""

from __future__ import annotations

from appliance.table.base import Table
from appliance.table.biscuit import BiscuitTable
from appliance.table.maexle import MaexleTable
from appliance.table.yacht import YachtTable

# The games in the order the setup screen offers them.
TABLES: list[type[Table]] = [MaexleTable, BiscuitTable, YachtTable]


def find_table(kind: str) -> type[Table]:
    """The table class of the game named ``kind`` ("maexle", "biscuit", "yacht").

    Raises ValueError for another name.
    """
    for table in TABLES:
        if table.kind() == kind:
            return table
    raise ValueError(f"no such game: {kind!r}; the games are {', '.join(t.kind() for t in TABLES)}")


def kinds() -> tuple[str, ...]:
    """Every game's name, in the setup screen's order."""
    return tuple(table.kind() for table in TABLES)


def game_name(kind: str) -> str:
    """The game's own name in the active language (Mäxle, Biscuit/Biskvīts, Yacht/Яхта); an unknown
    name as it is."""
    try:
        return find_table(kind).title()
    except ValueError:
        return kind


__all__ = ["TABLES", "Table", "find_table", "game_name", "kinds"]
