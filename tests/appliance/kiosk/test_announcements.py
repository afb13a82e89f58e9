"""What the kiosk tells the table for the engine's tie switches, the Biscuit rows that match two rows
(RULES.md §2 "Rolls that match two rows", switch ``combined``) and an announced Mäxle: the
announcements (the transcript and the voice say the same) and the prompt, info and hint lines of the
play and game-over screens. Driven through the kiosk's core (``App``) as the camera pipeline and the
touch screen drive it; no pygame."""

from __future__ import annotations

from appliance.kiosk.app import App, Hooks
from vision.reading import DiceReading, Die


def reading(*values: int) -> DiceReading:
    return DiceReading("ok", tuple(Die(v, (40.0 + 60 * i, 60.0), (20 + 60 * i, 40, 40, 40)) for i, v in enumerate(values)))


class Table:
    """The kiosk core with every announcement kept as (text, detail)."""

    def __init__(self, kind: str, players, **rules) -> None:
        self.said: list[tuple[str, str]] = []
        self.app = App(players=list(players), clock=lambda: 0.0, maexle_odds=True, rules={kind: rules},
                       hooks=Hooks(announce=lambda items: self.said.extend((a.text, a.detail) for a in items)))
        self.app.setup.game_kind = kind
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
        return self.app.view()


# ------------------------------------------------------------------------------------------ Yacht

def tied_yacht(**rules) -> Table:
    """Ann and Bo (Ann starts) play 12 rounds alike: the same roll, the same category, stopped at once."""
    t = Table("yacht", ["Ann", "Bo"], **rules)
    t.roll(6, 6, 6, 6, 5)
    t.roll(1, 1, 1, 2, 2)
    categories = ["ones", "twos", "threes", "fours", "fives", "sixes", "small_straight", "large_straight",
                  "full_house", "four_of_a_kind", "choice", "yacht"]
    for category in categories:
        for _player in ("Ann", "Bo"):
            t.roll(1, 2, 3, 4, 5)
            t.choose(f"declare:{category}")
            t.choose("stop")
    return t


def test_a_final_tie_is_rolled_off_with_its_own_prompt_and_every_throw_announced():
    t = tied_yacht(final_tie="roll_off")
    total = t.session.game.totals["Ann"]
    assert t.session.game.totals["Bo"] == total
    assert (f"Tie at {total}: Ann and Bo roll off", "One throw each, the highest total wins; it scores nothing") \
        in t.said
    view = t.view()
    assert view.prompt == "Roll-off: the highest total wins" and view.big_prompt
    assert view.info == f"Tied at {total}: Ann and Bo" and "Round" not in view.info
    assert view.player == "Ann"
    assert t.roll(4, 4, 4, 3, 3) == [("Ann rolls 18", "4 4 4 3 3")]
    said = t.roll(4, 4, 4, 4, 2)  # Bo 18 too: they roll off again
    assert said == [("Bo rolls 18", "4 4 4 4 2"), ("Tie at 18: Ann and Bo roll off",
                                                  "One throw each, the highest total wins; it scores nothing")]
    assert t.view().prompt == "Roll-off: the highest total wins"
    t.roll(6, 6, 5, 5, 1)
    said = t.roll(2, 2, 1, 1, 1)
    assert said == [("Bo rolls 7", "2 2 1 1 1"), ("Ann wins!", "won the roll-off")]
    assert t.app.screen == "over" and t.session.game.totals == {"Ann": total, "Bo": total}
    assert t.view().prompt == "Ann wins the roll-off!"


def test_a_shared_final_tie_has_no_roll_off():
    t = tied_yacht()
    assert t.said[-1] == ("Ann and Bo win!", "")
    assert t.app.screen == "over" and t.view().prompt == "Ann and Bo win!"


def test_an_order_tie_settled_by_the_seat_says_so_and_who_starts():
    t = Table("yacht", ["Ann", "Bo", "Cy"], order_tie="seat")
    t.roll(1, 1, 1, 1, 1)
    t.roll(3, 3, 3, 3, 3)
    said = t.roll(5, 4, 3, 2, 1)  # Cy 15 too: Bo, seated before Cy, starts
    assert said == [("Cy rolls 15", "5 4 3 2 1"), ("Tie at 15: Bo and Cy", "The tied player seated first starts"),
                    ("Bo starts", "Bo → Cy → Ann")]


def test_an_order_tie_rolled_again_names_who_rolls():
    t = Table("yacht", ["Ann", "Bo", "Cy"])
    t.roll(1, 1, 1, 1, 1)
    t.roll(3, 3, 3, 3, 3)
    assert t.roll(5, 4, 3, 2, 1)[-1] == ("Tie at 15: Bo and Cy roll again", "")
    view = t.view()
    assert view.prompt == "Roll all five: the highest total starts" and view.info == "Rolling again: Bo and Cy"
    assert view.player == "Bo"


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
    view = t.view()
    assert view.prompt == "Thumbs on foreheads! Who was last?" and view.player == "Everyone"


def test_under_three_only_a_roll_with_a_three_is_the_three_row_alone():
    t = crowned(combined="three_only")
    assert t.roll(4, 3) == [("Ann takes 1 sip", "a 3: the Biscuit steps down"), ("No Biscuit: roll for a 7", "")]
    view = t.view()
    assert view.prompt == "Roll the dice: a 7 makes the Biscuit" and view.player == "Bo"
    t.roll(2, 5)  # Bo: the Biscuit
    assert t.roll(3, 3) == [("Bo takes 2 sips", "3-3: the Biscuit drinks 2 and steps down"),
                            ("No Biscuit: roll for a 7", "")]


def test_under_rotate_the_rows_are_counted_from_the_roller_and_only_a_3_is_the_biscuits():
    t = crowned(roller="rotate")
    assert t.roll(1, 4) == [("Ann rolls 1-4: nothing happens", "The next player rolls")]
    assert t.roll(6, 4) == [("Bo takes 1 sip", "4-6: the roller drinks")]
    assert t.roll(6, 5) == [("Dace takes 1 sip", "5-6: the player left of the roller")]
    assert t.roll(5, 4) == [("Cy takes 1 sip", "4-5: the player right of the roller")]
    t.roll(2, 4)  # Ann: nothing
    assert t.roll(3, 1) == [("Bo takes 1 sip", "a 3: the roller drinks, the Biscuit steps down"),
                            ("No Biscuit: roll for a 7", "")]
    t.roll(3, 4)  # Bo, left of the old Biscuit, rolls first for a 7: the new Biscuit, and rolls next
    assert t.session.game.biscuit == "Bo"
    t.roll(2, 2)  # Bo picks two
    t.choose("pick:Cy")
    assert t.choose("pick:Ann") == [("Cy takes 1 sip", "2-2: picked by the roller"),
                                    ("Ann takes 1 sip", "2-2: picked by the roller")]
    t.roll(3, 3)  # Cy picks three, then drinks 2, and Bo stops being the Biscuit
    t.choose("pick:Ann")
    t.choose("pick:Bo")
    said = t.choose("pick:Dace")
    assert said[:3] == [(f"{p} takes 1 sip", "3-3: picked by the roller") for p in ("Ann", "Bo", "Dace")]
    assert said[3:] == [("Cy takes 2 sips", "3-3: the roller drinks 2, the Biscuit steps down"),
                        ("No Biscuit: roll for a 7", "")]
    assert t.session.game.biscuit is None


# ------------------------------------------------------------------------------------------ Mäxle

def test_after_an_announced_maexle_the_receiver_is_asked_accept_or_reveal_with_the_chance_it_is_real():
    t = Table("maexle", ["Ann", "Bo", "Cy"])
    t.choose("announce:54")
    view = t.view()
    assert view.prompt == "Ann says 54: believe or reveal?" and "beats 54" in view.hint
    t.choose("believe")
    t.choose("announce:21")
    view = t.view()
    assert view.prompt == "Cy says Mäxle: accept or reveal?"
    assert [c.id for c in view.choices] == ["reveal", "accept"]
    assert view.hint == "Odds: a roll is a real Mäxle 2 times in 36 (6%)" and "beats" not in view.hint


def test_an_announcement_tells_the_receiver_to_match_or_beat_it_where_the_rules_allow_matching():
    # RULES.md §1 switch announce = strictly_higher | higher_or_equal
    strictly, matching = Table("maexle", ["Ann", "Bo"]), Table("maexle", ["Ann", "Bo"], announce="higher_or_equal")
    assert strictly.choose("announce:54") == [("Ann announces 54", "Bo: believe and beat it, or reveal")]
    assert matching.choose("announce:54") == [("Ann announces 54", "Bo: believe and match or beat it, or reveal")]


def test_the_odds_of_believing_count_a_matching_roll_where_the_rules_allow_matching():
    # A fresh roll's chance to beat 54 is 1/2; to match or beat it 5/9 (54 itself is 2 of 36).
    strictly, matching = Table("maexle", ["Ann", "Bo"]), Table("maexle", ["Ann", "Bo"], announce="higher_or_equal")
    strictly.choose("announce:54")
    matching.choose("announce:54")
    assert strictly.view().hint.startswith("Odds: a fresh roll beats 54 50% of the time")
    assert matching.view().hint.startswith("Odds: a fresh roll matches or beats 54 56% of the time")


def test_a_self_reveal_that_beats_the_announcement_is_announced_as_no_point_and_a_new_round():
    t = Table("maexle", ["Ann", "Bo", "Cy"])
    t.choose("announce:54")
    t.app.act({"self_reveal": True})
    said = t.roll(6, 6)
    assert said == [("Cy shows 66", "It beats 54: no penalty, a new round")]


def test_a_self_reveal_that_beats_the_announcement_under_self_reveal_beats_costs_is_shown_and_charged():
    t = Table("maexle", ["Ann", "Bo", "Cy"], self_reveal_beats="costs")
    t.choose("announce:54")
    t.app.act({"self_reveal": True})
    said = t.roll(6, 6)
    assert said[0] == ("Cy shows 66", "") and "no penalty" not in str(said)


def test_a_self_reveal_that_matches_the_announcement_where_matching_is_allowed_is_told_as_matching():
    # RULES.md §1 announce = higher_or_equal: 43 shown for an announced 43 is as good as beating it.
    t = Table("maexle", ["Ann", "Bo", "Cy"], announce="higher_or_equal")
    t.choose("announce:43")
    t.app.act({"self_reveal": True})
    assert t.roll(3, 4) == [("Cy shows 43", "It matches 43: no penalty, a new round")]


def test_a_biscuit_roll_that_changes_nothing_names_who_threw_it():
    """The header already names the next roller: the banner says whose roll it was."""
    t = Table("biscuit", ["Ann", "Bo", "Cy"])
    assert t.roll(2, 3) == [("Ann rolls 5: no Biscuit yet", "3 2")]
    t.roll(3, 4)  # Bo is the Biscuit
    assert t.roll(1, 4)[0] == ("Bo rolls 1-4: nothing happens", "The Biscuit rolls again")


# ------------------------------------------------------------------------------------- drink cap

def capped_biscuit(cap: int) -> Table:
    t = Table("biscuit", ["Ann", "Bo", "Cy"])
    t.app.drink_cap = cap
    t.app._cap(t.session)
    t.roll(3, 4)  # Ann is the Biscuit
    return t


def test_drinks_past_the_cap_are_announced_as_water_and_the_counts_keep_both():
    t = capped_biscuit(2)
    assert t.roll(4, 6) == [("Ann takes 1 sip", "4-6: the Biscuit drinks")]
    t.roll(4, 6)
    assert t.roll(4, 6) == [("Ann: 1 × water", "past the drink cap")]
    assert t.app.evening()["Ann"] == {"drinks": 3, "penalties": 0, "water": 1}


def test_a_drink_that_crosses_the_cap_is_split_into_drinks_and_water():
    t = capped_biscuit(3)
    t.roll(4, 6)  # Ann: 1
    said = t.roll(3, 3)  # 3 players: everyone drinks 1 (Ann: 2), then Ann drinks 2 and steps down
    assert ("Ann takes 1 sip", "then 1 × water: past the drink cap") in said
    assert t.app.evening()["Ann"] == {"drinks": 4, "penalties": 0, "water": 1}
    assert "water" not in t.app.evening()["Bo"] or t.app.evening()["Bo"]["water"] == 0


def test_the_evening_says_how_many_of_a_players_drinks_were_water():
    # README "Drink cap": drinks counts every drink, water those past the cap; both are said.
    from appliance.kiosk.chart import summary_lines

    t = capped_biscuit(2)
    for _ in range(3):
        t.roll(4, 6)  # Ann: 2 sips, then 1 × water
    t.choose("menu"); t.choose("end"); t.choose("yes")
    assert ("Ann", "3 (1 as water)") in [(r.name, r.value) for r in t.view().standings]
    t.app.end_evening()
    assert "  Ann: 3 drinks (1 as water)" in summary_lines(t.app.view().summary)


def test_there_is_no_drink_cap_by_default():
    from appliance import config

    assert config.defaults().drinks.cap == 0
    t = Table("biscuit", ["Ann", "Bo", "Cy"])
    t.roll(3, 4)
    for _ in range(30):
        said = t.roll(4, 6)
    assert said == [("Ann takes 1 sip", "4-6: the Biscuit drinks")]


def test_the_menu_sets_the_drink_cap_and_the_store_keeps_it(tmp_path):
    from appliance.store import Store

    app = App(store=Store.open(tmp_path), players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    app.setup.game_kind = "biscuit"
    assert app.start_game()
    app.choose("menu")
    assert [c.label for c in app.view().choices if c.id == "cap"] == ["Drink cap: off"]
    app.choose("cap")
    assert app.drink_cap == 2 and app.session.drink_cap == 2
    assert [c.label for c in app.view().choices if c.id == "cap"] == ["Drink cap: 2"]
    again = App(store=Store.open(tmp_path), players=["Ann", "Bo", "Cy"], clock=lambda: 0.0)
    assert again.resume() and again.session.drink_cap == 2
