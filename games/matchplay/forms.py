from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backgammon.dave.stake import Progression
from clubs import names
from games.matchplay import state as play_state
from games.models.matches import MatchContext, MatchGame, MatchOutcome, ReportMethod
from games.models.variants import (
    DEFAULT_FORM,
    BackwardHits,
    DaveProgression,
    GameVariant,
    HeadDoubles,
    SixBlock,
    StakeForm,
    settings_not_of,
)

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]


def side_names(match, viewer) -> tuple[str, str]:
    """The two players as the viewer sees them on the match's page (clubs.names: a display name where the
    match's club allows it)."""
    return (
        names.shown_name(match.player_a, viewer=viewer, club=match.club),
        names.shown_name(match.player_b, viewer=viewer, club=match.club),
    )


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

    def __init__(self, *args, match, viewer=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner_side"].choices = list(enumerate(side_names(match, viewer)))
        form = play_form(match)
        kind = self.fields["kind"]
        kind.choices = [(value, KIND_LABELS[value]) for value in form.kinds]
        if form.is_dave:  # the stake the game paid: played out, given up (a Dave refused) or resigned; no gammon
            kind.choices = [(value, DAVE_KIND_LABELS.get(value, KIND_LABELS[value])) for value in form.kinds]
        kind.initial = form.kinds[0]
        kind.error_messages["invalid_choice"] = outcome_refusal(match)
        if form.is_nardy:  # no cube: a game is oin or mars, or a resignation giving up one of them
            self.fields["cube"].choices = [(1, "1")]
            self.fields["cube"].widget = forms.HiddenInput()
        if form.is_dave:
            self.fields["cube"].label = _("Stake")
            self.fields["cube"].help_text = _("For a Dave given up: the stake before it.")
            self.fields["cube"].choices = [(v, str(v)) for v in dave_stakes(match.dave_progression)]
            del self.fields["resign_level"]
        else:
            labels = NARDY_RESIGN_LABELS if form.is_nardy else RESIGN_LABELS
            self.fields["resign_level"].choices = [("", "—")] + [(n, labels[n]) for n in form.resign_levels]


#: How a game ended, as the scoresheet offers it (only the kinds of the match's form: state.Form.kinds).
KIND_LABELS = dict(MatchGame.Kind.choices)
DAVE_KIND_LABELS: dict[str, str] = {"single": _("Played out"), "drop": _("Gave up a Dave")}
RESIGN_LABELS = {1: _("single"), 2: _("gammon"), 3: _("backgammon")}
NARDY_RESIGN_LABELS = {1: _("oin"), 2: _("mars")}


def play_form(match) -> play_state.Form:
    """How the match's games are scored (variant and stakes), as the pure core reads it."""
    return play_state.Form(variant=match.variant, stakes=match.stakes, progression=match.dave_progression)


def outcome_refusal(match) -> str:
    """The refusal of a game result the match's game does not have, naming those it has: "In Backgammon a game
    ends in: Single game, Gammon, …" (the scoresheet form's; the service refuses with the core's code)."""
    form = play_form(match)
    labels: dict[str, str] = DAVE_KIND_LABELS if form.is_dave else {}
    kinds = ", ".join(str(labels.get(k, KIND_LABELS[k])) for k in form.kinds)
    variant = str(GameVariant(match.variant).label)
    if form.is_dave:
        variant = f"{variant}, {StakeForm(form.stakes).label}"
    return gettext("In %(variant)s a game ends in: %(kinds)s.") % {"variant": variant, "kinds": kinds}


def dave_stakes(progression: str, count: int = 8) -> list[int]:
    """The first stakes of a Dave progression, for a choice of the stake a game paid."""
    return [Progression(progression).stake(level) for level in range(count)]


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

    def __init__(self, *args, match, records=None, viewer=None, **kwargs):
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
        name_a, name_b = side_names(match, viewer)
        self.fields["score_a"].label = name_a
        self.fields["score_b"].label = name_b
        self.fields["winner_side"].choices = [("", "—"), (0, name_a), (1, name_b)]

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

    def __init__(self, *args, match, viewer=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["late_side"].choices = list(enumerate(side_names(match, viewer)))


def setting_fields(blank: str | None = None) -> tuple[forms.ChoiceField, ...]:
    """The variant settings as form fields (the match, flight and chouette forms): backward_hits, head_doubles,
    six_block, each labelled with the game it belongs to. `blank`: a first empty choice (a flight: the source's)."""
    first = [("", blank)] if blank is not None else []
    return (
        forms.ChoiceField(
            label=_("Backward hitting: hits by"), choices=[*first, *BackwardHits.choices], required=False
        ),
        forms.ChoiceField(
            label=_("Long nardy: two off the head on the first turn"),
            choices=[*first, *HeadDoubles.choices],
            required=False,
        ),
        forms.ChoiceField(
            label=_("Long nardy: six-block allowed"), choices=[*first, *SixBlock.choices], required=False
        ),
    )


class MatchForm(forms.Form):
    player_a = forms.ModelChoiceField(label=_("Player A"), queryset=None)
    player_b = forms.ModelChoiceField(label=_("Player B"), queryset=None)
    length = forms.IntegerField(label=_("Length (points)"), min_value=1, max_value=99, initial=5)
    context = forms.ChoiceField(label=_("Played at"), choices=MatchContext.choices, initial=MatchContext.CASUAL)
    club = forms.ModelChoiceField(label=_("Club"), queryset=None, required=False)
    variant = forms.ChoiceField(
        label=_("Game"), choices=GameVariant.choices, initial=GameVariant.STANDARD, required=False
    )
    stakes = forms.ChoiceField(label=_("Stakes"), choices=StakeForm.choices, initial=StakeForm.CUBE, required=False)
    dave_progression = forms.ChoiceField(
        label=_("Dave progression"), choices=DaveProgression.choices, initial=DaveProgression.GEOMETRIC, required=False
    )
    backward_hits, head_doubles, six_block = setting_fields()
    crawford_rule = forms.BooleanField(label=_("Crawford rule"), required=False, initial=True)
    holland_rule = forms.BooleanField(label=_("Holland rule"), required=False)
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def clean(self) -> dict:
        cleaned = super().clean()
        for name, default in DEFAULT_FORM.items():  # not sent: standard with the cube, as before
            cleaned[name] = cleaned.get(name) or default
        for name in settings_not_of(cleaned["variant"]):  # hidden on the page: its default
            cleaned[name] = DEFAULT_FORM[name]
        if cleaned["stakes"] != StakeForm.DAVE:  # shown with Dave stakes only: as above
            cleaned["dave_progression"] = DEFAULT_FORM["dave_progression"]
        return cleaned

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
