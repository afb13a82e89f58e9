"""``dicetable advise``: the command line of the coach (DESIGN.md, the issue's examples)."""

from __future__ import annotations

import json

import pytest

from appliance.cli import main


def advise(capsys, *argv):
    status = main(["advise", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_best_declaration_with_the_next_best_ones_as_json(capsys, default_cache):
    status, out, _ = advise(capsys, "yacht", "--roll", "5", "5", "2", "2", "1", "--used", "full_house,yacht", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["roll"] == [1, 2, 2, 5, 5] and answer["used"] == ["full_house", "yacht"]
    ranked = answer["declarations"]
    assert len(ranked) == 10 and {d["category"] for d in ranked}.isdisjoint({"full_house", "yacht"})
    assert ranked[0]["total"] >= ranked[-1]["total"]


@pytest.mark.parametrize("roll", [["5 5 2 2 1"], ["5,5,2,2,1"], ["5 5", "2 2", "1"]])
def test_the_roll_may_be_one_quoted_word_as_teach_takes_its_values(capsys, default_cache, roll):
    status, out, _ = advise(capsys, "yacht", "--roll", *roll, "--json")
    assert status == 0 and json.loads(out)["roll"] == [1, 2, 2, 5, 5]


def test_best_declaration_as_text_shows_the_top_five(capsys, default_cache):
    status, out, _ = advise(capsys, "yacht", "--roll", "5", "5", "2", "2", "1")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2 + 5
    assert lines[2].split()[0] == "fives"


def test_the_dice_to_keep_for_a_declared_category(capsys, default_cache):
    status, out, _ = advise(capsys, "yacht", "--roll", "5", "5", "2", "2", "1", "--declared", "full_house", "--json")
    answer = json.loads(out)
    assert status == 0 and (answer["keep"], answer["reroll"], answer["stop"]) == ([2, 2, 5, 5], [1], False)
    assert answer["turn"] == pytest.approx(5 / 9 * 27.5)
    status, out, _ = advise(capsys, "yacht", "--roll", "5", "5", "5", "2", "2", "--declared", "full_house",
                            "--rolls-left", "1")
    assert status == 0 and "stop and score 29 points" in out


def test_no_roll_gives_the_expected_value_of_the_position(capsys, default_cache):
    status, out, _ = advise(capsys, "yacht", "--scoring", "sackson", "--json")
    empty = json.loads(out)["expected"]
    status, out, _ = advise(capsys, "yacht", "--scoring", "sackson", "--used", "yacht", "--used", "choice", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["open"] == 10 and 0 < answer["expected"] < empty


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--roll", "5", "5", "2", "2"], "five dice"),
        (["--roll", "5", "5", "2", "2", "9"], "five dice"),
        (["--roll", "5 5 2 2 x"], "numbers 1-6 (e.g. 5 5 2 2 1), got 'x'"),
        (["--roll", "5", "5", "2", "2", "1", "--used", "bonus"], "unknown category"),
        (["--roll", "5", "5", "2", "2", "1", "--declared", "bonus"], "unknown category"),
        (["--roll", "5", "5", "2", "2", "1", "--rolls-left", "1"], "--declared"),
        (["--declared", "choice"], "--roll"),
        (["--rolls-left", "0"], "--rolls-left needs the dice: give --roll"),
        (["--rolls-left", "2", "--used", "yacht"], "--rolls-left needs the dice"),
        (["--roll", "1", "2", "3", "4", "5", "--used",
          "ones,twos,threes,fours,fives,sixes,small_straight,large_straight,full_house,four_of_a_kind,choice,yacht"],
         "game is over"),
    ],
)
def test_bad_questions_get_a_message_and_status_2(capsys, default_cache, argv, message):
    status, out, err = advise(capsys, "yacht", *argv)
    assert status == 2 and out == "" and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--roll", "5", "5", "2", "2", "1", "--declared", "yacht", "--used", "full_house,yacht"],
         "--declared yacht is also in --used"),
        (["--roll", "5", "5", "2", "2", "1", "--used", "yacht,choice", "--used", "yacht"],
         "--used names yacht more than once"),
        (["--used", "ones,ones"], "--used names ones more than once"),
        (["--roll", "5", "5", "2", "2", "1", "--top", "-1"], "argument --top: must be 0 or more, got '-1'"),
    ],
)
def test_contradictory_questions_are_refused_with_a_message_and_status_2(capsys, default_cache, argv, message):
    try:
        status, out, err = advise(capsys, "yacht", *argv)
    except SystemExit as exc:  # argparse's own refusal of an option's value
        status, (out, err) = exc.code, capsys.readouterr()
    assert status == 2 and out == "" and message in err and "Traceback" not in err


def test_maexle_odds_for_one_announcement_and_for_all(capsys):
    status, out, _ = advise(capsys, "maexle", "--announcement", "65", "--json")
    assert status == 0 and json.loads(out)["odds"] == [{"announcement": 65, "beat": 8, "at_least": 10, "exact": 2}]
    status, out, _ = advise(capsys, "maexle")
    assert status == 0 and len(out.splitlines()) == 1 + 21


def test_a_maexle_announcement_is_taken_in_either_order_of_its_dice(capsys):
    """RULES.md §1 says a value higher die first; players say "12" for Mäxle as often as "21"."""
    for spoken, value in (("12", 21), ("36", 63), ("21", 21), ("11", 11)):
        status, out, _ = advise(capsys, "maexle", "--announcement", spoken, "--json")
        assert status == 0 and json.loads(out)["odds"][0]["announcement"] == value
    for bad in ("70", "17", "123", "x"):
        with pytest.raises(SystemExit) as exc:
            advise(capsys, "maexle", "--announcement", bad)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "Mäxle value" in err and "Traceback" not in err
