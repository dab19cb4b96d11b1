"""The game a match, a flight or a chouette session is played in, and how its stakes rise.

Why one set of choices for three apps: a flight hands its variant to the matches it creates, a match's
variant picks the scoring and the record verifier, and the ratings keep a pool per variant; if the apps
spelled the variants differently these hand-overs would need a translation table each.

`variant` is the board and the rules (docs/variants.md): standard, nackgammon, hypergammon (three checkers),
backgammon with backward hitting, long nardy. `stakes` is how a game's value rises: the doubling cube, or the
Dave (short backgammon with Dave, a money form played on the standard board) with its progression. Long
nardy has no cube at all; its games are worth oin (1) or mars (2).

`VariantFields` is the abstract model the three models share: the fields and the database checks that only
known values and only meaningful combinations are stored (Dave stakes only on the standard board).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

__all__ = [
    "DEFAULT_FORM",
    "SETTINGS_OF",
    "BackwardHits",
    "DaveProgression",
    "GameVariant",
    "HeadDoubles",
    "SixBlock",
    "StakeForm",
    "VariantFields",
    "variant_constraints",
]


class GameVariant(models.TextChoices):
    STANDARD = "standard", _("Backgammon")
    NACKGAMMON = "nackgammon", _("Nackgammon")
    HYPERGAMMON = "hypergammon", _("Hypergammon")
    BACKWARD = "backward", _("Backgammon with backward hitting")
    LONG_NARDY = "long_nardy", _("Long nardy")


class StakeForm(models.TextChoices):
    CUBE = "cube", _("Doubling cube")
    DAVE = "dave", _("Dave")


class DaveProgression(models.TextChoices):
    GEOMETRIC = "geometric", _("Geometric (1, 2, 4, 8 …)")
    ARITHMETIC = "arithmetic", _("Arithmetic (1, 2, 3, 4 …)")


class BackwardHits(models.TextChoices):
    ANY_DIE = "any_die", _("either die")
    SMALLER_DIE = "smaller_die", _("the smaller die only")


class HeadDoubles(models.TextChoices):
    CLASSIC = "classic", _("66, 44 and 33")
    ANY = "any", _("any double")


class SixBlock(models.TextChoices):
    AHEAD = "ahead", _("with an opposing checker ahead")
    OPPONENT_HOME = "opponent_home", _("once an opposing checker is home")


# What a match, a flight or a session is played in when nobody says otherwise (and every row stored before).
DEFAULT_FORM = {
    "variant": GameVariant.STANDARD,
    "stakes": StakeForm.CUBE,
    "dave_progression": DaveProgression.GEOMETRIC,
    "backward_hits": BackwardHits.ANY_DIE,
    "head_doubles": HeadDoubles.CLASSIC,
    "six_block": SixBlock.AHEAD,
}

# The settings each variant reads (the others keep their defaults).
SETTINGS_OF = {
    GameVariant.BACKWARD: ("backward_hits",),
    GameVariant.LONG_NARDY: ("head_doubles", "six_block"),
}
SETTING_CHOICES = {"backward_hits": BackwardHits, "head_doubles": HeadDoubles, "six_block": SixBlock}


def settings_not_of(variant: str) -> list[str]:
    """The settings another game reads: the new-match and new-flight pages hide them for `variant`, so a value
    they still send was picked for another game and is not taken."""
    shown = SETTINGS_OF.get(variant, ())
    return [name for name in SETTING_CHOICES if name not in shown]


# The variants whose games are played with a doubling cube (when the stakes are the cube's).
CUBE_VARIANTS = frozenset({GameVariant.STANDARD, GameVariant.NACKGAMMON, GameVariant.HYPERGAMMON, GameVariant.BACKWARD})


def variant_constraints(prefix: str) -> list[models.CheckConstraint]:
    """The checks every model with VariantFields carries, named after the model (`prefix`)."""
    return [
        models.CheckConstraint(condition=Q(variant__in=GameVariant.values), name=f"{prefix}_variant_known"),
        models.CheckConstraint(condition=Q(stakes__in=StakeForm.values), name=f"{prefix}_stakes_known"),
        models.CheckConstraint(
            condition=Q(dave_progression__in=DaveProgression.values), name=f"{prefix}_dave_progression_known"
        ),
        models.CheckConstraint(
            condition=Q(stakes=StakeForm.CUBE) | Q(variant=GameVariant.STANDARD), name=f"{prefix}_dave_on_standard"
        ),
        *(
            models.CheckConstraint(condition=Q(**{f"{name}__in": choices.values}), name=f"{prefix}_{name}_known")
            for name, choices in SETTING_CHOICES.items()
        ),
    ]


class VariantFields(models.Model):
    variant = models.CharField(_("variant"), max_length=16, choices=GameVariant.choices, default=GameVariant.STANDARD)
    stakes = models.CharField(
        _("stakes"),
        max_length=8,
        choices=StakeForm.choices,
        default=StakeForm.CUBE,
        help_text=_("How a game's value rises: the doubling cube, or Daves (standard board only)."),
    )
    dave_progression = models.CharField(
        _("Dave progression"), max_length=12, choices=DaveProgression.choices, default=DaveProgression.GEOMETRIC
    )

    backward_hits = models.CharField(
        _("backward hits by"), max_length=12, choices=BackwardHits.choices, default=BackwardHits.ANY_DIE
    )
    head_doubles = models.CharField(
        _("two off the head on the first turn"), max_length=8, choices=HeadDoubles.choices, default=HeadDoubles.CLASSIC
    )
    six_block = models.CharField(
        _("six-block allowed"), max_length=16, choices=SixBlock.choices, default=SixBlock.AHEAD
    )

    class Meta:
        abstract = True

    @property
    def game_form(self) -> dict[str, str]:
        """The variant, the stakes and the settings, as the keyword arguments a match of it is created with."""
        return {name: getattr(self, name) for name in DEFAULT_FORM}

    @property
    def rule_settings(self) -> dict[str, str]:
        """The settings a record of this match must carry: those of its variant, and the Dave progression."""
        found = {name: getattr(self, name) for name in SETTINGS_OF.get(self.variant, ())}
        if self.uses_dave:
            found["dave_progression"] = self.dave_progression
        return found

    @property
    def has_cube(self) -> bool:
        """Is a doubling cube in play (so the Crawford rule means something)?"""
        return self.stakes == StakeForm.CUBE and self.variant in CUBE_VARIANTS

    @property
    def uses_dave(self) -> bool:
        return self.stakes == StakeForm.DAVE

    @property
    def record_game(self) -> str:
        """The game its records must be of, as backgammon.record_routing.record_game names a record's: `dave` with
        Dave stakes, else the variant."""
        return "dave" if self.uses_dave else self.variant

    def settings_refusal(self, found: dict) -> str:
        """What a record's settings (backgammon.record_routing.record_settings) differ in from these, in words (""
        when they agree). A setting the record does not name (a header its reader refuses) is left to the
        verifier."""
        differences = []
        for name, wanted in self.rule_settings.items():
            if name in found and found[name] != wanted:
                field = type(self)._meta.get_field(name)
                labels = dict(field.choices)
                differences.append(
                    gettext("%(setting)s: %(record)s in the record, %(match)s here")
                    % {
                        "setting": field.verbose_name,
                        "record": labels.get(found[name], found[name]),
                        "match": labels[wanted],
                    }
                )
        return "; ".join(differences)

    @property
    def variant_label(self) -> str:
        """What a page shows: the variant, with the Dave and its progression when the stakes are Daves."""
        label = str(GameVariant(self.variant).label)
        chosen = [
            f"{type(self)._meta.get_field(name).verbose_name}: {SETTING_CHOICES[name](getattr(self, name)).label}"
            for name in SETTINGS_OF.get(self.variant, ())
            if getattr(self, name) != DEFAULT_FORM[name]
        ]
        if chosen:  # only the settings that differ from the texts' reading
            label = f"{label} ({'; '.join(chosen)})"
        if self.uses_dave:
            return f"{label}, {StakeForm.DAVE.label} ({DaveProgression(self.dave_progression).label})"
        return label
