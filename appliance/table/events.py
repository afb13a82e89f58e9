"""One walk over an action's events, two exporters: words for the table, English for the log.

As python-chess walks a game with a ``pgn.BaseVisitor`` and writes it with a ``StringExporter``,
:func:`walk` goes through one action's events (RULES.md §4 shapes) in the engine's order and hands
each to an :class:`EventVisitor`; the visitor may look ahead (a run of the same drink, what follows)
and skip events it has said together. The exporters:

- :class:`Announcer`: the kiosk's and the voice's :class:`~appliance.table.base.Announcement`s, in
  the active language (each game's ``announce_<event>``);
- :class:`EnglishExporter`: one line of English per event for ``dicetable replay`` (each game's
  ``describe_<event>``; unknown events as their JSON).

The words themselves are in each game's table module; the dispatch by event key is here, once.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)


class Walk:
    """Where a walk is: the events, the one being visited (``i``), and the table's context.

    players: every seated player; drink_word: the config's unit for drinks; rules: the game's
    switches in force (``appliance.session.Session.rules``; empty: every default).
    """

    def __init__(self, events: Sequence, players: Sequence[str] = (), drink_word: str = "sip",
                 rules: dict | None = None) -> None:
        self.events = list(events)
        self.players = list(players)
        self.drink_word = drink_word
        self.rules = dict(rules or {})
        self.i = 0
        self._skip = 0

    def skip(self, n: int) -> None:
        """Pass over the next ``n`` events (said together with this one)."""
        self._skip = n

    def run_of(self, key: str, same: Callable[[dict], Any]) -> list[dict]:
        """The payloads of the run of ``key`` events from here whose ``same(payload)`` is this one's."""
        first = self.events[self.i][key]
        run = []
        for event in self.events[self.i:]:
            value = event.get(key) if isinstance(event, dict) else None
            if not value or same(value) != same(first):
                break
            run.append(value)
        return run

    def next_is(self, key: str, value: Any) -> bool:
        """True when the event after this one is ``{key: value}``."""
        nxt = self.events[self.i + 1] if self.i + 1 < len(self.events) else None
        return isinstance(nxt, dict) and key in nxt and nxt[key] == value

    def later(self, key: str) -> bool:
        """True when this event or one after it has ``key``."""
        return any(key in e for e in self.events[self.i:] if isinstance(e, dict))


class EventVisitor:
    """Visits the events of one action; subclasses say what each becomes and collect it."""

    def visit(self, key: str | None, value: Any, walk: Walk) -> None:
        """One event ``{key: value}`` (key None for an event that is not a one-key object)."""
        raise NotImplementedError

    def result(self) -> Any:
        """What the visitor made of the events."""
        raise NotImplementedError


def walk(events: Sequence, visitor: EventVisitor, *, players: Sequence[str] = (), drink_word: str = "sip",
         rules: dict | None = None) -> Any:
    """Visit ``events`` in order with ``visitor``; returns ``visitor.result()``."""
    w = Walk(events, players, drink_word, rules)
    while w.i < len(w.events):
        event = w.events[w.i]
        key, value = next(iter(event.items())) if isinstance(event, dict) and len(event) == 1 else (None, None)
        visitor.visit(key, value, w)
        w.i += 1 + w._skip
        w._skip = 0
    return visitor.result()


class Announcer(EventVisitor):
    """The announcements for the table, in the active language. ``turn`` events are not announced:
    they become the prompt. Unknown events are logged and skipped."""

    def __init__(self, table) -> None:
        self.table = table
        self.out: list = []

    def visit(self, key, value, walk: Walk) -> None:
        say = getattr(self.table, f"announce_{key}", None) if key else None
        if say is None:
            if key != "turn":
                log.info("no announcement for event %r", walk.events[walk.i])
            return
        said = say(value, walk)
        if said is not None:
            self.out.append(said)

    def result(self) -> list:
        return self.out


class EnglishExporter(EventVisitor):
    """One line of English per event, for ``dicetable replay``; ``turn`` lines start with "-> "."""

    def __init__(self, table) -> None:
        self.table = table
        self.out: list[str] = []

    def visit(self, key, value, walk: Walk) -> None:
        self.out.append(describe(self.table, walk.events[walk.i]))

    def result(self) -> list[str]:
        return self.out


def describe(table, event: Any) -> str:
    """One engine event as a line of English in ``table``'s words; unknown events as their JSON."""
    if isinstance(event, dict) and len(event) == 1:
        (key, value), = event.items()
        if key == "turn":
            return "-> " + table.describe_turn(value)
        tell = getattr(table, f"describe_{key}", None)
        if tell is not None:
            return tell(value)
    return json.dumps(event, ensure_ascii=False)


def announcements(table, events: Sequence, players: Sequence[str], drink_word: str = "sip",
                  rules: dict | None = None) -> list:
    """The announcements for one action's events (:class:`Announcer`) under the game's ``rules``."""
    return walk(events, Announcer(table), players=players, drink_word=drink_word, rules=rules)


def english(table, events: Sequence) -> list[str]:
    """The English lines for one action's events (:class:`EnglishExporter`)."""
    return walk(events, EnglishExporter(table))
