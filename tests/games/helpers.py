"""Small helpers the engine tests share: play actions that must be accepted, pick events by kind."""

from __future__ import annotations

from appliance.games import Game, new_game


def game(kind: str, players: list[str], **rules) -> Game:
    """A new game of ``kind`` for ``players`` with the given house-rule switches."""
    return new_game({"game": kind, "players": players, "rules": rules})


def play(g: Game, *actions: dict) -> list[dict]:
    """Apply ``actions`` in turn, failing the test on any ``error`` event; returns all events."""
    events: list[dict] = []
    for action in actions:
        got = g.apply(action)
        assert not any("error" in e for e in got), (action, got)
        events += got
    return events


def refused(g: Game, action: dict) -> str:
    """Apply an action that must be refused: checks the error shape (a refusal code the game names)
    and that nothing changed; returns the reason."""
    return refusal(g, action)["reason"]


def refusal(g: Game, action: dict) -> dict:
    """``refused``, returning the whole error payload: action, reason, code and facts."""
    state, log = g.state_json(), g.actions
    got = g.apply(action)
    assert len(got) == 1 and "error" in got[0], (action, got)
    assert got[0]["error"]["action"] == action
    assert got[0]["error"]["code"] in type(g).refusals, got
    assert g.state_json() == state and g.actions == log
    return got[0]["error"]


def of(events: list[dict], kind: str) -> list:
    """The payloads of the events of one kind, in order."""
    return [e[kind] for e in events if kind in e]
