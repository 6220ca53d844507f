"""Table chat: rooms, escaping, the rate limit, mutes, reports, bans and the chat switch."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from games.match import services
from games.match.errors import MatchNotFound
from games.match.models import Match
from games.social import chat
from games.social.models import ChatBan, ChatMessage, ChatReport
from tests.support.clock import Clock
from tests.support.drivers import start_match, started_match
from tests.support.players import client_for, create_player

pytestmark = pytest.mark.django_db

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture
def table(players: dict[int, User]) -> Match:
    return started_match(players).match


@pytest.fixture
def watcher() -> User:
    return create_player("watcher")


def say(user: User, match: Match, text: str = "", phrase: str = "") -> ChatMessage:
    return chat.post(user, match.pk, text=text, phrase=phrase)


def test_players_and_spectators_talk_in_rooms_the_other_cannot_read(table, players, watcher):
    said = say(players[1], table, "hello from seat one")
    watched = say(watcher, table, "nice game")
    assert said.room == "players"
    assert watched.room == "spectators"
    player_page = client_for(players[2]).get(f"/match/{table.pk}/").content.decode()
    watcher_page = client_for(watcher).get(f"/match/{table.pk}/").content.decode()
    assert "hello from seat one" in player_page
    assert "nice game" not in player_page
    assert "nice game" in watcher_page
    assert "hello from seat one" not in watcher_page


def test_a_private_table_chat_is_closed_to_outsiders(players, watcher):
    match = services.create_match(players[1], is_private=True)
    with pytest.raises(MatchNotFound):
        say(watcher, match, "let me in")
    invited = chat.post(watcher, match.pk, text="hello", invite=match.invite_token)
    assert invited.room == "spectators"
    browser = client_for(watcher)
    assert browser.post(f"/match/{match.pk}/chat/", {"text": "hi"}).status_code == 404


def test_text_is_stored_as_typed_and_escaped_everywhere_it_is_shown(table, players):
    browser = client_for(players[1])
    answer = browser.post(f"/match/{table.pk}/chat/", {"text": XSS}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert ChatMessage.objects.get().text == XSS
    for page in (
        client_for(players[2]).get(f"/match/{table.pk}/").content.decode(),
        client_for(players[3])
        .get(f"/match/{table.pk}/", headers={"HX-Request": "true"})
        .content.decode(),
    ):
        assert "<script>alert" not in page
        assert "<img src=x" not in page
    page = client_for(players[2]).get(f"/match/{table.pk}/").content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_messages_are_short_and_quick_phrases_are_known(table, players):
    with pytest.raises(chat.BadChatMessage):
        say(players[1], table, "   ")
    with pytest.raises(chat.BadChatMessage):
        say(players[1], table, "x" * 201)
    with pytest.raises(chat.BadChatMessage):
        say(players[1], table, phrase="no-such-phrase")
    assert say(players[1], table, "x" * 200).text == "x" * 200
    browser = client_for(players[1])
    answer = browser.post(
        f"/match/{table.pk}/chat/", {"text": "y" * 201}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 400
    assert "1 to 200 characters" in answer.content.decode()


def test_quick_phrases_read_in_each_viewers_language(table, players):
    say(players[1], table, phrase="salam")
    arabic = client_for(players[2], "ar").get(f"/match/{table.pk}/").content.decode()
    english = client_for(players[3], "en").get(f"/match/{table.pk}/").content.decode()
    assert "السلام عليكم" in arabic
    assert "Peace be upon you" in english
    assert ChatMessage.objects.get().text == ""


def test_five_messages_in_ten_seconds_then_a_clear_refusal(clock: Clock, table, players):
    for n in range(chat.RATE_MESSAGES):
        say(players[1], table, f"message {n}")
        clock.advance(1)
    with pytest.raises(chat.ChatTooFast):
        say(players[1], table, "one too many")
    browser = client_for(players[1])
    answer = browser.post(
        f"/match/{table.pk}/chat/", {"text": "again"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 429
    assert "too fast" in answer.content.decode()
    arabic = client_for(players[1], "ar").post(
        f"/match/{table.pk}/chat/", {"text": "again"}, headers={"HX-Request": "true"}
    )
    assert arabic.status_code == 429
    assert "too fast" not in arabic.content.decode()
    # Another player is not slowed down by the first one's messages.
    say(players[2], table, "fine")
    clock.advance(chat.RATE_SECONDS - chat.RATE_MESSAGES + 1)
    say(players[1], table, "after the pause")


def test_a_muted_player_disappears_for_the_viewer_only_and_stays_muted(table, players):
    say(players[1], table, "from alice")
    say(players[2], table, "from bob")
    browser = client_for(players[3])
    answer = browser.post(
        f"/match/{table.pk}/chat/mute/",
        {"player": str(players[1].pk), "op": "mute"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert "from alice" not in answer.content.decode()
    assert "from bob" in answer.content.decode()
    # Remembered: at the next page load, and at another table.
    assert "from alice" not in browser.get(f"/match/{table.pk}/").content.decode()
    assert "from alice" in client_for(players[4]).get(f"/match/{table.pk}/").content.decode()
    other = started_match(
        {n: create_player(f"x{n}") if n != 1 else players[3] for n in (1, 2, 3, 4)}
    ).match
    assert chat.muted_ids(players[3]) == {players[1].pk}
    assert other.pk != table.pk
    browser.post(f"/match/{table.pk}/chat/mute/", {"player": str(players[1].pk), "op": "unmute"})
    assert "from alice" in browser.get(f"/match/{table.pk}/").content.decode()
    with pytest.raises(chat.ChatRefused):
        chat.mute(players[3], players[3].pk, match_id=table.pk)


def test_a_report_keeps_the_message_and_its_context_for_staff(table, players, watcher):
    say(players[1], table, "first")
    say(players[2], table, "second")
    bad = say(players[1], table, "something rude")
    browser = client_for(players[3])
    answer = browser.post(
        f"/match/{table.pk}/chat/report/", {"message": str(bad.pk)}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200
    assert "Reported" in answer.content.decode()
    report = ChatReport.objects.get()
    assert report.message == bad
    assert report.reporter == players[3]
    assert [line["text"] for line in report.context["before"]] == ["first", "second"]
    assert report.context["message"]["author"] == "alice"
    assert report.context["match"] == table.pk
    json.dumps(report.context)
    # Twice is once; one's own line, or a line of another room, cannot be reported.
    chat.report(players[3], bad.pk, match_id=table.pk)
    assert ChatReport.objects.count() == 1
    with pytest.raises(chat.ChatRefused):
        chat.report(players[1], bad.pk, match_id=table.pk)
    with pytest.raises(MatchNotFound):
        chat.report(watcher, bad.pk, match_id=table.pk)


def test_staff_hide_a_message_and_ban_its_author_for_a_time(clock: Clock, table, players):
    bad = say(players[1], table, "something rude")
    staff = User.objects.create_superuser("staff", password="x-long-password-1")
    admin = client_for(staff)
    listing = admin.get("/admin/games/chatmessage/")
    assert listing.status_code == 200
    assert "something rude" in listing.content.decode()
    chat.report(players[2], bad.pk, match_id=table.pk)
    assert admin.get("/admin/games/chatreport/").status_code == 200
    answer = admin.post(
        "/admin/games/chatreport/",
        {"action": "hide_reported", "_selected_action": [str(ChatReport.objects.get().pk)]},
    )
    assert answer.status_code == 302
    assert ChatMessage.objects.get(pk=bad.pk).hidden
    assert (
        "something rude" not in client_for(players[2]).get(f"/match/{table.pk}/").content.decode()
    )
    admin.post(
        "/admin/games/chatmessage/",
        {"action": "ban_authors_day", "_selected_action": [str(bad.pk)]},
    )
    ban = ChatBan.objects.get()
    assert ban.user == players[1]
    assert ban.created_by == staff
    with pytest.raises(chat.ChatBanned):
        say(players[1], table, "let me speak")
    answer = client_for(players[1]).post(
        f"/match/{table.pk}/chat/", {"text": "hi"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 403
    assert "You may not chat until" in answer.content.decode()
    clock.advance(24 * 3600 + 1)
    say(players[1], table, "I am back")


def test_a_player_can_switch_the_chat_off_in_the_profile(table, players):
    browser = client_for(players[1])
    profile = browser.get("/accounts/profile/").content.decode()
    assert 'name="chat_enabled"' in profile
    say(players[2], table, "can you read this")
    answer = browser.post("/chat/settings/", {})
    assert answer.status_code == 302
    assert not chat.chat_enabled(players[1])
    page = browser.get(f"/match/{table.pk}/").content.decode()
    assert "can you read this" not in page
    with pytest.raises(chat.ChatOff):
        say(players[1], table, "hello")
    browser.post("/chat/settings/", {"chat_enabled": "on"})
    assert "can you read this" in browser.get(f"/match/{table.pk}/").content.decode()


def test_chat_never_reaches_the_notation_export_nor_the_event_log(players):
    player = start_match(players, mode="quick")
    table = player.match
    say(players[1], table, "secret chat words")
    say(players[2], table, phrase="good-luck")
    events_before = table.events.count()
    table = player.finish_match()
    say(players[3], table, "more secret words after the end")
    assert table.events.count() > events_before
    events_after = table.events.count()
    exported = client_for(players[1]).get(f"/matches/{table.pk}/notation/")
    assert exported.status_code == 200
    assert "secret chat words" not in exported.content.decode()
    assert "good-luck" not in exported.content.decode()
    assert "more secret words" not in exported.content.decode()
    assert table.events.count() == events_after
    assert not any("secret" in str(event.payload) for event in table.events.all())


def test_staff_ban_any_player_for_a_chosen_time_from_the_ban_page(clock: Clock, table, players):
    staff = User.objects.create_superuser("staff", password="x-long-password-1")
    admin = client_for(staff)
    assert admin.get("/admin/games/chatban/add/").status_code == 200
    until = clock.now + timedelta(hours=2)
    answer = admin.post(
        "/admin/games/chatban/add/",
        {
            "user": str(players[2].pk),
            "until_0": until.strftime("%Y-%m-%d"),
            "until_1": until.strftime("%H:%M:%S"),
            "reason": "shouting",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    ban = ChatBan.objects.get()
    assert (ban.user, ban.until, ban.created_by) == (players[2], until, staff)
    assert "shouting" in admin.get("/admin/games/chatban/").content.decode()
    with pytest.raises(chat.ChatBanned):
        say(players[2], table, "hello?")
    clock.advance(2 * 3600 + 1)
    say(players[2], table, "hello again")
