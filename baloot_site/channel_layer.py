"""channels_redis's pub/sub layer as the site runs it: sealed messages, forgeries dropped.

With ``symmetric_encryption_keys`` (``CHANNEL_ENCRYPTION_KEY``,
``baloot_site.environment``) the layer encrypts every message it publishes
with Fernet (AES-128-CBC and an HMAC-SHA256 over it) and decrypts each one
on receipt, so a client of the Redis server sees channel names, sizes and
times, never what a message says, and cannot write one the site reads.
This subclass adds two things the layer leaves out:

- A message that does not decrypt or unpack (published by anything but the
  site, or by a site with another key) makes channels_redis's ``receive``
  raise, which ends the consumer waiting on it: its socket would close. Here
  it is logged and dropped, and the receive waits for the next message.
- The layer hands each of a process's sockets in a group the same published
  bytes, and each socket's ``receive`` decrypts and unpacks them again,
  which a match with many sockets in the process pays once per socket
  (measured in docs/performance.md, ``bench/push_bench.py --sockets 100``).
  The last message decoded is kept and handed out again, as a copy, for
  the same bytes.
"""

from __future__ import annotations

import logging
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

logger = logging.getLogger(__name__)


class Unreadable(Exception):
    """A published message that this site's layer cannot decrypt or unpack."""


class SealedPubSubLayer(RedisPubSubChannelLayer):
    """The pub/sub layer, dropping messages it cannot read and decoding each one once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The last bytes decoded and what they said (one tuple: swapped whole).
        self._last: tuple[bytes, dict[str, Any]] | None = None

    def deserialize(self, message: bytes) -> dict[str, Any]:
        """The message ``message`` says; raises Unreadable for one that is not the site's."""
        last = self._last
        if last is not None and last[0] is message:
            return dict(last[1])
        try:
            decoded = self._serializer.deserialize(message)
        except Exception as error:  # the cipher's and the unpacker's own errors
            raise Unreadable(type(error).__name__) from None
        if not isinstance(decoded, dict):
            raise Unreadable(type(decoded).__name__)
        self._last = (message, decoded)
        return dict(decoded)

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next readable message on ``channel``; unreadable ones are logged and dropped."""
        while True:
            try:
                message: dict[str, Any] = await self._get_layer().receive(channel)
            except Unreadable as error:
                logger.warning("channel layer: dropped a message it cannot read (%s)", error)
                continue
            return message
