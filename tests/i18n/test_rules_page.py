"""The Rules page: linked from the home page, every section there, in every language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.support.languages import LANGUAGES

SECTIONS = (
    "Dealing",
    "Bidding",
    "Doubling",
    "Projects",
    "Playing the cards",
    "Sawa",
    "Scoring",
    "Worked examples",
)
# The worked conversions of the scoring rules (rules-decisions D22) and the
# Sun and Hokum sweeps (D25), as the page states them.
EXAMPLES = (
    "65 gives 13, 66 gives 14, 64 gives 12.",
    "84 gives 8, 85 gives 9, 86 gives 9.",
    "(11 + 7) \N{MULTIPLICATION SIGN} 2 = 36",
    "a Sun sweep is worth 44 game points, a Hokum sweep 25",
)


def test_the_home_page_and_the_site_header_link_to_the_rules(client):
    html = client.get(reverse("home")).content.decode()
    assert html.count(f'href="{reverse("rules")}"') >= 2


def test_the_rules_page_explains_every_phase_with_worked_examples(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    html = response.content.decode()
    for heading in SECTIONS:
        assert f">{heading}</h" in html
    for example in EXAMPLES:
        assert example in html


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_the_rules_page_is_translated(client, language):
    client.cookies["django_language"] = language
    html = client.get(reverse("rules")).content.decode()
    with translation.override(language):
        for heading in SECTIONS:
            assert f">{gettext(heading)}</h" in html, (language, heading)
    assert "Dealing, bidding and play all start" not in html
    assert f'lang="{language}"' in html
