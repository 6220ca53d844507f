"""Driving the pages as a person does: log in, read the table, click what is offered.

Everything is read from the page itself (the table region's ``data-seq``,
its buttons' values and its cards' ``data-card``), never from the server's
memory, so these helpers see exactly what a player sees.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stacks.servers import ROOT

if TYPE_CHECKING:
    import pytest
    from playwright.sync_api import Page

# Screenshots land here (not in git), one per test's final state and step.
ARTIFACTS = ROOT / "test-artifacts" / "browser"

# What the table region shows, as plain data.
READ_TABLE = """() => {
  const t = document.querySelector('#table');
  if (!t) return null;
  const text = (selector) => [...t.querySelectorAll(selector)].map((e) => e.textContent.trim());
  return {
    seq: Number(t.dataset.seq),
    mine: t.querySelector('.status-mine') !== null,
    buttons: [...t.querySelectorAll('.controls button[name=action]')].map((b) => b.value),
    playable: [...t.querySelectorAll('.hand button.playable')].map((b) => b.dataset.card),
    hand: [...t.querySelectorAll('.hand [data-card]')]
      .map((b) => b.dataset.card + (b.disabled ? '-' : '+')),
    trick: [...t.querySelectorAll('.center .trick [data-card]')].map((c) => c.dataset.card),
    seats: text('.seat .seat-name .name'),
    counts: text('.seat .count'),
    scores: text('.scores dd'),
    contract: text('.contract'),
    log: text('.deal-log li'),
    result: t.querySelector('details.result') !== null,
    over: t.querySelector('.match-over') !== null,
  };
}"""
BID_PREFERENCE = ("hokum", "sun", "confirm")


def log_in(page: Page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/profile/")


def read_table(page: Page) -> dict[str, Any]:
    table = page.evaluate(READ_TABLE)
    assert table is not None, "the page shows no table"
    return dict(table)


def wait_for_turn_or(page: Page, end: str) -> dict[str, Any]:
    """Wait until it is this player's turn, or the JavaScript condition ``end`` holds."""
    page.wait_for_function(
        f"""() => {{
          const t = document.querySelector('#table');
          return t && (t.querySelector('.status-mine') !== null || ({end}));
        }}""",
        timeout=60_000,
    )
    return read_table(page)


def wait_for_seq_after(page: Page, seq: int) -> None:
    """Wait until the table shows an event after ``seq`` (a response or a push)."""
    page.wait_for_function(
        "(seq) => Number(document.querySelector('#table')?.dataset.seq) > seq",
        arg=seq,
        timeout=60_000,
    )


@dataclass(frozen=True)
class Choice:
    kind: str
    selector: str


def choose(table: dict[str, Any]) -> Choice | None:
    """What a willing player clicks: buy the contract, declare, never double, play a card."""
    if table["playable"]:
        card = table["playable"][0]
        return Choice("play", f"#table .hand button.playable[data-card='{card}']")
    actions = [(value, json.loads(value)) for value in table["buttons"]]

    def button(value: str) -> str:
        return f"#table .controls button[name=action][value='{value}']"

    declarations = [(v, a) for v, a in actions if "declare" in a]
    if declarations:
        value, _action = max(declarations, key=lambda pair: len(pair[1]["declare"]))
        return Choice("declare", button(value))
    bids = [(v, a) for v, a in actions if "bid" in a]
    for wanted in BID_PREFERENCE:
        for value, action in bids:
            if action["bid"] == wanted:
                return Choice("bid", button(value))
    for value, action in bids:
        if action["bid"] == "pass":
            return Choice("bid", button(value))
    for value, action in actions:
        if action.get("double") == "pass":
            return Choice("call", button(value))
    return Choice("other", button(actions[0][0])) if actions else None


def act(page: Page, table: dict[str, Any], clicks: Counter[str]) -> str | None:
    """Click this player's choice and wait for the table to move on; returns what was done."""
    choice = choose(table)
    if choice is None:
        return None
    page.click(choice.selector)
    clicks[choice.kind] += 1
    wait_for_seq_after(page, table["seq"])
    return choice.kind


def screenshot(page: Page, request: pytest.FixtureRequest, step: str) -> None:
    """Save a screenshot of a step along the way (the final state is saved anyway)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"[^\w.-]+", "-", request.node.name)
    page.screenshot(path=str(ARTIFACTS / f"{test}-{step}.png"), full_page=True)
