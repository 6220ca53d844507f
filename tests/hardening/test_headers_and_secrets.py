"""Headers every page sends (CSP, Permissions-Policy) and the secret key's rules."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse

from baloot_site import environment
from tests.support.processes import in_fresh_interpreter

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "accounts:login", "accounts:signup"])
def test_pages_send_a_content_security_policy_without_inline_script(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"][0] == "'self'"
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy["style-src"]
    html = response.content.decode()
    assert not INLINE_SCRIPT.findall(html)
    assert not EVENT_HANDLER.findall(html)


def test_no_template_has_an_inline_script_or_event_handler():
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for pattern in (INLINE_SCRIPT, EVENT_HANDLER):
            offenders += [f"{template.relative_to(ROOT)}: {m}" for m in pattern.findall(text)]
    assert offenders == []


@pytest.mark.django_db
def test_pages_switch_off_browser_features_the_site_never_uses(client):
    header = client.get(reverse("home"))["Permissions-Policy"]
    features = dict(item.strip().split("=", 1) for item in header.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()"


def test_a_short_secret_key_is_refused_with_debug_off():
    with pytest.raises(ImproperlyConfigured, match="at least 50"):
        environment.require_strong_keys("k" * 49, [], debug=False)
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY_FALLBACKS"):
        environment.require_strong_keys("k" * 50, ["short"], debug=False)
    environment.require_strong_keys("k" * 50, ["o" * 50], debug=False)
    # Local development may use anything.
    environment.require_strong_keys("dev", [], debug=True)


def test_the_server_does_not_start_on_a_short_key():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="only-thirty-characters-long-xx")
    result = in_fresh_interpreter("import baloot_site.asgi", env, check=False)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is 30 characters long" in result.stderr


def test_previous_secret_keys_come_from_the_environment():
    old = ["a" * 50, "b" * 50]
    assert environment.secret_key_fallbacks({"DJANGO_SECRET_KEY_FALLBACKS": ",".join(old)}) == old
    assert environment.secret_key_fallbacks({}) == []


@pytest.mark.django_db
def test_a_session_signed_with_the_previous_key_survives_a_rotation(make_user, settings):
    from django.test import Client

    settings.SECRET_KEY = "o" * 50
    kept, dropped = Client(), Client()
    kept.force_login(make_user("kept"))
    dropped.force_login(make_user("dropped"))
    settings.SECRET_KEY = "n" * 50
    # Without the old key among the fallbacks, the session no longer holds.
    assert dropped.get(reverse("accounts:profile")).status_code == 302
    settings.SECRET_KEY_FALLBACKS = ["o" * 50]
    assert kept.get(reverse("accounts:profile")).status_code == 200


def test_rate_limits_are_read_from_the_environment():
    rates = environment.rates({"RATE_LIMITS_TABLES": "5/m"}, {"TABLES": "20/h", "SIGNUP": "9/h"})
    assert rates == {"TABLES": "5/m", "SIGNUP": "9/h"}
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMITS_TABLES"):
        environment.rates({"RATE_LIMITS_TABLES": "lots"}, {"TABLES": "20/h"})


def test_htmx_is_configured_once_and_never_writes_inline_styles(start_table, players):
    """htmx reads the first htmx-config only; copying "style" attributes while settling a
    swap is an inline style the CSP refuses (the browser tests saw it on the table)."""
    outcome = start_table(bots=(2, 3, 4))
    client = Client()
    client.force_login(players[1])
    for url in (reverse("play:table", args=[outcome.match.pk]), reverse("play:lobby")):
        page = client.get(url).content.decode()
        configs = re.findall(r'<meta name="htmx-config" content=\'([^\']*)\'>', page)
        assert len(configs) == 1, url
        config = json.loads(configs[0])
        assert config["includeIndicatorStyles"] is False
        assert "style" not in config["attributesToSettle"]
    assert config.get("responseHandling") is None
    table = client.get(reverse("play:table", args=[outcome.match.pk])).content.decode()
    config = json.loads(re.findall(r'<meta name="htmx-config" content=\'([^\']*)\'>', table)[0])
    assert {"code": "4..", "swap": True, "error": False} in config["responseHandling"]
