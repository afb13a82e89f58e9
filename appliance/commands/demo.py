"""The whole appliance on a table that needs no hardware.

With a display (X11 or Wayland) it opens the kiosk in a window on a simulated dice table that
throws the dice (in Mäxle: shakes the cup, or lifts it) whenever the game waits for it; Space does
it at once, R is the REVEAL button, Backspace fixes a reading, digits and the mouse choose, Ctrl+Q
quits.

Without a display, or with --headless, it plays a scripted evening of Mäxle, Biscuit and declared
Yacht: the demo plays the table (throws, button presses and taps, each said in the transcript), the
real camera pipeline reads every roll from the frames, the engine plays the rules, and the kiosk's
announcements are printed. One screenshot per screen is saved in a folder it names. With
--source DIR each throw is a real photo from DIR (e.g. ../shared/dice-photos with its manifest.csv).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from appliance.commands import argtypes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true", help="play the scripted evening even if a display exists")
    parser.add_argument("--source", type=Path, metavar="DIR",
                        help="headless: throw real photos from DIR (2- and 5-dice photos; labels from DIR/manifest.csv)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="folder for the screenshots (default: a new temporary folder)")
    parser.add_argument("--size", type=argtypes.size((320, 240), (7680, 4320), "800x480"), metavar="WxH", help="kiosk size in px (default 800x480 headless; a window: 1280x720, made smaller to fit the display)")
    parser.add_argument("--seed", type=argtypes.seed, default=7, help="seed of the evening's random throws and choices (default 7)")
    parser.add_argument("--lang", choices=("en", "de", "lv", "ru"), help="the kiosk's language")
    parser.add_argument("--games", default="maexle,biscuit,yacht", metavar="LIST",
                        help="headless: which games to play, in order (default maexle,biscuit,yacht)")


def run(args: argparse.Namespace) -> int:
    import logging
    import os

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from appliance import i18n
    from appliance.demo import DemoError, ScriptedEvening, has_display, play_window

    if args.lang:
        i18n.set_language(args.lang)
    if not args.headless and args.source is None and has_display():
        return play_window(args.size, args.seed)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    out = args.out or Path(tempfile.mkdtemp(prefix="dicetable-demo-"))
    try:
        evening = ScriptedEvening(out, size=args.size or (800, 480), source=args.source, seed=args.seed,
                                  say=lambda line: print(line, flush=True),
                                  games=tuple(g.strip() for g in args.games.split(",") if g.strip()))
        return evening.run()
    except DemoError as exc:
        print(f"dicetable demo: {exc}", file=sys.stderr)
        return exc.status
