"""The coach: the optimal declaration and keeps for a declared-Yacht roll, and Mäxle odds.

yacht: with --roll after the first roll, every open category ranked by expected points (this turn,
and this turn plus the rest of the game under optimal play); with --declared, the dice to keep for
the declared category with --rolls-left rerolls to go; with no roll, the expected points still to
come from the sheet's position (--rolls-left then needs --roll). maexle: the chances of one fresh
roll against each announcement (or --announcement, in either order of its dice: 12 is Mäxle, 21,
said as RULES.md does, the higher die first), counted over the 36 outcomes of two dice.
"""

from __future__ import annotations

import argparse
import json
import sys

from appliance.commands import argtypes

TEXT_TOP = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)

    yacht = games.add_parser("yacht", help="declared Yacht: what to declare, what to keep",
                             description="The solitaire optimum of declared Yacht (RULES.md §3).")
    yacht.add_argument("--roll", nargs="+", metavar="FACE",
                       help='the five dice, e.g. 5 5 2 2 1 (or quoted, as teach --values takes them: "5 5 2 2 1")')
    yacht.add_argument("--used", action="append", default=[], metavar="CATEGORIES",
                       help="categories already used, comma-separated, each once (the flag may be given again), "
                            "e.g. full_house,yacht")
    yacht.add_argument("--declared", metavar="CATEGORY", help="the category declared this turn: advise the keep")
    yacht.add_argument("--rolls-left", type=int, choices=(0, 1, 2), default=None,
                       help="rerolls still to go this turn (default 2, right after the first roll; needs --roll)")
    yacht.add_argument("--scoring", choices=("seed", "sackson"), default="seed", help="scoring preset (default seed)")
    yacht.add_argument("--yacht-counts-as-full-house", action="store_true", help="the house-rule switch of RULES.md §3")
    yacht.add_argument("--top", type=argtypes.non_negative(int), default=TEXT_TOP, metavar="N",
                       help=f"declarations shown as text (default {TEXT_TOP}; 0 for all; --json lists all)")
    yacht.add_argument("--json", action="store_true", help="one JSON object")

    maexle = games.add_parser("maexle", help="Mäxle: the odds of a fresh roll against an announcement",
                              description="Exact odds over the 36 outcomes of two dice (RULES.md §1).")
    maexle.add_argument("--announcement", type=maexle_value, metavar="VALUE",
                        help="one value, e.g. 54 (its dice in either order: 45 is 54, 12 is 21; default: all 21)")
    maexle.add_argument("--json", action="store_true", help="one JSON object")


def maexle_value(text: str) -> int:
    """An announcement as a player may say it: a Mäxle value (RULES.md §1, the higher die first), or
    its two dice the other way round ("12" is 21, Mäxle; "36" is 63). Raises
    argparse.ArgumentTypeError for anything else."""
    from appliance.games import maexle_values

    order = ", ".join(map(str, maexle_values.ORDER))
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a Mäxle value is two dice, e.g. 54; one of {order}; not {text!r}") from None
    if maexle_values.is_value(value):
        return value
    digits = str(value)
    if len(digits) == 2 and all("1" <= d <= "6" for d in digits):
        return maexle_values.value_of((int(digits[0]), int(digits[1])))
    raise argparse.ArgumentTypeError(f"not a Mäxle value: {text}; one of {order}")


def run(args: argparse.Namespace) -> int:
    try:
        result = _yacht(args) if args.game == "yacht" else _maexle(args)
    except ValueError as exc:
        print(f"dicetable advise {args.game}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result["json"]))
    else:
        print("\n".join(result["text"]))
    return 0


def _used(values: list[str]) -> list[str]:
    """``--used``'s category names, from one or more comma-separated words.
    Raises ValueError for a name given twice: each category is scored once a game (RULES.md §3)."""
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"--used names {', '.join(twice)} more than once: each category is scored once a game")
    return names


def _faces(dice) -> str:
    return " ".join(map(str, dice)) or "-"


def _open(count: int) -> str:
    return f"{count} category open" if count == 1 else f"{count} categories open"


def _faces_given(words: list[str]) -> list[int]:
    """``--roll``'s dice, given apart (5 5 2 2 1) or in one quoted word ("5 5 2 2 1", "5,5,2,2,1").
    Raises ValueError naming a word that is not a number."""
    faces = [w for word in words for w in argtypes.dice_words(word)]
    for w in faces:
        if not w.lstrip("-").isdigit():
            raise ValueError(f"--roll takes the dice as numbers 1-6 (e.g. 5 5 2 2 1), got {w!r}")
    return [int(w) for w in faces]


def _yacht(args: argparse.Namespace) -> dict:
    from appliance.coach.yacht_advice import coach_for
    from appliance.coach.yacht_solver import YachtRules, used_mask
    from appliance.games.yacht_scoring import CATEGORIES, check_dice

    rules = YachtRules(args.scoring, args.yacht_counts_as_full_house)
    used = _used(args.used)
    used_mask(used)  # unknown names fail before any solving
    coach = coach_for(rules)
    base = {"game": "yacht", "rules": rules.as_dict(), "used": used}
    heading = f"Yacht, {rules.scoring} scoring" + (", Yacht counts as full house" if rules.yacht_counts_as_full_house else "")
    open_count = sum(c not in used for c in CATEGORIES)

    if args.roll is None:
        if args.declared:
            raise ValueError("--declared needs the dice: give --roll")
        if args.rolls_left is not None:
            raise ValueError("--rolls-left needs the dice: give --roll (and --declared for a reroll)")
        value = coach.position_value(used)
        return {
            "json": {**base, "open": open_count, "expected": value},
            "text": [f"{heading}: {_open(open_count)}, {value:.2f} points expected to the game's end"],
        }

    roll = list(check_dice(_faces_given(args.roll)))
    if args.declared in used:
        raise ValueError(f"--declared {args.declared} is also in --used: a category is declared once a game, "
                         "so a used one cannot be declared")
    if args.declared:
        keep = coach.keep(roll, args.declared, 2 if args.rolls_left is None else args.rolls_left, used)
        if keep.rolls_left == 0:
            advice = f"no rerolls left: {keep.turn:.0f} points this turn"
        elif keep.stop:
            advice = f"stop and score {keep.turn:.0f} points this turn"
        else:
            advice = f"keep {_faces(keep.keep)}, roll {_faces(keep.reroll)} again: {keep.turn:.2f} points expected this turn"
        to_go = "1 reroll" if keep.rolls_left == 1 else f"{keep.rolls_left} rerolls"
        return {
            "json": {**base, "roll": roll, "declared": keep.category, "rolls_left": keep.rolls_left,
                     "keep": list(keep.keep), "reroll": list(keep.reroll), "stop": keep.stop,
                     "turn": keep.turn, "total": keep.total},
            "text": [f"{heading}: roll {_faces(roll)}, {keep.category} declared, {to_go} to go",
                     f"{advice}; {keep.total:.2f} expected to the game's end"],
        }

    if args.rolls_left not in (None, 2):
        raise ValueError("a category is declared right after the first roll (2 rerolls to go); "
                         "for a later roll give --declared")
    ranked = coach.declarations(roll, used)
    shown = ranked if args.top <= 0 else ranked[: args.top]
    width = max(len(d.category) for d in shown)
    text = [f"{heading}: roll {_faces(roll)}, {_open(open_count)}",
            f"{'declare':<{width}}  this turn  to game end"]
    text += [f"{d.category:<{width}}  {d.turn:9.2f}  {d.total:11.2f}" for d in shown]
    return {
        "json": {**base, "roll": roll, "rolls_left": 2,
                 "declarations": [{"category": d.category, "turn": d.turn, "total": d.total} for d in ranked]},
        "text": text,
    }


def _maexle(args: argparse.Namespace) -> dict:
    from appliance.coach.maexle_odds import OUTCOMES, maexle_odds, odds_table

    table = odds_table() if args.announcement is None else [maexle_odds(args.announcement)]
    text = ["announced  beat it       at least it   exactly it"]
    for o in table:
        text.append(
            f"{o.announcement:>9}  " + "  ".join(
                f"{ways:>2}/{OUTCOMES} {100 * ways / OUTCOMES:5.1f}%" for ways in (o.beat, o.at_least, o.exact)
            )
        )
    return {
        "json": {"game": "maexle", "outcomes": OUTCOMES,
                 "odds": [{"announcement": o.announcement, "beat": o.beat, "at_least": o.at_least, "exact": o.exact}
                          for o in table]},
        "text": text,
    }
