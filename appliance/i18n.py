"""The kiosk's language: gettext catalogs, one active language at a time.

Every text a player reads goes through ``_`` (or ``ngettext`` for counts), so that the catalogs in
``appliance/locale/<lang>/LC_MESSAGES/dicetable.mo`` can translate it. A language without a
catalog falls back to the English source strings.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "dicetable"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "de", "lv", "ru")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(lang: str) -> None:
    """Make ``lang`` (one of LANGUAGES) the active language. Raises ValueError for another code."""
    global _translation, _language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    _language = lang


def language() -> str:
    """The active language code."""
    return _language


def _(message: str) -> str:
    """``message`` in the active language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the active language (its own plural rules)."""
    return _translation.ngettext(singular, plural, n)
