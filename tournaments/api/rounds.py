"""REST endpoints of flights played in rounds (under /api/v1/events/<club>/<event>/flights/<flight>/): a round's
pairings, the standings with their tie-break columns, pairing the next round, a director's re-pairing of a
round (preview, then confirm) and a correction of an earlier round's result (preview, then apply), and a
player's drop. Reads are public with the event; the services check every write."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from base.api import validated
from games.models.matches import MatchOutcome
from tournaments import selectors, services
from tournaments.api.events import EntrySerializer, OverrideInputSerializer, TiebreakSerializer, flight_in, one_of
from tournaments.models import Flight, Pairing, PairingResult
from tournaments.selectors import robin as robin_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.services.rounds import MAX_PAIRS

MAX_ROUND = 999


class RoundPairingSerializer(serializers.ModelSerializer):
    result = one_of(PairingResult.choices, read_only=True)
    player_a = serializers.CharField(source="entry_a.name", read_only=True)
    player_b = serializers.CharField(source="entry_b.name", read_only=True, default=None, allow_null=True)
    match_status = serializers.CharField(source="match.status", read_only=True, default=None, allow_null=True)

    class Meta:
        model = Pairing
        fields = [
            "id",
            "round",
            "table",
            "group",
            "entry_a",
            "entry_b",
            "player_a",
            "player_b",
            "match",
            "match_status",
            "result",
            "winner",
            "score_a",
            "score_b",
            "decided_at",
        ]
        read_only_fields = fields


class FlightStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(source="line.rank")
    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.CharField(source="entry.name")
    withdrawn = serializers.BooleanField()
    wins = serializers.IntegerField(source="line.wins")
    losses = serializers.IntegerField(source="line.losses")
    byes = serializers.IntegerField(source="line.byes")
    points_for = serializers.IntegerField(source="line.points_for")
    points_against = serializers.IntegerField(source="line.points_against")
    points_difference = serializers.IntegerField(source="line.points_difference")
    buchholz = serializers.IntegerField(source="line.buchholz")
    median_buchholz = serializers.IntegerField(source="line.median_buchholz")
    sonneborn_berger = serializers.IntegerField(source="line.sonneborn_berger")
    head_to_head = serializers.IntegerField(source="line.head_to_head")


class PairedFromRowSerializer(serializers.Serializer):
    """A line of the standings a round was paired from, as stored then."""

    rank = serializers.IntegerField()
    group = serializers.IntegerField(help_text="A groups flight: the group (1 is A); 0 otherwise.")
    entry = serializers.IntegerField()
    player = serializers.CharField()
    withdrawn = serializers.BooleanField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    median_buchholz = serializers.IntegerField()
    sonneborn_berger = serializers.IntegerField()
    head_to_head = serializers.IntegerField()


class PairedFromSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round paired from these standings.")
    after_round = serializers.SerializerMethodField(help_text="The standings after this round (0: before round 1).")
    pairing_seed = serializers.IntegerField(source="seed", allow_null=True)
    tiebreaks_in_effect = serializers.SerializerMethodField(help_text="The tie-break order the round was paired with.")
    paired_at = serializers.DateTimeField(source="created_at")
    standings = PairedFromRowSerializer(source="rows", many=True, help_text="Best first (group A first).")

    def get_after_round(self, kept) -> int:
        return kept.round - 1

    @extend_schema_field(TiebreakSerializer(many=True))
    def get_tiebreaks_in_effect(self, kept) -> list:
        return TiebreakSerializer(round_selectors.tiebreaks_named(kept.order), many=True).data


class GroupTableSerializer(serializers.Serializer):
    group = serializers.IntegerField(source="number")
    label = serializers.CharField()
    standings = FlightStandingSerializer(source="rows", many=True)


class PairsInputSerializer(serializers.Serializer):
    pairs = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**62, allow_null=True), min_length=2, max_length=2
        ),
        min_length=1,
        max_length=MAX_PAIRS,
        help_text="The round's new pairs as [entry id, entry id or null for the bye].",
    )
    confirm = serializers.BooleanField(default=False, help_text="Pair rematches anyway (after the preview).")


class StartRoundInputSerializer(serializers.Serializer):
    confirm_no_shows = serializers.BooleanField(
        default=False,
        help_text="Round 1 with a check-in deadline: withdraw the players not checked in (the 409 "
        "`no_shows_need_confirmation` names them in `no_shows`) and pair the others.",
    )


class RoundPairingEditSerializer(serializers.Serializer):
    pairs = serializers.SerializerMethodField()
    rematches = serializers.SerializerMethodField()

    def get_pairs(self, edit) -> list[list[int | None]]:
        return [[a.pk, b.pk if b else None] for a, b in edit.pairs]

    def get_rematches(self, edit) -> list[list[int]]:
        return [[a.pk, b.pk] for a, b in edit.rematches]


class CorrectionPreviewInputSerializer(serializers.Serializer):
    winner_side = serializers.ChoiceField(choices=[0, 1], required=False, allow_null=True, default=None)


class CorrectionPreviewSerializer(serializers.Serializer):
    before = FlightStandingSerializer(many=True)
    after = FlightStandingSerializer(many=True)
    later_rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text="Rounds paired since: they stay as they are."
    )


class DropInputSerializer(serializers.Serializer):
    score_remaining = serializers.BooleanField(
        default=True, help_text="Forfeit the open tables to the opponents (true) or leave them unscored (false)."
    )
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class CorrectionInputSerializer(OverrideInputSerializer):
    outcome = serializers.ChoiceField(choices=MatchOutcome.choices, default=MatchOutcome.PLAYED)


def _pairing(flight: Flight, pk: int) -> Pairing:
    found = round_selectors.pairing_in(flight=flight, pk=pk)
    if found is None:
        raise Http404("No such table in this flight.")
    return found


class RoundViewSet(viewsets.ViewSet):
    def get_permissions(self):
        public = ("pairings", "standings", "groups", "paired_from")
        return [AllowAny()] if self.action in public else [IsAuthenticated()]

    @extend_schema(responses=RoundPairingSerializer(many=True), description="The tables of one round.")
    def pairings(self, request, club, slug, flight, number):
        found = flight_in(request, club, slug, flight)
        if not 1 <= number <= MAX_ROUND:
            raise Http404("No such round.")
        pairings = round_selectors.round_pairings(flight=found, round_number=number)
        return Response(RoundPairingSerializer(pairings, many=True).data)

    @extend_schema(
        responses=PairedFromSerializer,
        description="The standings a round was paired from, as they were when it was paired (the live standings "
        "change with later results and corrections), with the tie-break order and the pairing seed. 404 for a "
        "round not paired.",
    )
    def paired_from(self, request, club, slug, flight, number):
        found = flight_in(request, club, slug, flight)
        kept = round_selectors.paired_from(flight=found, round_number=number) if 1 <= number <= MAX_ROUND else None
        if kept is None:
            raise Http404("No standings kept for this round.")
        return Response(PairedFromSerializer(kept).data)

    @extend_schema(responses=FlightStandingSerializer(many=True), description="The standings, best first.")
    def standings(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        return Response(FlightStandingSerializer(round_selectors.flight_standings(flight=found), many=True).data)

    @extend_schema(
        responses=GroupTableSerializer(many=True),
        description="A groups flight's tables: each group's standings with the tie-break columns, group A first "
        "(empty before round 1 and for a flight not played in groups).",
    )
    def groups(self, request, club, slug, flight):
        found = flight_in(request, club, slug, flight)
        return Response(GroupTableSerializer(robin_selectors.group_tables(flight=found), many=True).data)

    @extend_schema(
        request=StartRoundInputSerializer,
        responses=RoundPairingSerializer(many=True),
        description="Pair the next round (none after the last: the flight ends). Round 1 with a check-in deadline "
        "and players not checked in answers 409 `no_shows_need_confirmation`, their entries in `no_shows` and "
        "nothing changed, until asked again with `confirm_no_shows: true`.",
    )
    def start_round(self, request, club, slug, flight):
        data = validated(StartRoundInputSerializer, request)
        found = flight_in(request, club, slug, flight)
        pairings = services.start_round(actor=request.user, flight=found, confirm_no_shows=data["confirm_no_shows"])
        return Response(RoundPairingSerializer(pairings, many=True).data)

    @extend_schema(
        request=PairsInputSerializer,
        responses=RoundPairingEditSerializer,
        description="What a new pairing of the current round would be, with its rematches. Nothing changes.",
    )
    def edit_preview(self, request, club, slug, flight):
        data = validated(PairsInputSerializer, request)
        found = flight_in(request, club, slug, flight)
        edit = services.edit_pairings_preview(actor=request.user, flight=found, pairs=data["pairs"])
        return Response(RoundPairingEditSerializer(edit).data)

    @extend_schema(
        request=PairsInputSerializer,
        responses=RoundPairingEditSerializer,
        description="Re-pair the current round (nobody has started); rematches need confirm.",
    )
    def edit(self, request, club, slug, flight):
        data = validated(PairsInputSerializer, request)
        found = flight_in(request, club, slug, flight)
        edit = services.edit_pairings(actor=request.user, flight=found, pairs=data["pairs"], confirm=data["confirm"])
        return Response(RoundPairingEditSerializer(edit).data)

    @extend_schema(
        request=CorrectionPreviewInputSerializer,
        responses=CorrectionPreviewSerializer,
        description="The standings before and after a changed result; the rounds paired since stay.",
    )
    def correction_preview(self, request, club, slug, flight, pk):
        data = validated(CorrectionPreviewInputSerializer, request)
        pairing = _pairing(flight_in(request, club, slug, flight), pk)
        preview = services.correction_preview(actor=request.user, pairing=pairing, winner_side=data["winner_side"])
        return Response(CorrectionPreviewSerializer(preview).data)

    @extend_schema(request=CorrectionInputSerializer, responses=RoundPairingSerializer, description="Correct a result.")
    def correct(self, request, club, slug, flight, pk):
        data = validated(CorrectionInputSerializer, request)
        pairing = _pairing(flight_in(request, club, slug, flight), pk)
        scores = (data["score_a"], data["score_b"]) if "score_a" in data and "score_b" in data else None
        pairing = services.correct_result(
            actor=request.user,
            pairing=pairing,
            winner_side=data.get("winner_side"),
            outcome=data["outcome"],
            scores=scores,
            comment=data["comment"],
        )
        return Response(RoundPairingSerializer(pairing).data)

    @extend_schema(
        request=DropInputSerializer, responses=EntrySerializer, description="Drop a player from a flight in rounds."
    )
    def drop(self, request, club, slug, flight, pk):
        data = validated(DropInputSerializer, request)
        found = flight_in(request, club, slug, flight)
        entry = selectors.entry_in(flight=found, pk=pk)
        if entry is None:
            raise Http404("No such entry in this flight.")
        entry = services.drop(
            actor=request.user, entry=entry, score_remaining=data["score_remaining"], comment=data["comment"]
        )
        return Response(EntrySerializer(entry).data)
