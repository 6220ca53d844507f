"""Settings of the Baloot Online site, read from the environment.

One settings module for every use: local development, tests and
production differ only by environment variables (README, "Configuration").
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from baloot_site import environment

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = environment.flag(os.environ, "DJANGO_DEBUG", default=False)
SECRET_KEY = environment.secret_key(os.environ, DEBUG, BASE_DIR / ".django_secret_key")
# Key rotation: the previous keys, still accepted for sessions and signatures
# made with them until they expire (README, "Configuration": DJANGO_SECRET_KEY_FALLBACKS).
SECRET_KEY_FALLBACKS = environment.secret_key_fallbacks(os.environ)
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
    "csp",
    "axes",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    "health",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "baloot_site.headers.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
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
    # A refused rate limit becomes a translated 429 page (baloot_site.limits).
    "django_ratelimit.middleware.RatelimitMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into a 429 page.
    "axes.middleware.AxesMiddleware",
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

# With Redis and DEBUG off, the layer's messages must be encrypted (CHANNEL_ENCRYPTION_KEY).
environment.require_channel_encryption(os.environ, DEBUG)
CHANNEL_LAYERS = environment.channel_layers(os.environ)
# Redis, when set: the channel layer of several server processes, and the
# wake-up channel of a separate worker (games/worker/alarm.py).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# On a layer that forgets group members (the in-memory one; not the Redis
# pub/sub one, whose memberships are subscriptions), each process's table
# sockets join their groups again this often, so that a membership
# (CHANNEL_GROUP_EXPIRY, a minute unless set) never lapses while its socket
# lives, and a killed process's channels drop out (games.match.memberships).
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
# The separate worker runs at this niceness (0 to 19) below the server
# processes: when the machine is short of CPU, pushes to people go first and
# bots' turns wait a little, rather than every push queueing behind the
# turns being played (games/management/commands/run_worker.py).
WORKER_NICENESS = environment.niceness(os.environ, "WORKER_NICENESS", 10)
# ...and, where the system has it, under its idle scheduling policy: a server
# process that wakes takes the processor from the worker at once, which a
# niceness alone does not do (games/worker/priority.py; measured in
# docs/performance.md, bench/live_bench.py).
WORKER_IDLE = environment.flag(os.environ, "WORKER_IDLE", default=True)
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
# The worker analyses every finished deal with the double-dummy solver, in a
# separate process of the lowest priority, when no turn is due
# (games/worker/analysis.py).
DEAL_ANALYSIS = environment.flag(os.environ, "DEAL_ANALYSIS", default=True)
# How many table sockets one user may hold at one match in one server process.
TABLE_SOCKETS_PER_USER = environment.count(os.environ, "TABLE_SOCKETS_PER_USER", 4)
# And this many sockets per server process in all, table and quick-match
# pages together: one more is closed at once (4429, which the pages try
# again later), so that a crowd of sockets cannot starve the process. The
# last TABLE_SOCKETS_RESERVED_FOR_PLAYERS of them are kept for the players
# of matches that are not over (games/match/admission.py).
TABLE_SOCKETS_PER_SERVER = environment.count(os.environ, "TABLE_SOCKETS_PER_SERVER", 2000)
TABLE_SOCKETS_RESERVED_FOR_PLAYERS = environment.count(
    os.environ, "TABLE_SOCKETS_RESERVED_FOR_PLAYERS", 500
)
# The sockets one person may hold across all matches and server processes
# (counted in Redis when REDIS_URL is set): at the tables where they play,
# at the tables they watch, and quick-match pages.
TABLE_PLAYING_SOCKETS_PER_USER = environment.count(os.environ, "TABLE_PLAYING_SOCKETS_PER_USER", 16)
TABLE_WATCHING_SOCKETS_PER_USER = environment.count(
    os.environ, "TABLE_WATCHING_SOCKETS_PER_USER", 8
)
QUEUE_SOCKETS_PER_USER = environment.count(os.environ, "QUEUE_SOCKETS_PER_USER", 4)
# A table socket stays open this long after its match finished or was
# aborted, for the result, the chat and the rematch offer; then it is closed
# (4410) and the page says that the table no longer updates.
TABLE_SOCKETS_AFTER_END_SECONDS = environment.seconds(
    os.environ, "TABLE_SOCKETS_AFTER_END_SECONDS", 600.0
)
# A quick-match player waiting this long is offered to fill the table with
# bots and start at once, unrated (games/social/queue.py).
QUICK_MATCH_BOT_WAIT = environment.seconds(os.environ, "QUICK_MATCH_BOT_WAIT", 45.0)
# The rating policy (games/ratings/policy.py, stated on /ratings/): the same
# four people play one rated match together in this many hours, and any two
# players at most this many rated matches in 24 hours; later ones are unrated.
RATED_REPEAT_HOURS = environment.count(os.environ, "RATED_REPEAT_HOURS", 12)
RATED_PAIR_DAILY_LIMIT = environment.count(os.environ, "RATED_PAIR_DAILY_LIMIT", 5)
# The most deals an imported document may hold (a real match has a few dozen).
IMPORT_MAX_DEALS = environment.count(os.environ, "IMPORT_MAX_DEALS", 200)
# The worker stores an upload this many deals per pass, each deal in a
# transaction of its own, and plays the due turns between passes.
IMPORT_DEALS_PER_PASS = environment.count(os.environ, "IMPORT_DEALS_PER_PASS", 10)
# An invite link works for this long after it was issued; the table's
# creator can issue a new one (the old one stops working) or turn it off.
INVITE_MAX_AGE_SECONDS = environment.seconds(
    os.environ, "INVITE_MAX_AGE_SECONDS", 7 * 24 * 60 * 60.0
)
# The worker deletes a table nobody started this long after it was opened.
WAITING_TABLE_EXPIRY_SECONDS = environment.seconds(
    os.environ, "WAITING_TABLE_EXPIRY_SECONDS", 2 * 60 * 60.0
)
# /health/ reports the worker dead when no worker has finished a pass for this long.
HEALTH_WORKER_STALE_SECONDS = environment.seconds(os.environ, "HEALTH_WORKER_STALE_SECONDS", 60.0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # The site's own words with a number, like "baloot123".
    {"NAME": "accounts.passwords.SiteWordsValidator"},
]
# django-axes checks every log-in (the site's and the admin's) before Django's
# own backend: after AXES_FAILURE_LIMIT wrong passwords for one username from
# one address, that pair is locked out for AXES_COOLOFF_TIME. Locking the
# pair, not the username alone, keeps a stranger from locking a player out.
# The address is the client's as the trusted proxy reports it
# (baloot_site.guards.TrustedProxy), never a header a client sets itself.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = environment.count(os.environ, "AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(
    seconds=environment.seconds(os.environ, "AXES_COOLOFF_SECONDS", 15 * 60)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "baloot_site.limits.locked_out"
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

# Per-user (and, before log-in, per-address) limits, as django-ratelimit
# rates: "count/period" with s, m, h or d. A refused request gets a
# translated 429 page. RATE_LIMITS_<NAME> in the environment overrides one.
RATE_LIMITS = environment.rates(
    os.environ,
    {
        "LOGIN": "30/m",  # log-in attempts per address
        "SIGNUP": "10/h",  # accounts created per address
        "TABLES": "20/h",  # tables created per player
        "BOT_MATCHES": "20/h",  # matches against bots started per player
        "IMPORTS": "20/d",  # notation documents imported per player
        "AWAY": "60/h",  # "I'm back" / step-away toggles per player
        "QUEUE": "60/h",  # quick-match joins, cancels and "fill with bots" per player
        "REMATCH": "60/h",  # rematch offers and acceptances per player
    },
)
RATELIMIT_VIEW = "baloot_site.limits.too_many_requests"
# The rate counters live in the cache: Redis when several server processes
# share the load, else the memory of the one process that serves requests.
CACHES = environment.caches(os.environ)
if "REDIS_URL" not in os.environ:
    # The embedded default runs one daphne process, so the memory cache is
    # the shared one there; django-ratelimit cannot know that.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003"]
else:
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# Request bodies: the ASGI guard (baloot_site.guards.BodyLimit) refuses a
# larger body before reading it; Django's own limits match it, so an upload
# is always read into memory, never a temporary file.
REQUEST_BODY_LIMIT = environment.count(os.environ, "DJANGO_MAX_REQUEST_BYTES", 2 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_LIMIT
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_LIMIT
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
# Addresses of the reverse proxies whose X-Forwarded-Proto and X-Real-IP
# headers are believed (baloot_site.guards.TrustedProxy); everyone else's
# are dropped.
TRUSTED_PROXIES = frozenset(
    environment.word_list(os.environ, "DJANGO_TRUSTED_PROXIES", ["127.0.0.1", "::1"])
)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "baloot_site.minified_static.MinifiedCompressedManifestStaticFilesStorage"
    },
}

# Secure defaults that hold with or without TLS.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Content-Security-Policy (django-csp): scripts, styles, images and sockets
# from the site itself only; no inline script (a nonce is available to a
# template that needs one, as {{ request.csp_nonce }}), no plugins, no
# framing, forms post to the site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}
# Powerful browser features the site never uses, switched off for it and
# anything it might embed (baloot_site.headers).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "camera": [],
    "display-capture": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
}

# Behind a TLS-terminating proxy, DJANGO_HTTPS=1 makes cookies secure-only,
# trusts the proxy's X-Forwarded-Proto and asks browsers to stay on HTTPS.
if environment.flag(os.environ, "DJANGO_HTTPS", default=False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 30
    # The proxy and monitors ask for the health page over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "cancelled_clean_up": {"()": "baloot_site.log_filters.CancelledCleanUp"},
        "hidden_invites": {"()": "baloot_site.log_filters.HiddenInvites"},
    },
    # No invite token is ever written to the log (baloot_site.log_filters).
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["hidden_invites"]}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "channels_redis.pubsub": {"filters": ["cancelled_clean_up"]},
    },
}
