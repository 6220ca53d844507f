"""Push bench (issue 11): the exact size of every push of a seeded match, and its cost.

Plays one whole match in this process, on a SQLite file of its own, with
seeded deals (the same decks on every run) and the site's default bot
(``normal``, which answers at once whatever ``BOT_DECISION_MS`` says)
playing every seat, as in ``live_bench.py`` where every seated player has
stepped away. After each event it draws the table region for each of the
four seats and a spectator, exactly as a server process does for its
sockets (``games.table.live``), and measures what a socket that saw the
previous event would be sent: the changed parts as out-of-band morphs.

Prints, per viewer and over all of them: the number of pushes, the median,
90th percentile and largest push in bytes, the bytes pushed over the whole
match, and the whole region's size (what a socket gets on connecting). The
sizes are deterministic: the same on every run and every machine. Also
prints the CPU time per event of reading the match from the database, of
following the step its announcement carries instead (as a server process
that keeps the match does, ``games.match.steps``; a step that is not public
never travels, and the match is read for it), and of drawing the five
pictures (noisy on a busy machine; ``--profile`` shows where the following
and drawing go).

With ``--sockets N`` it also prints what the site's Redis layer
(``baloot_site.channel_layer``, messages encrypted with a
``CHANNEL_ENCRYPTION_KEY``) costs to decode the match's announcements, as
they travel between server processes: the CPU per message, and per push for
N sockets of one process in the match's group, decoded by every socket (as
channels_redis alone does) and once for all of them (as the site's layer
does). No Redis is needed: only the decoding is timed.

Run: ``.venv/bin/python bench/push_bench.py`` (``--people`` to keep the
players at their seats, so the timers show; ``--profile N`` for the N most
costly functions under cProfile; ``--language ar`` for another language;
``--sockets 100`` for the decoding of sealed announcements).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 20261202
VIEWERS = ("seat 1", "seat 2", "seat 3", "seat 4", "spectator")


def setup(workdir: Path) -> None:
    """Django on a fresh SQLite file, DEBUG off, the in-memory channel layer."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="baloot_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="push-bench",
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
    )
    for name in ("REDIS_URL", "WORKER_IN_SERVER"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


def play(people: bool, language: str, profiler: cProfile.Profile | None) -> dict[str, Any]:
    """Play the match; returns the sizes per viewer, whole sizes and draw times."""
    import random

    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.match import broadcast, dealing, services
    from games.match.models import Match, Seat
    from games.match.versions import read as read_match
    from games.table.context import viewer_of
    from games.table.live import Hub, Picture, draw

    # Announcements carry their steps, as they do between server processes,
    # and a hub of this process follows them as another server process would.
    announced: list[dict[str, Any]] = []
    broadcast.steps_travel = lambda: True  # type: ignore[assignment]
    broadcast._send = announced.extend  # type: ignore[assignment]

    class Seeded:
        rng = random.Random(SEED)

        def token_hex(self, size: int) -> str:
            return self.rng.randbytes(size).hex()

        def randbelow(self, n: int) -> int:
            return self.rng.randrange(n)

    dealing.secrets = Seeded()  # type: ignore[assignment]
    users = [User.objects.create_user(f"player{n}") for n in (1, 2, 3, 4)]
    users.append(User.objects.create_user("watcher"))
    match = services.create_match(users[0])
    for n in (2, 3, 4):
        services.take_seat(users[n - 1], match, n)
    services.start_match(users[0], match)
    if not people:
        Seat.objects.filter(match=match).update(away=True)
    hub = Hub()
    hub.join(match.pk, users[4].pk)
    hub.version(match.pk, 0, None, fresh=True)
    announced.clear()
    every_announcement: list[dict[str, Any]] = []
    sizes: dict[str, list[int]] = {viewer: [] for viewer in VIEWERS}
    whole: dict[str, list[int]] = {viewer: [] for viewer in VIEWERS}
    seconds: list[float] = []
    reads: list[float] = []
    steps: list[float] = []
    sent: dict[str, Picture | None] = dict.fromkeys(VIEWERS)
    later = timezone.now() + timedelta(days=365)
    while True:
        started = time.process_time()
        reading = read_match(match.pk)
        reads.append(time.process_time() - started)
        started = time.process_time()
        if profiler is not None:
            profiler.enable()
        every_announcement += announced
        for message in announced:
            if "next" not in message:
                # A step that is not public (a deal, a declaration) never
                # travels: a server process reads the match instead.
                hub.version(match.pk, message["seq"], message.get("rev"))
            elif not hub.advance(match.pk, message["seq"], message.get("rev"), message["next"]):
                raise SystemExit(f"the step to event {message['seq']} was not taken")
        announced.clear()
        followed = hub.known(match.pk, reading.seq, None)
        steps.append(time.process_time() - started)
        if followed is None or followed.state != reading.state:
            raise SystemExit(f"the steps did not lead to event {reading.seq}")
        started = time.process_time()
        # What the pictures of one version share, as the hub keeps it for them.
        shared: dict[Any, Any] = {}
        pictures = {
            viewer: draw(followed, viewer_of(followed, user, language=language), shared=shared)
            for viewer, user in zip(VIEWERS, users, strict=True)
        }
        if profiler is not None:
            profiler.disable()
        seconds.append(time.process_time() - started)
        for viewer, picture in pictures.items():
            frame = picture.changes_since(sent[viewer])
            if sent[viewer] is not None and frame is not None:
                sizes[viewer].append(len(frame.encode()))
            whole[viewer].append(len(picture.whole().encode()))
            sent[viewer] = picture
        if reading.match.status != Match.Status.PLAYING:
            break
        # A person's timer runs out as a bot's delay does: the turn is due now.
        if services.play_due_turn(match.pk, now=later) is None:
            raise SystemExit(f"nothing was due at event {reading.seq}")
    return {
        "sizes": sizes,
        "whole": whole,
        "seconds": seconds,
        "reads": reads,
        "steps": steps,
        "events": reading.seq,
        "announcements": every_announcement,
    }


def sealed_decoding(announcements: list[dict[str, Any]], sockets: int) -> None:
    """Print the CPU the site's Redis layer spends decoding these announcements."""
    from baloot_site.channel_layer import SealedPubSubLayer

    layer = SealedPubSubLayer(symmetric_encryption_keys=["push-bench-" + "k" * 40])
    sealed = [layer.serialize(message) for message in announcements]
    started = time.process_time()
    for message in sealed:
        layer._serializer.deserialize(message)
    each = (time.process_time() - started) / len(sealed)
    started = time.process_time()
    for message in sealed:
        for _ in range(sockets):
            layer.deserialize(message)
    shared = (time.process_time() - started) / len(sealed)
    size = statistics.median(len(message) for message in sealed)
    print(
        f"sealed announcements: {len(sealed)}, median {size:.0f} bytes;"
        f" CPU to decode one {each * 1e6:.1f} µs"
    )
    print(
        f"a push to {sockets} sockets of one process: {each * sockets * 1000:.2f} ms decoded"
        f" by every socket, {shared * 1000:.2f} ms decoded once for all"
    )


def report(figures: dict[str, Any]) -> None:
    sizes: dict[str, list[int]] = figures["sizes"]
    everyone = [size for values in sizes.values() for size in values]
    print(f"{figures['events']} events; bytes of each push to a socket that saw the previous one")
    print(
        f"{'viewer':<10} {'pushes':>6} {'median':>7} {'p90':>7} {'max':>7}"
        f" {'match total':>12} {'whole median':>13}"
    )
    for viewer, values in [*sizes.items(), ("all", everyone)]:
        whole = figures["whole"].get(viewer) or [w for v in figures["whole"].values() for w in v]
        print(
            f"{viewer:<10} {len(values):>6} {statistics.median(values):>7.0f}"
            f" {quantile(values, 0.9):>7} {max(values):>7} {sum(values):>12}"
            f" {statistics.median(whole):>13.0f}"
        )
    for label, key in (
        ("reading the match from the database", "reads"),
        ("following the announced steps instead (reading where none travels)", "steps"),
        ("drawing the five pictures", "seconds"),
    ):
        values = figures[key]
        median, mean = statistics.median(values) * 1000, statistics.mean(values) * 1000
        print(f"CPU per event, {label}: median {median:.2f} ms, mean {mean:.2f} ms")


def quantile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", action="store_true", help="players stay at their seats")
    parser.add_argument("--language", default="en")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print N functions")
    parser.add_argument(
        "--sockets",
        type=int,
        default=0,
        metavar="N",
        help="also time decoding the sealed announcements for N sockets of one process",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="push-bench-") as workdir:
        setup(Path(workdir))
        profiler = cProfile.Profile() if args.profile else None
        figures = play(args.people, args.language, profiler)
    report(figures)
    if args.sockets:
        sealed_decoding(figures["announcements"], args.sockets)
    if profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
