"""The game log around the rules: setup checking, undo, save/restore, and ``dicetable replay``."""

import io
import json

import pytest

from appliance.cli import main
from appliance.commands.replay import replay_lines
from appliance.table import find_table
from appliance.table.events import describe
from appliance.games import GAMES, RestoreError, SetupError, new_game, replay, restore
from appliance.games.yacht_scoring import CATEGORIES

from .helpers import game, of, play, refused

MAEXLE_LOG = [
    {"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"limit": 2}},
    {"announce": 54}, {"announce": 62}, {"reveal": True}, {"roll": [3, 1]},
    {"announce": 21}, {"accept": True},
]


@pytest.mark.parametrize(
    "setup, names",
    [
        (None, "JSON object"),
        ({"game": "poker", "players": ["Ann", "Bo"]}, "poker"),
        ({"players": ["Ann", "Bo"]}, "game = null"),
        ({"game": "maexle", "players": ["Ann"]}, "2-20 players"),
        ({"game": "maexle", "players": "Ann, Bo"}, "players"),
        ({"game": "maexle", "players": ["Ann", ""]}, "players"),
        ({"game": "maexle", "players": ["Ann", "Ann"]}, "'Ann' is seated twice"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"truth": "mostly"}}, "rules.truth = 'mostly'"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": 0}}, "rules.limit = 0"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"limit": "6"}}, "rules.limit = '6'"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"self_reveal": "yes"}}, "rules.self_reveal"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"maexle_accept_cost": 1.5}}, "maexle_accept_cost"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": {"scoring": "seed"}}, "rules.scoring: no such switch"),
        ({"game": "maexle", "players": ["Ann", "Bo"], "rules": []}, "rules = []"),
        ({"game": "yacht", "players": ["Ann"], "seats": 2}, "unknown setup key 'seats'"),
    ],
)
def test_a_bad_setup_names_the_bad_key_or_value(setup, names):
    with pytest.raises(SetupError) as exc:
        new_game(setup)
    assert names in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_on_off_and_none_as_rules_md_writes_them():
    g = game("maexle", ["Ann", "Bo"], self_reveal="off", blind_pass="on", limit="none")
    assert g.rules["self_reveal"] is False and g.rules["blind_pass"] is True and g.rules["limit"] is None


def test_every_switch_has_its_rules_md_default():
    assert {k: sw.default for k, sw in GAMES["biscuit"].switches.items()} == {
        "roller": "biscuit", "doubles": "pick_players", "duel_tie": "reroll", "thumbs_loser_drinks": False,
        "combined": "both"}
    assert {k: sw.default for k, sw in GAMES["yacht"].switches.items()} == {
        "yacht_counts_as_full_house": False, "scoring": "seed", "order_tie": "reroll", "final_tie": "share"}


def test_undo_takes_back_one_action_at_a_time_and_is_logged():
    g = new_game(MAEXLE_LOG[0])
    assert refused(g, {"undo": True}) == "nothing to undo"
    play(g, *MAEXLE_LOG[1:])
    assert g.penalties == {"Ann": 0, "Bo": 1, "Cy": 1}
    ev = play(g, {"undo": True})
    assert ev[0] == {"undone": {"accept": True}} and g.penalties["Bo"] == 0
    play(g, {"undo": True}, {"undo": True})  # the Mäxle announcement, then the reveal's roll
    assert g.penalties == {"Ann": 0, "Bo": 0, "Cy": 0} and g.expects["step"] == "reveal"
    assert g.actions[-3:] == [{"undo": True}] * 3
    assert g.in_effect == MAEXLE_LOG[1:4]
    again, _ = replay(g.setup, g.actions)
    assert again.state_json() == g.state_json()


def test_undo_across_an_elimination_and_the_end_of_the_game():
    g = game("maexle", ["Ann", "Bo"], limit=1)
    play(g, {"announce": 21}, {"accept": True})
    assert g.over and g.winner == ["Ann"]
    play(g, {"undo": True})
    assert not g.over and g.out == [] and g.expects["actions"] == ["reveal", "accept"]


def test_a_refused_action_is_not_logged():
    g = new_game(MAEXLE_LOG[0])
    refused(g, {"announce": 99})
    assert g.actions == []


def test_to_json_restore_round_trip_and_undo_after_restore():
    g, _ = replay(MAEXLE_LOG[0], MAEXLE_LOG[1:])
    data = json.loads(json.dumps(g.to_json()))
    assert set(data) == {"setup", "actions", "state"}
    back = restore(data)
    assert back.state_json() == g.state_json() and back.actions == g.actions and back.setup == g.setup
    play(back, {"undo": True})
    assert back.penalties["Bo"] == 0


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda d: d.pop("actions"), "not a saved game"),
        (lambda d: d["setup"].update(game="chess"), "saved setup"),
        (lambda d: d["actions"].insert(0, {"roll": [1, 2]}), "is not accepted"),
        (lambda d: d["state"]["counts"].update(Bo=5), "differs"),
    ],
)
def test_a_corrupt_save_is_refused_with_a_reason(spoil, message):
    g, _ = replay(MAEXLE_LOG[0], MAEXLE_LOG[1:])
    data = g.to_json()
    spoil(data)
    with pytest.raises(RestoreError, match=message):
        restore(data)


def test_replay_reports_events_per_action():
    g, events = replay(MAEXLE_LOG[0], MAEXLE_LOG[1:] + [{"accept": True}])
    assert len(events) == 7 and "error" in events[-1][0]
    assert of(events[3], "penalty")[0]["player"] == "Cy"


def test_views_are_copies():
    g = game("yacht", ["Ann", "Bo"])
    g.sheet["Ann"]["ones"] = 5
    g.setup["players"].append("Zed")
    g.actions.append({"roll": [1, 1, 1, 1, 1]})
    assert g.sheet["Ann"]["ones"] is None and g.players == ("Ann", "Bo") and g.actions == []


def test_the_engine_imports_nothing_impure():
    import ast
    from pathlib import Path

    import appliance.games as pkg

    banned = {"os", "io", "time", "datetime", "random", "pygame", "cv2", "socket", "sqlite3", "pathlib"}
    for path in Path(pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not {n.split(".")[0] for n in names} & banned, path.name


# -- dicetable replay ---------------------------------------------------------------------------


def run_replay(lines, as_json=False):
    out, err = io.StringIO(), io.StringIO()
    status = replay_lines([json.dumps(x) if not isinstance(x, str) else x for x in lines], "game.jsonl",
                          as_json=as_json, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_replay_prints_a_readable_account():
    status, out, err = run_replay(MAEXLE_LOG)
    assert status == 0 and err == ""
    assert "Ann announces 54 to Cy" in out
    assert "Cy takes 1 penalty point: Cy announced 62 but the dice show 31" in out
    assert "Bo takes 1 penalty point: Bo accepts Cy's Mäxle without looking" in out
    assert '   7  {"accept": true}' in out


def test_replay_json_lines_are_the_engine_events():
    status, out, _ = run_replay(MAEXLE_LOG, as_json=True)
    lines = [json.loads(line) for line in out.splitlines()]
    _, per_action = replay(MAEXLE_LOG[0], MAEXLE_LOG[1:])
    assert lines == [{"turn": new_game(MAEXLE_LOG[0]).expects}] + [e for evs in per_action for e in evs]


def test_replay_reports_a_malformed_line_with_its_number_and_goes_on():
    lines = [*MAEXLE_LOG[:3], "{not json", "", *MAEXLE_LOG[3:]]
    status, out, err = run_replay(lines)
    assert status == 1 and "game.jsonl:4: not JSON" in err
    assert "Bo accepts" in out


def test_replay_reports_a_refused_action_with_its_line_number():
    status, out, err = run_replay([*MAEXLE_LOG[:2], {"announce": 31}])
    assert status == 1 and "game.jsonl:3: refused: 31 does not beat 54" in err


@pytest.mark.parametrize("first, message", [("[1, 2", "game.jsonl:1: the setup line is not JSON"),
                                            ({"game": "go"}, "game.jsonl:1: bad setup: game = 'go'")])
def test_replay_reports_a_bad_setup(first, message):
    status, out, err = run_replay([first, {"announce": 54}])
    assert status == 1 and message in err and out == ""


def test_replay_command_line(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in MAEXLE_LOG) + "\n")
    assert main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["turn"]["player"] == "Bo"
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 1
    err = capsys.readouterr().err
    assert f"dicetable replay: cannot read {tmp_path / 'missing.jsonl'}: No such file or directory" in err
    assert "[Errno" not in err


def test_every_event_kind_has_a_readable_line():
    kinds = {
        "maexle": [{"announce": 54}, {"reveal": True}, {"roll": [5, 4]}],
        "biscuit": [{"roll": [3, 4]}, {"roll": [6, 6]}, {"rule_broken": "Bo"}, {"roll": [1, 2]},
                    {"pick": ["Bo"]}, {"roll": [3, 3]}, {"roll": [1, 5]}, {"roll": [3, 3]}, {"roll": [1, 4]},
                    {"roll": [1, 6]}, {"thumbs_last": "Cy"},
                    {"roll": [2, 2]}, {"pick": ["Ann", "Bo"]}, {"roll": [1, 3]}],
        "yacht": [{"roll": [1, 1, 1, 1, 1]}, {"roll": [1, 1, 1, 1, 1]}, {"roll": [2, 1, 1, 1, 1]},
                  {"roll": [1, 1, 1, 1, 1]}, {"declare": "yacht"}, {"stop": True}],
    }
    for kind, actions in kinds.items():
        g = new_game({"game": kind, "players": ["Ann", "Bo", "Cy"]})
        for action in actions:
            for event in play(g, action):
                assert not describe(find_table(kind)(), event).startswith("{"), event


def replay_file(tmp_path, capsys, data: bytes, *options):
    log = tmp_path / "game.jsonl"
    log.write_bytes(data)
    status = main(["replay", str(log), *options])
    out, err = capsys.readouterr()
    return status, out, err.replace(str(log), "game.jsonl")


def log_bytes(lines) -> bytes:
    return "".join((x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in lines).encode()


def test_replay_reads_a_log_that_starts_with_a_byte_order_mark(tmp_path, capsys):
    status, out, err = replay_file(tmp_path, capsys, b"\xef\xbb\xbf" + log_bytes(MAEXLE_LOG))
    assert status == 0 and err == "" and "Bo accepts" in out


def test_replay_reports_a_line_that_is_not_utf8_by_number_and_goes_on(tmp_path, capsys):
    data = log_bytes(MAEXLE_LOG[:3]) + b'{"reveal": tr\xffue}\n' + log_bytes(MAEXLE_LOG[3:])
    status, out, err = replay_file(tmp_path, capsys, data)
    assert status == 1 and "game.jsonl:4: not UTF-8" in err and "Traceback" not in err
    assert "Cy takes 1 penalty point" in out and "Bo accepts" in out


def test_replay_reports_a_setup_line_that_is_not_utf8(tmp_path, capsys):
    status, out, err = replay_file(tmp_path, capsys, b'{"game": "ma\xe4xle"}\n')
    assert status == 1 and "game.jsonl:1: the setup line is not UTF-8" in err and out == ""


def test_replay_reads_standard_input_as_bytes(monkeypatch, capsys):
    data = b"\xef\xbb\xbf" + log_bytes(MAEXLE_LOG[:3]) + b"\xff\n" + log_bytes(MAEXLE_LOG[3:])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["replay", "-"]) == 1
    out, err = capsys.readouterr()
    assert "-:4: not UTF-8" in err and "Bo accepts" in out


def test_replay_splits_lines_only_at_newlines(tmp_path, capsys):
    # json.dumps(ensure_ascii=False) leaves U+2028, U+2029 and U+0085 in a name as they are.
    setup = {"game": "biscuit", "players": ["Jā\u2028nis", "Пётр\x85", "Ēriks\u2029"]}
    status, out, err = replay_file(tmp_path, capsys, log_bytes([setup, {"roll": [3, 4]}]))
    assert status == 0 and err == "" and "   2  " in out


@pytest.mark.parametrize("as_json", [False, True])
def test_replay_reports_a_line_nested_too_deep_by_number_and_goes_on(as_json):
    lines = [*MAEXLE_LOG[:3], "[" * 5000 + "]" * 5000, '{"reveal": ' + "[" * 900 + "]" * 900 + "}",
             *MAEXLE_LOG[3:]]
    status, out, err = run_replay(lines, as_json=as_json)
    assert status == 1 and "game.jsonl:4: nested too deep" in err and "game.jsonl:5: nested too deep" in err
    assert "Bo accepts" in out or '"maexle.accept"' in out


def test_replay_says_the_setup_line_is_missing_when_the_log_starts_with_an_action():
    status, out, err = run_replay(MAEXLE_LOG[1:])
    assert status == 1 and "game.jsonl:1: the first line must be the setup" in err and out == ""


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_replay_refuses_nan_and_infinity_which_json_lines_do_not_have(word):
    status, out, err = run_replay([*MAEXLE_LOG[:2], '{"announce": %s}' % word, *MAEXLE_LOG[2:]], as_json=True)
    assert status == 1 and "game.jsonl:3: not JSON" in err
    for line in out.splitlines():  # every printed event is standard JSON
        json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} printed"))


def test_replay_refuses_a_number_of_thousands_of_digits_in_words_of_its_own():
    status, out, err = run_replay([*MAEXLE_LOG[:2], '{"announce": %s}' % ("9" * 5000), *MAEXLE_LOG[2:]])
    assert status == 1 and "game.jsonl:3: not JSON: a number of 5,000 digits, skipped" in err
    assert "set_int_max_str_digits" not in err and "Bo accepts" in out


def test_maexle_seats_2_to_20_players():
    names = [f"P{i}" for i in range(21)]
    assert new_game({"game": "maexle", "players": names[:20]}).players == tuple(names[:20])
    with pytest.raises(SetupError, match="2-20 players, got 21"):
        new_game({"game": "maexle", "players": names})


def test_names_in_latvian_and_cyrillic_play_save_and_replay():
    names = ["Jānis", "Пётр", "Ēriks", "Ģirts"]
    setup = {"game": "biscuit", "players": names}
    actions = [{"roll": [1, 1]}, {"roll": [3, 4]}, {"roll": [2, 2]}, {"pick": ["Ģirts", "Jānis"]}, {"roll": [5, 6]}]
    g, _ = replay(setup, actions)
    assert g.biscuit == "Пётр" and g.drinks == {"Jānis": 1, "Пётр": 0, "Ēriks": 1, "Ģirts": 1}
    back = restore(json.loads(json.dumps(g.to_json(), ensure_ascii=False)))
    assert back.state_json() == g.state_json()
    status, out, err = run_replay([json.dumps(x, ensure_ascii=False) for x in [setup, *actions]])
    assert status == 0 and err == "" and "Пётр is the Biscuit" in out and "Ēriks (left of Пётр) drinks 1" in out


def test_replay_tells_a_self_reveal_as_the_revealers_own_dice_not_a_verdict_on_the_announcer():
    status, out, _ = run_replay([MAEXLE_LOG[0], {"announce": 65}, {"self_reveal": True}, {"roll": [4, 3]}])
    assert status == 0
    assert "Cy shows their own dice: 4 3 = 43 instead of beating 65" in out
    assert "Ann answers for" not in out


def test_replay_tells_a_self_reveal_that_beats_the_announcement_as_beating_it():
    # The engine marks it "beats" and charges nobody (README "Rules decided beyond RULES.md").
    status, out, _ = run_replay([MAEXLE_LOG[0], {"announce": 43}, {"self_reveal": True}, {"roll": [6, 5]}])
    assert status == 0
    assert "Cy shows their own dice: 6 5 = 65, beating 43: no penalty" in out and "instead of" not in out


def test_replay_tells_a_self_reveal_that_beats_under_self_reveal_beats_costs_as_shown_and_charged():
    setup = {"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"self_reveal_beats": "costs"}}
    status, out, _ = run_replay([setup, {"announce": 43}, {"self_reveal": True}, {"roll": [6, 5]}])
    assert status == 0 and "Cy shows their own dice: 6 5 = 65\n" in out
    assert "Cy shows their own 65 instead of announcing it" in out and "no penalty" not in out


def test_replay_tells_a_self_reveal_that_matches_the_announcement_as_matching_it():
    setup = {"game": "maexle", "players": ["Ann", "Bo", "Cy"], "rules": {"announce": "higher_or_equal"}}
    status, out, _ = run_replay([setup, {"announce": 43}, {"self_reveal": True}, {"roll": [4, 3]}])
    assert status == 0 and "Cy shows their own dice: 4 3 = 43, matching 43: no penalty" in out


def test_replay_tells_the_tie_switches_readably():
    setup = {"game": "yacht", "players": ["Ann", "Bo", "Cy"], "rules": {"order_tie": "seat", "final_tie": "roll_off"}}
    order = [{"roll": [6, 6, 6, 1, 1]}, {"roll": [1, 1, 1, 1, 1]}, {"roll": [5, 5, 5, 4, 1]}]
    turns = [a for c in CATEGORIES for dice in ([4] * 5, [4] * 5, [1, 2, 1, 2, 1])
             for a in ({"roll": dice}, {"declare": c}, {"stop": True})]
    roll_off = [{"roll": [6, 6, 6, 6, 6]}, {"roll": [2, 2, 2, 2, 2]}]
    status, out, err = run_replay([setup, *order, *turns, *roll_off])
    assert status == 0 and err == ""
    assert "order_tie=seat, final_tie=roll_off" in out
    assert "Ann rolls 6 6 6 1 1 for the order, total 20" in out
    assert "Ann and Cy tie at 20: Ann, seated first, starts" in out
    assert "Ann and Bo tie at 116: they roll off, the highest total wins" in out
    assert "-> Ann: roll 5 dice (roll-off: Ann and Bo; it scores nothing)" in out
    assert "Ann rolls 6 6 6 6 6 in the roll-off, total 30" in out
    assert out.rstrip().endswith("-> game over: Ann wins")


def test_replay_tells_a_biscuit_3_under_three_only():
    setup = {"game": "biscuit", "players": ["Ann", "Bo", "Cy"], "rules": {"combined": "three_only"}}
    status, out, err = run_replay([setup, {"roll": [3, 4]}, {"roll": [3, 3]}])
    assert status == 0 and err == ""
    assert "Ann drinks 2: 3-3: a double 3, the Biscuit drinks 2 and stops being the Biscuit" in out
    assert "nobody is the Biscuit" in out and "-> Bo: roll 2 dice (find)" in out
