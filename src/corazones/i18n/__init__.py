"""One message catalog for every face: the line game, the terminal app, the web app.

Texts are written in English in the source, marked for translation with
``gettext`` calls (``tr.gettext("Hand {n} over.").format(n=3)``), extracted by
Babel into ``locale/corazones.pot`` and translated in
``locale/<lang>/LC_MESSAGES/corazones.po``.  The ``.po`` files are the only
copy of the translations: they are compiled in memory on first use, so there is
no binary ``.mo`` to keep in step and no build step.  The web app receives the
same catalog as JSON (:func:`catalog_json`), so a text is translated once for
every face.

Workflow (``scripts/i18n.sh``): write the English text in the code, run the
script to extract and merge, fill in the Spanish ``msgstr``.  The test suite
fails on any message without a translation or whose ``{placeholders}`` differ.

Lower floors (core, players) do no translation: they may mark a text with
:func:`N_` so Babel extracts it, and the face translates it when it shows it.
The command line's help texts are marked the same way where they are declared
(a command's description as ``help=``, since Babel does not read docstrings),
and :mod:`corazones.cli.toolkit` translates them when a help page is drawn.
Errors of the core carry their English template and its parameters
(:class:`corazones.core.errors.CorazonesError`); a face shows them with
:func:`error_text`, never with ``str(error)``, which is English.

Two kinds of text come from outside and are translated through the same
catalog: the terminal toolkit's own (Typer's and Click's usage lines, help
panels and parse errors; :mod:`corazones.cli.toolkit`, msgids in
:mod:`corazones.cli.toolkit_texts`), and the system's reason for a refused
file or port, keyed by ``errno`` (:mod:`corazones.i18n.oserrors`).
"""

from __future__ import annotations

import functools
import io
import locale
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from corazones.core.errors import Count, Seats

#: Languages the faces speak; the first is the source language of the texts.
LANGS = ("en", "es")
DOMAIN = "corazones"
LOCALE_DIR = Path(__file__).parent / "locale"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (it is translated where it is shown)."""
    return message


def error_text(
    gettext: Callable[[str], str], error: object, ngettext: Callable[[str, str, int], str] | None = None
) -> str:
    """``error`` for people in the language of ``gettext``: its template translated, then filled.

    ``error`` is anything that carries an English ``template`` and its
    ``params`` (a core error, a :class:`~corazones.core.errors.Message`, a
    face's own refusal); a parameter that carries its own template (the reason
    under a refusal) is translated the same way first, every other parameter
    (a card, a number, a name quoted from the input) is shown as it is.  A
    :class:`~corazones.core.errors.Plural` is translated with ``ngettext``:
    the one given, else that of the translations ``gettext`` is a method of
    (``translator(lang).gettext``), else English's rule.
    Anything else (an ``OSError``, a plain ``ValueError``) is shown as
    ``str(error)``.
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return str(error)
    if not template:  # an error made without a text: its English words, if any
        return str(error)
    if ngettext is None:
        ngettext = _ngettext_of(gettext)
    filled: dict[str, Any] = {k: _param_text(gettext, v, ngettext) for k, v in params.items()}
    plural, n = getattr(error, "plural", None), getattr(error, "n", None)
    if isinstance(plural, str) and isinstance(n, int):
        text = ngettext(template, plural, n)
    else:
        text = gettext(template)
    return text.format(**filled) if filled else text


def _param_text(gettext: Callable[[str], str], value: object, ngettext: Callable[[str, str, int], str]) -> object:
    """One parameter as :func:`error_text` fills it in: a text translated, a :class:`Count` grouped, the rest as is."""
    if _carries_template(value):
        return error_text(gettext, value, ngettext)
    if isinstance(value, Count):
        return format_decimal(value.n, locale=_lang_of(gettext))
    if isinstance(value, Seats):
        return value.counted_from_1()  # people count seats from 1, as every face names them
    return value


def _lang_of(gettext: Callable[[str], str]) -> str:
    """The language of the translations ``gettext`` is a method of (their catalog's header), else English."""
    info = getattr(getattr(gettext, "__self__", None), "info", None)
    lang = info().get("language") if callable(info) else None
    return lang if isinstance(lang, str) and lang in LANGS else "en"


def _ngettext_of(gettext: Callable[[str], str]) -> Callable[[str, str, int], str]:
    """The ``ngettext`` that goes with ``gettext`` (a method of the same translations), or English's rule."""
    found = getattr(getattr(gettext, "__self__", None), "ngettext", None)
    if callable(found):
        return found  # type: ignore[no-any-return]
    return lambda singular, plural, n: gettext(singular if n == 1 else plural)


def error_json(error: object) -> dict[str, Any]:
    """``error`` as ``{"template", "params"}`` for a face that translates on its side (the web app).

    A parameter that carries its own template becomes such an object too; the
    others become JSON values (numbers and strings as they are, anything else
    as its text).  An error without a template is its text as the template.
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict) or not template:
        return {"template": str(error), "params": {}}
    plural, n = getattr(error, "plural", None), getattr(error, "n", None)
    more: dict[str, Any] = {"plural": plural, "n": n} if isinstance(plural, str) and isinstance(n, int) else {}
    out: dict[str, Any] = {}
    for k, v in params.items():
        if _carries_template(v):
            out[k] = error_json(v)
        elif isinstance(v, Count):
            out[k] = v.n  # the page groups it in its own language
        elif isinstance(v, Seats):
            out[k] = v.counted_from_1()  # as the page names seats, "Seat 1" for index 0: text, shown as it is
        elif isinstance(v, bool) or v is None or isinstance(v, int | float | str):
            out[k] = v
        else:
            out[k] = str(v)
    return {"template": template, "params": out, **more}


def _carries_template(value: object) -> bool:
    return isinstance(getattr(value, "template", None), str) and isinstance(getattr(value, "params", None), dict)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _catalog(lang: str) -> Catalog | None:
    """The parsed ``.po`` of ``lang``, read once per process; None for English or an unknown language."""
    path = po_path(lang)
    if lang == LANGS[0] or not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translator(lang: str) -> NullTranslations:
    """The translations for ``lang`` (``gettext``, ``ngettext``, ``pgettext``); English or unknown: identity."""
    catalog = _catalog(lang)
    if catalog is None:
        return NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def catalog_json(lang: str) -> dict[str, str]:
    """Every translated message of ``lang`` as ``{msgid: msgstr}``, for the web app.

    A plural form is keyed ``msgid + "\\x00" + index``.
    """
    catalog = _catalog(lang)
    if catalog is None:
        return {}
    out: dict[str, str] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (tuple, list)):
            forms = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
            for i, s in enumerate(forms):
                if s:
                    out[f"{m.id[0]}\x00{i}"] = str(s)
        elif isinstance(m.id, str) and m.string:
            out[m.id] = str(m.string)
    return out


def pick_lang(requested: str | None = None) -> str:
    """The language to speak: ``requested`` if supported, else the user's locale, else English."""
    if requested:
        code = requested.split("_")[0].split("-")[0].lower()
        return code if code in LANGS else LANGS[0]
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            if code in LANGS:
                return code
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    code = loc.split("_")[0].lower()
    return code if code in LANGS else LANGS[0]
