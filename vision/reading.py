"""The value types of a dice reading, shared by the reader, the settle detector and the appliance.

A reading is what one frame says about the dice on the tray: each die's top-face value with where it
lies, and a status. ``unreadable`` is an honest answer, never a guess: the game only ever acts on
``ok`` readings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Status = Literal["ok", "unreadable"]


@dataclass(frozen=True)
class Die:
    """One die found in a frame.

    value: the top face, 1-6 (pips counted on the top face only).
    center: (x, y) in px, image coordinates (x right, y down), floats.
    box: (x, y, w, h) in px, the axis-aligned box around the die's top face, ints.
    confidence: 0.0-1.0, how sure the reader is of ``value``.
    """

    value: int
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float = 1.0

    def to_json(self) -> dict:
        """The die as in ``dicetable read --json``: value, center, box, confidence."""
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "box": list(self.box),
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class DiceReading:
    """What one frame says about the dice.

    status: "ok" when every die is read and explained; "unreadable" otherwise, with ``reason``
        (e.g. "no dice", "expected 5 dice, found 4", "impossible pip layout", "glare").
    dice: the dice found, in reading order (left to right, top to bottom). On an unreadable
        reading these are the dice that were read, for display only.
    """

    status: Status
    dice: tuple[Die, ...] = ()
    reason: str = ""
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def values(self) -> tuple[int, ...]:
        """The dice values, sorted ascending: the roll as the engine takes it."""
        return tuple(sorted(d.value for d in self.dice))

    @property
    def ok(self) -> bool:
        """True when the reading may be acted on."""
        return self.status == "ok"

    def to_json(self) -> dict:
        """The reading as in ``dicetable read --json`` (without file and ms)."""
        out = {
            "values": list(self.values),
            "status": self.status,
            "dice": [d.to_json() for d in self.dice],
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def unreadable(reason: str, dice: tuple[Die, ...] = ()) -> DiceReading:
    """An ``unreadable`` reading with its reason."""
    return DiceReading("unreadable", tuple(dice), reason)
