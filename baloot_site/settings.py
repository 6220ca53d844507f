"""Settings of the Baloot Online site, read from the environment.

One settings module for every use: local development, tests and
production differ only by environment variables (README, "Configuration").
"""

from __future__ import annotations

import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from baloot_site import environment

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = environment.flag(os.environ, "DJANGO_DEBUG", default=False)
SECRET_KEY = environment.secret_key(os.environ, DEBUG, BASE_DIR / ".django_secret_key")
ALLOWED_HOSTS = environment.word_list(
    os.environ, "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = environment.word_list(os.environ, "DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # daphne first, so that `runserver` serves the ASGI application too.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the cookie or Accept-Language; after the session, before
    # CommonMiddleware, as Django requires.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's saved language wins over the cookie and the browser.
    "accounts.language.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "baloot_site.urls"
ASGI_APPLICATION = "baloot_site.asgi.application"

TEMPLATES = [
    {
        # template_partials installs its loaders here (named partials).
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": environment.database(os.environ, BASE_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = environment.channel_layers(os.environ)
# Redis, when set: the channel layer of several server processes, and the
# wake-up channel of a separate worker (games/worker/alarm.py).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Each table socket joins its match's group again this often, so that its
# membership (CHANNEL_GROUP_EXPIRY, a minute unless set) never lapses
# while it lives, and a killed process's channels drop out.
CHANNEL_GROUP_RENEWAL = environment.group_expiry(os.environ) / 3
# When no worker ran for this long (all stopped, or the database out of
# reach), the first worker back gives every pending turn the lost time back.
WORKER_OUTAGE_SECONDS = environment.seconds(os.environ, "WORKER_OUTAGE_SECONDS", 5.0)

# Bots and seats whose player is away act this long after their turn comes,
# so people can follow.
BOT_DELAY_SECONDS = environment.seconds(os.environ, "BOT_DELAY_SECONDS", 1.0)
# The worker sleeps until the next deadline or until a sooner one wakes it;
# one sleep lasts WORKER_INTERVAL seconds at most, in case a deadline was set
# by a process that could not wake it.
WORKER_INTERVAL = environment.seconds(os.environ, "WORKER_INTERVAL", 5.0)
# The time a bot may think about one decision (the strong bot searches until
# then; the others answer at once).
BOT_DECISION_MS = environment.seconds(os.environ, "BOT_DECISION_MS", 300.0)
# How long a finished deal's result stays on the table before the worker deals
# the next one (0 deals at once, in the same transaction as the last action).
ROUND_PAUSE_SECONDS = environment.seconds(os.environ, "ROUND_PAUSE_SECONDS", 5.0)
# Without Redis there is one server process: the worker runs inside it
# (games/worker/in_server.py), so its moves reach clients with no polling.
# scripts/run.sh turns this on when REDIS_URL is unset.
WORKER_IN_SERVER = environment.flag(os.environ, "WORKER_IN_SERVER", default=False)
# How many table sockets one user may hold at one match in one server process.
TABLE_SOCKETS_PER_USER = environment.count(os.environ, "TABLE_SOCKETS_PER_USER", 4)
# A quick-match player waiting this long is offered to fill the table with
# bots and start at once, unrated (games/social/queue.py).
QUICK_MATCH_BOT_WAIT = environment.seconds(os.environ, "QUICK_MATCH_BOT_WAIT", 45.0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "home"

# English first: it is the default and the language the rules engine speaks.
# Arabic is written right to left (Django's LANGUAGES_BIDI lists "ar").
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ar", _("Arabic")),
    ("id", _("Indonesian")),
    ("zh-hans", _("Simplified Chinese")),
    ("ko", _("Korean")),
    ("th", _("Thai")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Formats Django's locales lack (Arabic dates with times).
FORMAT_MODULE_PATH = ["baloot_site.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Secure defaults that hold with or without TLS.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Behind a TLS-terminating proxy, DJANGO_HTTPS=1 makes cookies secure-only,
# trusts the proxy's X-Forwarded-Proto and asks browsers to stay on HTTPS.
if environment.flag(os.environ, "DJANGO_HTTPS", default=False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 30

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
