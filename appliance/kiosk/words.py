"""Everything the table reads, in one place: engine events become announcements, names become words.

Pure (no pygame): the kiosk draws these texts, the headless demo prints them, the voice speaks them.
Every text goes through ``_`` / ``ngettext`` of ``appliance.i18n`` at call time, so switching the
language switches every screen. Events are the RULES.md §4 shapes the engine emits.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from appliance.i18n import _, ngettext

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announcement:
    """One big line for the whole table. tone: "drink" | "penalty" | "win" | "info" | "good" |
    "error" (the banner's colour); detail: a smaller second line (the rule that applied), or ""."""

    text: str
    tone: str = "info"
    detail: str = ""


def game_name(kind: str) -> str:
    """The game's own name: Mäxle, Biscuit (Biskvīts), Yacht (Яхта), in the active language."""
    return {"maexle": _("Mäxle"), "biscuit": _("Biscuit"), "yacht": _("Yacht")}.get(kind, kind)


def category_name(category: str) -> str:
    """A Yacht category's name (RULES.md §3 / §4 names) in the active language."""
    return {
        "ones": _("Ones"), "twos": _("Twos"), "threes": _("Threes"), "fours": _("Fours"),
        "fives": _("Fives"), "sixes": _("Sixes"), "small_straight": _("Small straight"),
        "large_straight": _("Large straight"), "full_house": _("Full house"),
        "four_of_a_kind": _("Four of a kind"), "choice": _("Choice"), "yacht": _("Yacht"),
    }.get(category, category)


def drinks(player: str, count: int, drink_word: str = "sip") -> str:
    """"Bo drinks 2" in the configured unit (config ``drink_word``: sip, drink, point, or any word).

    Each known unit has its own counted message so every language can inflect it (Russian and
    Latvian have three plural forms); another word is shown as "Bo: 2 × word".
    """
    if drink_word == "sip":
        text = ngettext("{player} takes {count} sip", "{player} takes {count} sips", count)
    elif drink_word == "drink":
        text = ngettext("{player} drinks {count}", "{player} drinks {count}", count)
    elif drink_word == "point":
        text = ngettext("{player} gets {count} point", "{player} gets {count} points", count)
    else:
        return _("{player}: {count} × {unit}").format(player=player, count=count, unit=drink_word)
    return text.format(player=player, count=count)


def everyone_drinks(count: int, drink_word: str = "sip") -> str:
    """"Everyone drinks 1" in the configured unit."""
    if drink_word == "sip":
        text = ngettext("Everyone takes {count} sip", "Everyone takes {count} sips", count)
    elif drink_word == "drink":
        text = ngettext("Everyone drinks {count}", "Everyone drinks {count}", count)
    elif drink_word == "point":
        text = ngettext("Everyone gets {count} point", "Everyone gets {count} points", count)
    else:
        return _("Everyone: {count} × {unit}").format(count=count, unit=drink_word)
    return text.format(count=count)


def penalty(player: str, points: int) -> str:
    """"Bo takes 1 penalty point"."""
    return ngettext("{player} takes {count} penalty point", "{player} takes {count} penalty points",
                    points).format(player=player, count=points)


def dice_text(values) -> str:
    """Dice as the table says them: "6 5", highest first."""
    return " ".join(str(v) for v in sorted(values, reverse=True))


def maexle_value(value: int | None) -> str:
    """A Mäxle value as announced: "54", "Mäxle" for 21, "—" for none."""
    if value is None:
        return "—"
    return _("Mäxle") if value == 21 else str(value)


def names(players) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return _("{first} and {last}").format(first=", ".join(players[:-1]), last=players[-1])


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


def unreadable_reason(reading) -> str:
    """Why a ``vision.reading.DiceReading`` is unreadable, in the active language, from its ``kind``
    (``vision.reading.ReasonKind``); the reader's English ``reason`` goes to logs only. Lower case:
    it follows "Cannot read:" or stands in brackets."""
    kind = reading.kind
    if kind == "count":
        n = len(reading.dice)
        # TRANSLATORS: why the dice cannot be read: another number of dice than the game needs.
        return ngettext("{count} die seen", "{count} dice seen", n).format(count=n)
    texts = {
        # TRANSLATORS: why the dice cannot be read: nothing like a die on the tray.
        "no_dice": _("no dice seen"),
        # TRANSLATORS: why the dice cannot be read: the camera is not sure of a die (its value,
        # or whether it is a die at all).
        "unsure": _("a die is unclear"),
        # TRANSLATORS: why the dice cannot be read: the readings of one still scene differ.
        "disagree": _("the readings disagree"),
        # TRANSLATORS: why the dice cannot be read: the camera picture is only noise.
        "noise": _("the picture is noise"),
        # TRANSLATORS: why the dice cannot be read: the reader itself failed (logged).
        "failure": _("reader failure"),
    }
    return texts.get(kind) or _("unclear")


def announcements(events: list[dict], players, drink_word: str = "sip", *, kind: str = "") -> list[Announcement]:
    """The announcements for one action's events, in the engine's order.

    players: every seated player (to say "Everyone drinks 1" when the same drink for the same reason
    goes to all of them). kind: the game ("maexle" | "biscuit" | "yacht"). ``turn`` events are not
    announced: they become the prompt. ``error`` events are announced with the error tone; unknown
    events are logged and skipped.
    """
    out: list[Announcement] = []
    players = list(players)
    i = 0
    while i < len(events):
        event = events[i]
        key, value = next(iter(event.items())) if isinstance(event, dict) and len(event) == 1 else (None, None)
        if key == "announcement":  # Mäxle: the holder announced a value and passed the cup
            out.append(_announced(value))
        elif key == "revealed":  # Mäxle: the cup was lifted and the camera read the dice
            out.append(_revealed(value))
        elif key == "blind_pass":
            out.append(Announcement(_("{player} passes the cup without rolling").format(player=value["player"]),
                                    "info", _("{player} now answers for {value}").format(
                                        player=value["player"], value=maexle_value(value.get("value")))))
        elif key == "rolled":  # Biscuit: said only when no drink, pick or title follows from it
            said = _rolled(value)
            if said:
                out.append(said)
        elif key == "order_tie":
            out.append(Announcement(_("Tie at {total}: {players} roll again").format(
                total=value.get("total"), players=names(value.get("players", ()))), "info"))
        elif key == "order_seat":  # Yacht, order_tie = seat: the "order" event that follows names the starter
            out.append(Announcement(_("Tie at {total}: {players}").format(
                total=value.get("total"), players=names(value.get("players", ()))), "info",
                _("The tied player seated first starts")))
        elif key == "final_tie":  # Yacht, final_tie = roll_off (again, when the roll-off ties too)
            out.append(Announcement(_("Tie at {total}: {players} roll off").format(
                total=value.get("total"), players=names(value.get("players", ()))), "info",
                _("One throw each, the highest total wins; it scores nothing")))
        elif key == "order":
            out.append(Announcement(_("{player} starts").format(player=value[0]), "good", " → ".join(value)))
        elif key == "declared":
            out.append(Announcement(_("{player} declares {category}").format(
                player=value.get("player"), category=category_name(value.get("category", ""))), "info"))
        elif key == "duel_tie":
            out.append(Announcement(
                (_("Tie at {total}: roll again") if value.get("reroll") else _("Tie at {total}: nobody drinks"))
                .format(total=value.get("total")), "info"))
        elif key == "drink":
            group = _same_drink_run(events, i)
            if len(players) > 1 and sorted(e["drink"]["player"] for e in group) == sorted(players):
                code = str(value.get("code") or "")
                detail = code.split(".", 1)[1] if code.startswith("biscuit.") else _why(value)
                out.append(Announcement(everyone_drinks(value["count"], drink_word), "drink", detail))
                i += len(group)
                continue
            out.append(Announcement(drinks(value["player"], value["count"], drink_word), "drink",
                                    _why(value, steps_down=_next_is(events, i, "biscuit", None))))
        elif key == "penalty":
            out.append(Announcement(penalty(value["player"], value["points"]), "penalty", _why(value)))
        elif key == "out":
            out.append(Announcement(_("{player} is out").format(player=value), "penalty"))
        elif key == "biscuit":
            if value:
                out.append(Announcement(_("{player} is the Biscuit").format(player=value), "good"))
            elif not any("thumbs" in e for e in events[i:] if isinstance(e, dict)):
                # (3-4 under combined = both, the thumbs race names the new Biscuit at once: no hunt for 7)
                out.append(Announcement(_("No Biscuit: roll for a 7"), "info"))
        elif key == "rule":
            if value:
                out.append(Announcement(_("{player} makes a rule!").format(player=value.get("by", "")), "info",
                                        _("Whoever breaks it drinks")))
            else:
                out.append(Announcement(_("The rule ends"), "info"))
        elif key == "duel":
            out.append(Announcement(_("Duel: {challenger} against {player}").format(
                challenger=value.get("challenger", ""), player=value.get("against", "")),
                "info", _("The challenger rolls first")))
        elif key == "thumbs":
            out.append(Announcement(_("Thumbs on foreheads!"), "info", _("The last one is the new Biscuit")))
        elif key == "score":
            out.append(Announcement(
                _("{category}: {points}").format(category=category_name(value["category"]), points=value["points"]),
                "good" if value["points"] else "info", value["player"]))
        elif key == "winner":
            roll_off = any(e.get("rolled", {}).get("step") == "roll_off" for e in events if isinstance(e, dict))
            out.append(Announcement(ngettext("{players} wins!", "{players} win!", len(value)).format(
                players=names(value)), "win", _("won the roll-off") if roll_off else ""))
        elif key == "undone":
            out.append(Announcement(_("Taken back"), "info"))
        elif key == "error":
            out.append(Announcement(_("Not allowed now"), "error", str(value.get("reason", ""))))
        elif key != "turn":
            log.info("no announcement for event %r", event)
        i += 1
    return out


def _announced(value: dict) -> Announcement:
    """A Mäxle announcement: "Ann: 54!", and for a Mäxle the receiver's choice."""
    said = value.get("value")
    if said == 21:
        return Announcement(_("Mäxle! Accept or reveal"), "win",
                            _("{player} announces Mäxle to {to}").format(player=value["player"], to=value["to"]))
    return Announcement(_("{player} announces {value}").format(player=value["player"], value=maexle_value(said)),
                        "info", _("{to}: believe and beat it, or reveal").format(to=value["to"]))


def _revealed(value: dict) -> Announcement:
    """What was under the Mäxle cup, and whether the announcement held."""
    shown, said, by = maexle_value(value.get("value")), maexle_value(value.get("announced")), value.get("by")
    lift = value.get("lift")
    if lift == "self_reveal":
        return Announcement(_("{player} shows {value}").format(player=value["player"], value=shown), "info")
    if lift == "maexle":
        if value.get("holds"):
            return Announcement(_("A real Mäxle!"), "win", dice_text(value.get("dice", ())))
        return Announcement(_("No Mäxle: {value}").format(value=shown), "info")
    if value.get("holds"):
        return Announcement(_("{value}: {player}'s {announced} holds").format(value=shown, player=by, announced=said),
                            "good")
    return Announcement(_("{value}: {player} lied about {announced}").format(value=shown, player=by, announced=said),
                        "penalty")


def _rolled(value: dict) -> Announcement | None:
    """A Biscuit roll that changes nothing by itself (no 7 yet, a "nothing" row, a duel throw)."""
    step, row, total = value.get("step"), value.get("row"), value.get("total")
    if step == "find" and total != 7:
        return Announcement(_("{total}: no Biscuit yet").format(total=total), "info", dice_text(value.get("dice", ())))
    if step in ("order", "roll_off"):  # Yacht: rolling for who starts, or off a final tie
        return Announcement(_("{player} rolls {total}").format(player=value.get("player"), total=total), "info",
                            dice_text(value.get("dice", ())))
    if step == "duel":
        return Announcement(_("{player} rolls {total}").format(player=value.get("player"), total=total), "info")
    if step == "reign" and row in ("1-4", "1-5", "2-4", "2-6"):
        return Announcement(_("{row}: nothing happens").format(row=row), "info", _("The Biscuit rolls again"))
    return None


def _same_drink_run(events: list[dict], start: int) -> list[dict]:
    """The run of drink events from ``start`` with the same count and reason (one rule's drinks)."""
    first = events[start]["drink"]
    run = []
    for event in events[start:]:
        d = event.get("drink") if isinstance(event, dict) else None
        if not d or d.get("count") != first.get("count") or d.get("why") != first.get("why"):
            break
        run.append(event)
    return run


def _next_is(events: list[dict], i: int, key: str, value) -> bool:
    """True when the event after ``events[i]`` is ``{key: value}``."""
    nxt = events[i + 1] if i + 1 < len(events) else None
    return isinstance(nxt, dict) and key in nxt and nxt[key] == value


def _why(value: dict, *, steps_down: bool = True) -> str:
    """The rule behind a drink or penalty: our own words for the engine's ``code`` when we know it,
    else the engine's ``why`` (English, through the catalog).

    steps_down: the Biscuit stops being the Biscuit right after this drink (the engine's
    ``{"biscuit": null}`` follows it). A 3-3 drink is the Biscuit's own 2 then; before it come the
    picked players' drinks, which carry the same code (RULES.md §2: 3-3 picks 3 players, then the
    Biscuit drinks 2 and steps down).
    """
    known = {
        "maexle.accept": _("accepted the Mäxle without looking"),
        "maexle.self_reveal": _("showed their own dice"),
        "maexle.reveal_held": _("doubted an announcement that held"),
        "maexle.reveal_lie": _("caught lying"),
        "maexle.immediate_real": _("a real Mäxle: everyone else takes 1"),
        "maexle.immediate_false": _("announced Mäxle without one"),
    }
    code = str(value.get("code") or "")
    row = code.split(".", 1)[1] if code.startswith("biscuit.") else ""
    biscuit = {
        "1-1": _("1-1: everyone drinks"), "4-6": _("4-6: the Biscuit drinks"),
        "5-6": _("5-6: the player left of the Biscuit"), "4-5": _("4-5: the player right of the Biscuit"),
        "3-6": _("3-6: the player right of the Biscuit"), "3": _("a 3: the Biscuit steps down"),
        "3-3": _("3-3: the Biscuit drinks 2 and steps down"), "1-2": _("lost the duel"),
        "rule": _("broke the rule"), "thumbs": _("last with the thumb"),
        "2-2": _("2-2: picked by the Biscuit"), "4-4": _("4-4: picked by the Biscuit"),
        "5-5": _("5-5: picked by the Biscuit"),
    }
    if code in known:
        return known[code]
    if code == "biscuit.3-3" and not steps_down:
        return _("3-3: picked by the Biscuit")
    if row in biscuit:
        return biscuit[row]
    why = value.get("why") or ""
    return _(why) if why else ""
