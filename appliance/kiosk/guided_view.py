"""What the guided setup's screen shows and says, step by step: its title, the instruction, one
line of what is in force or how far it got, and the choices. Pure (no pygame): the screen
(``appliance.kiosk.screens.guided``) hands itself over, ``appliance.kiosk.draw`` lays it out.
Every text goes through ``_`` / ``ngettext`` at call time; the camera's and the adaptation's
English reasons are worded here, never shown.
"""

from __future__ import annotations

from appliance.i18n import _, decimal, ngettext
from appliance.kiosk.words import RETHROW, unreadable_reason
from appliance.table.base import Choice, View, dice_text


def step_name(step: str) -> str:
    """A step of the setup in a few words."""
    return {"tray": _("the tray"), "exposure": _("the light"), "reference": _("the empty tray"),
            "teach": _("your dice")}.get(step, step)


def view(screen) -> View:
    """The guided setup's screen (``screen``: a ``GuidedScreen``) at its step and phase."""
    from appliance import guided

    step = screen.progress.step
    n = guided.STEPS.index(step) + 1 if step in guided.STEPS else len(guided.STEPS)
    out = View("guided", title=_("Table setup {n}/{count}: {step}").format(n=n, count=len(guided.STEPS),
                                                                         step=step_name(step)),
               camera=True, tray=screen.tray_area, title_key=step)
    if screen.app.camera is None and not screen.decision:
        out.prompt = _("No camera: this step needs one")
        out.choices = [Choice("skip", _("Skip this step"), style="primary")]
    else:
        {"tray": _tray, "exposure": _light, "reference": _reference, "teach": _teach}.get(step, _tray)(screen, out)
    if not screen.decision and not screen.fitting:
        if n > 1 and screen.app.camera is not None and _idle(screen):  # no camera: every step says so
            out.choices.append(Choice("previous", _("Previous step"), style="quiet"))
        out.choices.append(Choice("later", _("Leave the setup"), style="quiet"))
    out.hint = screen.notice
    return out


def _idle(screen) -> bool:
    """Whether the step waits for the table's first choice (nothing under way: no light being
    locked, no throw awaiting its confirmation), so that going back loses nothing."""
    return screen.light not in ("auto", "settling", "locking") and screen.pending is None


def _skip() -> Choice:
    """Skip the step: what is in force stays."""
    return Choice("skip", _("Skip this step"))


def _tray(screen, out: View) -> None:
    found = screen.found
    area = screen.tray_area
    out.info = _("Now: the whole picture") if area is None else _("Now: {w} x {h} px at {x}, {y}").format(
        x=area[0], y=area[1], w=area[2], h=area[3])
    if found is None:
        out.prompt = _("Take everything off the tray, then look for it")
        out.choices = [Choice("look", _("Look for the tray"), style="primary"), _skip()]
    elif found.area is not None:
        out.tray, out.title_key = found.area, "tray-found"
        out.prompt = _("Is the tray's floor inside the green frame?")
        out.choices = [Choice("confirm", _("Yes, that is the tray"), style="primary"),
                       Choice("look", _("Look again")), _skip()]
    else:
        out.title_key = "tray-none"
        out.prompt = _("No tray found: {why}").format(why=tray_problem(found.kind))
        out.choices = [Choice("look", _("Look again"), style="primary"), _skip()]


def tray_problem(kind: str) -> str:
    """Why no tray was found (``vision.tray.Found.kind``), in a few words."""
    return {"dark": _("the picture is almost black"), "busy": _("the middle of the picture is not plain"),
            "small": _("the plain area is too small for a tray"),
            "whole": _("the plain area fills the whole picture"), "edge": _("the tray's edge is not in view"),
            "shape": _("the plain area is not the shape of a tray"),
            "frame": _("the camera's picture is too small to look in")}.get(kind, _("the picture shows no tray"))


def _light(screen, out: View) -> None:
    phase = screen.light
    if phase in ("auto", "settling", "locking"):
        out.title_key = "exposure-settling"
        out.prompt = _("The camera adjusts to the light…")
        out.choices = [_skip()]
    elif phase == "locked":
        out.title_key = "exposure-locked"
        out.prompt = _("Light locked: {what}").format(what=light_words(screen.light_values))
        out.choices = [Choice("next", _("Next"), style="primary"), Choice("lock", _("Lock again"))]
    elif phase == "failed":
        out.title_key = "exposure-failed"
        out.prompt = screen.light_problem
        out.choices = [Choice("lock", _("Try again")), Choice("skip", _("Skip this step"), style="primary")]
    else:
        out.info = _("Now: locked by an earlier setup") if screen.kept_light else _("Now: the camera adjusts itself")
        out.prompt = _("Leave the tray empty under the usual light, then lock the camera's light")
        out.choices = [Choice("lock", _("Lock the light"), style="primary"), _skip()]


def light_words(values: dict | None) -> str:
    """What was locked (``LiveCamera.lock_exposure``'s values), in words: "exposure 8.0 ms, gain 1.5,
    white balance fixed", decimals as the language writes them. A webcam's exposure is in its
    driver's own units (``vision.sources.opencv``), said so rather than given a unit it may not have."""
    values = values or {}
    parts = []
    if "ExposureTime" in values:
        parts.append(_("exposure {ms} ms").format(ms=decimal(values["ExposureTime"] / 1000)))
    if "exposure" in values:
        parts.append(_("exposure {value} (the camera's own units)").format(
            value=decimal(values["exposure"], 0 if float(values["exposure"]).is_integer() else 1)))
    if "AnalogueGain" in values:
        parts.append(_("gain {gain}").format(gain=decimal(values["AnalogueGain"])))
    if "ColourGains" in values:
        parts.append(_("white balance fixed"))
    if "wb_temperature" in values:
        parts.append(_("white balance {kelvin} K").format(kelvin=f"{values['wb_temperature']:.0f}"))
    return ", ".join(parts) or _("as the camera reached it")


def light_problem(exc: BaseException) -> str:
    """Why the light could not be locked, in words (``exc``: what the camera raised)."""
    from vision.sources import CameraError, ExposureUnsupported

    if isinstance(exc, ExposureUnsupported):
        return _("This camera cannot fix its light: it keeps adjusting by itself")
    if isinstance(exc, (CameraError, TimeoutError)):
        return _("No answer from the camera: the light stays as it was")
    return _("The light could not be locked: it stays as it was")


def _reference(screen, out: View) -> None:
    if screen.taken:
        out.title_key = "reference-taken"
        out.prompt = _("The empty tray is kept: the reader tells tray from dice by it")
        out.choices = [Choice("next", _("Next"), style="primary"), Choice("picture", _("Take it again"))]
    else:
        out.info = _("Now: an empty tray kept earlier") if screen.kept_reference else _("Now: no empty tray")
        out.prompt = _("Keep the tray empty and hands away, then take its picture")
        out.choices = [Choice("picture", _("Take the picture"), style="primary"), _skip()]


def _teach(screen, out: View) -> None:
    from appliance import guided
    from vision.adapt import MIN_THROWS

    if screen.app.store is None:  # said before a throw, not after the players confirmed one
        out.title_key = "teach-no-store"
        out.prompt = _("This table keeps nothing: it cannot learn your dice")
        out.choices = [Choice("skip", _("Skip this step"), style="primary")]
        return
    if screen.fitting or screen.decision:
        out.title_key = "teach-decided" if screen.decision else "teach-fitting"
        out.prompt = screen.decision or _("The table learns your dice…")
        if screen.decision:
            out.choices = [Choice("done", _("Done"), style="primary"), Choice("more", _("Teach more throws"))]
            if screen.contradicted and screen.app.taught_throws():
                out.choices.append(Choice("forget", _("Forget these dice"), style="danger"))  # asked first
        return
    taught = screen.taught()
    out.info = _("{taught} of {count} throws taught").format(taught=taught, count=screen.progress.goal)
    if screen.pending is not None:
        reading = screen.pending[1]
        out.dice = sorted(reading.values, reverse=True) if reading.ok else []  # as the prompt says them
        if reading.ok:
            out.title_key = "teach-read"
            out.prompt = _("The table read {dice}. Right?").format(dice=dice_text(reading.values))
            out.choices = [Choice("right", _("Right"), style="primary"),
                           Choice("fixthrow", _("Correct it")), Choice("again", _("Not this throw"))]
        elif reading.kind in RETHROW:  # no throw: a leaning die or one off the tray is not taught as a face
            out.title_key = "teach-unreadable"
            out.prompt = RETHROW[reading.kind]()
            out.choices = [Choice("again", _("Throw again"), style="primary")]
        else:
            out.title_key = "teach-unreadable"
            out.prompt = _("The table cannot read this throw: {reason}").format(reason=unreadable_reason(reading))
            out.choices = [Choice("fixthrow", _("Enter by hand"), style="primary"), Choice("again", _("Throw again"))]
        return
    out.prompt = ngettext("Throw your {count} die on the tray", "Throw your {count} dice on the tray",
                          screen.dice).format(count=screen.dice)
    # Finish stays where it is, never greyed out: a greyed button takes no digit, and the digits of
    # the buttons after it would move once it could be pressed. Too soon, it says why.
    out.choices = [Choice("finish", _("Finish: learn from them"), style="normal" if taught >= MIN_THROWS else "quiet"),
                   Choice("dicecount", _("Number of dice: {count}").format(count=screen.dice)), _skip()]


def too_soon(taught: int) -> str:
    """Finish pressed before the adaptation has throws enough (``vision.adapt.MIN_THROWS``)."""
    from vision.adapt import MIN_THROWS

    return ngettext("The table learns from {least} throw at least: {taught} taught so far",
                    "The table learns from {least} throws at least: {taught} taught so far",
                    MIN_THROWS).format(least=MIN_THROWS, taught=taught)


def decision(fitted, taught: int) -> str:
    """What the table decided after learning (``vision.adapt.Fitted``; ``taught``: the throws taught
    in this setup), in words."""
    from vision.adapt import MIN_THROWS

    count = fitted.held_throws
    if not count:
        return ngettext("{count} throw taught: too few to learn from (at least {least}). The table reads as shipped.",
                        "{count} throws taught: too few to learn from (at least {least}). The table reads as shipped.",
                        taught).format(count=taught, least=MIN_THROWS)
    if fitted.contradicted[0]:  # the held-aside figures score against those values: they say nothing
        wrong, dice = fitted.contradicted
        return _("The values taught disagree with {wrong} of {dice} dice the table reads surely. Check them, "
                 "or forget these dice. The table reads as shipped.").format(
            wrong=wrong, dice=dice)
    right = dict(count=count, adapted=fitted.adapted[0], shipped=fitted.shipped[0])
    if fitted.adaptation is not None and fitted.adaptation.die_at is not None:
        counted = dict(count=fitted.counted[0], adapted=fitted.counted[2], shipped=fitted.counted[1])
        return _("Checked on your throws: it counts the dice of {adapted} of {count} throws right with what it learned, "
                 "{shipped} without. It now reads your dice with what it learned.").format(**counted)
    if fitted.adaptation is not None:
        return _("Checked on your throws: {adapted} of {count} read right with what it learned, {shipped} "
                 "without. It now reads your dice with what it learned.").format(**right)
    return _("Checked on your throws: {adapted} of {count} read right with what it learned, {shipped} without. "
             "No better: it reads as shipped.").format(**right)


def not_learned() -> str:
    """The adaptation could not be fitted (the journal says why)."""
    return _("The table could not learn from the throws: it reads as shipped")
