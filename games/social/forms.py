"""The forms of quick match and of the chat setting."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.match.models import Match


class FindGameForm(forms.Form):
    """The game a player wants to be matched for."""

    mode = forms.ChoiceField(
        label=_("Game"),
        choices=[
            (Match.Mode.CLASSIC, _("Classic, to 152")),
            (Match.Mode.QUICK, _("Quick, to 52")),
        ],
        initial=Match.Mode.CLASSIC,
    )
    play_timer = forms.TypedChoiceField(
        label=_("Time to play"),
        choices=Match.PLAY_TIMER_CHOICES,
        coerce=int,
        initial=15,
    )


class ChatSettingForm(forms.Form):
    """The profile's switch for the table chat."""

    chat_enabled = forms.BooleanField(label=_("Show the table chat"), required=False)
