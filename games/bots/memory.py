"""What a seat knows about the hidden hands, from its view and the public history.

Built fresh for every decision (bots store nothing): the cards played, the
suits each seat has shown it lacks (not following the led suit; in Hokum not
trumping either; leading a trump in a locked game, D4, while holding another
suit is forbidden, so such a lead shows only trumps are left), and the cards
a seat is known to hold: the face-up card its taker took (D5), the cards of
projects shown after the first trick (D18), and the other Baloot card once
the trump K or Q went out with Baloot (D21a).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.rules.cards import CARD_STR, SUITS

from .hand import KING, QUEEN, rank, suit

View = dict[str, Any]
History = dict[str, Any]


@dataclass
class Memory:
    """The seat's knowledge; ``seat`` is the one deciding."""

    seat: int
    trump: str | None
    hand: list[str]
    played: set[str] = field(default_factory=set)
    voids: dict[int, set[str]] = field(default_factory=dict)
    known: dict[int, set[str]] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)
    tricks: list[list[tuple[int, str]]] = field(default_factory=list)

    @property
    def unseen(self) -> list[str]:
        """Cards in another seat's hand: neither mine nor played.

        In deck order, not a set's: the order feeds the seeded shuffles of
        ``sampling``, and a set's order changes with the process's hash seed,
        which would make the same view choose differently in two processes.
        """
        mine = set(self.hand)
        return [c for c in CARD_STR if c not in self.played and c not in mine]

    def others(self) -> list[int]:
        """The three other seats."""
        return [s for s in (1, 2, 3, 4) if s != self.seat]

    def may_hold(self, seat: int, card: str) -> bool:
        """False when ``seat`` surely lacks ``card``."""
        if card in self.played or card in self.hand:
            return False
        if card in self.known.get(seat, set()):
            return True
        if any(card in cards for s, cards in self.known.items() if s != seat):
            return False
        return suit(card) not in self.voids.get(seat, set())

    def higher_unseen(self, card: str, power: Any) -> list[str]:
        """Unseen cards of ``card``'s suit that beat it (``power`` ranks a card)."""
        return [c for c in self.unseen if suit(c) == suit(card) and power(c) > power(card)]

    def may_ruff(self, seat: int, led: str) -> bool:
        """True when ``seat`` might trump a trick led in ``led``."""
        if self.trump is None or led == self.trump:
            return False
        voids = self.voids.get(seat, set())
        return led in voids and self.trump not in voids and self.counts.get(seat, 0) > 0


def remember(view: View, history: History) -> Memory:
    """The memory of the seat whose view it is."""
    seat = view["seat"]
    contract = view["contract"]
    trump = contract["trump"] if contract else None
    lock = bool(contract and contract.get("lock"))
    memory = Memory(seat=seat, trump=trump, hand=list(view["hand"]))
    memory.counts = {int(s): n for s, n in view["hand_counts"].items()}
    memory.voids = {s: set() for s in (1, 2, 3, 4)}
    memory.known = {s: set() for s in (1, 2, 3, 4)}
    plays = history.get("plays", [])
    trick: list[tuple[int, str]] = []
    for play in plays:
        who, card = int(play["seat"]), str(play["card"])
        memory.played.add(card)
        if trick:
            led = suit(trick[0][1])
            if suit(card) != led:
                memory.voids[who].add(led)
                if trump and suit(card) != trump:
                    memory.voids[who].add(trump)
        elif lock and trump and suit(card) == trump:
            memory.voids[who].update(s for s in SUITS if s != trump)
        if play.get("baloot") and trump:
            other = ("Q" if rank(card) == KING else "K") + trump
            if rank(card) in (KING, QUEEN) and other not in memory.played:
                memory.known[who].add(other)
        trick.append((who, card))
        if len(trick) == 4:
            memory.tricks.append(trick)
            trick = []
    if trick:
        memory.tricks.append(trick)
    faceup = history.get("faceup")
    if contract and faceup and faceup not in memory.played:
        memory.known[int(contract["taker"])].add(faceup)
    for key, projects in (view.get("declarations") or {}).items():
        for project in projects or ():
            for card in project.get("cards") or ():
                if card not in memory.played:
                    memory.known[int(key)].add(card)
    # A Baloot partner card may have been played after the announcement.
    memory.known = {s: cards - memory.played for s, cards in memory.known.items()}
    memory.known[seat] = set()
    return memory
