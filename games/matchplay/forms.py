from django import forms
from django.utils.translation import gettext_lazy as _

from games.models.matches import MatchContext, MatchGame, MatchOutcome, ReportMethod

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]


class GameForm(forms.Form):
    winner_side = forms.TypedChoiceField(label=_("Winner"), coerce=int, widget=forms.RadioSelect)
    kind = forms.ChoiceField(label=_("How"), choices=MatchGame.Kind.choices, initial=MatchGame.Kind.SINGLE)
    cube = forms.TypedChoiceField(
        label=_("Cube"),
        coerce=int,
        choices=CUBE_CHOICES,
        initial=1,
        help_text=_("For a drop: the value before the double."),
    )
    resign_level = forms.TypedChoiceField(
        label=_("Resigned"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—"), (1, _("single")), (2, _("gammon")), (3, _("backgammon"))],
    )

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner_side"].choices = [(0, match.player_a.name), (1, match.player_b.name)]


class ReportForm(forms.Form):
    method = forms.ChoiceField(label=_("Report"), choices=ReportMethod.choices, initial=ReportMethod.FINAL_SCORE)
    score_a = forms.IntegerField(min_value=0, max_value=9999, required=False)
    score_b = forms.IntegerField(min_value=0, max_value=9999, required=False)
    outcome = forms.ChoiceField(
        label=_("Result without play"),
        required=False,
        choices=[("", "—")]
        + [(o.value, o.label) for o in MatchOutcome if o.value in ("forfeit", "walkover", "no_show", "double_forfeit")],
    )
    winner_side = forms.TypedChoiceField(label=_("Winner"), coerce=int, required=False, empty_value=None)
    game_record = forms.IntegerField(label=_("Game record number"), min_value=1, max_value=2**31 - 1, required=False)
    comment = forms.CharField(label=_("Comment"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=80)

    def __init__(self, *args, match, records=None, **kwargs):
        super().__init__(*args, **kwargs)
        if records:
            # A picker of the user's verified records instead of a number to type (the number still posts).
            self.fields["game_record"] = forms.TypedChoiceField(
                label=_("Game record"),
                coerce=int,
                required=False,
                empty_value=None,
                choices=[("", "—")] + [(r.pk, record_label(r)) for r in records],
            )
        self.fields["score_a"].label = match.player_a.name
        self.fields["score_b"].label = match.player_b.name
        self.fields["winner_side"].choices = [("", "—"), (0, match.player_a.name), (1, match.player_b.name)]

    def clean(self):
        data = super().clean()
        if data.get("method") == ReportMethod.FINAL_SCORE and (
            data.get("score_a") is None or data.get("score_b") is None
        ):
            raise forms.ValidationError(_("Give the final score of both players."))
        if data.get("method") == ReportMethod.NO_PLAY and not data.get("outcome"):
            raise forms.ValidationError(
                _("Choose the result without play (forfeit, walkover, no-show, double forfeit).")
            )
        return data


def record_label(record) -> str:
    """A record as the picker shows it: its file name, and the players and score its verdict found."""
    verdict = record.verdict if isinstance(record.verdict, dict) else {}
    players = verdict.get("players") or []
    score = verdict.get("final_score") or verdict.get("score")
    parts = [record.name]
    if len(players) == 2:
        parts.append(" – ".join(str(p) for p in players))
    if isinstance(score, list | tuple) and len(score) == 2:
        parts.append(f"{score[0]}–{score[1]}")
    return " · ".join(parts)


class CommentForm(forms.Form):
    comment = forms.CharField(label=_("Comment"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)


class LatenessForm(forms.Form):
    late_side = forms.TypedChoiceField(label=_("Late player"), coerce=int, widget=forms.RadioSelect)
    minutes_late = forms.IntegerField(label=_("Minutes late"), min_value=0, max_value=24 * 60)

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["late_side"].choices = [(0, match.player_a.name), (1, match.player_b.name)]


class MatchForm(forms.Form):
    player_a = forms.ModelChoiceField(label=_("Player A"), queryset=None)
    player_b = forms.ModelChoiceField(label=_("Player B"), queryset=None)
    length = forms.IntegerField(label=_("Length (points)"), min_value=1, max_value=99, initial=5)
    context = forms.ChoiceField(label=_("Played at"), choices=MatchContext.choices, initial=MatchContext.CASUAL)
    club = forms.ModelChoiceField(label=_("Club"), queryset=None, required=False)
    crawford_rule = forms.BooleanField(label=_("Crawford rule"), required=False, initial=True)
    holland_rule = forms.BooleanField(label=_("Holland rule"), required=False)
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def __init__(self, *args, players, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_a"].queryset = players
        self.fields["player_b"].queryset = players
        self.fields["club"].queryset = clubs
        if not clubs.exists():
            # Only a club's directors create club-night (or tournament) matches: a player is offered what they
            # may create, a casual match, instead of a choice that ends in a refusal.
            self.fields["context"].choices = [(MatchContext.CASUAL, MatchContext.CASUAL.label)]
            self.fields["context"].widget = forms.HiddenInput()
            del self.fields["club"]
