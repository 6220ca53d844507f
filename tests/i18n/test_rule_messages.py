"""Every message the rules engine can raise is listed for translation, and translates.

The engine's refusals are found by reading its source: every string literal
passed to ``IllegalAction`` or one of its subclasses, or to
``MalformedDocument`` or ``NotationError``, in ``games/rules/*.py``; a message taken from a module
level dict (``_WRONG_PHASE[phase]``) counts every value of that dict. A call
whose message cannot be read this way fails the test, so that a new form of
raising is looked at rather than missed.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import rules
from games.match.rule_messages import TEMPLATES, rule_message
from games.rules import errors as rule_errors
from tests.support.languages import LANGUAGES

RULES_DIR = Path(rules.__file__).parent
ERROR_CLASSES = frozenset(
    name
    for name, value in vars(rule_errors).items()
    if isinstance(value, type) and issubclass(value, rule_errors.IllegalAction)
) | {"MalformedDocument", "NotationError"}


def _module_dicts(tree: ast.Module) -> dict[str, list[str]]:
    """The string values of each module-level dict literal, by variable name."""
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name) and isinstance(node.value, ast.Dict):
            found[target.id] = [
                v.value
                for v in node.value.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            ]
    return found


def engine_messages() -> set[str]:
    """Every message template the engine passes to its error classes."""
    messages: set[str] = set()
    unreadable: list[str] = []
    for path in sorted(RULES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        dicts = _module_dicts(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ERROR_CLASSES:
                continue
            # NotationError takes the round and the action first.
            position = 2 if node.func.id == "NotationError" else 0
            if len(node.args) <= position:
                unreadable.append(f"{path.name}:{node.lineno}")
                continue
            message = node.args[position]
            if isinstance(message, ast.Constant) and isinstance(message.value, str):
                messages.add(message.value)
            elif (
                isinstance(message, ast.Subscript)
                and isinstance(message.value, ast.Name)
                and message.value.id in dicts
            ):
                messages.update(dicts[message.value.id])
            elif isinstance(message, ast.Attribute) and message.attr == "template":
                # Passing on another refusal's template (a replayed document).
                continue
            else:
                unreadable.append(f"{path.name}:{node.lineno}")
    assert unreadable == [], f"messages that are not string literals: {unreadable}"
    return messages


def test_every_engine_message_is_listed_for_translation() -> None:
    raised = engine_messages()
    assert len(raised) > 50
    assert raised - TEMPLATES == set(), "add these to games/match/rule_messages.py"


def test_every_listed_message_is_still_raised() -> None:
    assert TEMPLATES - engine_messages() == set(), "remove these from games/match/rule_messages.py"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_listed_message_is_translated(language: str) -> None:
    with translation.override(language):
        untranslated = sorted(t for t in TEMPLATES if gettext(t) == t)
    assert untranslated == []


def _refusal(state: rules.State, action: dict[str, object]) -> rules.IllegalAction:
    with pytest.raises(rules.IllegalAction) as refused:
        rules.apply(state, action)
    return refused.value


def test_refusals_translate_their_params_too() -> None:
    state = rules.start_deal(rules.new_match("classic", dealer=4), _deck())
    seat = state.turn
    assert seat is not None
    not_turn = _refusal(state, {"seat": seat % 4 + 1, "bid": "pass"})
    assert isinstance(not_turn, rules.NotYourTurn)
    with translation.override("ar"):
        assert rule_message(not_turn) == "ليس دورك"
    # Refusals whose params name a card, a suit, a project and a call, as the
    # engine passes them (cards.SUIT_NAMES, title-case projects and calls).
    card = rules.IllegalAction("You do not hold %(card)s", card="KH")
    suit = rules.IllegalAction("You must follow %(suit)s", suit="hearts")
    project = rules.IllegalAction(
        "A %(kind)s is %(size)s cards in a row of one suit", kind="Four Hundred", size=4
    )
    call = rules.IllegalAction("The call now is %(expected)s or Pass", expected="Triple")
    expected = {
        "en": (
            "You do not hold King of Hearts",
            "You must follow Hearts",
            "A Four Hundred is 4 cards in a row of one suit",
            "The call now is Triple or Pass",
        ),
        "ar": (
            "ليست معك شايب هاص",
            "يجب أن تلعب هاص",
            "أربعمية هي 4 أوراق متتالية من نوع واحد",
            "الخيار الآن ثري أو بس",
        ),
        "zh-hans": (
            "你手里没有红心K",
            "你必须跟出红心",
            "四百是同一花色的 4 张连续牌",
            "现在只能选 三倍 或 Pass",
        ),
        "th": (
            "คุณไม่มีคิงโพแดง",
            "คุณต้องตามดอกโพแดง",
            "400 คือไพ่เรียงกัน 4 ใบในดอกเดียวกัน",
            "ตอนนี้เลือกได้ Triple หรือ Pass",
        ),
    }
    for language, texts in expected.items():
        with translation.override(language):
            assert tuple(rule_message(e) for e in (card, suit, project, call)) == texts


def test_a_malformed_documents_inner_refusal_is_translated_too() -> None:
    deck = _deck()
    deck[5] = "XX"
    document = json.dumps(
        {"notation": "baloot/1", "mode": "classic", "rounds": [{"dealer": 4, "deck": deck}]}
    )
    with pytest.raises(rules.MalformedDocument) as malformed:
        rules.read_document(document)
    assert str(malformed.value) == "round 1: Unknown card 'XX' in the deck"
    with translation.override("ar"):
        assert rule_message(malformed.value) == "الجولة 1: ورقة غير معروفة 'XX' في الأوراق"
    with translation.override("ko"):
        assert rule_message(malformed.value) == "1라운드: 덱에 알 수 없는 카드 'XX'"


def _deck() -> list[str]:
    """The 32 cards in the notation's order: any fixed order deals a legal hand."""
    return [rank + suit for suit in "SHDC" for rank in "789TJQKA"]
