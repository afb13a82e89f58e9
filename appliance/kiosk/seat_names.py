"""The seats' default names ("Player 1", "Spieler 1", "Spēlētājs 1", "Игрок 1"): made in the kiosk's
language, told from typed names in any of its languages, and shown in the language of the moment.

A default name is a placeholder, not a name anyone chose: a seat that still has one is renamed from
an empty field, and when the language changes (even mid-game, when the game log keeps the name it
started with) the screen shows it in the new language (:func:`in_language`). A typed name is never
changed. Pure (no pygame).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from appliance import i18n
from appliance.i18n import _
from appliance.table.base import View


def default_name(n: int) -> str:
    """Seat ``n``'s default name (1-based) in the active language."""
    return _("Player {n}").format(n=n)


@functools.lru_cache(maxsize=None)
def _pattern() -> re.Pattern:
    """A default name in any of the kiosk's languages, its number as group 1 (a whole name: "Player
    12" is not "Player 1" and a "2"; "Players 1" is no default)."""
    forms = {i18n.translations(lang).gettext("Player {n}") for lang in i18n.LANGUAGES}
    alternatives = "|".join(re.escape(f).replace(re.escape("{n}"), r"(\d{1,3})") for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def default_number(name: str) -> int | None:
    """The seat number of ``name`` when it is a default name in any language, else None."""
    found = _pattern().fullmatch(name.strip())
    if found is None:
        return None
    return int(next(g for g in found.groups() if g is not None))


def shown_name(name: str) -> str:
    """A player's name as the screen shows it now: a default name in the active language, a typed
    one as typed ("Spieler 14 lang" is a typed name)."""
    n = default_number(name)
    return name if n is None else default_name(n)


def shown(text: str, names) -> str:
    """``text`` with each of ``names`` (the players' names, as the game knows them) that is a
    default name said in the active language ("Player 1 drinks" in German: "Spieler 1 drinks"); a
    typed name, even one that starts like a default ("Player 1 Jr"), is left as it is."""
    if not text:
        return text
    found = _names_pattern(tuple(sorted(set(names), key=len, reverse=True)))
    return found.sub(lambda m: shown_name(m.group(0)), text) if found is not None else text


@functools.lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern | None:
    """Any of ``names`` (longest first: a longer name is not read as a shorter one it starts with)
    as a whole word; None when none of them is a default name (nothing to say otherwise)."""
    if not any(default_number(n) is not None for n in names):
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in names if n) + r")(?!\w)")


def in_language(view: View, names) -> View:
    """``view`` with the default names among ``names`` (the players seated and playing) said in the
    active language in everything it shows (the choices' ids, which the handlers read, stay as they
    are; so does the name being typed). A name in a list (the standings, the sheet, the evening's
    chart) is a default when it is one in any language."""
    names = tuple(names)
    if all(default_number(n) is None or shown_name(n) == n for n in names) and not _rows_to_show(view):
        return view

    def say(text: str) -> str:
        return shown(text, names)

    view.title, view.player, view.prompt = say(view.title), say(view.player), say(view.prompt)
    view.info, view.hint, view.message = say(view.info), say(view.hint), say(view.message)
    view.standings_title = say(view.standings_title)
    view.choices = [replace(c, label=say(c.label), sub=say(c.sub)) for c in view.choices]
    view.bar = [replace(c, label=say(c.label), sub=say(c.sub)) for c in view.bar]
    view.standings = [replace(r, name=shown_name(r.name), value=say(r.value), note=say(r.note)) for r in view.standings]
    if view.sheet is not None:
        view.sheet = replace(view.sheet, players=tuple(shown_name(p) for p in view.sheet.players))
    if view.banner is not None:
        view.banner = replace(view.banner, text=say(view.banner.text), detail=say(view.banner.detail))
    if view.summary is not None:
        view.summary = _summary(view.summary)
    return view


def _rows_to_show(view: View) -> bool:
    """Whether a list in ``view`` has a default name of another language in it."""
    listed = [r.name for r in view.standings] + list(view.sheet.players if view.sheet is not None else ())
    listed += list(getattr(view.summary, "players", ()) or ())
    return any(shown_name(n) != n for n in listed)


def _summary(summary):
    """An ``appliance.evening.Summary`` with its players' default names in the active language;
    as it is when two of its players would then read alike ("Player 1" and "Spieler 1")."""
    names = {p: shown_name(p) for p in summary.players}
    if len(set(names.values())) < len(names) or all(p == q for p, q in names.items()):
        return summary
    rarest = summary.rarest
    return replace(summary, players=tuple(names[p] for p in summary.players),
                   drinks={names[p]: v for p, v in summary.drinks.items()},
                   penalties={names[p]: v for p, v in summary.penalties.items()},
                   water={names[p]: n for p, n in summary.water.items()},
                   yacht=tuple((n, {names.get(p, p): s for p, s in scores.items()}) for n, scores in summary.yacht),
                   rarest=replace(rarest, player=names.get(rarest.player, rarest.player)) if rarest else None)
