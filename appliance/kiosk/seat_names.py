"""The seats' default names ("Player 1", "Spieler 1", "Spēlētājs 1", "Игрок 1"): made in the kiosk's
language, told from typed names in any of its languages, and shown in the language of the moment.

A default name is a placeholder, not a name anyone chose: a seat that still has one is renamed from
an empty field, and when the language changes (even mid-game, when the game log keeps the name it
started with) the screen shows it in the new language. A typed name is never changed. Pure (no
pygame).
"""

from __future__ import annotations

import functools
import re

from appliance import i18n
from appliance.i18n import _


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


def shown(text: str) -> str:
    """``text`` with every default name in it said in the active language ("Player 1 drinks" in
    German: "Spieler 1 drinks"; a whole sentence is re-worded where it is made)."""
    if not text:
        return text
    return _pattern().sub(lambda m: default_name(int(next(g for g in m.groups() if g is not None))), text)
