"""The tray area: the part of the camera frame the dice tray's floor fills, and the check that every
die lies in it.

A die that jumped the tray's wall and lies on the bar table beside it is not a throw that counts: the
table throws again (the same as a cocked die). The area is an axis-aligned rectangle ``(x, y, w, h)``
in px of the camera frame (config ``[tray] area``, ``dicetable watch --tray``); None is the whole
frame, where no die can lie off the tray.
"""

from __future__ import annotations

from dataclasses import replace

from vision.reading import DiceReading, unreadable

Area = tuple[int, int, int, int]

# Kinds whose dice say where dice lie: a die among them off the tray makes the reading off_tray. The
# others (noise, a reader failure, readings that disagree) have no dice worth placing.
_PLACED = ("", "count", "unsure", "cocked")


def inside(point: tuple[float, float], area: Area | None) -> bool:
    """Whether ``point`` (x, y) px lies in ``area`` (x, y, w, h) px, edges included; always for None."""
    if area is None:
        return True
    x, y, w, h = area
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def off_tray(reading: DiceReading, area: Area | None) -> DiceReading:
    """``reading`` as the table takes it: unchanged when ``area`` is None or every die's centre lies
    in it; otherwise ``unreadable`` of kind "off_tray", naming the first such die in reading order
    ("the die at (612, 40) is off the tray (40, 30, 560, 420)"), with the dice kept for display.
    The positions are frame px, as the dice's centres."""
    if area is None or reading.kind not in _PLACED:
        return reading
    out = [d for d in reading.dice if not inside(d.center, area)]
    if not out:
        return reading
    (cx, cy), (x, y, w, h) = out[0].center, area
    return replace(unreadable(f"the die at ({cx:.0f}, {cy:.0f}) is off the tray ({x}, {y}, {w}, {h})",
                              reading.dice, "off_tray"), extra=dict(reading.extra))
