"""What the kiosk tells the table for the Biscuit rows that match two rows (RULES.md §2 "Rolls that
match two rows", switch ``combined``): the announcements (the transcript and the voice say the same)
and the prompt of the play screen. Driven through the kiosk's core (``App``) as the camera pipeline and the
touch screen drive it; no pygame."""

from __future__ import annotations

from appliance.kiosk.app import App, Hooks
from appliance.kiosk.view import build
from vision.reading import DiceReading, Die


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


class Table:
    """The kiosk core with every announcement kept as (text, detail)."""

    def __init__(self, kind: str, players, **rules) -> None:
        self.said: list[tuple[str, str]] = []
        self.app = App(players=list(players), clock=lambda: 0.0, maexle_odds=True, rules={kind: rules},
                       hooks=Hooks(announce=lambda items: self.said.extend((a.text, a.detail) for a in items)))
        self.app.game_kind = kind
        assert self.app.start_game()
        self.session = self.app.session

    def roll(self, *values: int) -> list[tuple[str, str]]:
        """A settled camera reading; returns what it announced."""
        before, taken = len(self.said), len(self.session.game.actions)
        self.app.on_reading(reading(*values))
        assert len(self.session.game.actions) == taken + 1, self.app.message
        return self.said[before:]

    def choose(self, cid: str) -> list[tuple[str, str]]:
        before = len(self.said)
        self.app.choose(cid)
        return self.said[before:]

    def view(self):
        for _ in range(50):
            self.app.dismiss_banner()
        return build(self.app)


# ---------------------------------------------------------------------------------------- Biscuit

def crowned(**rules) -> Table:
    t = Table("biscuit", ["Ann", "Bo", "Cy", "Dace"], **rules)
    t.roll(3, 4)  # Ann: 7, the Biscuit
    assert t.session.game.biscuit == "Ann"
    return t


def test_a_double_three_tells_the_picked_drinks_from_the_biscuits_own():
    t = crowned()
    t.roll(3, 3)
    t.choose("pick:Ann")  # the Biscuit may pick themselves too
    t.choose("pick:Bo")
    said = t.choose("pick:Cy")
    assert said == [("Ann takes 1 sip", "3-3: picked by the Biscuit"), ("Bo takes 1 sip", "3-3: picked by the Biscuit"),
                    ("Cy takes 1 sip", "3-3: picked by the Biscuit"),
                    ("Ann takes 2 sips", "3-3: the Biscuit drinks 2 and steps down"), ("No Biscuit: roll for a 7", "")]


def test_three_four_goes_straight_to_the_thumbs_race_not_to_rolling_for_seven():
    t = crowned()
    said = t.roll(4, 3)
    assert said == [("Ann takes 1 sip", "a 3: the Biscuit steps down"),
                    ("Thumbs on foreheads!", "The last one is the new Biscuit")]
    assert t.view().prompt == "Thumbs on foreheads! Who was last?"


def test_under_three_only_a_roll_with_a_three_is_the_three_row_alone():
    t = crowned(combined="three_only")
    assert t.roll(4, 3) == [("Ann takes 1 sip", "a 3: the Biscuit steps down"), ("No Biscuit: roll for a 7", "")]
    view = t.view()
    assert view.prompt == "Roll the dice: a 7 makes the Biscuit" and view.player == "Bo"
    t.roll(2, 5)  # Bo: the Biscuit
    assert t.roll(3, 3) == [("Bo takes 2 sips", "3-3: the Biscuit drinks 2 and steps down"),
                            ("No Biscuit: roll for a 7", "")]
