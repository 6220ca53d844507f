"""The ASGI application daphne serves: Django for HTTP, Channels for WebSockets."""

from __future__ import annotations

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")

from django.conf import settings

from baloot_site.environment import require_strong_keys
from baloot_site.socket_writes import write_frames_at_once

# A production server never starts on a short secret key.
require_strong_keys(settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS, settings.DEBUG)

# The event loop that answers every socket shares the interpreter with the
# threads that read, record and draw; by default a busy thread keeps it for
# up to 5 ms before the loop gets its turn, and a push changes hands several
# times. A shorter slice lets the loop answer sooner, at a small cost in
# switching.
SWITCH_INTERVAL_SECONDS = 0.001
sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)

# A frame pushed to a socket is written at once, not after every other
# callback the event loop has queued (baloot_site/socket_writes.py).
write_frames_at_once()

# Django must be set up before anything that imports models (consumers,
# routing, the auth middleware), so build its application first.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from baloot_site.collector import tune_for_server  # noqa: E402
from baloot_site.guards import BodyLimit, TrustedProxy  # noqa: E402
from games.table.routing import websocket_urlpatterns  # noqa: E402
from games.worker.in_server import WorkerInServer  # noqa: E402

# The worker runs in this process only with WORKER_IN_SERVER (games/worker/in_server.py).
# Proxy headers are believed from the trusted proxy only, and an oversized
# body is refused before Django reads it (baloot_site/guards.py).
application = TrustedProxy(
    WorkerInServer(
        ProtocolTypeRouter(
            {
                "http": BodyLimit(django_asgi_app),
                "websocket": AllowedHostsOriginValidator(
                    AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
                ),
            }
        )
    )
)

# Everything loaded so far lives as long as the process: the cycle collector
# need not walk it again, and it collects in fewer, shorter stops
# (baloot_site.collector).
tune_for_server()
