"""The evening's summary from the appliance's saved games: each player's drinks and penalty points, the
rarest throw and the Yacht scores, as short text lines; with --png FILE also the kiosk's "End the
evening" chart as an image (drawn headless, no display needed).

DIR is the kiosk's state directory (e.g. /var/lib/dicetable) or its dicetable.sqlite3; it is read
only, never changed. The evening is the latest one: the games ended since the last "New evening".
``--lang`` says it in the kiosk's German, Latvian or Russian (default English, for the staff).
Exit status: 0; 1 when the saved games cannot be read, no game has ended this evening, or the image
cannot be written.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from appliance.commands import argtypes

SIZE = (1280, 720)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--state DIR``, ``--png FILE``, ``--size WxH`` and ``--lang``."""
    parser.add_argument("--state", type=argtypes.state_directory, required=True, metavar="DIR",
                        help="the saved games: the state directory or its dicetable.sqlite3")
    parser.add_argument("--png", type=Path, metavar="FILE", help="also draw the chart to this PNG image")
    parser.add_argument("--size", type=argtypes.size((320, 240), (7680, 4320), "1280x720"), default=SIZE, metavar="WxH",
                        help=f"the image's size in px (default {SIZE[0]}x{SIZE[1]})")
    parser.add_argument("--lang", choices=("en", "de", "lv", "ru"), default="en",
                        help="the language of the lines and the chart (default en)")


def run(args: argparse.Namespace) -> int:
    """Print the summary of ``args.state``'s evening (and draw it to ``args.png``); the exit status."""
    from appliance import i18n
    from appliance.evening import Played, summarize
    from appliance.kiosk.chart import summary_lines
    from appliance.session import in_effect
    from appliance.store import StoreError, read_evening

    i18n.set_language(args.lang)
    try:
        games = read_evening(args.state)
    except StoreError as exc:
        replay = "; a game log is read with dicetable replay" if exc.errno == errno.EINVAL and args.state.is_file() else ""
        print(f"dicetable summary: {exc.strerror}{replay}", file=sys.stderr)
        return 1
    summary = summarize([Played(setup, in_effect(actions, events), tally, winner)
                         for setup, actions, events, tally, winner in games])
    if summary.empty:
        print(f"dicetable summary: {args.state}: no game has ended this evening yet", file=sys.stderr)
        return 1
    for line in summary_lines(summary):
        print(line)
    if args.png is not None:
        try:
            draw_png(summary, args.png, args.size)
        except (OSError, ValueError) as exc:
            print(f"dicetable summary: cannot write {args.png}: {exc}", file=sys.stderr)
            return 1
        print(f"chart: {args.png}")
    return 0


def draw_png(summary, path: Path, size: tuple[int, int]) -> None:
    """The kiosk's summary chart for ``summary`` under its title, saved as a PNG of ``size`` (W, H)
    px; on a size narrower than 3:2 drawn in a 3:2 band across it, as the kiosk draws
    (``theme.layout_area``). Needs no display (SDL's dummy video driver). Raises ValueError for a
    folder or a name not ending .png and OSError when the file cannot be written (its folder missing too)."""
    if path.is_dir():
        raise ValueError("that is a folder; name the image in it, e.g. evening.png")
    if path.suffix.lower() != ".png":
        raise ValueError("the image must be a .png file")
    if not path.parent.is_dir():
        raise OSError(f"no folder {path.parent}")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from appliance.i18n import _
    from appliance.kiosk import theme as th
    from appliance.kiosk import widgets as w
    from appliance.kiosk.chart import draw_summary

    pygame.font.init()
    image = pygame.Surface(size)
    image.fill(th.BACKGROUND)
    surface = image.subsurface(pygame.Rect(th.layout_area(*size)))
    width, height = surface.get_size()
    t = th.Theme(width, height)
    title = pygame.Rect(2 * t.gap, t.gap, width - 4 * t.gap, t.px(40))
    w.text(surface, t, _("The evening"), title, size=30, colour=th.ACCENT, bold=True, align="left")
    draw_summary(surface, t, pygame.Rect(t.gap, title.bottom + t.gap, width - 2 * t.gap,
                                         height - title.bottom - 2 * t.gap), summary)
    try:
        pygame.image.save(image, str(path))
    except pygame.error as exc:
        raise OSError(str(exc)) from None
