"""The one message catalog: every text a face shows is translated, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from corazones.i18n import LANGS, catalog_json, pick_lang, po_path, translator

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "t": None, "Plural": (1, 2)}
METHODS = [("src/**.py", "python"), ("src/corazones/server/static/**.js", "javascript")]
PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)[^{}]*\}")


def source_messages() -> set[str]:
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=METHODS, keywords=KEYWORDS
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in found if m}


def test_every_message_is_translated_with_the_same_placeholders() -> None:
    messages = source_messages()
    assert len(messages) > 100, f"the extraction found {len(messages)} messages in src/: it no longer reads the sources"
    for lang in LANGS[1:]:
        with po_path(lang).open("rb") as f:
            catalog = read_po(f, locale=lang)
        held = len(catalog)
        assert held >= len(messages), f"{lang}: the catalog holds {held} entries for {len(messages)} texts"
        missing, wrong = [], []
        for msgid in sorted(messages):
            entry = catalog.get(msgid)
            if entry is None:
                # plural entries are stored under their singular id
                entry = next((m for m in catalog if isinstance(m.id, tuple) and m.id[0] == msgid), None)
            strings = entry.string if entry is not None else None
            texts = list(strings) if isinstance(strings, tuple) else [strings]
            if entry is None or entry.fuzzy or not all(texts):
                missing.append(msgid)
                continue
            want = set(PLACEHOLDER.findall(msgid))
            if any(set(PLACEHOLDER.findall(t or "")) != want for t in texts):
                wrong.append(msgid)
        assert not missing, f"{lang}: untranslated (run scripts/i18n.sh, fill the .po): {missing[:20]}"
        assert not wrong, f"{lang}: placeholders differ from the English text: {wrong[:20]}"


def test_translator_translates_and_english_is_identity() -> None:
    es = catalog_json("es")
    assert len(es) > 100, f"the Spanish catalog the faces load holds {len(es)} entries"
    msgid, msgstr = next((k, v) for k, v in es.items() if "\x00" not in k and k)
    assert translator("es").gettext(msgid) == msgstr
    assert translator("en").gettext("Hand {n} over.") == "Hand {n} over."


def test_pick_lang(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert pick_lang("es_ES") == "es"
    assert pick_lang("fr") == "en"
    monkeypatch.setenv("LC_ALL", "es_AR.UTF-8")
    assert pick_lang(None) == "es"
