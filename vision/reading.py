"""The value types of a dice reading, shared by the reader, the settle detector and the appliance.

A reading is what one frame says about the dice on the tray: each die's top-face value with where it
lies, and a status. ``unreadable`` is an honest answer, never a guess: the game only ever acts on
``ok`` readings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

Status = Literal["ok", "unreadable"]

# Why a reading is unreadable, as a word the kiosk can translate (the ``reason`` text is English,
# for logs and the command line):
#   no_dice    nothing die-like on the tray
#   count      not the number of dice the game expects
#   unsure     a die the reader is not sure of: its value, or whether it is a die at all
#   cocked     a die leaning on another die or the tray wall: no face is squarely up (re-throw)
#   off_tray   a die lies outside the tray area (``vision.tray``): not a throw that counts (re-throw)
#   disagree   the readings of one still scene disagree (the settle detector)
#   noise      the frame is noise, not a picture
#   failure    the reader itself failed (a bug caught by its safety net)
#   other      anything else
ReasonKind = Literal["", "no_dice", "count", "unsure", "cocked", "off_tray", "disagree", "noise", "failure",
                     "other"]
# The kinds that are no throw at all: thrown again, never taught as a face (a leaning die's crop is
# none; under the Mäxle cup such dice are entered by hand for the game alone).
RETHROW_KINDS = frozenset({"cocked", "off_tray"})


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

    @classmethod
    def from_json(cls, data: dict) -> Die:
        """The die of ``to_json``'s dict. Raises ValueError when it is not one (a value outside
        1-6, a box that is not four numbers...)."""
        try:
            value, (x, y), box = int(data["value"]), data["center"], tuple(int(v) for v in data["box"])
            die = cls(value, (float(x), float(y)), box, float(data.get("confidence", 1.0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a die: {data!r} ({exc})") from None
        if not 1 <= value <= 6 or len(box) != 4:
            raise ValueError(f"not a die: {data!r}")
        return die

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
        in English (e.g. "no dice", "expected 5 dice, found 4", "a die at (120, 80) reads 3 or 5")
        and ``kind``, the reason as one of ``ReasonKind`` for the kiosk to word in its language.
    dice: the dice found, in reading order (left to right, top to bottom). On an unreadable
        reading these are the dice that were read, for display only.
    """

    status: Status
    dice: tuple[Die, ...] = ()
    reason: str = ""
    extra: dict = field(default_factory=dict, compare=False, repr=False)
    kind: ReasonKind = ""

    @property
    def values(self) -> tuple[int, ...]:
        """The dice values, sorted ascending: the roll as the engine takes it."""
        return tuple(sorted(d.value for d in self.dice))

    @property
    def ok(self) -> bool:
        """True when the reading may be acted on."""
        return self.status == "ok"

    @classmethod
    def from_json(cls, data: dict) -> DiceReading:
        """The reading of ``to_json``'s dict. Raises ValueError when it is not one."""
        try:
            status, dice = data["status"], tuple(Die.from_json(d) for d in data["dice"])
            reason, kind = str(data.get("reason", "")), data.get("kind", "")
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a dice reading: {data!r} ({exc})") from None
        if status not in ("ok", "unreadable") or kind not in get_args(ReasonKind):
            raise ValueError(f"not a dice reading: {data!r}")
        return cls(status, dice, reason, kind=kind)

    def to_json(self) -> dict:
        """The reading as in ``dicetable read --json`` (without file and ms); an unreadable one adds
        ``reason`` and ``kind``."""
        out = {
            "values": list(self.values),
            "status": self.status,
            "dice": [d.to_json() for d in self.dice],
        }
        if self.reason:
            out["reason"] = self.reason
        if self.kind:
            out["kind"] = self.kind
        return out


def unreadable(reason: str, dice: tuple[Die, ...] = (), kind: ReasonKind = "other") -> DiceReading:
    """An ``unreadable`` reading with its reason (English) and its kind (see ``ReasonKind``)."""
    return DiceReading("unreadable", tuple(dice), reason, kind=kind)


def no_dice() -> DiceReading:
    """The ``unreadable`` reading of an empty tray."""
    return unreadable("no dice", (), "no_dice")


def wrong_count(expected: int, dice: tuple[Die, ...]) -> DiceReading:
    """The ``unreadable`` reading of a frame with another number of dice than the game expects:
    the dice are kept for display, never acted on."""
    return unreadable(f"expected {expected} dice, found {len(dice)}", dice, "count")
