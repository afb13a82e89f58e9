"""Lists longer than a screen holds at 20 px come a page at a time: the seats on the setup screen and
Biscuit's players to pick, with a button turning the page that comes round to the first; every
seat and player is on some page, and a page never holds more than the screen has room for."""

from __future__ import annotations

from appliance.kiosk.app import App
from appliance.kiosk.view import PAGE_CELLS, SEATS_PAGE
from vision.reading import DiceReading, Die

TWENTY = [f"Player {n:02d}" for n in range(1, 21)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


def pages(app: App, verb: str, most: int = 99) -> list[list[str]]:
    """The arguments of the ``verb`` choices on each page, turning pages until the first comes back;
    no page has more than ``most`` choices of its own kind (the setup's seats: 3 each)."""
    seen: list[list[str]] = []
    for _ in range(20):
        ids = [c.id for c in app.view().choices]
        assert len([i for i in ids if i.startswith(verb + ":") or i in ("unpick", "picked", "page")]) <= most
        page = [i.partition(":")[2] for i in ids if i.startswith(verb + ":")]
        if seen and page == seen[0]:
            return seen
        seen.append(page)
        if "page" not in ids:
            return seen
        app.choose("page")
    raise AssertionError("the pages never come round")


def test_twenty_seats_come_in_pages_and_a_seat_added_shows_on_its_page():
    app = App(players=list(TWENTY), clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    seen = pages(app, "seat")
    assert [int(i) for page in seen for i in page] == list(range(20))
    assert all(len(page) < SEATS_PAGE for page in seen) and len(seen) == 4  # a cell turns the page
    app.setup.seats.pop()
    app.choose("add")
    for ch in "Zoe":
        app.choose(f"key:{ch}")
    app.choose("named")
    assert app.screen == "setup" and "Zoe" in [c.label for c in app.view().choices]


def test_a_few_seats_need_no_page():
    app = App(players=TWENTY[:SEATS_PAGE], clock=lambda: 0.0)
    assert "page" not in [c.id for c in app.view().choices]
    assert len(pages(app, "seat")[0]) == SEATS_PAGE


def test_a_pick_among_twenty_players_comes_in_pages_and_the_next_list_starts_on_its_first():
    app = App(players=list(TWENTY), clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(3, 4))  # a Biscuit
    app.on_reading(reading(2, 2))  # pick 2 players to drink
    seen = pages(app, "pick", most=PAGE_CELLS)
    assert sorted(p for page in seen for p in page) == sorted(app.session.need.options)
    app.choose("page")
    assert [c.id for c in app.view().choices if c.id.startswith("pick:")] == [f"pick:{p}" for p in seen[1]]
    last = seen[1][-1]
    app.choose(f"pick:{last}")
    assert "picked" not in [c.id for c in app.view().choices] and app.play.picked == [last]
    app.choose(f"pick:{seen[0][0]}")  # the second pick confirms both
    assert app.session.last_action == {"pick": [last, seen[0][0]]}
    app.on_reading(reading(1, 2))  # the next list: a challenger for the duel, from its first page
    assert [c.id for c in app.view().choices if c.id.startswith("pick:")][0] == f"pick:{app.session.need.options[0]}"


def test_the_page_button_holds_its_place_beside_undo_pick():
    app = App(players=list(TWENTY), clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.on_reading(reading(3, 4))
    app.on_reading(reading(2, 2))
    ids = [c.id for c in app.view().choices]
    assert ids[-2:] == ["unpick", "page"] and len(ids) == PAGE_CELLS
