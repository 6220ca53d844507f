"""What a chat line may hold: text people can read, nothing that hides or hijacks it.

``clean`` turns what was typed into what is stored and shown:

- normalised to NFC, so that one letter is one letter however it was typed;
- without control characters (NUL included, which PostgreSQL cannot store)
  and format characters: zero-width spaces, byte-order marks, soft hyphens,
  and every bidirectional control (embeddings, overrides, isolates and the
  marks), which could leave an unbalanced direction running into the rest
  of the page; the page shows each line in an isolate of its own
  (``dir="auto"``, ``<bdi>``) and works out its direction from its letters;
- keeping the zero-width joiner and non-joiner only between two visible
  characters, where they join an emoji sequence or shape a script's letters;
- without the Hangul filler letters and the blank Braille pattern, which are
  drawn as nothing;
- with at most ``MAX_MARKS`` combining marks on one base character (Arabic
  vowel signs and a shadda, Thai vowels and tone marks, Vietnamese tones
  need two or three; a "Zalgo" line stacks hundreds), and none before the
  first base character;
- with every run of white space made one space, and none at either end.

A line with nothing left to see is refused (``games.social.chat``).
"""

from __future__ import annotations

import unicodedata

# Combining marks kept on one base character at most.
MAX_MARKS = 4
# Format characters kept, between two visible characters only.
JOINERS = frozenset({"\u200c", "\u200d"})
# Letters that are drawn as nothing (Unicode's default-ignorable fillers, the
# blank Braille pattern) and the combining grapheme joiner, a mark that shows
# nothing.
INVISIBLE = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"})
MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})


def clean(text: str) -> str:
    """``text`` as a chat line stores it (see the module's docstring); may be empty."""
    text = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if char.isspace():
            kept.append(" ")
        elif char in JOINERS:
            kept.append(char)
        elif category in ("Cc", "Cf", "Cs") or char in INVISIBLE:
            continue
        else:
            kept.append(char)
    words = "".join(kept).split()
    return _without_stray_joiners(_bounded_marks(" ".join(words)))


def _bounded_marks(text: str) -> str:
    """``text`` with at most MAX_MARKS combining marks per base, and none before the first."""
    out: list[str] = []
    marks = 0
    based = False
    for char in text:
        if unicodedata.category(char) in MARK_CATEGORIES:
            if not based or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            based = True
            marks = 0
        out.append(char)
    return "".join(out)


def _without_stray_joiners(text: str) -> str:
    """``text`` without the joiners that do not stand between two visible characters."""
    out: list[str] = []
    for index, char in enumerate(text):
        if char in JOINERS:
            before = out[-1] if out else " "
            after = text[index + 1] if index + 1 < len(text) else " "
            if before == " " or before in JOINERS or after == " " or after in JOINERS:
                continue
        out.append(char)
    return "".join(out).strip()
