"""The package boundaries of ``games/``, checked by reading every module's imports.

Each package may import only what ``docs/architecture.md`` allows:

- ``games.rules``: the standard library alone (it must run without Django);
- ``games.bots``: the standard library and ``games.rules``;
- ``games.display``: ``games.rules`` (engine words to page words, nothing stored);
- ``games.match``: ``games.rules``, ``games.bots`` (a due turn's bot move) and
  ``games.display``, never the pages;
- ``games.table`` and ``games.history``: ``match``, ``display`` and ``rules``,
  never each other; the table also hosts ``games.social`` (chat, rematch);
- ``games.social``: ``match``, ``display`` and ``rules``, never the pages;
- ``games.ratings``: ``match``, ``display`` and ``rules``: ratings, leaderboards and
  profiles read the match side, which calls them back through
  ``games.match.projections`` without importing them;
- ``games.worker``: ``match`` and ``rules``: it records turns through the services.

Around ``games``, one direction: ``accounts`` imports nothing from ``games``
(games hears of a session that ends through ``user_logged_out`` and
``accounts.signals.password_changed``, connected in ``GamesConfig.ready``;
the accounts pages show matches through the games' template tags), and
``games`` imports from ``accounts`` only its models and its signals. The
modules of ``baloot_site`` that either app imports (the rate limits, the
consumers' dispatch, ...) import neither app.

Imports are read from the source with ``ast``, including imports inside
functions and under ``TYPE_CHECKING``, so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
APPS = ("accounts", "games")
# What games may import from accounts: a player's profile, and the signal of
# a changed password (Django sends the logged-out one).
GAMES_FROM_ACCOUNTS = {"accounts.models", "accounts.signals"}

# The games packages each package may import (besides itself).
ALLOWED = {
    "rules": set(),
    "bots": {"rules"},
    "display": {"rules"},
    "match": {"rules", "bots", "display"},
    "table": {"rules", "display", "match", "social"},
    "history": {"rules", "display", "match"},
    "social": {"rules", "display", "match"},
    "ratings": {"rules", "display", "match"},
    "worker": {"rules", "match"},
}
# Packages that must not import anything from outside the standard library.
PURE = {"rules", "bots"}


def imported_modules(source: str, package: str) -> list[tuple[int, str]]:
    """Every module that ``source``, a module of ``package``, imports: (line, dotted name)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            if module == "games":
                # ``from games import rules``: each name is a package.
                found.extend((node.lineno, f"games.{alias.name}") for alias in node.names)
            else:
                found.append((node.lineno, module))
    return found


def package_modules(package: str) -> list[Path]:
    return sorted((GAMES / package).rglob("*.py"))


def violations_in(source: str, package: str) -> list[str]:
    """The modules ``source``, read as a module of ``games.<package>``, may not import."""
    return [
        module
        for _line, module in imported_modules(source, f"games.{package}")
        if not allowed_import(package, module)
    ]


def allowed_import(package: str, module: str) -> bool:
    """True when a module of ``games.<package>`` may import ``module``."""
    parts = module.split(".")
    if parts[0] == "games":
        target = parts[1] if len(parts) > 1 else ""
        return target in ALLOWED[package] | {package}
    return package not in PURE or parts[0] in sys.stdlib_module_names


def violations(package: str) -> list[str]:
    """The imports of ``package`` that break its boundary, as readable lines."""
    problems = []
    for path in package_modules(package):
        where = path.relative_to(GAMES.parent)
        dotted = ".".join(where.parts[:-1])
        for line, module in imported_modules(path.read_text(encoding="utf-8"), dotted):
            if not allowed_import(package, module):
                problems.append(f"{where}:{line} imports {module}")
    return problems


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_what_it_may(package: str) -> None:
    assert package_modules(package), f"games/{package} has no modules"
    assert violations(package) == []


def test_every_package_of_games_has_a_boundary() -> None:
    packages = {p.parent.name for p in GAMES.glob("*/*.py")}
    # Django's own folders, where it looks for them.
    packages -= {"migrations", "management", "templatetags"}
    assert packages == set(ALLOWED)


def test_the_scan_sees_every_kind_of_import() -> None:
    """The scanner itself: absolute, relative, ``from games import`` and lazy imports."""
    source = (
        "import json\n"
        "from games import history\n"
        "from ..match import services\n"
        "from . import render\n"
        "def later():\n"
        "    from games.worker.due_turns import advance_due\n"
    )
    assert [name for _line, name in imported_modules(source, "games.table")] == [
        "json",
        "games.history",
        "games.match",
        "games.table",
        "games.worker.due_turns",
    ]
    assert violations_in(source, "table") == ["games.history", "games.worker.due_turns"]


def imports_under(folder: str) -> list[tuple[str, int, str]]:
    """Every import of every module under ``folder`` (a top-level package of the
    project): (file, line, dotted name)."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        where = path.relative_to(ROOT)
        dotted = ".".join(where.with_suffix("").parts)
        for line, module in imported_modules(path.read_text(encoding="utf-8"), dotted):
            found.append((str(where), line, module))
    return found


def top(module: str) -> str:
    return module.split(".")[0]


def test_accounts_imports_nothing_from_games() -> None:
    problems = [
        f"{where}:{line} imports {module}"
        for where, line, module in imports_under("accounts")
        if top(module) == "games"
    ]
    assert problems == []


def test_games_imports_from_accounts_only_its_models_and_signals() -> None:
    problems = [
        f"{where}:{line} imports {module}"
        for where, line, module in imports_under("games")
        if top(module) == "accounts" and module not in GAMES_FROM_ACCOUNTS
    ]
    assert problems == []


def test_the_site_modules_the_apps_import_import_neither_app() -> None:
    shared = {
        module
        for app in APPS
        for _where, _line, module in imports_under(app)
        if top(module) == "baloot_site"
    }
    # A sanity check of the scan: the apps read their rate limits there.
    assert "baloot_site.limits" in shared
    problems = []
    for module in sorted(shared):
        path = ROOT / (module.replace(".", "/") + ".py")
        for line, imported in imported_modules(path.read_text(encoding="utf-8"), module):
            if top(imported) in APPS:
                problems.append(f"{module}:{line} imports {imported}")
    assert problems == []


@pytest.mark.parametrize(
    "line", ["import games", "from games import rules", "from games.match.models import Match"]
)
def test_the_scan_finds_any_import_of_games_in_accounts(line: str) -> None:
    found = imported_modules(f"def later():\n    {line}\n", "accounts.views")
    assert [top(module) for _line, module in found] == ["games"]
