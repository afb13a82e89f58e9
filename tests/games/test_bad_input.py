"""Bad input at the engine's edges: whatever JSON-like junk arrives, ``apply`` answers with an
``error`` event (never raises, never changes the state) and ``new_game`` with a SetupError, and the
reasons stay short enough for the kiosk and the log."""

import json

import pytest

from appliance.games import SetupError, new_game, restore

from .helpers import game, play, refused

SHORT = 400  # characters: a reason the kiosk can show on one or two lines


def nested(depth: int, leaf=1):
    """A list nested ``depth`` deep (deeper than Python's repr or json can walk at 2000)."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def started(kind):
    g = game(kind, ["Ann", "Bo", "Cy"])
    if kind == "yacht":
        play(g, {"roll": [6, 6, 6, 6, 6]}, {"roll": [1, 1, 1, 1, 1]}, {"roll": [1, 1, 1, 1, 2]},
             {"roll": [1, 2, 3, 4, 5]})
    if kind == "biscuit":
        play(g, {"roll": [3, 4]}, {"roll": [6, 6]})  # a rule, so rule_broken is open too
    return g


KEYS = {"maexle": ["announce", "reveal", "accept", "self_reveal", "blind_pass", "roll", "undo"],
        "biscuit": ["roll", "pick", "thumbs_last", "rule_broken", "undo"],
        "yacht": ["roll", "declare", "stop", "undo"]}


@pytest.mark.parametrize("kind, key", [(k, key) for k, keys in KEYS.items() for key in keys])
def test_deeply_nested_values_are_refused_without_raising(kind, key):
    g = started(kind)
    reason = refused(g, {key: nested(2000)})
    assert len(reason) < SHORT


@pytest.mark.parametrize("kind", list(KEYS))
def test_a_deeply_nested_action_is_refused_without_raising(kind):
    g = started(kind)
    assert len(refused(g, nested(2000))) < SHORT


@pytest.mark.parametrize("kind, key", [(k, key) for k, keys in KEYS.items() for key in keys])
def test_huge_values_give_a_short_reason(kind, key):
    g = started(kind)
    for value in ("x" * 1_000_000, list(range(100_000)), 10 ** 5000, {"k" * 1000: ["v"] * 1000}):
        assert len(refused(g, {key: value})) < SHORT


def test_a_huge_unknown_action_key_gives_a_short_reason():
    g = started("maexle")
    assert len(refused(g, {"x" * 1_000_000: True})) < SHORT


@pytest.mark.parametrize("setup", [
    nested(2000),
    {"game": nested(2000), "players": ["Ann", "Bo"]},
    {"game": "maexle", "players": nested(2000)},
    {"game": "maexle", "players": ["Ann", "Bo"], "rules": nested(2000)},
    {"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": nested(2000)}},
    {"game": "maexle", "players": ["Ann", "Bo"], "rules": {"truth": "x" * 1_000_000}},
    {"game": "maexle", "players": ["Ann", "Bo"], nested(1, "k" * 1_000_000)[0]: 1},
])
def test_a_setup_of_deep_or_huge_junk_raises_a_short_setup_error(setup):
    with pytest.raises(SetupError) as exc:
        new_game(setup)
    assert len(str(exc.value)) < SHORT


def test_a_restore_with_a_deep_action_raises_restore_error():
    from appliance.games import RestoreError

    g = started("maexle")
    data = g.to_json()
    data["actions"].append({"announce": nested(2000)})
    with pytest.raises(RestoreError) as exc:
        restore(data)
    assert len(str(exc.value)) < SHORT


def test_error_events_of_ordinary_junk_still_serialise():
    g = started("maexle")
    for junk in ({"announce": "54"}, {"roll": [1, 2, 3]}, {"shout": None}, [1, 2], "roll"):
        json.dumps(g.apply(junk))


def test_a_restore_with_a_deeply_nested_state_raises_restore_error():
    from appliance.games import RestoreError

    data = started("maexle").to_json()
    data["state"] = nested(5000)
    with pytest.raises(RestoreError, match="differs"):
        restore(data)


def test_refusals_quote_the_value_as_the_game_log_writes_it_not_as_python_does():
    g = game("maexle", ["Ann", "Bo", "Cy"])
    assert refused(g, {"announce": None}).startswith("null is not a Mäxle value")
    play(g, {"announce": 54}, {"reveal": True})
    reason = refused(g, {"roll": [True, 5]})
    assert "got [true, 5]" in reason and "True" not in reason
