"""The kiosk's languages: catalogs load, plural forms follow CLDR, the games keep their own names."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel import Locale

from appliance import i18n
from appliance.games.yacht_scoring import CATEGORIES

SEED_YACHT = Path(__file__).resolve().parents[2].parent / "shared" / "seeds" / "002_eb2fdbc33035b68e.txt"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]

# The order of the plural forms in each catalog: CLDR's categories in Babel's order (the order
# `pybabel init` writes msgstr[0], msgstr[1], ...).
FORM_ORDER = {
    "de": ("one", "other"),
    "lv": ("zero", "one", "other"),
    "ru": ("one", "few", "many"),
}


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def plural_forms_header(lang: str) -> str:
    text = i18n.catalog_path(lang).read_text("utf-8")
    header = re.search(r'"Plural-Forms: (.*?)\\n"\n', text, re.S).group(1)
    return re.sub(r'"\s*"', "", header)  # joined across wrapped lines


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_translated_language_has_a_catalog(lang):
    assert i18n.catalog_path(lang).is_file()
    assert isinstance(i18n.translations(lang), gettext.GNUTranslations)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_header_agrees_with_cldr_for_every_count(lang):
    nplurals, expression = re.fullmatch(r"nplurals=(\d+);\s*plural=(.*?);?", plural_forms_header(lang)).groups()
    assert int(nplurals) == len(FORM_ORDER[lang])
    choose = gettext.c2py(expression)
    cldr = Locale.parse(lang).plural_form
    for n in range(0, 1001):
        assert FORM_ORDER[lang][choose(n)] == cldr(n), f"{lang}: {n}"


COUNTED = {
    # language: {unit: {count: text}}; the counts hit every form, including the teens.
    "en": {"sip": {0: "0 sips", 1: "1 sip", 2: "2 sips", 11: "11 sips", 21: "21 sips"},
           "drink": {1: "1 drink", 2: "2 drinks"}, "point": {1: "1 point", 5: "5 points"}},
    "de": {"sip": {0: "0 Schlucke", 1: "1 Schluck", 2: "2 Schlucke", 21: "21 Schlucke"},
           "drink": {1: "1 Drink", 3: "3 Drinks"}, "point": {1: "1 Punkt", 6: "6 Punkte"}},
    "lv": {"sip": {0: "0 malku", 1: "1 malks", 2: "2 malki", 10: "10 malku", 11: "11 malku",
                   21: "21 malks", 22: "22 malki"},
           "drink": {0: "0 dzērienu", 1: "1 dzēriens", 3: "3 dzērieni"},
           "point": {1: "1 punkts", 2: "2 punkti", 20: "20 punktu"}},
    "ru": {"sip": {0: "0 глотков", 1: "1 глоток", 2: "2 глотка", 5: "5 глотков", 11: "11 глотков",
                   12: "12 глотков", 21: "21 глоток", 22: "22 глотка", 25: "25 глотков"},
           "drink": {1: "1 порция", 3: "3 порции", 7: "7 порций"},
           "point": {1: "1 очко", 4: "4 очка", 6: "6 очков"}},
}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_drinks_are_counted_in_each_languages_own_plural_forms(lang):
    i18n.set_language(lang)
    for unit, expected in COUNTED[lang].items():
        assert {n: i18n.amount(n, unit) for n in expected} == expected


def test_a_drink_word_of_the_tables_own_is_shown_as_given():
    i18n.set_language("de")
    assert i18n.amount(2, "Kurzer") == "2 × Kurzer"
    with pytest.raises(ValueError, match="empty"):
        i18n.amount(2, "  ")


def test_the_games_keep_their_own_names():
    names = {}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        names[lang] = {game: i18n.game_name(game) for game in ("maexle", "biscuit", "yacht")}
    assert {names[lang]["maexle"] for lang in i18n.LANGUAGES} == {"Mäxle"}
    assert names["lv"]["biscuit"] == "Biskvīts"
    assert names["ru"]["yacht"] == "Яхта"
    assert names["en"] == {"maexle": "Mäxle", "biscuit": "Biscuit", "yacht": "Yacht"}


def test_every_yacht_category_has_a_name_in_every_language():
    assert tuple(i18n.CATEGORY_NAMES) == CATEGORIES
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        shown = [i18n.category_name(c) for c in CATEGORIES]
        assert len(set(shown)) == len(CATEGORIES), f"{lang}: two categories share a name"
        if lang != "en":
            assert all(i18n.category_name(c) != i18n.CATEGORY_NAMES[c] for c in CATEGORIES if c != "yacht"), lang


def test_russian_category_names_are_the_originals():
    if not SEED_YACHT.is_file():
        pytest.skip(f"the Russian seed is not at {SEED_YACHT}")
    seed = SEED_YACHT.read_text("utf-8")
    i18n.set_language("ru")
    for category in CATEGORIES:
        assert f"«{i18n.category_name(category)}»" in seed, category


def test_unknown_names_are_refused_clearly():
    with pytest.raises(ValueError, match="unknown game"):
        i18n.game_name("poker")
    with pytest.raises(ValueError, match="unknown category"):
        i18n.category_name("chance")


def test_an_unknown_language_is_refused_and_changes_nothing():
    i18n.set_language("lv")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "lv"
    assert i18n.game_name("biscuit") == "Biskvīts"


def test_a_broken_catalog_is_refused_and_changes_nothing(tmp_path, monkeypatch):
    i18n.set_language("ru")
    broken = tmp_path / "de" / "LC_MESSAGES" / "dicetable.po"
    broken.parent.mkdir(parents=True)
    broken.write_text('msgid "Yacht"\nmsgstr "Yacht\n\nthis is not a catalog\n', "utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        with pytest.raises(ValueError, match="is broken"):
            i18n.set_language("de")
        assert i18n.language() == "ru"
        assert i18n.category_name("choice") == "Выбор"
    finally:
        i18n.translations.cache_clear()


def test_a_missing_catalog_falls_back_to_english(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        i18n.set_language("lv")
        assert i18n.language() == "lv"
        assert i18n.game_name("biscuit") == "Biscuit"
        assert "no message catalog" in caplog.text
    finally:
        i18n.translations.cache_clear()


def test_language_names_are_each_in_their_own_language():
    assert i18n.LANGUAGE_NAMES == {"en": "English", "de": "Deutsch", "lv": "Latviešu", "ru": "Русский"}
    assert tuple(i18n.LANGUAGE_NAMES) == i18n.LANGUAGES
