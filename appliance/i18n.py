"""The kiosk's language: gettext catalogs, one active language at a time.

Every text a player reads goes through ``_`` (or ``ngettext`` for counts), so that the catalogs
``appliance/locale/<lang>/LC_MESSAGES/dicetable.po`` can translate it. English is the source
language: its messages are the msgids themselves (template ``appliance/locale/dicetable.pot``).

How the catalogs are compiled, and why this way: the ``.po`` sources are compiled to ``.mo`` bytes
in memory by Babel the first time a language is chosen, and handed to the standard library's
``gettext.GNUTranslations``. No ``.mo`` file is ever written, so nothing can be stale, nothing needs
write access to the install directory (the service user cannot write there), and the same code works
for ``pip install -e .`` (this project's way), a wheel and a source checkout alike. It costs a few ms
once per language. Workflow for translators: ``appliance/locale/README.md``.

Placeholders use ``str.format`` names: ``_("{player} drinks").format(player=name)``. The texts
themselves, the games' names and the drink words included, are built in ``appliance.table``,
``appliance.kiosk.words`` and ``appliance.kiosk.view``; this module is only the mechanism.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
from pathlib import Path

DOMAIN = "dicetable"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "de", "lv", "ru")
SOURCE_LANGUAGE = "en"
# Each language's name in itself, for the kiosk's language switch: never translated.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "lv": "Latviešu", "ru": "Русский"}

log = logging.getLogger(__name__)

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE


def catalog_path(lang: str) -> Path:
    """The ``.po`` source of ``lang``'s catalog (it need not exist: English has none)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s compiled catalog (cached); English source strings when it has no catalog file.

    Raises ValueError for a language not in LANGUAGES, or a catalog that does not parse (with the
    file and Babel's reason).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    path = catalog_path(lang)
    if not path.is_file():
        if lang != SOURCE_LANGUAGE:
            log.warning("no message catalog %s: %s shows English", path, lang)
        return gettext.NullTranslations()
    # Babel is imported here: only a language switch pays for it, not `dicetable --help`.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po

    try:
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN, abort_invalid=True)
        mo = io.BytesIO()
        write_mo(mo, catalog)  # fuzzy entries are left out, as msgfmt does
        mo.seek(0)
        return gettext.GNUTranslations(mo)
    except (PoFileError, OSError, ValueError) as exc:
        raise ValueError(f"message catalog {path} is broken: {exc}") from exc


def set_language(lang: str) -> None:
    """Make ``lang`` (one of LANGUAGES) the active language.

    Raises ValueError for another code or a broken catalog; the active language is then unchanged.
    """
    global _translation, _language
    _translation = translations(lang)
    _language = lang


def language() -> str:
    """The active language code."""
    return _language


def _(message: str) -> str:
    """``message`` in the active language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the active language (its own plural rules).

    English and German have 2 forms, Latvian and Russian 3 (the catalogs' Plural-Forms headers,
    CLDR's rules as Babel writes them). Format the count in yourself:
    ``ngettext("{player} takes {count} sip", "{player} takes {count} sips", n).format(...)``.
    """
    return _translation.ngettext(singular, plural, n)


def decimal(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals as the active language writes it: "8.0" in English, "8,0"
    in German, Latvian and Russian (CLDR's symbols, through Babel)."""
    from babel.numbers import format_decimal

    return format_decimal(round(value, places), format="0." + "0" * places if places else "0", locale=_language)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now (for tables built at import)."""
    return message
