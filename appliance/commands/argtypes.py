"""Argument types shared by several subcommands (argparse ``type=`` callables), and the dice words they share.

Each raises ``argparse.ArgumentTypeError`` with a one-line reason, which argparse prints after the
usage and turns into exit status 2.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path


def dice_words(text: str) -> list[str]:
    """The dice of one throw as written on a command line, word by word: "1 3 3 4 6" or
    "1,3,3,4,6" (``teach --values``, ``advise yacht --roll``); their values are checked by the
    command, which knows how many it needs."""
    return text.replace(",", " ").split()


def seed(text: str) -> int:
    """A random seed: a whole number >= 0 (numpy's generators refuse a negative one with a traceback)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed must be 0 or more, not {value}")
    return value


def state_directory(text: str) -> Path:
    """A table's state directory (``--state``), not empty: ``Path("")`` is the current directory, so
    ``--state "$STATE"`` with the variable unset would quietly make a store where the command was
    run. Its store file (``dicetable.sqlite3``) stands for the directory, as summary and replay take it."""
    from appliance.store import FILENAME

    if not text.strip():
        raise argparse.ArgumentTypeError("a directory's path is needed, not an empty one")
    path = Path(text)
    return path.parent if path.name == FILENAME and path.is_file() else path


def size(smallest: tuple[int, int], largest: tuple[int, int], example: str):
    """An argument type for a size WIDTHxHEIGHT in px, each way between ``smallest`` and ``largest``
    (a window, a camera frame); ``example`` shows the form in the message."""
    def parse(text: str) -> tuple[int, int]:
        try:
            w, h = (int(v) for v in text.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT in px, e.g. {example}, not {text!r}") from None
        if not (smallest[0] <= w <= largest[0] and smallest[1] <= h <= largest[1]):
            raise argparse.ArgumentTypeError(f"a size must be {smallest[0]}x{smallest[1]} to "
                                             f"{largest[0]}x{largest[1]} px, not {text!r}")
        return w, h

    return parse


def positive(kind):
    """An argument type for a finite number > 0 read with ``kind`` (int or float): a count, a rate, seconds."""
    return _finite(kind, zero_ok=False)


def non_negative(kind):
    """An argument type for a finite number >= 0 read with ``kind`` (int or float), e.g. a hold time."""
    return _finite(kind, zero_ok=True)


def _finite(kind, zero_ok: bool):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'a whole number' if kind is int else 'a number'}, "
                                             f"got {text!r}") from None
        # nan and inf too: --fps inf froze the synthetic table's virtual time, --hold inf raised
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            finite = " and finite" if kind is float else ""
            raise argparse.ArgumentTypeError(f"must be {'0 or more' if zero_ok else 'positive'}{finite}, "
                                             f"got {text!r}")
        return value

    return parse
