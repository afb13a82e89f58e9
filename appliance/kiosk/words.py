"""The kiosk's own words: what the session's problem codes, the camera's faults and the reader's
unreadable kinds mean to the table, and the announcements of an action's events.

Pure (no pygame). The games' words are in ``appliance.table`` (one module per game); the session and
vision speak in codes (``appliance.session.Problem``, ``vision.sources.FAULT_KINDS``,
``vision.reading.ReasonKind``), and only the kiosk turns them into sentences, here. Every text goes
through ``_`` / ``ngettext`` of ``appliance.i18n`` at call time, so switching the language switches
every screen.
"""

from __future__ import annotations

from appliance.i18n import _, ngettext
from appliance.table import Table, find_table, kinds
from appliance.table.base import Announcement, waiting_words
from appliance.table.events import announcements as walk_announcements


def announcements(session, events: list[dict], drink_word: str = "sip") -> list[Announcement]:
    """The announcements of one action's ``events`` in ``session``'s game, in the engine's order
    (``turn`` events are the prompt, not announced)."""
    return walk_announcements(find_table(session.kind)(), events, session.players, drink_word, session.rules)


def problem_text(problem) -> str:
    """An ``appliance.session.Problem`` as the message line says it ("" for None)."""
    if problem is None:
        return ""
    code = problem.code
    if code == "refused":
        return refusal_text(problem.refusal)
    if code == "unsaved":
        return unsaved()
    if code == "not_now":
        return _("Not now: {what}").format(what=waiting_for(problem.need))
    if code in ("unreadable", "count") and problem.need is not None and problem.need.kind == "lift":
        return _under_the_cup(problem)
    if code == "unreadable" and problem.reading.kind in RETHROW:
        return RETHROW[problem.reading.kind]()
    if code == "unreadable":
        return _("Cannot read the dice ({reason}). Throw again, or fix them by hand.").format(
            reason=unreadable_reason(problem.reading))
    if code == "count":
        return ngettext("{found} die seen, {needed} needed. Throw again.", "{found} dice seen, {needed} needed. Throw again.",
                        problem.found).format(found=problem.found, needed=problem.needed)
    return {"ended": _("This game has ended"), "over": _("The game is over")}.get(code, code)


def _under_the_cup(problem) -> str:
    """The dice under a lifted Mäxle cup cannot be read. They are the evidence the announcement is
    judged by (RULES.md §1): thrown again, a new throw would judge it, so they are never thrown
    again but fixed by hand (a long press, or Fix dice), whatever the reason (a die cocked or off
    the tray under the cup, one hidden)."""
    reason = _dice_seen(problem.found) if problem.code == "count" else unreadable_reason(problem.reading)
    # TRANSLATORS: Mäxle: the cup was lifted but the camera cannot read the dice under it ({reason}
    # says why). Thrown again they would no longer show what was announced on, so the players
    # enter them by hand.
    return _("Cannot read the dice under the cup ({reason}). Do not throw them: fix them by hand.").format(
        reason=reason)


# A die off the tray or cocked is no throw (RULES.md is silent; the table's convention, as at a bar): it is thrown
# again, never fixed by hand, so the message says only that.
RETHROW = {
    # TRANSLATORS: a die landed outside the dice tray (on the bar table): the roll does not count.
    "off_tray": lambda: _("A die is off the tray: throw again"),
    # TRANSLATORS: a die leans on another die or the tray wall, no face squarely up: the roll does
    # not count.
    "cocked": lambda: _("A die is cocked: throw again"),
}


def refusal_text(error: dict) -> str:
    """The engine's refusal of an action (its ``error`` event's payload) as the message line says
    it, in the table's language: "Not allowed now: 31 does not beat 54", or for an action at the
    wrong moment "Not now: Ann announces first". A game's own refusal ("maexle.too_low") is worded
    by its table, the others by every table's base."""
    code = str(error.get("code") or "")
    kind = code.partition(".")[0]
    table = find_table(kind)() if kind in kinds() else Table()
    if code == "not_now":
        return _("Not now: {what}").format(what=table.refusal(error))
    return _("Not allowed now: {reason}").format(reason=table.refusal(error))


def setup_refusal_text(kind: str, error: dict) -> str:
    """The engine's refusal of a setup of game ``kind`` (its ``SetupError``'s ``code`` and ``facts``
    in one dict) as the message line says it, in the table's language: "Cannot start: Mäxle is for
    2-20 players". The engine's English reason goes to the journal only."""
    table = find_table(kind)() if kind in kinds() else Table()
    return _("Cannot start: {reason}").format(reason=table.setup_refusal(error))


def unsaved() -> str:
    """What the message line says when the store cannot keep the game (the disk is full, gone or
    damaged): the table cannot play on without it. The store's English error goes to the journal."""
    # TRANSLATORS: the kiosk's storage (its SD card) refused to save the game;
    # the move did not count.
    return _("The game could not be saved: the storage is full or broken. Call the staff.")


def continued_shorter(dropped: int) -> str:
    """What the message line says after a restart when the saved game's last ``dropped`` actions do
    not replay (a damaged record, or one another version of the table saved) and it goes on from
    before them. The engine's English reason goes to the journal."""
    # TRANSLATORS: after a restart: the end of the saved game's record does not replay (damaged, or
    # saved by another version); the game goes on from before it.
    return ngettext("The saved game's last move could not be replayed (its record is damaged or from another "
                    "version): the game goes on from before it.",
                    "The saved game's last {n} moves could not be replayed (its record is damaged or from "
                    "another version): the game goes on from before them.", dropped).format(n=dropped)


def not_continued(put_aside: bool = True) -> str:
    """What the message line says after a restart when the saved game does not replay (a damaged
    record, or one another version of the table saved): the table starts anew. ``put_aside``: the
    store ended the game (its log kept), so this is said once; False when the store could not be
    written, and the game is still there at the next start. The engine's English reason goes to the
    journal."""
    if put_aside:
        # TRANSLATORS: after a restart: the saved game's record does not replay
        # (damaged, or saved by another version); it is put aside for good.
        return _("The saved game could not be continued: its record is damaged or from another version. "
                 "It was put aside; start a new game.")
    # TRANSLATORS: after a restart: the saved game's record does not replay (damaged, or saved by
    # another version), and the saved games cannot be written, so it could not be put aside either.
    return _("The saved game could not be continued: its record is damaged or from another version. "
             "Start a new game.")


def waiting_for(need) -> str:
    """What the table must do now instead of what it tried (a roll, an extra button), in words."""
    return waiting_words(need.kind, need.player)


def totals(drinks: int, points: int, water: int = 0) -> str:
    """A player's counts in words: "8 drinks, 3 penalty points", "2 drinks" (never "8 / 3");
    "8 drinks (3 as water)" when ``water`` of them were past the drink cap."""
    said = [with_water(ngettext("{count} drink", "{count} drinks", drinks).format(count=drinks), water)]
    if points:
        said.append(ngettext("{count} penalty point", "{count} penalty points", points).format(count=points))
    return ", ".join(said)


def with_water(drinks: str, water: int) -> str:
    """``drinks`` (a count said) with how many of them were water past the drink cap, if any:
    "3 (1 as water)" (README "Drink cap")."""
    # TRANSLATORS: {drinks} is a count of drinks ("3" or "3 drinks"), {water} how many of them were water.
    return _("{drinks} ({water} as water)").format(drinks=drinks, water=water) if water else drinks


def more_players(count: int) -> str:
    """The line under a list cut short: "and 3 more players"."""
    return ngettext("and {count} more player", "and {count} more players", count).format(count=count)


def camera_fault(kind: str) -> str:
    """The live view's short status for a camera fault of ``kind`` (``vision.sources.FAULT_KINDS``, or
    "closed" for a camera the kiosk has let go), in the active language: what the table sees and may
    do, never the device's English detail (that goes to the journal). An unknown kind gets a
    general line. The camera retries by itself in every case; the status clears with the next frame.
    """
    texts = {
        # TRANSLATORS: camera status: no camera could be opened (unplugged, wrong port).
        "missing": _("Camera not found — check its cable"),
        # TRANSLATORS: camera status: the camera is there but no new picture came within a second.
        "timeout": _("Camera stopped sending pictures, waiting…"),
        # TRANSLATORS: camera status: the picture repeats exactly (a USB camera pulled out).
        "frozen": _("Camera picture frozen, reconnecting…"),
        # TRANSLATORS: camera status: the camera failed while sending pictures.
        "lost": _("Camera connection lost, reconnecting…"),
        # TRANSLATORS: camera status: what the camera sends is not a picture.
        "bad_frames": _("Camera sends broken pictures, reconnecting…"),
        "closed": _("Camera switched off"),
    }
    return texts.get(kind) or _("Camera problem, retrying…")


def _dice_seen(n: int) -> str:
    """"2 dice seen": why the dice cannot be read, another number of dice than the game needs."""
    # TRANSLATORS: why the dice cannot be read: another number of dice than the game needs.
    return ngettext("{count} die seen", "{count} dice seen", n).format(count=n)


def unreadable_reason(reading) -> str:
    """Why a ``vision.reading.DiceReading`` is unreadable, in the active language, from its ``kind``
    (``vision.reading.ReasonKind``); the reader's English ``reason`` goes to logs only. Lower case:
    it follows "Cannot read:" or stands in brackets."""
    kind = reading.kind
    if kind == "count":
        return _dice_seen(len(reading.dice))
    texts = {
        # TRANSLATORS: why the dice cannot be read: nothing like a die on the tray.
        "no_dice": _("no dice seen"),
        # TRANSLATORS: why the dice cannot be read: the camera is not sure of a die (its value,
        # or whether it is a die at all).
        "unsure": _("a die is unclear"),
        # TRANSLATORS: why the dice cannot be read: a die leans on another die or the tray wall,
        # no face up; the roll is thrown again.
        "cocked": _("a die is cocked"),
        # TRANSLATORS: why the dice cannot be read: a die lies outside the dice tray; the roll is
        # thrown again.
        "off_tray": _("a die is off the tray"),
        # TRANSLATORS: why the dice cannot be read: the readings of one still scene differ.
        "disagree": _("the readings disagree"),
        # TRANSLATORS: why the dice cannot be read: the camera picture is only noise.
        "noise": _("the picture is noise"),
        # TRANSLATORS: why the dice cannot be read: the reader itself failed (logged).
        "failure": _("reader failure"),
    }
    return texts.get(kind) or _("unclear")


def games_not_saved() -> str:
    """What the message line says while the kiosk cannot write its saved games (a read-only SD card
    or state directory, a saved-games file it may not write): the table plays on, but nothing is
    kept over a restart. The reason, in English, is in the journal."""
    # TRANSLATORS: at the start and at each new game, when the kiosk cannot write its saved games
    # (its storage is read-only): the table plays on, but nothing is kept.
    return _("The games cannot be saved: play goes on without saving. Call the staff.")
