"""The rules engine: pure, deterministic game objects for Mäxle, Biscuit and declared Yacht.

No I/O, no clock, no randomness, no pygame or OpenCV: the game log of ../shared/RULES.md §4 is the
engine's only input and output.

A game from its setup line, what it expects, and the events of an action (the last one always the
``turn`` event that says what comes next):

>>> game = new_game({"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"limit": 3}})
>>> {key: game.expects[key] for key in ("player", "expects", "actions")}
{'player': 'Ann', 'expects': 'announce', 'actions': ['announce']}
>>> events = game.apply({"announce": 54})
>>> events[0]
{'announcement': {'player': 'Ann', 'value': 54, 'to': 'Cy'}}
>>> [next(iter(event)) for event in events]
['announcement', 'turn']

An action the rules do not allow now changes nothing and says why:

>>> game.apply({"announce": 32})  # doctest: +NORMALIZE_WHITESPACE
[{'error': {'action': {'announce': 32}, 'reason': '32 does not beat 54', 'code': 'maexle.too_low',
            'value': 32, 'standing': 54, 'strictly': True}}]

The log replays to the same game, and a saved game restores:

>>> again, events_per_action = replay(game.setup, game.actions)
>>> again.state_json() == game.state_json() and events_per_action == [events]
True
>>> restore(json.loads(json.dumps(game.to_json()))).state_json() == game.state_json()
True
"""

from __future__ import annotations

import json
from typing import Any

from appliance.games.biscuit import Biscuit
from appliance.games.engine import SETUP_REFUSALS, Game, SetupError, brief
from appliance.games.maexle import Maexle
from appliance.games.yacht import Yacht

GAMES: dict[str, type[Game]] = {"maexle": Maexle, "biscuit": Biscuit, "yacht": Yacht}


class RestoreError(ValueError):
    """Saved game data that does not rebuild a game (a corrupt or hand-edited state file)."""


def new_game(setup: Any) -> Game:
    """A game from its setup line ``{"game": ..., "players": [...], "rules": {...}}`` (RULES.md §4).

    Missing rules take the RULES.md defaults (see ``game.setup``). Raises SetupError (a ValueError)
    naming the bad key or value.
    """
    if not isinstance(setup, dict):
        raise SetupError(f"the setup must be a JSON object, got {brief(setup)}", "setup.form")
    kind = GAMES.get(setup.get("game")) if isinstance(setup.get("game"), str) else None
    if kind is None:
        raise SetupError(f"game = {brief(setup.get('game'))}: must be one of {', '.join(GAMES)}", "setup.game")
    return kind(kind.check_setup(setup))


def replay(setup: Any, actions: list) -> tuple[Game, list[list[dict]]]:
    """Play ``actions`` (a game log after its setup line, ``undo`` lines included) from ``setup``.

    Returns the game and, per action, the list of events it gave (rejected actions give their
    ``error`` event and change nothing). Raises SetupError for a bad setup.
    """
    game = new_game(setup)
    return game, [game.apply(action) for action in actions]


def restore(data: Any) -> Game:
    """The game saved by ``game.to_json()``: replays its setup and actions (undo works again).

    Raises RestoreError if the data is not a saved game, an action is rejected, or the saved state
    differs from the one its actions lead to.
    """
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise RestoreError("not a saved game: expected an object with setup, actions and state")
    try:
        game = new_game(data.get("setup"))
    except SetupError as exc:
        raise RestoreError(f"saved setup: {exc}") from None
    for n, action in enumerate(data["actions"], 1):
        events = game.apply(action)
        if "error" in events[0]:
            raise RestoreError(f"saved action {n} {brief(action)} is not accepted: {events[0]['error']['reason']}")
    if "state" in data:
        try:  # canonical JSON text: key order does not matter
            saved = json.dumps(data["state"], sort_keys=True)
        except (TypeError, ValueError, RecursionError):  # not JSON, or nested past what json walks
            saved = None
        if saved != game.state_json():
            raise RestoreError("the saved state differs from the one its actions lead to")
    return game


__all__ = ["GAMES", "SETUP_REFUSALS", "Game", "RestoreError", "SetupError", "new_game", "replay", "restore"]
