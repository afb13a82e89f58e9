"""Feed a game log to the rules engine and print the events.

A game log is JSON Lines (../shared/RULES.md §4): the first line is the setup, every later line one
action. LOG may also be the appliance's saved games (the state directory, e.g. /var/lib/dicetable, or
its dicetable.sqlite3): the latest game, or the one given with --game, is replayed from there, read
only. Each action is printed with its line number and the events it gave, in the English of each game's
table module (``appliance.table``); with --json every event is one JSON line instead (the first is the opening turn). A line that is not UTF-8 or not JSON, or
a setup the engine cannot start, is reported on standard error with its line number. Exit status: 0, or 1 if a
line was malformed or an action refused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from appliance.games import SetupError, new_game
from appliance.games.engine import brief
from appliance.table import find_table
from appliance.table.events import english


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``LOG`` (a path, or - for standard input), ``--game`` and ``--json``."""
    parser.add_argument("log", metavar="LOG", help="the game log (JSON Lines), or the saved games "
                        "(state directory or its dicetable.sqlite3); - reads standard input")
    parser.add_argument("--game", type=int, metavar="ID", help="with saved games: which game (default: the latest)")
    parser.add_argument("--json", action="store_true", help="print the events as JSON Lines")


def run(args: argparse.Namespace) -> int:
    """Replay ``args.log``; returns the exit status."""
    if args.log != "-" and _is_store(args.log):
        from appliance.store import StoreError, read_log

        try:
            game_id, lines = read_log(args.log, args.game)
        except StoreError as exc:
            print(f"dicetable replay: {exc.strerror}", file=sys.stderr)
            return 1
        return replay_lines(lines, f"game {game_id}", as_json=args.json, out=sys.stdout, err=sys.stderr)
    if args.game is not None:
        what = "is a game log" if args.log == "-" or os.path.exists(args.log) else "does not exist"
        print(f"dicetable replay: --game needs the saved games, and {args.log} {what}", file=sys.stderr)
        return 2
    try:
        if args.log == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            data = stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
        else:
            with open(args.log, "rb") as f:
                data = f.read()
    except OSError as exc:
        print(f"dicetable replay: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    # Bytes that are not UTF-8 survive decoding as lone surrogates, so one bad line is reported by
    # its number (replay_lines) instead of the whole log being refused.
    # JSON Lines end at "\n" alone: str.splitlines would also cut at U+2028, U+0085 and the like,
    # which json.dumps(ensure_ascii=False) leaves unescaped inside a name.
    lines = [line.removesuffix("\r") for line in data.decode("utf-8", "surrogateescape").split("\n")]
    return replay_lines(lines, args.log, as_json=args.json, out=sys.stdout, err=sys.stderr)


def _is_store(path: str) -> bool:
    """Whether ``path`` is the saved games: a directory, the store's own file (``dicetable.sqlite3``,
    also when damaged: the store says why it cannot be read), or a file that starts as SQLite files do."""
    from appliance.store import FILENAME

    if os.path.isdir(path) or os.path.basename(path) == FILENAME:
        return True
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False  # reported when the log is read


def replay_lines(lines: list[str], name: str, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    """Replay the log ``lines`` (``name`` labels messages); prints to ``out`` and ``err``."""
    if lines and lines[0].startswith("\ufeff"):  # a byte order mark, as some editors write UTF-8
        lines = [lines[0][1:], *lines[1:]]
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        print(f"{name}: empty log: the first line must be the setup", file=err)
        return 1
    n, first = numbered[0]
    if _not_utf8(first):
        print(f"{name}:{n}: the setup line is not UTF-8 (column {_not_utf8(first)})", file=err)
        return 1
    setup, problem = _parse(first)
    if problem:
        print(f"{name}:{n}: the setup line is {problem}", file=err)
        return 1
    if isinstance(setup, dict) and not {"game", "players"} & set(setup):
        print(f"{name}:{n}: the first line must be the setup "
              f"{{\"game\": ..., \"players\": [...], \"rules\": {{...}}}}, not {brief(setup)}", file=err)
        return 1
    try:
        game = new_game(setup)
    except SetupError as exc:
        print(f"{name}:{n}: bad setup: {exc}", file=err)
        return 1

    table = find_table(game.name)()

    def show(events: list[dict]) -> None:
        lines = [json.dumps(event, ensure_ascii=False) for event in events] if as_json else \
            [f"{'':6}{line}" for line in english(table, events)]
        for line in lines:
            print(line, file=out)

    if not as_json:
        rules = ", ".join(f"{k}={_word(v)}" for k, v in game.rules.items())
        print(f"{game.name}: {', '.join(game.players)} ({rules})", file=out)
    show([{"turn": game.expects}])
    status = 0
    for n, line in numbered[1:]:
        if _not_utf8(line):
            print(f"{name}:{n}: not UTF-8, skipped (column {_not_utf8(line)})", file=err)
            status = 1
            continue
        action, problem = _parse(line)
        if problem:
            print(f"{name}:{n}: {problem}, skipped", file=err)
            status = 1
            continue
        if not as_json:
            print(f"{n:>4}  {json.dumps(action, ensure_ascii=False)}", file=out)
        events = game.apply(action)
        if "error" in events[0]:
            print(f"{name}:{n}: refused: {events[0]['error']['reason']}", file=err)
            status = 1
        show(events)
    return status


# No setup or action of RULES.md §4 nests deeper than 3. A line nested thousands deep makes json
# raise RecursionError (in loads, or in dumps when its error event is printed): refuse it here.
MAX_DEPTH = 32


def _parse(line: str) -> tuple[Any, str]:
    """The JSON value of one log line and "", or None and what is wrong with the line."""
    try:
        value = json.loads(line, parse_constant=_no_constant, parse_int=_int)
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} (column {exc.colno})"
    except ValueError as exc:  # NaN, Infinity: Python's json reads them, JSON has no such values
        return None, f"not JSON: {exc}"
    except RecursionError:
        return None, "nested too deep"
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return None, "nested too deep"
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return value, ""


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON value")


# Far more digits than any number of a game log has; past Python's own limit (4,300) its error told
# the reader to call sys.set_int_max_str_digits.
MAX_DIGITS = 100


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(digits.lstrip('-')):,} digits")
    return int(digits)


def _not_utf8(line: str) -> int:
    """The column of the first byte of ``line`` that was not UTF-8 (a lone surrogate), or 0."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start + 1
    return 0


def _word(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return "none" if value is None else str(value)
