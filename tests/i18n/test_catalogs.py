"""The message catalogs are complete, current and compile.

A catalog fails when an entry is untranslated or fuzzy, when a translation's
placeholders differ from its msgid's, when it has the wrong number of plural
forms, or when it no longer matches the source: ``makemessages`` is run into
a temporary folder on a copy of the source and must find exactly the msgids
the committed catalogs hold.
"""

from __future__ import annotations

import gettext as python_gettext
import os
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.checkers import python_format
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management import call_command
from django.utils.translation import to_locale

from baloot_site.catalogs import (
    CATALOG_LANGUAGES,
    IGNORED,
    LOCALE_DIR,
    MAKEMESSAGES_OPTIONS,
    ROOT,
    catalogs,
    compile_catalogs,
)

# Top-level folders that makemessages is told to leave out ("tests/*").
IGNORED_FOLDERS = frozenset(
    pattern.removesuffix("/*") for pattern in IGNORED if pattern.count("/") == 1
)

MessageKey = tuple[str | None, str | tuple[str, ...]]


def read(path: Path) -> Catalog:
    with path.open("rb") as po_file:
        return read_po(po_file, locale=path.parent.parent.name)


def keys(catalog: Catalog) -> set[MessageKey]:
    """Each entry's context and msgid (both forms for a plural), the header left out."""
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


def test_every_site_language_but_english_has_a_catalog() -> None:
    languages = {to_locale(code) for code, _name in settings.LANGUAGES if code != "en"}
    assert languages == set(CATALOG_LANGUAGES)
    assert {path.parent.parent.name for path in catalogs()} == languages
    assert [path.name for path in catalogs()] == ["django.po"] * len(languages)


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    catalog = read(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    assert not catalog.fuzzy, "the header is marked fuzzy"
    assert str(catalog.locale) == language
    entries = [m for m in catalog if m.id]
    assert len(entries) > 400
    untranslated = [
        m.id for m in entries if not all(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    fuzzy = [m.id for m in entries if m.fuzzy]
    assert untranslated == [], f"{language}: untranslated {untranslated[:10]}"
    assert fuzzy == [], f"{language}: fuzzy {fuzzy[:10]}"
    assert not list(catalog.obsolete), f"{language}: obsolete entries are left"


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_translations_keep_their_placeholders_and_plural_forms(language: str) -> None:
    catalog = read(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    problems = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string
        if isinstance(message.id, tuple) and (
            not isinstance(forms, tuple | list) or len(forms) != catalog.num_plurals
        ):
            problems.append(f"{message.id[0]!r}: {forms!r} for {catalog.num_plurals} plural forms")
        if message.python_format:
            try:
                python_format(catalog, message)
            except Exception as error:
                problems.append(f"{message.id!r}: {error}")
    assert problems == [], f"{language}: " + "; ".join(problems)


def test_the_catalogs_hold_exactly_what_the_source_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    if shutil.which("xgettext") is None:
        # GNU gettext only refreshes the catalogs; building them needs Babel alone.
        if os.environ.get("CI") == "true":
            pytest.fail("xgettext (GNU gettext) is needed to check the catalogs under CI=true")
        pytest.skip("xgettext (GNU gettext) is not installed; CI=true would fail")
    copy = tmp_path / "source"
    copy.mkdir()
    # Everything makemessages would read in the real tree.
    for path in ROOT.iterdir():
        if path.name.startswith(".") or path.name in IGNORED_FOLDERS:
            continue
        if path.is_dir():
            shutil.copytree(path, copy / path.name, ignore=shutil.ignore_patterns("__pycache__"))
        elif path.suffix in (".py", ".html", ".txt"):
            shutil.copy(path, copy / path.name)
    fresh = tmp_path / "locale"
    fresh.mkdir()
    # makemessages reads the current folder and writes to the first locale
    # path: a copy, so that the real tree never sees its temporary files.
    monkeypatch.chdir(copy)
    settings.LOCALE_PATHS = [fresh]  # type: ignore[attr-defined]
    call_command("makemessages", locale=["ar"], verbosity=0, **MAKEMESSAGES_OPTIONS)
    expected = keys(read(fresh / "ar" / "LC_MESSAGES" / "django.po"))
    assert len(expected) > 400
    for path in catalogs():
        held = keys(read(path))
        assert held - expected == set(), f"{path}: entries no longer in the source"
        assert expected - held == set(), f"{path}: run `make messages` and translate"


def test_the_catalogs_compile_to_working_mo_files(tmp_path: Path) -> None:
    for language in CATALOG_LANGUAGES:
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(LOCALE_DIR / language / "LC_MESSAGES" / "django.po", folder)
    written = compile_catalogs(sorted(tmp_path.glob("*/LC_MESSAGES/django.po")))
    assert len(written) == len(CATALOG_LANGUAGES)
    # Up to date: a second run writes nothing.
    assert compile_catalogs(sorted(tmp_path.glob("*/LC_MESSAGES/django.po"))) == []
    for language in CATALOG_LANGUAGES:
        with (tmp_path / language / "LC_MESSAGES" / "django.mo").open("rb") as mo_file:
            compiled = python_gettext.GNUTranslations(mo_file)
        assert compiled.gettext("Score sheet") != "Score sheet"
        # The plural rule travels with the catalog: Arabic has six forms.
        forms = {compiled.ngettext("%(counter)s card", "%(counter)s cards", n) for n in range(12)}
        assert len(forms) == (5 if language == "ar" else 1), forms
