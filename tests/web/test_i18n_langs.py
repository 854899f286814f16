"""Every table of words has a non-empty text in each language of LANGS (English, 繁體中文,
Português), and the Portuguese is not the English left in place where it should differ."""

from __future__ import annotations

import pytest

from macau_tables.web import i18n

TABLES = {
    "UI": i18n.UI,
    "PLAYER_UI": i18n.PLAYER_UI,
    "OPS": i18n.OPS,
    "EVENTS": i18n.EVENTS,
    "GAMES": i18n.GAMES,
    "BACCARAT": i18n.BACCARAT,
}


def test_the_three_languages() -> None:
    assert i18n.LANGS == ("en", "zh", "pt")
    assert i18n.LANG_NAMES == {"en": "English", "zh": "繁體中文", "pt": "Português"}
    assert set(i18n.HTML_LANG) == set(i18n.LANGS)


@pytest.mark.parametrize("table", TABLES)
def test_every_key_has_a_text_in_every_language(table: str) -> None:
    for key, text in TABLES[table].items():
        assert len(text) == len(i18n.LANGS), (table, key)
        for lang, words in zip(i18n.LANGS, text, strict=True):
            assert isinstance(words, str) and words.strip(), (table, key, lang)


@pytest.mark.parametrize("table", ["OPS", "EVENTS", "GAMES", "BACCARAT"])
def test_the_portuguese_is_not_the_english(table: str) -> None:
    same = [k for k, (en, _zh, pt) in TABLES[table].items() if en == pt]
    assert same == []


def test_an_events_portuguese_has_the_englishs_placeholders() -> None:
    import re

    for kind, (en, zh, pt) in i18n.EVENTS.items():
        names = sorted(re.findall(r"\{(\w+)\}", en))
        assert sorted(re.findall(r"\{(\w+)\}", pt)) == names, kind
        assert sorted(re.findall(r"\{(\w+)\}", zh)) == names, kind
    for key in ("cd.in", "cd.due", "cd.betting"):
        en, _zh, pt = i18n.UI[key]
        assert sorted(re.findall(r"\{(\w+)\}", pt)) == sorted(re.findall(r"\{(\w+)\}", en))


def test_craps_and_strings_in_portuguese() -> None:
    from macau_tables.games.craps import BET_KINDS

    assert set(i18n.CRAPS_PT) == set(BET_KINDS) == set(i18n.CRAPS_ZH)
    pt, en = i18n.strings("pt"), i18n.strings("en")
    assert set(pt) == set(en)
    assert all(v.strip() for v in pt.values())
    assert pt["ba.banker"] == "Banca" and pt["ba.player"] == "Jogador" and pt["ba.tie"] == "Empate"
    assert pt["game.paigow"] == "Pai Kao"
    assert i18n.t("login", "pt") == "Iniciar sessão"
    assert i18n.t("op.pass_dice", "pt") == "Passar os dados"
    assert i18n.t("nonesuch", "pt") == "nonesuch"
    assert i18n.lang_of("pt") == "pt" and i18n.lang_of("fr") == "en"


def test_numbers_in_portuguese_have_a_decimal_comma() -> None:
    assert i18n.decimal("1,234.50", "pt") == "1.234,50"
    assert i18n.decimal("-1.0579%", "pt") == "-1,0579%"
    assert i18n.decimal("1,234.50", "en") == "1,234.50"
    assert i18n.decimal("1,234.50", "zh") == "1,234.50"
    assert i18n.par_bet_name("baccarat", "banker", "pt") == "Banca"
    assert i18n.par_bet_name("craps", "Pass Line odds on 4", "pt").startswith("Probabilidades")


def test_the_player_pages_words_keep_their_placeholders() -> None:
    """PLAYER_UI: each text's {placeholders} are the English text's, in each language, and
    no key is both a UI key and a PLAYER_UI key (t() would not know which)."""
    import re

    assert not set(i18n.UI) & set(i18n.PLAYER_UI)
    for key, (en, zh, pt) in i18n.PLAYER_UI.items():
        names = sorted(re.findall(r"\{(\w+)\}", en))
        assert sorted(re.findall(r"\{(\w+)\}", zh)) == names, key
        assert sorted(re.findall(r"\{(\w+)\}", pt)) == names, key
    assert i18n.t("undo", "pt") == "Desfazer" and i18n.strings("zh")["double"] == "加倍"
