"""The kiosk's languages: catalogs load, plural forms follow CLDR, counted drinks and the games' names
read right in each language."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel import Locale

from appliance import i18n
from appliance.games.yacht_scoring import CATEGORIES
from appliance import table as tables
from appliance.table import base as words
from appliance.table.yacht import category_name

SEED_YACHT = Path(__file__).resolve().parents[2].parent / "shared" / "seeds" / "002_eb2fdbc33035b68e.txt"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]

# The order of the plural forms in each catalog: CLDR's categories in Babel's order (the order
# `pybabel init` writes msgstr[0], msgstr[1], ...).
FORM_ORDER = {
    "de": ("one", "other"),
    "lv": ("zero", "one", "other"),
    "ru": ("one", "few", "many"),
}


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
    # language: {drink word: {count: text}}; the counts reach every plural form, the teens included.
    "en": {"sip": {0: "Bo takes 0 sips", 1: "Bo takes 1 sip", 2: "Bo takes 2 sips", 11: "Bo takes 11 sips",
                   21: "Bo takes 21 sips"},
           "point": {1: "Bo gets 1 point", 5: "Bo gets 5 points"}},
    "de": {"sip": {0: "Bo trinkt 0 Schlucke", 1: "Bo trinkt 1 Schluck", 2: "Bo trinkt 2 Schlucke",
                   21: "Bo trinkt 21 Schlucke"},
           "drink": {1: "Bo trinkt 1 Mal", 3: "Bo trinkt 3 Mal"},
           "point": {1: "Bo bekommt 1 Punkt", 6: "Bo bekommt 6 Punkte"}},
    "lv": {"sip": {0: "Bo iedzer 0 malku", 1: "Bo iedzer 1 malku", 2: "Bo iedzer 2 malkus",
                   10: "Bo iedzer 10 malku", 11: "Bo iedzer 11 malku", 21: "Bo iedzer 21 malku",
                   22: "Bo iedzer 22 malkus"},
           "drink": {0: "Bo dzer 0 reižu", 1: "Bo dzer 1 reizi", 3: "Bo dzer 3 reizes"},
           "point": {1: "Bo saņem 1 punktu", 2: "Bo saņem 2 punktus", 20: "Bo saņem 20 punktu"}},
    "ru": {"sip": {0: "Bo делает 0 глотков", 1: "Bo делает 1 глоток", 2: "Bo делает 2 глотка",
                   5: "Bo делает 5 глотков", 11: "Bo делает 11 глотков", 12: "Bo делает 12 глотков",
                   21: "Bo делает 21 глоток", 22: "Bo делает 22 глотка", 25: "Bo делает 25 глотков"},
           "drink": {1: "Bo пьёт 1 раз", 3: "Bo пьёт 3 раза", 7: "Bo пьёт 7 раз"},
           "point": {1: "Bo получает 1 очко", 4: "Bo получает 4 очка", 6: "Bo получает 6 очков"}},
}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_drinks_are_counted_in_each_languages_own_plural_forms(lang):
    i18n.set_language(lang)
    for unit, expected in COUNTED[lang].items():
        assert {n: words.drinks("Bo", n, unit) for n in expected} == expected


def test_penalty_points_are_counted_in_russian_forms():
    i18n.set_language("ru")
    assert [words.penalty("Bo", n) for n in (1, 3, 5)] == [
        "Bo получает 1 штрафное очко", "Bo получает 3 штрафных очка", "Bo получает 5 штрафных очков"]


def test_a_drink_word_of_the_tables_own_is_shown_as_given():
    i18n.set_language("de")
    assert words.drinks("Bo", 2, "Kurzer") == "Bo: 2 × Kurzer"


def test_the_games_keep_their_own_names():
    names = {}
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        names[lang] = {game: tables.game_name(game) for game in ("maexle", "biscuit", "yacht")}
    assert {names[lang]["maexle"] for lang in i18n.LANGUAGES} == {"Mäxle"}
    assert names["lv"]["biscuit"] == "Biskvīts"
    assert names["ru"]["yacht"] == "Яхта"
    assert names["en"] == {"maexle": "Mäxle", "biscuit": "Biscuit", "yacht": "Yacht"}


def test_every_yacht_category_has_its_own_name_in_every_language():
    english = {c: category_name(c) for c in CATEGORIES}
    for lang in TRANSLATED:
        i18n.set_language(lang)
        shown = {c: category_name(c) for c in CATEGORIES}
        assert len(set(shown.values())) == len(CATEGORIES), f"{lang}: two categories share a name"
        same = [c for c in CATEGORIES if shown[c] == english[c]]
        assert same in ([], ["yacht"]), f"{lang}: not translated: {same}"


def test_russian_category_names_are_the_originals():
    if not SEED_YACHT.is_file():
        pytest.skip(f"the Russian seed is not at {SEED_YACHT}")
    seed = SEED_YACHT.read_text("utf-8")
    i18n.set_language("ru")
    for category in CATEGORIES:
        assert f"«{category_name(category)}»" in seed, category


def test_an_unknown_language_is_refused_and_changes_nothing():
    i18n.set_language("lv")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "lv"
    assert tables.game_name("biscuit") == "Biskvīts"


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
        assert category_name("choice") == "Выбор"
    finally:
        i18n.translations.cache_clear()


def test_a_missing_catalog_falls_back_to_english(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        i18n.set_language("lv")
        assert i18n.language() == "lv"
        assert tables.game_name("biscuit") == "Biscuit"
        assert "no message catalog" in caplog.text
    finally:
        i18n.translations.cache_clear()


def test_language_names_are_each_in_their_own_language():
    assert i18n.LANGUAGE_NAMES == {"en": "English", "de": "Deutsch", "lv": "Latviešu", "ru": "Русский"}
    assert tuple(i18n.LANGUAGE_NAMES) == i18n.LANGUAGES
