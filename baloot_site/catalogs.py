"""The site's message catalogs: refresh them from the source, compile them for Django.

``python -m baloot_site.catalogs compile`` turns every
``locale/<lang>/LC_MESSAGES/<domain>.po`` whose ``.mo`` is missing or older
into a ``.mo`` with Babel, in pure Python, so that ``make run`` and
``make test`` work on a machine without GNU gettext. The ``.mo`` files are
build output and stay out of git.

``python -m baloot_site.catalogs update`` runs Django's ``makemessages``
with the project's options for every language but English; it needs GNU
gettext's ``xgettext`` and is for whoever changes the site's wording
(``make messages``). ``tests/i18n`` runs the same extraction into a
temporary folder to prove the committed catalogs are current.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale"

# Folder names under locale/ of the languages in settings.LANGUAGES other
# than English, which needs no catalog (the source is English).
CATALOG_LANGUAGES = ("ar", "id", "zh_Hans", "ko", "th")

# Where makemessages does not look: build output, tests and tools, and the
# rules engine, which speaks English; games/match/rule_messages.py carries its
# messages into the catalogs instead.
IGNORED = (
    "staticfiles/*",
    "test-artifacts/*",
    "tests/*",
    "bench/*",
    "docs/*",
    "scripts/*",
    "locale/*",
    "games/rules/*",
)

MAKEMESSAGES_OPTIONS: dict[str, object] = {
    "domain": "django",
    "ignore_patterns": list(IGNORED),
    # File names without line numbers, so that editing a file elsewhere
    # does not churn every catalog.
    "add_location": "file",
    "no_obsolete": True,
}


def catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every ``.po`` file under ``locale_dir``, sorted."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_catalogs(paths: Iterable[Path], *, force: bool = False) -> list[Path]:
    """Write the ``.mo`` beside each ``.po`` that is newer than it; returns the files written.

    Fuzzy entries are left out, as GNU msgfmt does.
    """
    written = []
    for po_path in paths:
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        language = po_path.parent.parent.name
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=language)
        # Babel writes the Plural-Forms that ngettext needs only for a catalog
        # with a locale, and an empty "Language:" header (as makemessages
        # writes one) unsets it.
        if catalog.locale is None:
            catalog.locale = language
        # Written to a temporary name and renamed, so that a server reading
        # the catalogs never sees half a file.
        partial = mo_path.with_suffix(".mo.partial")
        with partial.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        partial.replace(mo_path)
        written.append(mo_path)
    return written


def update_catalogs(languages: Sequence[str] = CATALOG_LANGUAGES) -> None:
    """Refresh the ``.po`` files from the source with ``makemessages`` (needs ``xgettext``)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    # makemessages reads the current folder; the catalogs are the project's.
    os.chdir(ROOT)
    call_command("makemessages", locale=list(languages), verbosity=1, **MAKEMESSAGES_OPTIONS)


def main(argv: Sequence[str]) -> int:
    """The command line: ``compile [--force]`` or ``update``."""
    if argv[:1] == ["compile"]:
        written = compile_catalogs(catalogs(), force="--force" in argv[1:])
        for path in written:
            print(f"compiled {path.relative_to(ROOT)}")
        return 0
    if argv[:1] == ["update"]:
        update_catalogs()
        return 0
    print("usage: python -m baloot_site.catalogs compile [--force] | update", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
