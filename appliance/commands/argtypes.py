"""Argument types shared by several subcommands (argparse ``type=`` callables).

Each raises ``argparse.ArgumentTypeError`` with a one-line reason, which argparse prints after the
usage and turns into exit status 2.
"""

from __future__ import annotations

import argparse


def seed(text: str) -> int:
    """A random seed: a whole number >= 0 (numpy's generators refuse a negative one with a traceback)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed must be 0 or more, not {value}")
    return value
