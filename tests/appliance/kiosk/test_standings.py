"""The standings panel and the game over screen, readable from 2 metres: at 800x480 no name or count
under 20 px and none cut short, with 20 players too (the players nearest the turn first, then "and
N more"); counts in words, never "8 / 3"; the Yacht game over screen shows the totals, the whole
sheet a button away; the line under an announcement at 20 px or more."""

from __future__ import annotations

import pygame
import pytest

from appliance import i18n
from appliance.kiosk import theme as th
from appliance.kiosk.app import App
from appliance.kiosk.draw import draw
from appliance.kiosk.standings import draw_standings, nearest
from appliance.table.base import Row
from vision.reading import DiceReading, Die

SMALL = (800, 480)
LONG = ["Bartholomäus W", "Jānis Ozoliņš", "Вячеслав Петр"]
TWENTY = [f"Spieler {n:02d} lang" for n in range(1, 21)]


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 * i + 20, 20.0), (40 * i, 0, 36, 36)) for i, v in enumerate(values)))


def shown(app: App, size=SMALL) -> None:
    app.banners.clear()
    app.banner = None
    draw(pygame.Surface(size), app.view(), th.Theme(*size))


@pytest.fixture(params=i18n.LANGUAGES)
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_the_rows_nearest_the_turn_come_first_from_the_player_on_turn():
    rows = [Row(p, "0", current=p == "C") for p in "ABCDE"]
    assert [r.name for r in nearest(rows, 3)] == ["C", "D", "E"]
    assert [r.name for r in nearest(rows, 9)] == ["C", "D", "E", "A", "B"]


def test_maexle_with_20_players_shows_the_cup_holder_in_full_and_the_next_ones_at_20_px(lang, text_sizes):
    app = App(players=list(TWENTY))
    app.setup.game_kind, app.setup.seats = "maexle", list(TWENTY)
    assert app.start_game()
    for value in (31, 32, 41, 42, 43, 51, 52):  # the cup goes round to the 8th player
        app.choose(f"announce:{value}")
    holder = app.session.need.player
    view = app.view()
    shown(app)
    more = i18n.ngettext("and {count} more player", "and {count} more players", 2).split("{count}")[0]
    panel = set(TWENTY) | {r.value for r in view.standings} | {view.standings_title, i18n._("cup")}
    drawn = [(c, h, cut) for c, h, cut in text_sizes.drawn if c in panel or c.startswith(more)]
    least = th.Theme(*SMALL).font(20).get_height()
    assert all(h >= least and not cut for _c, h, cut in drawn), drawn
    names = [c for c, _h, _cut in drawn]
    assert holder in names and TWENTY[TWENTY.index(holder) + 1] in names and names.index(holder) < names.index(
        TWENTY[TWENTY.index(holder) + 1])
    assert any(c.startswith(more) for c in names)


def test_a_panel_with_room_shows_every_player_without_a_more_line(text_sizes):
    pygame.init()
    surface = pygame.Surface(SMALL)
    rows = [Row(p, "2", current=i == 0, mark="cup" if i == 0 else "") for i, p in enumerate(LONG)]
    draw_standings(surface, th.Theme(*SMALL), pygame.Rect(0, 0, 300, 200), "Penalty points", rows)
    assert [c for c, _h, _cut in text_sizes.drawn if c in LONG] == LONG
    assert not text_sizes.small(SMALL)


def test_the_yacht_game_over_shows_the_totals_at_20_px_and_the_sheet_is_a_button_away(lang, text_sizes):
    app = App(players=list(LONG))
    app.setup.game_kind, app.setup.seats = "yacht", list(LONG)
    assert app.start_game()
    s = app.session
    while s.need.kind == "roll" and s.need.step == "order":
        app.on_reading(reading(*((6, 6, 6, 6, 5) if s.need.player == LONG[0] else (1, 2, 3, 4, 6))))
    while not s.over:
        need = s.need
        if need.kind == "roll":
            app.on_reading(reading(5, 5, 2, 2, 1))
        elif need.kind == "declare":
            app.choose(f"declare:{need.options[0]}")
        else:
            app.choose("stop")
    text_sizes.clear()
    shown(app)
    body = [(c, h, cut) for c, h, cut in text_sizes.drawn if c in LONG or c.isdigit()]
    least = th.Theme(*SMALL).font(20).get_height()
    assert len(body) >= 2 * len(LONG) and all(h >= least and not cut for _c, h, cut in body), body
    assert "sheet" in [c.id for c in app.view().choices]
    app.choose("sheet")
    assert app.screen == "sheet"
    app.choose("back")
    assert app.screen == "over"


def test_the_evenings_counts_on_the_game_over_screen_are_words_not_8_slash_3_at_20_px(text_sizes):
    app = App(players=list(LONG))
    app.setup.game_kind, app.setup.seats = "biscuit", list(LONG)
    assert app.start_game()
    app.on_reading(reading(3, 4))  # a Biscuit
    app.on_reading(reading(1, 1))  # everyone drinks
    app.end_game()
    app.setup.game_kind = "maexle"
    assert app.start_game()
    app.choose("announce:31")
    app.choose("reveal")
    app.on_reading(reading(2, 1))  # 21 shown against 31: the announcer is right, the revealer pays
    app.end_game()
    values = [r.value for r in app.view().standings]
    assert all("/" not in v for v in values)
    assert any("drink" in v and "penalty point" in v for v in values), values
    shown(app)
    least = th.Theme(*SMALL).font(20).get_height()
    drawn = [(c, h, cut) for c, h, cut in text_sizes.drawn if c in values or c in LONG]
    assert {c for c, _h, _cut in drawn} >= set(values) and all(h >= least and not cut for _c, h, cut in drawn), drawn


def test_the_line_under_an_announcement_is_at_least_20_px_in_every_language(lang, text_sizes):
    app = App(players=list(LONG))
    app.setup.game_kind, app.setup.seats = "biscuit", list(LONG)
    assert app.start_game()
    details = set()
    for roll in ((2, 4), (3, 4), (1, 1), (4, 5), (5, 6), (4, 6), (2, 5)):
        app.on_reading(reading(*roll))
        app.tick()
        while app.banner is not None:
            details.add(app.banner.announcement.detail)
            draw(pygame.Surface(SMALL), app.view(), th.Theme(*SMALL))
            app.dismiss_banner()
    details.discard("")
    assert details
    least = th.Theme(*SMALL).font(20).get_height()
    for content, height, cut in text_sizes.drawn:
        if content in details:
            assert height >= least and not cut, (content, height)


def test_the_score_sheet_screen_pages_categories_and_players_so_its_text_stays_at_20_px(text_sizes):
    players = LONG + ["Dora", "Emil"]
    app = App(players=list(players))
    app.setup.game_kind, app.setup.seats = "yacht", list(players)
    assert app.start_game()
    app.choose("menu")
    app.choose("sheet")
    pages = []
    for _ in range(4):
        view = app.view()
        pages.append((view.sheet.players, view.sheet.categories))
        draw(pygame.Surface(SMALL), view, th.Theme(*SMALL))
        app.choose("page")
    assert len(set(pages)) == 4  # 2 groups of players x 2 halves of the sheet
    assert {c for p, _c in pages for c in p} == set(players) and all(len(p) <= 3 for p, _c in pages)
    assert len({c for _p, cats in pages for c in cats}) == 12
    least = th.Theme(*SMALL).font(20).get_height()
    sheet_texts = set(players) | {c for _p, cats in pages for c in cats}
    drawn = [(c, h) for c, h, _cut in text_sizes.drawn if c in sheet_texts]
    assert drawn and all(h >= least for _c, h in drawn), [d for d in drawn if d[1] < least]
    app.choose("back")
    assert app.screen == "play"


SIX = ["Maximilian-Al", "Anastasija Jē", "Ёлкина-Палкин", "WWWWWWWWWWWWWW", "Bo", "Zoë"]


@pytest.mark.parametrize("size", [SMALL, (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_winner_screen_shows_the_evening_of_six_players_in_full(lang, size, text_sizes):
    """Six players with drinks and penalty points ("9 drinks, 2 penalty points"): each one's name
    and totals on the winner screen, at 20 px or more, no "and N more"."""
    app = App(players=list(SIX))
    app.setup.game_kind, app.setup.seats = "biscuit", list(SIX)
    assert app.start_game()
    for roll in ((3, 4), (1, 1), (1, 1), (4, 5), (5, 6)):
        app.on_reading(reading(*roll))
    app.end_game()
    app.setup.game_kind = "maexle"
    assert app.start_game()
    while not app.session.over:
        need = app.session.need
        if need.kind == "announce":
            app.choose("announce:31")
        elif need.kind == "decide":
            app.choose("self_reveal" if "self_reveal" in need.actions else "reveal")
        else:
            app.on_reading(reading(3, 1))
    assert app.screen == "over"
    view = app.view()
    assert len(view.standings) == 6 and any(", " in r.value for r in view.standings)
    text_sizes.clear()
    shown(app, size)
    drawn = {c for c, _h, _cut in text_sizes.drawn}
    assert set(SIX) <= drawn and {r.value for r in view.standings} <= drawn
    more = i18n.ngettext("and {count} more player", "and {count} more players", 2).split("{count}")[0]
    assert not any(c.startswith(more) for c in drawn)
    assert not text_sizes.small(size), "\n".join(text_sizes.small(size))


def test_the_winners_badge_stays_beside_the_name_when_the_count_in_words_takes_the_next_line(monkeypatch):
    # On a line of its own under the count, the pill looked like the next player's.
    from appliance.kiosk import widgets

    pygame.init()
    boxes: dict[str, pygame.Rect] = {}
    monkeypatch.setattr(widgets, "text_hook", lambda content, _drawn, box: boxes.setdefault(content, pygame.Rect(box)))
    rows = [Row("Ann", "4 drinks, 3 penalty points"), Row("Bo", "8 drinks, 3 penalty points", mark="winner"),
            Row("Cy", "6 drinks, 2 penalty points")]
    draw_standings(pygame.Surface(SMALL), th.Theme(*SMALL), pygame.Rect(8, 115, 392, 212), "The evening", rows)
    name, pill, count = boxes["Bo"], boxes[i18n._("winner")], boxes["8 drinks, 3 penalty points"]
    assert abs(pill.centery - name.centery) < name.height // 2 < count.top - name.top
    assert count.bottom <= boxes["Cy"].top
