"""docs/architecture.md names only code that exists.

Every dotted name in backticks (``match.services.submit``,
``table.live.Hub.picture``) is looked up as code: under ``games`` first, then
as written (``rules.view_for`` is ``games.rules.view_for``), its longest part
that imports as a module and the rest as attributes. Paths, file names,
addresses and single words (a field, a model's name in passing) are not
names of code and are left alone.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
QUOTED = re.compile(r"`([^`]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
# Dotted words that are files or settings, not code.
NOT_CODE = re.compile(r"\.(py|html|md|txt|json)$")


def names_cited() -> list[str]:
    found = []
    for quoted in QUOTED.findall(DOC.read_text()):
        if DOTTED.fullmatch(quoted) and not NOT_CODE.search(quoted):
            found.append(quoted)
    return sorted(set(found))


def resolves(name: str) -> bool:
    """True when ``name`` is a module, or an attribute path inside one."""
    for full in (f"games.{name}", name):
        parts = full.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attribute in parts[cut:]:
                    found = getattr(found, attribute)
            except AttributeError:
                break
            return True
    return False


def test_the_doc_cites_names_at_all() -> None:
    assert len(names_cited()) > 40


@pytest.mark.parametrize("name", names_cited())
def test_every_name_the_doc_cites_exists(name: str) -> None:
    assert resolves(name), f"docs/architecture.md names `{name}`, which does not exist"
