"""The table's first load (issue 11): minified own files, at most 40 KB gzipped in all.

``collectstatic`` runs with the production storage (whitenoise's hashed and
compressed files, fed by baloot_site.minified_static), and the table page is
measured as a phone fetches it: the page and every file it links, each once,
gzipped.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from baloot_site.minified_static import minified
from games.match import services

pytestmark = pytest.mark.django_db

BUDGET = 40 * 1024
PRODUCTION_STORAGE = "baloot_site.minified_static.MinifiedCompressedManifestStaticFilesStorage"
SOURCE = Path(django_settings.BASE_DIR) / "static"


@pytest.fixture
def collected(settings, tmp_path: Path) -> Path:
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STORAGE}}
    call_command("collectstatic", "--noinput", verbosity=0)
    return tmp_path


def hashed(root: Path, name: str) -> Path:
    """The collected, hashed copy of static file ``name``."""
    stem, suffix = name.rsplit(".", 1)
    (found,) = root.glob(f"{stem}.[0-9a-f]*.{suffix}")
    return found


@pytest.mark.parametrize("name", ["css/table.css", "css/site.css", "js/table.js", "js/table_ui.js"])
def test_own_files_are_collected_minified_and_keep_their_rules(collected: Path, name: str) -> None:
    source = (SOURCE / name).read_text(encoding="utf-8")
    served = hashed(collected, name).read_text(encoding="utf-8")
    assert len(served) < 0.85 * len(source)
    assert "/*" not in served
    assert "\n  " not in served
    if name.endswith(".css"):
        # Every selector of the source is still there, comments aside.
        selectors = set(
            re.findall(r"\.[a-z][a-z0-9-]*", re.sub(r"/\*.*?\*/", "", source, flags=re.S))
        )
        assert selectors <= set(re.findall(r"\.[a-z][a-z0-9-]*", served))


def test_vendored_and_app_files_are_left_as_they_came(collected: Path) -> None:
    vendored = "vendor/idiomorph/idiomorph-ext.min.js"
    assert hashed(collected, vendored).read_bytes() == (SOURCE / vendored).read_bytes()
    assert minified("js/x.min.js", "var  a = 1;") is None
    assert minified("img/favicon.svg", "<svg/>") is None


def test_collecting_twice_changes_nothing(collected: Path) -> None:
    first = {p.name: p.read_bytes() for p in collected.rglob("*.css")}
    call_command("collectstatic", "--noinput", verbosity=0)
    assert {p.name: p.read_bytes() for p in collected.rglob("*.css")} == first


def test_table_first_load_is_at_most_40_kb_gzipped(
    collected: Path, running: services.Outcome, players
) -> None:
    client = Client()
    client.force_login(players[1])
    page = client.get(reverse("play:table", args=[running.match.pk])).content
    assert b"hand" in page
    total = len(gzip.compress(page))
    linked = set(re.findall(rb'(?:src|href)="/static/([^"]+)"', page))
    assert any(name.startswith(b"css/table.") for name in linked)
    for name in linked:
        total += len(gzip.compress((collected / name.decode()).read_bytes()))
    assert total <= BUDGET, f"first load {total} B gzipped, budget {BUDGET} B"
