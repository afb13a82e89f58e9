"""Every text the code marks is in every catalog, with its placeholders, in glyphs the font has."""

from __future__ import annotations

import string

import pygame.freetype
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from appliance import i18n
from appliance.fonts import font_path

PACKAGE = i18n.LOCALE_DIR.parent
TEMPLATE = i18n.LOCALE_DIR / "dicetable.pot"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
HOW_TO_FIX = "see appliance/locale/README.md: extract, update, translate"


def _key(msgid) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


@pytest.fixture(scope="module")
def code_messages() -> dict[str, tuple[str, ...]]:
    """msgid -> all its source forms (singular, plural), as Babel extracts them from the package."""
    found = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS
    ):
        forms = (message,) if isinstance(message, str) else tuple(message)
        if forms[0]:
            found[forms[0]] = forms
    return found


def load(path):
    with path.open("rb") as f:
        return read_po(f, abort_invalid=True)


@pytest.fixture(scope="module")
def catalogs():
    return {lang: load(i18n.catalog_path(lang)) for lang in TRANSLATED}


def test_the_template_lists_every_message_in_the_code(code_messages):
    template = {_key(m.id) for m in load(TEMPLATE) if m.id}
    missing = sorted(set(code_messages) - template)
    assert not missing, f"not in dicetable.pot; {HOW_TO_FIX}:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang, code_messages, catalogs):
    catalog = catalogs[lang]
    untranslated = []
    for msgid, forms in code_messages.items():
        message = catalog.get(msgid)
        strings = [] if message is None else (
            [message.string] if isinstance(message.string, str) else list(message.string))
        if message is None or message.fuzzy or not strings or not all(strings):
            untranslated.append(msgid)
        elif len(forms) == 2:
            assert message.pluralizable and len(strings) == catalog.num_plurals, f"{lang}: {msgid!r} plural forms"
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated; {HOW_TO_FIX}:\n" + "\n".join(untranslated)


def placeholders(text: str) -> set[str]:
    """The ``str.format`` field names in ``text``; ValueError for unbalanced braces."""
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field is not None}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang, code_messages, catalogs):
    for msgid, forms in code_messages.items():
        message = catalogs[lang].get(msgid)
        if message is None:
            continue  # reported by test_every_message_is_translated
        wanted = set().union(*(placeholders(f) for f in forms))
        for text in [message.string] if isinstance(message.string, str) else message.string:
            if not text:
                continue  # untranslated: reported by test_every_message_is_translated
            try:
                got = placeholders(text)
            except ValueError as exc:
                pytest.fail(f"{lang}: {text!r} is not a valid format string: {exc}")
            assert got == wanted, f"{lang}: {msgid!r} -> {text!r}"


def missing_glyphs(font, text: str) -> set[str]:
    return {ch for ch, metrics in zip(text, font.get_metrics(text)) if metrics is None and not ch.isspace()}


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_the_kiosk_font_has_every_letter_of_every_translation(bold, catalogs, code_messages):
    pygame.freetype.init()
    font = pygame.freetype.Font(str(font_path(bold)), 24)
    texts = [f for forms in code_messages.values() for f in forms]
    for catalog in catalogs.values():
        for message in catalog:
            if message.id:
                texts += [message.string] if isinstance(message.string, str) else list(message.string)
    texts += list(i18n.LANGUAGE_NAMES.values())
    missing = {ch for text in texts for ch in missing_glyphs(font, text)}
    assert not missing, f"{font_path(bold).name} has no glyph for {sorted(missing)}"


def test_the_glyph_check_does_notice_a_missing_glyph():
    pygame.freetype.init()
    font = pygame.freetype.Font(str(font_path()), 24)
    assert missing_glyphs(font, "Biskvīts Яхта 中") == {"中"}
