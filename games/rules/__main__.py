"""The command line: ``python -m games.rules score|legal FILE`` and
``python -m games.rules verify-deal SEED COMMITMENT [DECK]``.

``score`` and ``legal`` follow ``notation.md``: one JSON object on standard
output; at the first illegal action ``{"error": ...}`` and exit status 1; a
malformed document exits with status 2 and one line on standard error.
``verify-deal`` checks a seed against its commitment, prints the deck it deals
(``docs/fairness.md``) and, given a deck (comma-separated cards), compares it.
Only the standard library is needed.
"""

from __future__ import annotations

import json
import sys

from .fairness import commitment, deck_from_seed
from .notation import (
    MalformedDocument,
    NotationError,
    legal_document,
    read_document,
    score_document,
)

USAGE = "usage: python -m games.rules score FILE | legal FILE | verify-deal SEED COMMITMENT [DECK]"


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] in ("score", "legal"):
        return _document_command(argv[0], argv[1])
    if argv and argv[0] == "verify-deal" and len(argv) in (3, 4):
        return _verify_deal(*argv[1:])
    print(USAGE, file=sys.stderr)
    return 2


def _document_command(command: str, path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
        doc = read_document(text)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"malformed document: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    except MalformedDocument as exc:
        print(f"malformed document: {exc}", file=sys.stderr)
        return 2
    try:
        result = score_document(doc) if command == "score" else legal_document(doc)
    except NotationError as exc:
        print(json.dumps(exc.to_json(), ensure_ascii=False))
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _verify_deal(seed: str, claimed: str, deck: str | None = None) -> int:
    try:
        actual = commitment(seed)
        cards = deck_from_seed(seed)
    except ValueError as exc:
        print(f"bad seed: {exc}", file=sys.stderr)
        return 2
    ok = actual == claimed.lower()
    report: dict[str, object] = {"commitment_ok": ok, "commitment": actual, "deck": cards}
    if deck is not None:
        report["deck_ok"] = deck.replace(" ", "").split(",") == cards
        ok = ok and bool(report["deck_ok"])
    print(json.dumps(report))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
