"""The suite's tiers name real tests: a renamed module must not drop out of a pass.

``tests/conftest.py`` marks tests by where they live: ``vendor`` (run again on
PostgreSQL) and ``realworld`` (left out of ``make check``). A module that
moved or was renamed would silently leave its tier, so each name there must
be a test module, and each ``vendor`` module must hold database tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REALWORLD, TESTS, VENDOR_MODULES

DATABASE_WORDS = ("django_db", "transactional_db", "players", "make_user", "start_table", "db")


def fixture_and_marker_names(module: Path) -> set[str]:
    """Every name a test function of ``module`` takes, and every name it is marked with."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.update(argument.arg for argument in node.args.args)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


@pytest.mark.parametrize("name", sorted(VENDOR_MODULES))
def test_each_vendor_module_exists_and_uses_the_database(name: str) -> None:
    module = TESTS / name
    assert module.is_file(), f"{name} is listed in VENDOR_MODULES but does not exist"
    assert fixture_and_marker_names(module) & set(DATABASE_WORDS), (
        f"{name} has no database test, so running it on PostgreSQL proves nothing"
    )


@pytest.mark.parametrize("name", REALWORLD)
def test_each_realworld_place_exists(name: str) -> None:
    assert (TESTS / name).exists(), f"{name} is listed in REALWORLD but does not exist"
