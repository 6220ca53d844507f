"""Forms of the lobby and the table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.match.models import BotLevel, Match


def level_field() -> forms.ChoiceField:
    """How well the bots play: easy, normal (the default) or strong."""
    return forms.ChoiceField(
        label=_("Bot level"),
        choices=BotLevel.choices,
        initial=BotLevel.NORMAL,
        required=False,
        widget=forms.RadioSelect,
    )


class PlayNowForm(forms.Form):
    """Play now: the level of the three bots."""

    level = level_field()

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or BotLevel.NORMAL


class NewTableForm(forms.Form):
    """The settings of a new table: mode, play timer, public or private, rated or not."""

    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=Match.Mode.choices,
        initial=Match.Mode.CLASSIC,
        widget=forms.RadioSelect,
        help_text=_("Classic starts both teams at 0, Quick at 52. The target is 152."),
    )
    play_timer = forms.TypedChoiceField(
        label=_("Time to play a card"),
        choices=Match.PLAY_TIMER_CHOICES,
        coerce=int,
        initial=15,
        help_text=_("Bidding, calls and projects always have 8 seconds."),
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Only people with the invite link can sit down or watch."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        initial=True,
        help_text=_(
            "The seats are drawn when the match starts, so partners are the luck of the draw. "
            "Without it the players choose their seats and the match is not rated. A private "
            "table is never rated."
        ),
    )


class SeatForm(forms.Form):
    """A seat number (a private table's invite comes from the session, never the form)."""

    number = forms.TypedChoiceField(
        label=_("Seat"), choices=[(n, str(n)) for n in (1, 2, 3, 4)], coerce=int
    )


class BotForm(forms.Form):
    """Put a bot in a seat, or take it out."""

    number = forms.TypedChoiceField(
        label=_("Seat"), choices=[(n, str(n)) for n in (1, 2, 3, 4)], coerce=int
    )
    op = forms.ChoiceField(choices=[("add", _("Add a bot")), ("remove", _("Remove the bot"))])
    level = level_field()

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or BotLevel.NORMAL
